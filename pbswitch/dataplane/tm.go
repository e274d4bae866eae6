// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"sync"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// NumPriorities is the number of strict-priority queues per port
// (v1model's 3-bit priority).
const NumPriorities = 8

// DefaultQueueLen is each priority queue's capacity in packets.
const DefaultQueueLen = 4096

// queue is one port's traffic manager: strict-priority FIFOs (the highest
// priority non-empty queue is served first), a token bucket for the port
// rate, and an optional fixed delay (a link's propagation time, for labs
// without sch_netem: a packet leaves no sooner than delay after it was
// queued).
type queue struct {
	mu     sync.Mutex
	fifos  [NumPriorities]ring
	depth  int
	limit  int
	wake   chan struct{} // capacity 1: "there may be work"; never closed
	done   chan struct{} // closed by close(): the worker stops
	closed bool

	rateBps float64 // 0: line rate
	delayUs uint32  // 0: none
	burst   float64 // bytes
	tokens  float64
	last    time.Time
}

// ring is a bounded FIFO of packets.
type ring struct {
	buf         []*pipeline.Packet
	head, count int
}

func (r *ring) push(pk *pipeline.Packet) {
	r.buf[(r.head+r.count)%len(r.buf)] = pk
	r.count++
}

func (r *ring) peek() *pipeline.Packet { return r.buf[r.head] }

func (r *ring) pop() *pipeline.Packet {
	pk := r.buf[r.head]
	r.buf[r.head] = nil
	r.head = (r.head + 1) % len(r.buf)
	r.count--
	return pk
}

func newQueue(limit int, rateBps uint64) *queue {
	q := &queue{limit: limit, wake: make(chan struct{}, 1), done: make(chan struct{})}
	for i := range q.fifos {
		q.fifos[i].buf = make([]*pipeline.Packet, limit)
	}
	q.setRate(rateBps)
	return q
}

func (q *queue) setRate(bps uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.rateBps = float64(bps) / 8
	// A burst of 10 ms at the rate (at least one jumbo frame) keeps the
	// shaper smooth without per-packet sleeps.
	q.burst = max(q.rateBps/100, 9216)
	q.tokens = q.burst
	q.last = time.Time{}
}

// setDelay holds every packet at least d in the queue (0: none).
func (q *queue) setDelay(d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.delayUs = uint32(d.Microseconds())
}

// dueIn is how long pk must still wait for the port's delay (0: due).
// Queue times are microseconds that wrap; their difference does not.
func (q *queue) dueIn(pk *pipeline.Packet, nowUs uint32) time.Duration {
	if age := nowUs - pk.Meta.EnqTimestampUs; age < q.delayUs {
		return time.Duration(q.delayUs-age) * time.Microsecond
	}
	return 0
}

// enqueue adds pk at its priority; false when that priority's queue is full.
func (q *queue) enqueue(pk *pipeline.Packet, nowUs uint32) bool {
	prio := int(pk.Meta.Priority) % NumPriorities
	q.mu.Lock()
	f := &q.fifos[prio]
	if f.count >= q.limit || q.closed {
		q.mu.Unlock()
		return false
	}
	pk.Meta.EnqTimestampUs = nowUs
	pk.Meta.EnqQdepth = uint32(f.count)
	f.push(pk)
	q.depth++
	q.mu.Unlock()
	// wake is never closed (close() closes done), so a port removed
	// meanwhile cannot make this send panic.
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return true
}

// dequeue moves up to len(dst) packets, highest priority first, within the
// port rate and past the port's delay, into dst. It returns how many, and
// how long to wait before asking again when the shaper or the delay holds
// packets back (0: wait for a wake-up).
func (q *queue) dequeue(dst []*pipeline.Packet, now time.Time, nowUs uint32) (int, time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.refill(now)
	n := 0
	var delayed time.Duration // the soonest a held-back head is due
	for prio := NumPriorities - 1; prio >= 0 && n < len(dst); prio-- {
		f := &q.fifos[prio]
		for n < len(dst) && f.count > 0 {
			pk := f.peek()
			if due := q.dueIn(pk, nowUs); due > 0 {
				// FIFO under one delay: the rest of this priority is due later.
				if delayed == 0 || due < delayed {
					delayed = due
				}
				break
			}
			if q.rateBps > 0 {
				if q.tokens < float64(len(pk.Frame)) {
					wait := time.Duration((float64(len(pk.Frame)) - q.tokens) / q.rateBps * float64(time.Second))
					return n, max(wait, time.Microsecond)
				}
				q.tokens -= float64(len(pk.Frame))
			}
			f.pop()
			q.depth--
			pk.Meta.DeqQdepth = uint32(f.count)
			dst[n] = pk
			n++
		}
	}
	return n, delayed
}

// stampEgress sets what BMv2 sets as egress starts for a copy (nowUs is
// the switch clock then): egress_global_timestamp and deq_timedelta, the
// time since the copy entered its queue. enq_timestamp is 32 bits; their
// difference does not wrap.
func stampEgress(m *pipeline.StdMeta, nowUs uint64) {
	m.EgressUs = nowUs
	m.DeqTimedeltaUs = uint32(nowUs) - m.EnqTimestampUs
}

func (q *queue) refill(now time.Time) {
	if q.rateBps == 0 {
		return
	}
	if !q.last.IsZero() {
		q.tokens = min(q.burst, q.tokens+now.Sub(q.last).Seconds()*q.rateBps)
	}
	q.last = now
}

// Depth is the number of queued packets over all priorities.
func (q *queue) Depth() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.depth
}

// close wakes the worker for good and returns what was still queued.
func (q *queue) close() []*pipeline.Packet {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	var left []*pipeline.Packet
	for prio := range q.fifos {
		for q.fifos[prio].count > 0 {
			left = append(left, q.fifos[prio].pop())
		}
	}
	q.depth = 0
	close(q.done)
	return left
}
