// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// NumPriorities is the number of strict-priority queues per port
// (v1model's 3-bit priority).
const NumPriorities = 8

// DefaultQueueLen is each priority queue's capacity in packets.
const DefaultQueueLen = 4096

// Scheduler is how a port chooses which of its queues sends next.
type Scheduler int

// Schedulers.
const (
	// StrictPriority serves the highest non-empty queue first (the
	// default, v1model's priority queues as BMv2 has them).
	StrictPriority Scheduler = iota
	// RoundRobin serves the non-empty queues in turn, a packet each (the
	// FB paper's evaluation, §6.2).
	RoundRobin
)

var schedulerNames = map[Scheduler]string{StrictPriority: "sp", RoundRobin: "rr"}

func (s Scheduler) String() string {
	if n, ok := schedulerNames[s]; ok {
		return n
	}
	return fmt.Sprintf("Scheduler(%d)", int(s))
}

// ParseScheduler reads "sp" or "rr".
func ParseScheduler(text string) (Scheduler, error) {
	for s, n := range schedulerNames {
		if n == text {
			return s, nil
		}
	}
	return 0, fmt.Errorf("unknown scheduler %q: want sp (strict priority) or rr (round robin)", text)
}

// queue is one port's traffic manager: FIFOs served by the port's
// scheduler (strict priority unless set otherwise), a token bucket for the port
// rate, and an optional fixed delay (a link's propagation time, for labs
// without sch_netem: a packet leaves no sooner than delay after it was
// queued). Each FIFO holds at most limit packets; with a shared buffer its
// bytes also come from the pool, as the pool's admission allows.
type queue struct {
	mu       sync.Mutex
	fifos    [NumPriorities]ring
	depth    int
	limit    int
	nonEmpty uint8 // bit p: fifos[p] holds a packet
	sched    Scheduler
	next     int           // round robin: the queue whose turn comes first
	shared   *sharedBuffer // nil: no pool, only the packet limit
	// drops counts, per priority queue, what its admission refused.
	drops [NumPriorities][numDropCauses]atomic.Uint64
	// alphas are per-queue DT alphas set by a controller (FBA); 0 leaves
	// the queue to its class's alpha.
	alphas [NumPriorities]float64
	// dequeued counts, per priority queue, the bytes it sent: a
	// controller's dequeue rates (FB's gamma) are its differences.
	dequeued [NumPriorities]uint64
	wake     chan struct{} // capacity 1: "there may be work"; never closed
	done     chan struct{} // closed by close(): the worker stops
	closed   bool

	rateBps float64 // 0: line rate
	delayUs uint32  // 0: none
	burst   float64 // bytes
	tokens  float64
	last    time.Time
}

// ring is a bounded FIFO of packets; bytes is the size of their frames.
type ring struct {
	buf         []*pipeline.Packet
	head, count int
	bytes       int64
}

func (r *ring) push(pk *pipeline.Packet) {
	r.buf[(r.head+r.count)%len(r.buf)] = pk
	r.count++
	r.bytes += int64(len(pk.Frame))
}

func (r *ring) peek() *pipeline.Packet { return r.buf[r.head] }

func (r *ring) pop() *pipeline.Packet {
	pk := r.buf[r.head]
	r.buf[r.head] = nil
	r.head = (r.head + 1) % len(r.buf)
	r.count--
	r.bytes -= int64(len(pk.Frame))
	return pk
}

// newQueue makes a port's queues: limit packets per priority, rateBps
// (0: line rate), their bytes from shared (nil: no pool).
func newQueue(limit int, rateBps uint64, shared *sharedBuffer) *queue {
	q := &queue{limit: limit, shared: shared, wake: make(chan struct{}, 1), done: make(chan struct{})}
	for i := range q.fifos {
		q.fifos[i].buf = make([]*pipeline.Packet, limit)
	}
	q.setRate(rateBps)
	return q
}

// rate is the port's shaped rate in bits/s (0: line rate).
func (q *queue) rate() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return uint64(q.rateBps * 8) // exact: setRate divided an integer by 8
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

// setAlphas sets the queues' own DT alphas (0: the class's).
func (q *queue) setAlphas(alphas [NumPriorities]float64) {
	q.mu.Lock()
	q.alphas = alphas
	q.mu.Unlock()
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

// admitted is the verdict of a packet that was queued.
const admitted DropCause = -1

// enqueue adds pk at its priority, or says why not: DropQueueFull when
// that priority's queue holds its limit of packets (or the port is gone),
// or the shared buffer's refusal.
func (q *queue) enqueue(pk *pipeline.Packet, nowUs uint32) DropCause {
	class := int(pk.Meta.Priority) % NumPriorities
	prio := class
	var cfg *BufferConfig
	if q.shared != nil {
		cfg = q.shared.config()
		if cfg.SingleQueue {
			prio = 0 // the class is the packet's, the queue the port's one
		}
	}
	q.mu.Lock()
	f := &q.fifos[prio]
	if f.count >= q.limit || q.closed {
		q.mu.Unlock()
		return DropQueueFull
	}
	if q.shared != nil {
		if v := q.shared.admit(cfg, q.admissionOf(class, prio), len(pk.Frame)); v.cause != admitted {
			q.mu.Unlock()
			return v.cause
		}
	}
	pk.Meta.EnqTimestampUs = nowUs
	pk.Meta.EnqQdepth = uint32(f.count)
	f.push(pk)
	q.nonEmpty |= 1 << prio
	q.depth++
	first := q.depth == 1
	q.mu.Unlock()
	// Only a packet that finds the queues empty wakes the worker: the
	// worker waits for a wake-up only after a dequeue (under mu) found
	// nothing, no shaper and no delay holding packets back, that is with
	// the queues empty; until then it comes back for more by itself.
	// wake is never closed (close() closes done), so a port removed
	// meanwhile cannot make this send panic.
	if first {
		select {
		case q.wake <- struct{}{}:
		default:
		}
	}
	return admitted
}

// admissionOf is what the shared buffer weighs to admit a packet of class
// class into the queue of priority prio. The caller holds q.mu.
func (q *queue) admissionOf(class, prio int) queueState {
	f := &q.fifos[prio]
	return queueState{class: class, fifo: prio, bytes: f.bytes, empty: f.count == 0, gamma: q.gamma(prio), alpha: q.alphas[prio]}
}

// gamma is the share of the port's dequeue rate its scheduler gives the
// queue of priority prio now (FB's normalised dequeue rate), counting the
// queue as busy (a packet would join it). Strict priority serves only the
// highest non-empty queue, so a queue has all of it when no higher queue
// holds a packet and none otherwise; round robin shares it equally among
// the non-empty queues. The caller holds q.mu.
func (q *queue) gamma(prio int) float64 {
	if q.sched == RoundRobin {
		return 1 / float64(bits.OnesCount8(q.nonEmpty|1<<prio))
	}
	if q.nonEmpty>>(prio+1) != 0 {
		return 0
	}
	return 1
}

// countDrop counts a packet of priority prio that the port's queue did
// not take, by cause.
func (q *queue) countDrop(prio uint8, cause DropCause) {
	q.drops[int(prio)%NumPriorities][cause].Add(1)
}

// dequeue moves up to len(dst) packets, in the scheduler's order, within
// the port rate and past the port's delay, into dst. It returns how many,
// and how long to wait before asking again when the shaper or the delay
// holds packets back (0: wait for a wake-up).
func (q *queue) dequeue(dst []*pipeline.Packet, now time.Time, nowUs uint32) (int, time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.refill(now)
	before := q.nonEmpty
	var d dequeuing
	if q.sched == RoundRobin {
		q.serveRoundRobin(dst, nowUs, &d)
	} else {
		q.serveStrictPriority(dst, nowUs, &d)
	}
	if q.shared != nil && d.n > 0 {
		q.shared.release(d.freed, before&^q.nonEmpty)
	}
	if d.shaped > 0 {
		return d.n, d.shaped
	}
	return d.n, d.delayed
}

// dequeuing is one dequeue's progress: packets moved, bytes freed, the
// soonest a held-back head is due, how long the port rate holds the next.
type dequeuing struct {
	n               int
	freed           int64
	delayed, shaped time.Duration
}

// serveStrictPriority drains the highest non-empty queue first.
func (q *queue) serveStrictPriority(dst []*pipeline.Packet, nowUs uint32, d *dequeuing) {
	for prio := NumPriorities - 1; prio >= 0 && d.n < len(dst); prio-- {
		for d.n < len(dst) && q.take(prio, dst, nowUs, d) {
		}
		if d.shaped > 0 {
			return
		}
	}
}

// serveRoundRobin takes a packet from each non-empty queue in turn,
// starting where the last dequeue stopped.
func (q *queue) serveRoundRobin(dst []*pipeline.Packet, nowUs uint32, d *dequeuing) {
	for d.n < len(dst) {
		moved := false
		for i := 0; i < NumPriorities && d.n < len(dst); i++ {
			prio := (q.next + i) % NumPriorities
			if !q.take(prio, dst, nowUs, d) {
				if d.shaped > 0 {
					q.next = prio
					return
				}
				continue
			}
			moved = true
			q.next = (prio + 1) % NumPriorities
			break // the next turn starts after this queue
		}
		if !moved {
			return
		}
	}
}

// take moves the head of queue prio into dst when it is due and the port
// rate allows; false when the queue is empty, its head is held for the
// port's delay (d.delayed) or by the port rate (d.shaped).
func (q *queue) take(prio int, dst []*pipeline.Packet, nowUs uint32, d *dequeuing) bool {
	f := &q.fifos[prio]
	if f.count == 0 {
		return false
	}
	pk := f.peek()
	if due := q.dueIn(pk, nowUs); due > 0 {
		// FIFO under one delay: the rest of this queue is due later.
		if d.delayed == 0 || due < d.delayed {
			d.delayed = due
		}
		return false
	}
	if q.rateBps > 0 {
		if q.tokens < float64(len(pk.Frame)) {
			wait := time.Duration((float64(len(pk.Frame)) - q.tokens) / q.rateBps * float64(time.Second))
			d.shaped = max(wait, time.Microsecond)
			return false
		}
		q.tokens -= float64(len(pk.Frame))
	}
	f.pop()
	d.freed += int64(len(pk.Frame))
	q.dequeued[prio] += uint64(len(pk.Frame))
	if f.count == 0 {
		q.nonEmpty &^= 1 << prio
	}
	q.depth--
	pk.Meta.DeqQdepth = uint32(f.count)
	dst[d.n] = pk
	d.n++
	return true
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
	var freed int64
	for prio := range q.fifos {
		freed += q.fifos[prio].bytes
		for q.fifos[prio].count > 0 {
			left = append(left, q.fifos[prio].pop())
		}
	}
	if q.shared != nil && q.nonEmpty != 0 {
		q.shared.release(freed, q.nonEmpty)
	}
	q.nonEmpty = 0
	q.depth = 0
	close(q.done)
	return left
}
