// SPDX-License-Identifier: Apache-2.0

package engine

import "time"

// arqEntry is a sent packet kept until it is acknowledged.
type arqEntry struct {
	data    []byte
	id      PacketID
	at      int64
	resends uint32
	acked   bool
}

// arqState is the bucketed timer wheel of an ARQ buffer: a packet sent in
// bucket k is resent each time the wheel comes back to k, i.e. every
// buckets*bucket_us, until it is acknowledged. Guarded by the buffer's mutex.
type arqState struct {
	cfg     ArqConfig
	buckets [][]*arqEntry
	cur     int
	n       int
	bytes   uint64
	byID    map[PacketID][]*arqEntry
	resend  [][]byte // copies waiting for the TX worker
	ticking bool
	timer   Timer
}

func newArqState(cfg ArqConfig) *arqState {
	return &arqState{
		cfg:     cfg,
		buckets: make([][]*arqEntry, cfg.Buckets),
		byID:    map[PacketID][]*arqEntry{},
	}
}

func copyFrame(f []byte) []byte {
	c := GetFrame(len(f))
	copy(c, f)
	return c
}

// keep files a packet being sent for the first time in the current bucket
// and returns the copy that goes out.
func (a *arqState) keep(p packet) []byte {
	en := &arqEntry{data: p.data, at: p.at}
	if id, ok := packetIDOf(p.data); ok {
		en.id = id
		a.byID[id] = append(a.byID[id], en)
	}
	a.buckets[a.cur] = append(a.buckets[a.cur], en)
	a.n++
	a.bytes += uint64(len(p.data))
	return copyFrame(p.data)
}

func (a *arqState) hasResends() bool { return a != nil && len(a.resend) > 0 }

func (a *arqState) takeResends(out [][]byte, pace *pacer, rateBps uint64) [][]byte {
	out, a.resend = takePaced(out, a.resend, pace, rateBps)
	return out
}

// takePaced moves frames from the front of waiting into out, in order,
// while the batch has room and pacing allows; it returns both slices.
func takePaced(out, waiting [][]byte, pace *pacer, rateBps uint64) ([][]byte, [][]byte) {
	i := 0
	for ; i < len(waiting) && len(out) < maxTxBatch; i++ {
		if !pace.take(uint64(len(waiting[i])), rateBps) {
			break
		}
		out = append(out, waiting[i])
	}
	rest := copy(waiting, waiting[i:])
	clear(waiting[rest:])
	return out, waiting[:rest]
}

func (a *arqState) oldestAt() (int64, bool) {
	var at int64
	found := false
	for _, bk := range a.buckets {
		for _, en := range bk {
			if !en.acked && (!found || en.at < at) {
				at, found = en.at, true
			}
		}
	}
	return at, found
}

func (a *arqState) forget(en *arqEntry) {
	list := a.byID[en.id]
	for i, x := range list {
		if x == en {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(a.byID, en.id)
	} else {
		a.byID[en.id] = list
	}
	a.n--
	a.bytes -= uint64(len(en.data))
}

// discardAll drops every kept packet and pending resend (buffer removal).
func (a *arqState) discardAll(b *buffer) uint64 {
	var n uint64
	for k, bk := range a.buckets {
		for _, en := range bk {
			if !en.acked {
				b.discard(en.data, DropAdmin)
				n++
			}
		}
		a.buckets[k] = nil
	}
	for _, f := range a.resend {
		PutFrame(f)
	}
	a.resend, a.byID, a.n, a.bytes = nil, map[PacketID][]*arqEntry{}, 0, 0
	if a.timer != nil {
		a.timer.Stop()
	}
	return n
}

// startArqTicks arms the wheel when the first packet is kept.
func (b *buffer) startArqTicks() {
	a := b.arq
	if a == nil || a.ticking || a.n == 0 || b.closed {
		return
	}
	a.ticking = true
	a.timer = b.e.clock.AfterFunc(time.Duration(a.cfg.BucketUs)*time.Microsecond, b.arqTick)
}

// arqTick advances the wheel one bucket: acked entries leave, expired ones
// are dropped (ARQ_EXPIRED), the rest are queued for resend when a TX vport
// is bound. The wheel stops when nothing is kept, so an idle buffer costs
// no timer wake-ups.
func (b *buffer) arqTick() {
	b.mu.Lock()
	a := b.arq
	a.ticking = false
	if b.closed {
		b.mu.Unlock()
		return
	}
	before, _ := b.occupancy()
	a.cur = (a.cur + 1) % len(a.buckets)
	canSend := b.txVport() != nil
	bk := a.buckets[a.cur]
	kept := bk[:0]
	for _, en := range bk {
		switch {
		case en.acked:
		case a.cfg.MaxResends > 0 && en.resends >= a.cfg.MaxResends:
			a.forget(en)
			b.discard(en.data, DropArqExpired)
		case canSend:
			en.resends++
			b.st.arqResent++
			a.resend = append(a.resend, copyFrame(en.data))
			kept = append(kept, en)
		default:
			kept = append(kept, en)
		}
	}
	clear(bk[len(kept):])
	a.buckets[a.cur] = kept
	b.afterChange(before, nil)
	b.afterControl()
	b.startArqTicks()
	resend := len(a.resend) > 0
	b.mu.Unlock()
	if resend {
		b.kick()
	}
}

// ack releases the oldest kept packet of each id; unknown ids are ignored.
func (b *buffer) ack(ids []PacketID) uint32 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ackLocked(ids)
}

func (b *buffer) ackLocked(ids []PacketID) uint32 {
	a := b.arq
	before, _ := b.occupancy()
	var acked uint32
	for _, id := range ids {
		list := a.byID[id]
		if len(list) == 0 {
			continue
		}
		en := list[0]
		a.forget(en)
		en.acked = true
		PutFrame(en.data)
		b.released(uint64(len(en.data)))
		en.data = nil
		b.st.arqAcked++
		acked++
	}
	b.afterChange(before, nil)
	b.afterControl()
	return acked
}
