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
	QueueDepth         int
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
	// the queue takes a packet now (complete sharing: the room left).
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
	q.mu.Lock()
	for p := range q.fifos {
		f := &q.fifos[p]
		st[p].Packets, st[p].Bytes = f.count, f.bytes
		st[p].DequeuedBytes, st[p].Alpha = q.dequeued[p], q.alphas[p]
		if q.shared != nil {
			st[p].Threshold = q.shared.thresholdOf(q.admissionOf(p, f))
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
