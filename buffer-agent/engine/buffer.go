// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"sync"
	"time"
)

// maxTxBatch bounds how many frames one Transmit call carries.
const maxTxBatch = 64

type dropCounts [numDropCauses]struct{ packets, bytes uint64 }

func (d *dropCounts) add(c DropCause, bytes uint64) {
	d[c].packets++
	d[c].bytes += bytes
}

func (d *dropCounts) list() []DropCounter {
	var out []DropCounter
	for c := DropOverflow; c < numDropCauses; c++ {
		if d[c].packets > 0 {
			out = append(out, DropCounter{Cause: c, Packets: d[c].packets, Bytes: d[c].bytes})
		}
	}
	return out
}

type bufferCounters struct {
	packetsIn, bytesIn   uint64
	packetsOut, bytesOut uint64
	hwmPackets, hwmBytes uint64
	drops                dropCounts
	arqResent, arqAcked  uint64
}

// buffer is one packet store. The fields every batch touches come first,
// so that with thousands of active buffers a batch costs few cache misses.
// Everything from mu to the end, except the identity fields, is guarded
// by mu.
type buffer struct {
	mu      sync.Mutex
	txBusy  bool // a goroutine is in Transmit for this buffer
	closed  bool
	markers int32 // MARKER_SEEN watches: they need the per-frame path
	e       *Engine
	vports  []*vport // bound, in bind order
	q       queue
	arq     *arqState // nil unless the queue type is ARQ
	cfg     BufferConfig
	st      bufferCounters
	app     *appUsage

	seq     uint64
	state   State // last state reported to STATE_CHANGED watches
	watches []*watch
	pace    pacer
	scratch [][]byte // the transmitting goroutine's batch (see txBusy)

	id, owner string
	wake      chan struct{} // capacity 1: "there may be work for the TX worker"
	done      chan struct{}
}

func newBuffer(e *Engine, owner, id string, cfg BufferConfig) *buffer {
	classes := 1
	if cfg.Queue == QueuePriority {
		classes = int(cfg.Priority.Classes)
	}
	b := &buffer{
		id: id, owner: owner, cfg: cfg, e: e,
		q:       newQueue(classes),
		state:   StateFree,
		wake:    make(chan struct{}, 1),
		scratch: make([][]byte, 0, maxTxBatch),
		done:    make(chan struct{}),
	}
	if cfg.Queue == QueueARQ {
		b.arq = newArqState(cfg.Arq)
	}
	return b
}

// start launches the TX worker; called when the buffer is committed.
func (b *buffer) start() { go b.run() }

func (b *buffer) kick() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

func (b *buffer) occupancy() (uint64, uint64) {
	p, by := uint64(b.q.n), b.q.bytes
	if b.arq != nil {
		p += uint64(b.arq.n)
		by += b.arq.bytes
	}
	return p, by
}

func (b *buffer) flags() (rx, tx bool) {
	for _, v := range b.vports {
		m := v.Mode()
		rx = rx || m.RX()
		tx = tx || m.TX()
	}
	return rx, tx
}

func (b *buffer) derivedState() State {
	rx, tx := b.flags()
	p, _ := b.occupancy()
	return DeriveState(rx, tx, p)
}

// txVport is the first bound vport whose mode has TX.
func (b *buffer) txVport() *vport {
	for _, v := range b.vports {
		if v.Mode().TX() {
			return v
		}
	}
	return nil
}

// receive stores frames that a vport with RX brought in. It returns false
// when the buffer was removed meanwhile (the frames are then the caller's).
// When a TX vport is bound and nobody is transmitting, the calling
// goroutine sends the head of the queue itself (cut-through): in the
// FORWARDING state a frame then leaves without waiting for the TX worker
// to wake up, which is most of the latency an extra hop would add.
func (b *buffer) receive(frames [][]byte) bool {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return false
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
	if !b.admitAll(frames, now) {
		for _, f := range frames {
			b.admit(f, now)
		}
	}
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
// buffer, the pool and the quota: one reservation for the batch. It
// reports false, having changed nothing, when the batch needs the
// per-frame path (overflow, pool limits, priority classes, marker rules).
func (b *buffer) admitAll(frames [][]byte, now int64) bool {
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
	if !b.e.pool.reserve(total) {
		return false
	}
	if !b.app.reserve(total) {
		b.e.pool.release(total)
		return false
	}
	b.st.packetsIn += n
	b.st.bytesIn += total
	b.q.pushAll(frames, now, b.seq, total)
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
func (b *buffer) admit(f []byte, now int64) {
	n := uint64(len(f))
	b.st.packetsIn++
	b.st.bytesIn += n
	if !b.fits(n) && b.cfg.Overflow == DropHead {
		for !b.fits(n) {
			p, ok := b.q.popOldest()
			if !ok {
				break
			}
			b.discard(p.data, DropOverflow)
		}
	}
	if !b.fits(n) {
		b.drop(f, DropOverflow)
		return
	}
	if !b.e.pool.reserve(n) {
		b.drop(f, DropPool)
		return
	}
	if !b.app.reserve(n) {
		b.e.pool.release(n)
		b.drop(f, DropPool)
		return
	}
	class := 0
	if b.cfg.Queue == QueuePriority {
		class = classOf(f, b.cfg.Priority)
	}
	b.seq++
	b.q.push(class, packet{data: f, at: now, seq: b.seq})
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

// discard drops a held frame: its memory goes back to pool and quota.
func (b *buffer) discard(f []byte, c DropCause) {
	n := uint64(len(f))
	b.e.pool.release(n)
	b.app.release(n)
	b.drop(f, c)
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
	out := b.dequeue(b.scratch[:0], v.rateBps.Load())
	b.startArqTicks()
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
	b.txBusy = false
	more := b.q.n > 0 || b.arq.hasResends()
	b.mu.Unlock()
	if more {
		b.kick()
	}
	return true
}

// dequeue fills out with the next frames to send: pending ARQ resends
// first, then held packets, within the pacing budget.
func (b *buffer) dequeue(out [][]byte, rateBps uint64) [][]byte {
	now := b.e.clock.Now().UnixNano()
	b.pace.refill(now, rateBps, b.e.limits.MaxFrameBytes)
	if b.arq != nil {
		out = b.arq.takeResends(out, &b.pace, rateBps)
	}
	if rateBps == 0 && b.arq == nil && len(b.q.classes) == 1 {
		// Unpaced FIFO: move the whole batch at once.
		var freed uint64
		n := len(out)
		out, freed = b.q.popAll(out, maxTxBatch-len(out))
		b.st.packetsOut += uint64(len(out) - n)
		b.st.bytesOut += freed
		if freed > 0 {
			b.released(freed)
		}
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
	if b.pace.waiting(rateBps) && (b.q.n > 0 || b.arq.hasResends()) {
		b.pace.schedule(b.e.clock, rateBps, b.nextSize(), b.kick)
	}
	return out
}

func (b *buffer) nextSize() uint64 {
	if b.q.n == 0 {
		return uint64(b.e.limits.MaxFrameBytes)
	}
	return uint64(len(b.q.next().data))
}

// close empties a removed buffer (cause ADMIN) and stops its worker and
// timers; it returns the number of packets discarded.
func (b *buffer) close() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0
	}
	b.closed = true
	var n uint64
	for {
		p, ok := b.q.pop()
		if !ok {
			break
		}
		b.discard(p.data, DropAdmin)
		n++
	}
	if b.arq != nil {
		n += b.arq.discardAll(b)
	}
	b.pace.stop()
	close(b.done)
	b.watches = nil
	return n
}

// attach and detach change the bound vports; the caller holds Engine.mu.
func (b *buffer) attach(v *vport) {
	b.mu.Lock()
	b.vports = append(b.vports, v)
	b.afterControl()
	b.mu.Unlock()
	b.kick()
}

func (b *buffer) detach(v *vport) {
	b.mu.Lock()
	for i, x := range b.vports {
		if x == v {
			b.vports = append(b.vports[:i:i], b.vports[i+1:]...)
			break
		}
	}
	b.afterControl()
	b.mu.Unlock()
}

// modeChanged is called after a bound vport's mode changed.
func (b *buffer) modeChanged() {
	b.mu.Lock()
	b.afterControl()
	b.mu.Unlock()
	b.kick()
}

func (b *buffer) vportIDs() []string {
	ids := make([]string, len(b.vports))
	for i, v := range b.vports {
		ids[i] = v.id
	}
	return ids
}

func (b *buffer) info() BufferInfo {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, by := b.occupancy()
	var age time.Duration
	if at, ok := b.oldestAt(); ok {
		age = time.Duration(b.e.clock.Now().UnixNano() - at)
	}
	return BufferInfo{
		ID: b.id, Owner: b.owner, Config: b.cfg,
		State:    b.derivedState(),
		VportIDs: b.vportIDs(),
		Stats: BufferStats{
			PacketsIn: b.st.packetsIn, BytesIn: b.st.bytesIn,
			PacketsOut: b.st.packetsOut, BytesOut: b.st.bytesOut,
			Drops:            b.st.drops.list(),
			OccupancyPackets: p, OccupancyBytes: by,
			HighWatermarkPackets: b.st.hwmPackets, HighWatermarkBytes: b.st.hwmBytes,
			OldestPacketAge: max(age, 0),
			ArqResent:       b.st.arqResent, ArqAcked: b.st.arqAcked,
		},
	}
}

func (b *buffer) oldestAt() (int64, bool) {
	at, ok := b.q.oldestAt()
	if b.arq != nil {
		if a, aok := b.arq.oldestAt(); aok && (!ok || a < at) {
			at, ok = a, true
		}
	}
	return at, ok
}
