// SPDX-License-Identifier: Apache-2.0

package dataplane

import "sync/atomic"

// DropCause says why the switch did not deliver a frame.
type DropCause int

// Drop causes.
const (
	DropNoPipeline    DropCause = iota // no program pushed yet
	DropIngress                        // the program dropped it (mark_to_drop)
	DropNoPort                         // egress_spec / replica names a port with no interface (dropped after egress, as BMv2 does)
	DropQueueFull                      // the egress queue was full
	DropEgress                         // the egress program dropped it
	DropNoGroup                        // mcast_grp / clone session not configured
	DropTxError                        // the port failed to send it
	DropRecirculation                  // recirculated more than MaxRecirculations times
	DropBufferFull                     // the shared buffer had no room left for it
	DropDTThreshold                    // its queue was at its dynamic threshold
	DropFBThreshold                    // its queue was at its FB threshold
	numDropCauses
)

var dropNames = [...]string{"no_pipeline", "ingress", "no_port", "queue_full", "egress", "no_group", "tx_error",
	"recirculation", "buffer_full", "dt_threshold", "fb_threshold"}

// queueDropCauses are the causes counted per queue: what its admission
// refused.
var queueDropCauses = [...]DropCause{DropQueueFull, DropBufferFull, DropDTThreshold, DropFBThreshold}

func (c DropCause) String() string { return dropNames[c] }

// counters are the switch-wide counts.
type counters struct {
	drops [numDropCauses]atomic.Uint64
}

func (c *counters) drop(cause DropCause, n int) { c.drops[cause].Add(uint64(n)) }

// Stats is a snapshot of the switch counters.
type Stats struct {
	Drops map[string]uint64
	Ports map[uint32]PortStats
	// Buffer is the shared buffer's state (nil without one).
	Buffer *BufferStats
}

// PortStats counts one port's frames.
type PortStats struct {
	RxFrames, TxFrames uint64
	// RxBytes and TxBytes count the frames' bytes (no FCS); the multicast
	// and broadcast counts are of frames whose destination MAC is a group
	// address (broadcast: ff:ff:ff:ff:ff:ff, not counted as multicast);
	// the rest of the frames are unicast.
	RxBytes, TxBytes         uint64
	RxMulticast, RxBroadcast uint64
	TxMulticast, TxBroadcast uint64
	// TxErrors counts frames the port's far end refused (tx_error).
	TxErrors   uint64
	QueueDepth int
	// Queues are the port's priority queues, by priority.
	Queues [NumPriorities]QueueStats
}

// QueueStats is one priority queue of a port.
type QueueStats struct {
	Packets int
	Bytes   int64
	// Drops counts what the queue did not take, by cause: queue_full (its
	// packet limit), buffer_full, dt_threshold, fb_threshold (the shared
	// buffer's admission).
	Drops map[string]uint64
	// Threshold is, with a shared buffer, the length in bytes below which
	// the queue takes a packet now (complete sharing: the room left). With
	// a single queue per port it is the threshold a packet of this class
	// meets, against the length of the port's one queue (queue 0).
	Threshold float64 `json:",omitempty"`
	// DequeuedBytes counts the bytes the queue has sent since the port
	// was added.
	DequeuedBytes uint64
	// Alpha is the queue's own DT alpha (FBA); 0: its class's.
	Alpha float64
}

// stats snapshots the port's queues.
func (q *queue) stats() [NumPriorities]QueueStats {
	var st [NumPriorities]QueueStats
	var cfg *BufferConfig
	if q.shared != nil {
		cfg = q.shared.config()
	}
	q.mu.Lock()
	for p := range q.fifos {
		f := &q.fifos[p]
		st[p].Packets, st[p].Bytes = f.count, f.bytes
		st[p].DequeuedBytes, st[p].Alpha = q.dequeued[p], q.alphas[p]
		if cfg != nil {
			fifo := p
			if cfg.SingleQueue {
				fifo = 0 // class p's packets join the port's one queue
			}
			st[p].Threshold = q.shared.thresholdOf(cfg, q.admissionOf(p, fifo))
		}
	}
	q.mu.Unlock()
	for p := range st {
		st[p].Drops = make(map[string]uint64, len(queueDropCauses))
		for _, c := range queueDropCauses {
			st[p].Drops[c.String()] = q.drops[p][c].Load()
		}
	}
	return st
}

// wireCounters count what crossed a port, by bytes and destination kind.
// The frame counts are port.rx and port.tx.
type wireCounters struct {
	rxBytes, rxMcast, rxBcast atomic.Uint64
	txBytes, txMcast, txBcast atomic.Uint64
	txErrors                  atomic.Uint64
}

// batchTally sums one batch of frames, so that a batch costs one atomic
// add per counter.
type batchTally struct{ bytes, mcast, bcast uint64 }

func tally(frames [][]byte) batchTally {
	var t batchTally
	for _, f := range frames {
		t.bytes += uint64(len(f))
		if len(f) < 6 || f[0]&1 == 0 {
			continue // unicast destination (or a runt, counted as unicast)
		}
		if isBroadcast(f[:6]) {
			t.bcast++
		} else {
			t.mcast++
		}
	}
	return t
}

func isBroadcast(dst []byte) bool {
	return dst[0]&dst[1]&dst[2]&dst[3]&dst[4]&dst[5] == 0xff
}

func (w *wireCounters) countRx(frames [][]byte) {
	t := tally(frames)
	w.rxBytes.Add(t.bytes)
	if t.mcast > 0 {
		w.rxMcast.Add(t.mcast)
	}
	if t.bcast > 0 {
		w.rxBcast.Add(t.bcast)
	}
}

func (w *wireCounters) addTx(t batchTally) {
	w.txBytes.Add(t.bytes)
	if t.mcast > 0 {
		w.txMcast.Add(t.mcast)
	}
	if t.bcast > 0 {
		w.txBcast.Add(t.bcast)
	}
}

// stats snapshots the port's counters and queues.
func (p *port) stats() PortStats {
	return PortStats{RxFrames: p.rx.Load(), TxFrames: p.tx.Load(),
		RxBytes: p.wire.rxBytes.Load(), TxBytes: p.wire.txBytes.Load(),
		RxMulticast: p.wire.rxMcast.Load(), RxBroadcast: p.wire.rxBcast.Load(),
		TxMulticast: p.wire.txMcast.Load(), TxBroadcast: p.wire.txBcast.Load(),
		TxErrors:   p.wire.txErrors.Load(),
		QueueDepth: p.q.Depth(), Queues: p.q.stats()}
}
