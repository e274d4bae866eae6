// SPDX-License-Identifier: Apache-2.0

package engine

func (b *buffer) kick() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// released accounts for a held frame that leaves the buffer by TX.
func (b *buffer) released(n uint64) {
	b.e.pool.release(n)
	b.app.release(n)
}

func (b *buffer) run() {
	for {
		select {
		case <-b.wake:
			b.drain()
		case <-b.done:
			return
		}
	}
}

// drain sends held frames to the TX vport until the buffer is empty, the
// vport loses TX, pacing asks to wait, or another goroutine is sending
// (it kicks the worker again when it is done).
func (b *buffer) drain() {
	for {
		b.mu.Lock()
		if b.txBusy {
			b.mu.Unlock()
			return
		}
		if !b.sendLocked() {
			return
		}
	}
}

// sendLocked sends one batch of held frames. The caller holds b.mu and
// txBusy is clear; sendLocked releases b.mu. Only the goroutine that set
// txBusy transmits, so frames leave in order and Transmit is never called
// concurrently for one buffer. It reports whether it sent anything.
func (b *buffer) sendLocked() bool {
	v := b.txVport()
	if v == nil || b.closed {
		b.mu.Unlock()
		return false
	}
	before, _ := b.occupancy()
	if b.scratch == nil {
		b.scratch = make([][]byte, 0, maxTxBatch)
	}
	out := b.dequeue(b.scratch[:0], v.rateBps.Load())
	b.startArqTicks()
	if len(out) > 0 {
		b.settle(0)
	}
	b.afterChange(before, nil)
	if len(out) == 0 {
		b.mu.Unlock()
		return false
	}
	b.txBusy = true
	b.mu.Unlock()
	v.transmit(out)
	clear(out) // the frames are the backend's now
	b.mu.Lock()
	b.sentGone()
	b.txBusy = false
	more := b.hasToSend()
	b.mu.Unlock()
	if more {
		b.kick()
	}
	return true
}

// sentGone marks in the journal the packets of the batch that Transmit
// took (their positions were kept by dequeue). Only now: a crash before
// this point sends them again after the restart rather than losing them.
// The caller holds b.mu.
func (b *buffer) sentGone() {
	if len(b.txPos) == 0 {
		return
	}
	if b.j != nil {
		inOrder := len(b.q.classes) == 1
		for _, r := range b.txPos {
			b.j.gone(r.pos, int(r.n), inOrder)
		}
		b.j.publishHead()
	}
	b.txPos = b.txPos[:0]
}

// dequeue fills out with the next frames to send: pending ARQ resends
// first, then held packets, within the pacing budget.
func (b *buffer) dequeue(out [][]byte, rateBps uint64) [][]byte {
	now := b.e.clock.Now().UnixNano()
	b.pace.refill(now, rateBps, b.e.limits.MaxFrameBytes)
	if len(b.rewind) > 0 {
		out = b.takeRewind(out, rateBps)
	}
	if b.arq != nil {
		out = b.arq.takeResends(out, &b.pace, rateBps)
	}
	if b.baas != nil {
		out = b.baas.takeResends(out, &b.pace, rateBps)
	}
	resends := len(out) // out[resends:] are new packets
	if rateBps == 0 && b.arq == nil && len(b.q.classes) == 1 {
		// Unpaced FIFO: move the whole batch at once.
		var freed uint64
		var pos *[]sentRec
		if b.j != nil {
			pos = &b.txPos
		}
		out, freed = b.q.popAll(out, maxTxBatch-len(out), pos)
		b.st.packetsOut += uint64(len(out) - resends)
		b.st.bytesOut += freed
		if freed > 0 {
			b.released(freed)
		}
		b.noteOut(out[resends:])
		return out
	}
	var freed uint64
	for len(out) < maxTxBatch && b.q.n > 0 {
		next := b.q.next()
		n := uint64(len(next.data))
		if !b.pace.take(n, rateBps) {
			break
		}
		p, _ := b.q.pop()
		if b.j != nil {
			b.txPos = append(b.txPos, sentRec{p.jpos, uint32(len(p.data))})
		}
		b.st.packetsOut++
		b.st.bytesOut += n
		if b.arq != nil {
			out = append(out, b.arq.keep(p))
			continue
		}
		freed += n
		out = append(out, p.data)
	}
	if freed > 0 {
		b.released(freed)
	}
	b.noteOut(out[resends:])
	if b.pace.waiting(rateBps) && b.hasToSend() {
		b.pace.schedule(b.e.clock, rateBps, b.nextSize(), b.kick)
	}
	return out
}

// hasToSend says whether frames wait for TX: held packets, ARQ resends or
// frames to send again. The caller holds b.mu.
func (b *buffer) hasToSend() bool {
	return b.q.n > 0 || b.arq != nil && len(b.arq.resend) > 0 || b.baas != nil && len(b.baas.resend) > 0 || len(b.rewind) > 0
}

// noteOut records the id of the newest packet among frames, new packets
// about to be transmitted in this order, for BufferStats.LastOutPacketID.
// The caller holds b.mu and the frames are still the buffer's. Only the
// last frame is parsed, unless it has no id (not IPv4 TCP/UDP/ICMP): then
// the one before it, and so on; a batch without an id changes nothing.
func (b *buffer) noteOut(frames [][]byte) {
	if b.left != nil {
		// Each frame parsed once for both records (b.sent is set only with b.left).
		for _, f := range frames {
			if id, ok := packetIDOf(f); ok {
				b.left.add(id)
				if b.sent != nil {
					b.sent.add(f, id)
				}
			}
		}
	}
	for i := len(frames) - 1; i >= 0; i-- {
		if id, ok := packetIDOf(frames[i]); ok {
			b.st.lastOut, b.st.hasLastOut = id, true
			return
		}
	}
}

func (b *buffer) nextSize() uint64 {
	if b.q.n == 0 {
		return uint64(b.e.limits.MaxFrameBytes)
	}
	return uint64(len(b.q.next().data))
}
