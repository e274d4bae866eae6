// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"sync"
	"sync/atomic"
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

func (c *bufferCounters) poolDropList() []PoolDropCounter {
	var out []PoolDropCounter
	for r := PoolDropReason(0); r < numPoolDropReasons; r++ {
		if d := c.poolDrops[r]; d.packets > 0 {
			out = append(out, PoolDropCounter{Reason: r, Packets: d.packets, Bytes: d.bytes})
		}
	}
	return out
}

type bufferCounters struct {
	packetsIn, bytesIn   uint64
	packetsOut, bytesOut uint64
	hwmPackets, hwmBytes uint64
	drops                dropCounts
	poolDrops            [numPoolDropReasons]struct{ packets, bytes uint64 }
	arqResent, arqAcked  uint64
	lastOut              PacketID // see noteOut
	hasLastOut           bool
	// Sync points awaited, how each wait ended (the point arrived, the
	// bound passed, a later sync point replaced it), and the longest time
	// one took to arrive (see PurgeToSyncPoint).
	syncAwaits, syncAwaitsArrived         uint64
	syncAwaitsExpired, syncAwaitsReplaced uint64
	syncAwaitMaxNs                        int64
	rewound                               uint64 // see rewindTo
}

// buffer is one packet store. The fields every batch touches come first,
// so that with thousands of active buffers a batch costs few cache misses.
// Everything from mu to the end, except the identity fields and the
// atomics, is guarded by mu.
type buffer struct {
	mu      sync.Mutex
	txBusy  bool // a goroutine is in Transmit for this buffer
	closed  bool
	markers int32                    // MARKER_SEEN watches: they need the per-frame path
	trigger atomic.Pointer[trigger]  // armed by ArmTrigger, see fireTrigger
	pending firing                   // fired, not yet applied (see fire)
	waitFor atomic.Pointer[syncWait] // a fire waiting for a packet of this buffer's
	e       *Engine
	vports  []*vport // bound, in bind order
	q       queue
	arq     *arqState  // nil unless the queue type is ARQ with IPv4 ids
	baas    *baasState // nil unless the queue type is ARQ with PDCP ids
	cfg     BufferConfig
	st      bufferCounters
	app     *appUsage
	cong    int8 // the FB priority whose N_p counts it, -1: none (see settle)
	// The pool admission last seen and this buffer's class in it.
	admSeen  *admission
	admClass *classParams

	seq     uint64
	state   State // last state reported to STATE_CHANGED watches
	watches []*watch
	pace    pacer
	scratch [][]byte // the transmitting goroutine's batch (see txBusy)

	id, owner string
	wake      chan struct{} // capacity 1: "there may be work for the TX worker"
	done      chan struct{}

	// The newest packets that left, once the buffer was named as one to
	// purge to a receive report (nil before: see idRing).
	left *idRing
	// Copies of the newest frames it sent, and frames to send again before
	// what it holds, for the same buffers (see rewind.go).
	sent   *sentLog
	rewind [][]byte
	// A sync point not received yet: arrivals up to it are dropped (nil:
	// none; see PurgeToSyncPoint).
	awaited *awaitedSync
	// Packets were dropped for room since the last sync point was found
	// (see PurgeToSyncPoint).
	overflowSinceSync bool

	// With a state directory: the journal mirroring the held packets, and
	// the journal positions of the packets being transmitted (marked gone
	// once Transmit returned, see sendLocked).
	j     *journal
	txPos []sentRec
	// Re-attached from the state directory after a restart: the packets it
	// held again, the frames its RX vports missed while the agent was down.
	restored                bool
	restoredPackets, missed uint64

	triggersFired, triggerFailures atomic.Uint64 // see applyFireLocked
	// The newest fire's outcome, when hasFired; guarded by Engine.mu (see applyFireLocked).
	lastFire TriggerFire
	hasFired bool
}

func newBuffer(e *Engine, owner, id string, cfg BufferConfig) *buffer {
	classes := 1
	if cfg.Queue == QueuePriority {
		classes = int(cfg.Priority.Classes)
	}
	b := &buffer{
		id: id, owner: owner, cfg: cfg, e: e,
		q:     newQueue(classes),
		state: StateFree,
		cong:  -1,
		wake:  make(chan struct{}, 1),
		done:  make(chan struct{}),
		// scratch and txPos are made at the first send: a device holds
		// thousands of paused buffers that have sent nothing yet.
	}
	switch {
	case cfg.Queue == QueueARQ && cfg.Arq.Protocol == ArqPDCP:
		b.baas = newBaasState(cfg.Arq)
	case cfg.Queue == QueueARQ:
		b.arq = newArqState(cfg.Arq)
	}
	return b
}

// start launches the TX worker; called when the buffer is committed.
func (b *buffer) start() { go b.run() }

func (b *buffer) occupancy() (uint64, uint64) {
	p, by := uint64(b.q.n), b.q.bytes
	if b.arq != nil {
		p += uint64(b.arq.n)
		by += b.arq.bytes
	}
	if b.baas != nil {
		p += uint64(b.baas.n)
		by += b.baas.bytes
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

// close empties a removed buffer (cause ADMIN) and stops its worker and
// timers; it returns the number of packets discarded.
func (b *buffer) close() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0
	}
	b.closed = true
	b.trigger.Store(nil) // a removed buffer's trigger goes with it
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
	if b.baas != nil {
		n += b.baas.discardAll(b)
	}
	n += b.dropRewind(DropAdmin)
	if b.sent != nil {
		b.sent.release()
	}
	b.settle(0)
	b.pace.stop()
	close(b.done)
	b.watches = nil
	if b.j != nil {
		// The journal goes with the buffer; an error leaves a file that the
		// next start finds empty and removes.
		_ = b.j.remove()
		b.j = nil
	}
	return n
}

// jgone records in the journal that a held packet left without being
// transmitted (dropped or purged); the caller holds b.mu.
func (b *buffer) jgone(p packet) {
	if b.j != nil {
		b.j.gone(p.jpos, len(p.data), len(b.q.classes) == 1)
		b.j.publishHead()
	}
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
	var baas baasState
	if b.baas != nil {
		baas = *b.baas
	}
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
			PoolDrops:        b.st.poolDropList(),
			OccupancyPackets: p, OccupancyBytes: by,
			HighWatermarkPackets: b.st.hwmPackets, HighWatermarkBytes: b.st.hwmBytes,
			OldestPacketAge: max(age, 0),
			ArqResent:       b.st.arqResent, ArqAcked: b.st.arqAcked,
			ArqAckedAfterResend: baas.ackedAfterResend, ArqSuperseded: baas.superseded,
			ArqBadStatus: baas.badStatus, ArqNotRadio: baas.notRadio,
			LastOutPacketID: b.st.lastOut, HasLastOutPacketID: b.st.hasLastOut,
			TriggerArmed:  b.trigger.Load() != nil,
			TriggersFired: b.triggersFired.Load(), TriggerFailures: b.triggerFailures.Load(),
			Reattached: b.restored, ReattachedPackets: b.restoredPackets, MissedWhileDown: b.missed,
			SyncAwaits: b.st.syncAwaits, SyncAwaitsArrived: b.st.syncAwaitsArrived,
			SyncAwaitsExpired: b.st.syncAwaitsExpired, SyncAwaitsReplaced: b.st.syncAwaitsReplaced,
			SyncAwaitMax: time.Duration(b.st.syncAwaitMaxNs),
			Rewound:      b.st.rewound,
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
	if b.baas != nil {
		if a, aok := b.baas.oldestAt(); aok && (!ok || a < at) {
			at, ok = a, true
		}
	}
	return at, ok
}
