// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

func pkt(prio uint8, size int) *pipeline.Packet {
	return &pipeline.Packet{Frame: make([]byte, size), Meta: pipeline.StdMeta{Priority: prio}}
}

func TestStrictPriorityAndDepths(t *testing.T) {
	q := newQueue(4, 0, nil)
	low1, low2, high := pkt(0, 64), pkt(0, 64), pkt(7, 64)
	for _, p := range []*pipeline.Packet{low1, low2, high} {
		if q.enqueue(p, 100) != admitted {
			t.Fatal("enqueue refused below the limit")
		}
	}
	if low2.Meta.EnqQdepth != 1 || high.Meta.EnqQdepth != 0 {
		t.Fatalf("enq depths %d %d", low2.Meta.EnqQdepth, high.Meta.EnqQdepth)
	}
	out := make([]*pipeline.Packet, 8)
	n, _ := q.dequeue(out, time.Now(), 130)
	if n != 3 || out[0] != high || out[1] != low1 || out[2] != low2 {
		t.Fatalf("dequeue order wrong: n=%d", n)
	}
	stampEgress(&out[1].Meta, 130) // egress starts at 130 µs
	if out[1].Meta.DeqTimedeltaUs != 30 || out[1].Meta.DeqQdepth != 1 {
		t.Fatalf("deq metadata %+v", out[1].Meta)
	}
	for i := 0; i < 4; i++ {
		q.enqueue(pkt(3, 64), 0)
	}
	if q.enqueue(pkt(3, 64), 0) == admitted {
		t.Fatal("a full priority queue took a packet")
	}
	if q.enqueue(pkt(4, 64), 0) != admitted {
		t.Fatal("another priority's queue is not full")
	}
}

func TestPortRateHoldsPacketsBack(t *testing.T) {
	q := newQueue(1000, 8*100_000, nil) // 100 kB/s, burst 9216 bytes
	for i := 0; i < 20; i++ {
		q.enqueue(pkt(0, 1000), 0)
	}
	out := make([]*pipeline.Packet, 64)
	now := time.Unix(1000, 0)
	n, wait := q.dequeue(out, now, 0)
	if n != 9 || wait <= 0 {
		t.Fatalf("burst: %d packets, wait %v; want 9 and a wait", n, wait)
	}
	// 50 ms later 5000 bytes of tokens: 5 more packets.
	n, _ = q.dequeue(out, now.Add(50*time.Millisecond), 0)
	if n != 5 {
		t.Fatalf("after 50 ms: %d packets, want 5", n)
	}
}

// A port removed while packets still arrive: enqueue refuses after close
// and never wakes the worker through the closed channel (that would panic;
// under -race a wake-up racing a closed channel fails here within a few runs).
func TestCloseWhileEnqueueing(t *testing.T) {
	for round := 0; round < 200; round++ {
		q := newQueue(1<<16, 0, nil)
		start := make(chan struct{})
		done := make(chan struct{})
		for g := 0; g < 4; g++ {
			go func() {
				defer func() { done <- struct{}{} }()
				<-start
				for i := 0; i < 100; i++ {
					q.enqueue(pkt(0, 64), 0)
				}
			}()
		}
		close(start)
		q.close()
		for g := 0; g < 4; g++ {
			<-done
		}
		if q.enqueue(pkt(0, 64), 0) == admitted {
			t.Fatal("a closed queue took a packet")
		}
	}
}

// A delayed port: nothing leaves before the delay has passed since it was
// queued, the wait asked for is what is left of it, and order is kept.
func TestPortDelayHoldsEachPacketItsDelay(t *testing.T) {
	q := newQueue(16, 0, nil)
	q.setDelay(5 * time.Millisecond)
	first, second, urgent := pkt(0, 64), pkt(0, 64), pkt(7, 64)
	q.enqueue(first, 1_000)
	q.enqueue(second, 2_000)
	q.enqueue(urgent, 2_500)
	out := make([]*pipeline.Packet, 8)
	if n, wait := q.dequeue(out, time.Now(), 3_000); n != 0 || wait != 3*time.Millisecond {
		t.Fatalf("at 3 ms: %d out, wait %v; want 0 and 3ms (the first is due at 6 ms)", n, wait)
	}
	if n, wait := q.dequeue(out, time.Now(), 6_500); n != 1 || out[0] != first || wait != 500*time.Microsecond {
		t.Fatalf("at 6.5 ms: %d out, wait %v; want the first and 0.5ms", n, wait)
	}
	if n, _ := q.dequeue(out, time.Now(), 9_000); n != 2 || out[0] != urgent || out[1] != second {
		t.Fatalf("at 9 ms: %d out; want the urgent packet, then the second", n)
	}
	q.setDelay(0)
	q.enqueue(first, 10_000)
	if n, _ := q.dequeue(out, time.Now(), 10_000); n != 1 {
		t.Fatal("an undelayed port held a packet back")
	}
}

// Queue times are microseconds since the switch started, in 32 bits: a
// packet queued just before they wrap is due just after.
func TestPortDelayAcrossTheClockWrap(t *testing.T) {
	q := newQueue(4, 0, nil)
	q.setDelay(time.Millisecond)
	q.enqueue(pkt(0, 64), ^uint32(0)-499)
	out := make([]*pipeline.Packet, 4)
	if n, wait := q.dequeue(out, time.Now(), 0); n != 0 || wait != 500*time.Microsecond {
		t.Fatalf("just after the wrap: %d out, wait %v; want 0 and 500µs", n, wait)
	}
	if n, _ := q.dequeue(out, time.Now(), 500); n != 1 {
		t.Fatal("not due after the wrap")
	}
}

// punt sends n frames of 1000 bytes that the program sends to the CPU
// port, and waits until each reached PacketIn (counted by got) or was
// dropped, or 5 s passed.
func punt(sw *Switch, n int, got *atomic.Int64) {
	sw.SetProgram(toPort{port: 255, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	frames := make([][]byte, n)
	for i := range frames {
		frames[i] = make([]byte, 1000)
	}
	sw.Receive(1, frames)
	deadline := time.Now().Add(5 * time.Second)
	for got.Load()+int64(sw.Stats().Drops[DropQueueFull.String()]) < int64(n) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}

// TestCPUPathIsShapedAndItsQueueBounded: with a CPU rate and queue, a
// burst punted to the controller beyond the queue is dropped and counted,
// and what fits reaches PacketIn no faster than the rate.
func TestCPUPathIsShapedAndItsQueueBounded(t *testing.T) {
	var got, first, last atomic.Int64
	sw := New(Options{CPUPort: 255, CPURateBps: 8 * 100_000, CPUQueueLen: 16,
		PacketIn: func([]byte, []pipeline.CtrlMeta) {
			now := time.Now().UnixNano()
			if got.Add(1) == 1 {
				first.Store(now)
			}
			last.Store(now)
		}})
	defer sw.Close()
	punt(sw, 100, &got)
	time.Sleep(50 * time.Millisecond) // nothing more arrives
	delivered, dropped := got.Load(), sw.Stats().Drops[DropQueueFull.String()]
	if delivered+int64(dropped) != 100 || dropped < 100-16-9 {
		t.Fatalf("%d delivered, %d dropped of 100; want at most the 16-packet queue and a burst", delivered, dropped)
	}
	// 100 kB/s: the packets past the 9216-byte burst take 10 ms each.
	if spread := time.Duration(last.Load() - first.Load()); spread < time.Duration(delivered-10)*9*time.Millisecond {
		t.Fatalf("%d packet-ins within %v: the CPU path was not shaped", delivered, spread)
	}
}

// TestCPUPathUnshapedByDefault: without a CPU rate a burst that fits the
// queue reaches the controller whole.
func TestCPUPathUnshapedByDefault(t *testing.T) {
	var got atomic.Int64
	sw := New(Options{CPUPort: 255, PacketIn: func([]byte, []pipeline.CtrlMeta) { got.Add(1) }})
	defer sw.Close()
	punt(sw, 1000, &got)
	if got.Load() != 1000 || sw.Stats().Drops[DropQueueFull.String()] != 0 {
		t.Fatalf("%d of 1000 packet-ins, %d drops", got.Load(), sw.Stats().Drops[DropQueueFull.String()])
	}
}

// TestRoundRobinServesTheQueuesInTurn: round robin takes a packet from
// each non-empty queue in turn, whatever their priorities, and goes on
// where the last dequeue stopped; strict priority drains the highest.
func TestRoundRobinServesTheQueuesInTurn(t *testing.T) {
	for _, c := range []struct {
		sched Scheduler
		want  []uint8
	}{
		{RoundRobin, []uint8{0, 3, 7, 0, 3, 0}},
		{StrictPriority, []uint8{7, 3, 3, 0, 0, 0}},
	} {
		q := newQueue(16, 0, nil)
		q.sched = c.sched
		for _, prio := range []uint8{0, 0, 0, 3, 3, 7} {
			if q.enqueue(pkt(prio, 64), 0) != admitted {
				t.Fatalf("%v: a packet of priority %d was refused", c.sched, prio)
			}
		}
		var got []uint8
		for len(got) < len(c.want) { // one packet a dequeue: the turn carries over
			out := make([]*pipeline.Packet, 1)
			if n, _ := q.dequeue(out, time.Now(), 0); n != 1 {
				t.Fatalf("%v: dequeue gave %d packets", c.sched, n)
			}
			got = append(got, out[0].Meta.Priority)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%v served %v, want %v", c.sched, got, c.want)
		}
	}
}

// TestRoundRobinGammaIsAnEqualShare: under round robin FB's gamma is
// 1/k, k the port's non-empty queues counting the packet's own; the paper
// (§6.2) runs FB on round-robin ports. B = 60 packets, alpha 1, low.
func TestRoundRobinGammaIsAnEqualShare(t *testing.T) {
	cfg := DefaultBufferConfig()
	cfg.Algorithm = FB
	l := newTMLab(t, cfg, 1)
	l.ports[1].sched = RoundRobin
	l.offer(1, 0, 1)
	l.offer(1, 1, 1)
	// 2 held, remaining 58; N_low = 2 congested queues (plus the packet's
	// own when empty). Queue 0 and 1: 1 x 1/2 x 1/2 x 58 = 14.5; an empty
	// queue 2: 1 x 1/3 x 1/3 x 58.
	for prio, want := range map[uint8]float64{0: 14.5, 1: 14.5, 2: 58.0 / 9} {
		if got := l.threshold(1, prio); !near(got, want) {
			t.Errorf("queue %d: threshold %v, want %v", prio, got, want)
		}
	}
}
