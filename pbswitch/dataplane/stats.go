// SPDX-License-Identifier: Apache-2.0

package dataplane

import "sync/atomic"

// DropCause says why the switch did not deliver a frame.
type DropCause int

// Drop causes.
const (
	DropNoPipeline    DropCause = iota // no program pushed yet
	DropIngress                        // the program dropped it (mark_to_drop)
	DropNoPort                         // egress_spec / replica names no port
	DropQueueFull                      // the egress queue was full
	DropEgress                         // the egress program dropped it
	DropNoGroup                        // mcast_grp / clone session not configured
	DropTxError                        // the port failed to send it
	DropRecirculation                  // recirculated more than MaxRecirculations times
	numDropCauses
)

var dropNames = [...]string{"no_pipeline", "ingress", "no_port", "queue_full", "egress", "no_group", "tx_error", "recirculation"}

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
}

// PortStats counts one port's frames.
type PortStats struct {
	RxFrames, TxFrames uint64
	QueueDepth         int
}
