// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"sync/atomic"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// InlineSink is a Sink in this process that is cheap enough to run on the
// goroutine that queued the frames (pbswitch's in-process vports: the
// buffer engine takes them by ownership and, in FORWARDING, replays them
// into the switch at once). A port whose sink is an InlineSink keeps its
// queue, but its queue does not wake the port's egress worker: the
// goroutine that queued packets for it (Receive, ReceiveLossless,
// PacketOut, an egress round that recirculated or cloned) drains it itself
// when it is done with its batch, so a batch crosses the port on the
// goroutine that carried it, in one Send, with no goroutine hand-off and
// no wake-up. The worker still serves what the drainer leaves: packets a
// shaped or delayed port holds back, and a queue that another goroutine
// was draining (see drainInline).
type InlineSink interface {
	Sink
	// SendsInline marks the sink; it is never called.
	SendsInline()
}

// inlinePort is the part of a port that an inline drain uses: who is
// serving the queue now, and the drainer's scratch (guarded by turn).
type inlinePort struct {
	// turn is held by whoever dequeues and sends for the port (its worker
	// or a drainer): one at a time, so batches leave in queue order.
	turn   atomic.Bool
	batch  []*pipeline.Packet
	frames [][]byte
}

func isInline(sink Sink) bool {
	_, ok := sink.(InlineSink)
	return ok
}

// takeTurn makes the caller the one who serves p's queue; false when
// another goroutine does (it looks at the queue again after it lets go).
// Ports that are not inline have only their worker: always true.
func (p *port) takeTurn() bool {
	return p.inline == nil || p.inline.turn.CompareAndSwap(false, true)
}

func (p *port) endTurn() {
	if p.inline != nil {
		p.inline.turn.Store(false)
	}
}

// waitWake waits until the port's worker is kicked (true) or the port
// closes (false).
func (p *port) waitWake() bool {
	select {
	case <-p.q.wake:
		return true
	case <-p.q.done:
		return false
	}
}

// drainInlinePorts drains every inline port's queue on the calling
// goroutine (see InlineSink).
func (s *Switch) drainInlinePorts() {
	for _, p := range *s.inlinePorts.Load() {
		s.drainInline(p)
	}
}

// drainInline sends what p's queue holds, in batches, unless another
// goroutine is serving it: that one checks the queue again after it lets
// go of its turn, so nothing is left behind. What the port's rate or delay
// holds back is left to the worker, which can wait for it.
func (s *Switch) drainInline(p *port) {
	in := p.inline
	for p.q.Depth() > 0 {
		if !in.turn.CompareAndSwap(false, true) {
			return
		}
		held := false
		for {
			n, wait := p.q.dequeue(in.batch, time.Now(), s.nowUs())
			if n == 0 {
				held = wait > 0
				break
			}
			in.frames = s.egressRound(p, in.batch[:n], in.frames)
		}
		in.turn.Store(false)
		if held {
			p.q.kick()
			return
		}
	}
}

// inlineOf is the list to store in Switch.inlinePorts.
func inlineOf(ps []*port) *[]*port { return &ps }
