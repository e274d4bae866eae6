// SPDX-License-Identifier: Apache-2.0

package engine

// arqEntry is a sent packet kept until it is acknowledged.
type arqEntry struct {
	data    []byte
	id      PacketID
	at      int64
	resends uint32
	acked   bool
}

// arqState keeps the sent packets of an ARQ buffer in its wheel (wheel.go)
// until they are acknowledged. Guarded by the buffer's mutex.
type arqState struct {
	wheel[*arqEntry]
	n     int
	bytes uint64
	byID  map[PacketID][]*arqEntry
}

func newArqState(cfg ArqConfig) *arqState {
	return &arqState{wheel: newWheel[*arqEntry](cfg), byID: map[PacketID][]*arqEntry{}}
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
	a.file(en)
	a.n++
	a.bytes += uint64(len(p.data))
	return copyFrame(p.data)
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

func (a *arqState) held(en *arqEntry) ([]byte, *uint32, bool) {
	return en.data, &en.resends, !en.acked
}

func (a *arqState) expire(en *arqEntry) []byte {
	a.forget(en)
	return en.data
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
	for _, bk := range a.buckets {
		for _, en := range bk {
			if !en.acked {
				b.discard(en.data, DropAdmin)
				n++
			}
		}
	}
	a.stop()
	a.byID, a.n, a.bytes = map[PacketID][]*arqEntry{}, 0, 0
	return n
}

// startArqTicks arms the wheel when the first packet is kept; it stops
// when nothing is kept, so an idle buffer costs no timer wake-ups.
func (b *buffer) startArqTicks() {
	if a := b.arq; a != nil && a.n > 0 && !a.ticking && !b.closed {
		a.arm(b.e.clock, b.arqTick)
	}
}

func (b *buffer) arqTick() { tickWheel(b, &b.arq.wheel, b.arq, b.startArqTicks) }

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
