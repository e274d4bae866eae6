// SPDX-License-Identifier: Apache-2.0

package engine

// receive stores frames that a vport with RX brought in. It returns false
// when the buffer was removed meanwhile (the frames are then the caller's).
// When a TX vport is bound and nobody is transmitting, the calling
// goroutine sends the head of the queue itself (cut-through): in the
// FORWARDING state a frame then leaves without waiting for the TX worker
// to wake up, which is most of the latency an extra hop would add.
// Whatever then becomes of the frames, their arrival fires the buffer's
// trigger if one is armed (see fireTrigger).
func (b *buffer) receive(frames [][]byte) bool {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return false
	}
	b.fireTrigger(frames)
	b.watchSync(frames)
	if frames = b.dropAwaited(frames); len(frames) == 0 {
		b.mu.Unlock()
		return true
	}
	if b.baas != nil {
		b.receiveBaas(frames)
		return true
	}
	if b.passThrough(frames) {
		return true
	}
	if b.arq != nil {
		frames = b.takeArqStatus(frames)
	}
	now := b.e.clock.Now().UnixNano()
	before, _ := b.occupancy()
	var dropsBefore *dropCounts
	if len(b.watches) > 0 {
		saved := b.st.drops
		dropsBefore = &saved
	}
	ap := b.admitParams(now)
	if !b.admitAll(frames, now, &ap) {
		for _, f := range frames {
			b.admit(f, now, &ap)
		}
	}
	b.settle(now)
	b.afterChange(before, dropsBefore)
	if b.e.cutThrough && !b.txBusy {
		b.sendLocked() // unlocks
		return true
	}
	_, tx := b.flags()
	b.mu.Unlock()
	if tx {
		b.kick()
	}
	return true
}

// passThrough sends a batch straight to the TX vport when queueing it
// could change nothing: an unpaced FIFO buffer in FORWARDING with nothing
// held and nobody transmitting, and room for the whole batch. The frames
// are counted in and out (and in the high watermark) as if they had been
// queued and served at once. The caller holds b.mu; on true it is released.
func (b *buffer) passThrough(frames [][]byte) bool {
	if !b.e.cutThrough || b.txBusy || b.q.n > 0 || b.arq != nil || b.cfg.Queue == QueuePriority || b.markers > 0 {
		return false
	}
	v := b.txVport()
	if v == nil || v.rateBps.Load() != 0 {
		return false
	}
	var total uint64
	for _, f := range frames {
		total += uint64(len(f))
	}
	n := uint64(len(frames))
	if (b.cfg.CapacityPackets != 0 && n > b.cfg.CapacityPackets) || (b.cfg.CapacityBytes != 0 && total > b.cfg.CapacityBytes) {
		return false
	}
	b.st.packetsIn += n
	b.st.bytesIn += total
	b.st.packetsOut += n
	b.st.bytesOut += total
	b.st.hwmPackets = max(b.st.hwmPackets, n)
	b.st.hwmBytes = max(b.st.hwmBytes, total)
	b.noteOut(frames)
	b.txBusy = true
	b.mu.Unlock()
	// The caller's batch goes out as it is: Transmit returns before
	// Receive does and keeps only the frames, never the outer slice.
	v.transmit(frames)
	b.mu.Lock()
	b.txBusy = false
	more := b.q.n > 0
	b.mu.Unlock()
	if more {
		b.kick()
	}
	return true
}

// admitAll is the fast path of a batch that fits as a whole in the
// buffer, the pool and the quota, and below the buffer's threshold: one
// reservation for the batch. It reports false, having changed nothing,
// when the batch needs the per-frame path (overflow, pool limits,
// threshold, priority classes, marker rules).
func (b *buffer) admitAll(frames [][]byte, now int64, ap *admitParams) bool {
	if b.cfg.Queue == QueuePriority || b.markers > 0 {
		return false
	}
	var total uint64
	for _, f := range frames {
		total += uint64(len(f))
	}
	p, by := b.occupancy()
	n := uint64(len(frames))
	if (b.cfg.CapacityPackets != 0 && p+n > b.cfg.CapacityPackets) ||
		(b.cfg.CapacityBytes != 0 && by+total > b.cfg.CapacityBytes) {
		return false
	}
	if b.j != nil && !b.j.fits(frames) {
		return false
	}
	// Thresholds only fall as the batch is taken (the pool's use grows)
	// and the buffer only grows: when its last packet is below its
	// threshold, so was every one before it.
	if len(frames) == 0 {
		return true
	}
	if last := uint64(len(frames[len(frames)-1])); !b.below(ap, by+total-last, total-last) {
		return false
	}
	if !b.e.pool.reserve(total) {
		return false
	}
	if !b.app.reserve(total) {
		b.e.pool.release(total)
		return false
	}
	b.st.packetsIn += n
	b.st.bytesIn += total
	b.q.pushAll(frames, now, b.seq, total, b.j)
	if b.j != nil {
		b.j.publishTail()
	}
	b.seq += n
	if p+n > b.st.hwmPackets || by+total > b.st.hwmBytes {
		b.st.hwmPackets = max(b.st.hwmPackets, p+n)
		b.st.hwmBytes = max(b.st.hwmBytes, by+total)
	}
	return true
}

func (b *buffer) fits(n uint64) bool {
	p, by := b.occupancy()
	return (b.cfg.CapacityPackets == 0 || p+1 <= b.cfg.CapacityPackets) &&
		(b.cfg.CapacityBytes == 0 || by+n <= b.cfg.CapacityBytes)
}

// admit stores one frame or drops it with its cause.
func (b *buffer) admit(f []byte, now int64, ap *admitParams) {
	n := uint64(len(f))
	b.st.packetsIn++
	b.st.bytesIn += n
	if !b.fits(n) && b.cfg.Overflow == DropHead {
		for !b.fits(n) {
			p, ok := b.q.popOldest()
			if !ok {
				break
			}
			b.jgone(p)
			b.noteOverflow(p.data)
			b.discard(p.data, DropOverflow)
		}
	}
	if !b.fits(n) {
		b.drop(f, DropOverflow)
		return
	}
	if b.j != nil && !b.j.fitsOne(len(f)) {
		// The journal is full before the buffer (a PRIORITY buffer whose
		// oldest packet waits behind higher classes): the packet could
		// not survive a crash, so it is not taken.
		b.dropPool(f, PoolJournal)
		return
	}
	if _, held := b.occupancy(); !b.below(ap, held, 0) && b.cfg.Overflow == DropHead {
		// A drop-head buffer keeps its newest packets at its threshold
		// too: its oldest go (each frees pool, which raises the threshold).
		for {
			if _, held := b.occupancy(); b.below(ap, held, 0) {
				break
			}
			p, ok := b.q.popOldest()
			if !ok {
				break
			}
			b.jgone(p)
			b.noteOverflow(p.data)
			b.e.pool.release(uint64(len(p.data)))
			b.app.release(uint64(len(p.data)))
			b.dropPool(p.data, ap.cause)
		}
	}
	if _, held := b.occupancy(); !b.below(ap, held, 0) {
		b.dropPool(f, ap.cause)
		return
	}
	if !b.e.pool.reserve(n) {
		b.dropPool(f, PoolFull)
		return
	}
	if !b.app.reserve(n) {
		b.e.pool.release(n)
		b.dropPool(f, PoolQuota)
		return
	}
	class := 0
	if b.cfg.Queue == QueuePriority {
		class = classOf(f, b.cfg.Priority)
	}
	b.seq++
	var pos uint64
	if b.j != nil {
		pos = b.j.append(f, b.seq, now)
		b.j.publishTail()
	}
	b.q.push(class, packet{data: f, at: now, seq: b.seq, jpos: pos})
	if p, by := b.occupancy(); p > b.st.hwmPackets || by > b.st.hwmBytes {
		b.st.hwmPackets = max(b.st.hwmPackets, p)
		b.st.hwmBytes = max(b.st.hwmBytes, by)
	}
	b.checkMarkers(f)
}

// drop counts a frame that was never admitted and recycles it.
func (b *buffer) drop(f []byte, c DropCause) {
	b.st.drops.add(c, uint64(len(f)))
	PutFrame(f)
}

// dropPool counts a frame that the pool refused (cause POOL) with the
// limit that refused it, and recycles it.
func (b *buffer) dropPool(f []byte, r PoolDropReason) {
	b.st.poolDrops[r].packets++
	b.st.poolDrops[r].bytes += uint64(len(f))
	b.drop(f, DropPool)
}

// discard drops a held frame: its memory goes back to pool and quota.
func (b *buffer) discard(f []byte, c DropCause) {
	n := uint64(len(f))
	b.e.pool.release(n)
	b.app.release(n)
	b.drop(f, c)
}
