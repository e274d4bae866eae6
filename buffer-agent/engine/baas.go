// SPDX-License-Identifier: Apache-2.0

package engine

// A PDCP ARQ buffer is the gNodeB's buffer-as-a-service (the hybrid
// gNodeB's Algorithm 1). The switch sends each downlink PDCP frame to the
// radio itself and a clone to the buffer, which keeps the clone under its
// id (bearer TEID, PDCP SN) in the current bucket of a timer wheel. Each
// tick (bucket_us) the wheel moves one bucket on; the packets of the
// bucket it reaches, kept one turn (buckets × bucket_us) earlier and still
// not acknowledged, are resent through the TX vport (back into the switch,
// which sends them to the radio), until a status message acknowledges them
// or max_resends resends were given up on (dropped, cause ARQ_EXPIRED).
// Memory is bounded by the buffer's capacity, the pool and the quota: a
// clone that does not fit is dropped (OVERFLOW or POOL) and the radio's
// copy is then the only one.
//
// Entries live in a slab indexed per bearer by SN (pdcpIndex: a ring per
// bearer); a bucket lists slab slots with their generation, so an
// acknowledged entry leaves the index at once and its bucket forgets it
// lazily at the next visit (the paper's "hashtable.contains(pkt.id)"), and
// no allocation is made per packet.

type baasEntry struct {
	data    []byte
	at      int64
	id      PDCPID
	gen     uint32
	resends uint32
}

type baasRef struct{ slot, gen uint32 }

type baasState struct {
	wheel[baasRef]
	slab  []baasEntry
	free  []uint32
	index pdcpIndex // id → slab slot
	n     int
	bytes uint64
	// Frames done with (acknowledged PDUs, status messages) and the held
	// bytes among them, recycled and released once per batch (flush): the
	// frame pool's lock and the pool's atomics once, not per packet.
	done      [][]byte
	doneBytes uint64
	credit    uint64 // bytes of the batch being taken reserved up front (reserveBatch)

	ackedAfterResend uint64 // acknowledged after at least one resend
	superseded       uint64 // replaced by a new PDU with the same id (SN reuse)
	badStatus        uint64 // status messages refused (malformed), nothing changed
	notRadio         uint64 // frames that are no radio frame of this layout (dropped)
}

func newBaasState(cfg ArqConfig) *baasState {
	return &baasState{wheel: newWheel[baasRef](cfg), index: newPDCPIndex()}
}

// keep files a clone in the current bucket; the frame is the buffer's now.
func (a *baasState) keep(f []byte, id PDCPID, at int64) {
	var slot uint32
	if k := len(a.free); k > 0 {
		slot = a.free[k-1]
		a.free = a.free[:k-1]
	} else {
		a.slab = append(a.slab, baasEntry{})
		slot = uint32(len(a.slab) - 1)
	}
	en := &a.slab[slot]
	en.data, en.at, en.id, en.resends = f, at, id, 0
	a.index.put(id, slot)
	a.file(baasRef{slot, en.gen})
	a.n++
	a.bytes += uint64(len(f))
}

// release takes an entry out (acknowledged, given up or superseded) and
// returns its frame, which the caller accounts for.
func (a *baasState) release(slot uint32) []byte {
	en := &a.slab[slot]
	f := en.data
	a.index.del(en.id)
	en.data = nil
	en.gen++
	a.free = append(a.free, slot)
	a.n--
	a.bytes -= uint64(len(f))
	return f
}

func (a *baasState) held(r baasRef) ([]byte, *uint32, bool) {
	en := &a.slab[r.slot]
	return en.data, &en.resends, en.gen == r.gen && en.data != nil
}

func (a *baasState) expire(r baasRef) []byte { return a.release(r.slot) }

func (a *baasState) oldestAt() (int64, bool) {
	var at int64
	found := false
	for k := range a.slab {
		if en := &a.slab[k]; en.data != nil && (!found || en.at < at) {
			at, found = en.at, true
		}
	}
	return at, found
}

// baasReceive takes a batch arriving through an RX vport: data PDUs are
// kept, status messages acknowledge, anything else is counted and freed.
// The caller holds b.mu and calls flushBaas after it.
func (b *buffer) baasReceive(frames [][]byte, now int64) {
	a := b.baas
	a.credit = b.reserveBatch(frames)
	for _, f := range frames {
		switch radioKindOf(f) {
		case radioData:
			if id, ok := pdcpDataID(f); ok {
				b.baasAdmit(f, id, now)
				continue
			}
			a.notRadio++
		case radioControl:
			if s, err := ParsePDCPStatus(f); err == nil {
				b.baasAck(s)
			} else {
				a.badStatus++
			}
		default:
			a.notRadio++
		}
		a.done = append(a.done, f)
	}
	// What the batch did not keep is released with the acknowledged PDUs'
	// bytes by flushBaas: one atomic addition on each shared counter.
	a.doneBytes += a.credit
	a.credit = 0
}

// reserveBatch reserves the bytes of a whole batch in pool and quota at
// once (two atomic additions a batch, not a packet, on counters the cores
// share) and returns them; 0 when they do not fit together, and each PDU
// then reserves its own. What the batch does not keep is released after it.
func (b *buffer) reserveBatch(frames [][]byte) uint64 {
	var total uint64
	for _, f := range frames {
		total += uint64(len(f))
	}
	if !b.e.pool.reserve(total) {
		return 0
	}
	if !b.app.reserve(total) {
		b.e.pool.release(total)
		return 0
	}
	return total
}

// flushBaas recycles the frames a batch, an ack or a tick is done with and
// releases their held bytes. The caller holds b.mu.
func (b *buffer) flushBaas() {
	a := b.baas
	if a.doneBytes > 0 {
		b.released(a.doneBytes)
		a.doneBytes = 0
	}
	if len(a.done) > 0 {
		PutFrames(a.done)
		a.done = a.done[:0]
	}
}

// baasAdmit keeps a data PDU's clone when it fits the buffer, pool and quota.
func (b *buffer) baasAdmit(f []byte, id PDCPID, now int64) {
	a := b.baas
	n := uint64(len(f))
	b.st.packetsIn++
	b.st.bytesIn += n
	if slot, ok := a.index.get(id); ok {
		// The SN came round again while the old PDU was not acknowledged:
		// the old one is a previous cycle's, given up on.
		a.superseded++
		b.discard(a.release(slot), DropArqExpired)
	}
	switch {
	case !b.fits(n):
		b.drop(f, DropOverflow)
		return
	case a.credit >= n:
		a.credit -= n
	case !b.e.pool.reserve(n):
		b.dropPool(f, PoolFull)
		return
	case !b.app.reserve(n):
		b.e.pool.release(n)
		b.dropPool(f, PoolQuota)
		return
	}
	a.keep(f, id, now)
	if p, by := b.occupancy(); p > b.st.hwmPackets || by > b.st.hwmBytes {
		b.st.hwmPackets = max(b.st.hwmPackets, p)
		b.st.hwmBytes = max(b.st.hwmBytes, by)
	}
}

// baasAck releases the kept PDUs of the bearer in the status's range and
// returns how many it released.
func (b *buffer) baasAck(s PDCPStatus) uint32 {
	a := b.baas
	before := b.st.arqAcked
	a.index.forRange(s.TEID, s.First, s.Len(), b.baasAckSlot)
	for _, slot := range a.index.spilledIn(s.TEID, s.First, s.Len(), a.idOf) {
		b.baasAckSlot(slot)
	}
	return uint32(b.st.arqAcked - before)
}

// baasAckSlot releases an acknowledged entry; its frame is recycled and
// its bytes released at the batch's flush.
func (b *buffer) baasAckSlot(slot uint32) {
	a := b.baas
	if a.slab[slot].resends > 0 {
		a.ackedAfterResend++
	}
	f := a.release(slot)
	a.doneBytes += uint64(len(f))
	a.done = append(a.done, f)
	b.st.arqAcked++
}

func (a *baasState) idOf(slot uint32) PDCPID { return a.slab[slot].id }

// startBaasTicks arms the wheel while something is kept. (Checking
// ticking first spares a closure allocation a batch: b.baasTick escapes.)
func (b *buffer) startBaasTicks() {
	if a := b.baas; a != nil && a.n > 0 && !a.ticking && !b.closed {
		a.arm(b.e.clock, b.baasTick)
	}
}

func (b *buffer) baasTick() { tickWheel(b, &b.baas.wheel, b.baas, b.startBaasTicks) }

// discardAll drops every kept packet and pending resend (buffer removal).
func (a *baasState) discardAll(b *buffer) uint64 {
	var n uint64
	for slot := range a.slab {
		if a.slab[slot].data != nil {
			b.discard(a.release(uint32(slot)), DropAdmin)
			n++
		}
	}
	a.stop()
	return n
}

// AckPDCP acknowledges a range of a PDCP ARQ buffer's bearer, as an
// in-band status message would; it returns how many kept packets it
// released.
func (e *Engine) AckPDCP(app, bufferID string, s PDCPStatus) (uint32, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	b, err := e.lookupOwned(app, bufferID)
	if err != nil {
		return 0, err
	}
	if b.baas == nil {
		return 0, errorf(FailedPrecondition, "buffer %q is not a PDCP ARQ buffer", bufferID)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	before, _ := b.occupancy()
	n := b.baasAck(s)
	b.flushBaas()
	b.settle(0)
	b.afterChange(before, nil)
	b.afterControl()
	return n, nil
}

// receiveBaas is receive for a PDCP ARQ buffer; the caller holds b.mu,
// which it releases. It turns the wheel first when a turn is due (see
// wheel) and then sends the resends itself when nobody is transmitting.
func (b *buffer) receiveBaas(frames [][]byte) {
	a := b.baas
	now := b.e.clock.Now().UnixNano()
	before, _ := b.occupancy()
	var dropsBefore *dropCounts
	if len(b.watches) > 0 {
		saved := b.st.drops
		dropsBefore = &saved
	}
	turned := a.due(now)
	if turned {
		turnWheel(b, &a.wheel, a)
	}
	b.baasReceive(frames, now)
	b.flushBaas()
	b.settle(now)
	b.afterChange(before, dropsBefore)
	if turned {
		b.afterControl()
	}
	b.startBaasTicks()
	if len(a.resend) == 0 {
		b.mu.Unlock()
		return
	}
	if b.e.cutThrough && !b.txBusy {
		b.sendLocked() // unlocks
		return
	}
	b.mu.Unlock()
	b.kick()
}
