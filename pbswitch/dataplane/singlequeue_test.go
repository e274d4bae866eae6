// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// singleQueueClasses is the paper's single-queue configuration (FB §6.2):
// a classifier marks short flows (queries) high, alpha_H = 20, and long
// flows low, alpha_L = 0.5; here class 1 is high and class 0 low.
func singleQueueClasses(alg Algorithm) BufferConfig {
	c := DefaultBufferConfig()
	c.Algorithm = alg
	c.SingleQueue = true
	c.Classes[0] = ClassConfig{Alpha: 0.5}
	c.Classes[1] = ClassConfig{Alpha: 20, High: true}
	return c
}

// TestSingleQueueFBGivesABurstItsClassThresholdInTheSharedQueue follows
// the single-queue deployment (FB §4.1: "FB applies different thresholds
// for packets that are mapped to the same queue") through the traffic
// manager, 60-packet buffer. Three ports fill with low packets, round
// robin; then a high burst of 100 packets arrives at port 1, whose one
// queue already holds low packets. Worked out by hand:
//
// FB: N counts every congested queue (3; gamma 1). The low queues stop at
// 7 each: after 6 each (18 held) port 1 takes its 7th under 0.5/3 x 42 =
// 7, ports 2 and 3 under 0.5/3 x 41 and x 40; then 7 >= 0.5/3 x 39 = 6.5.
// The burst joins port 1's queue (7 low packets) while 7 + r < 20/3 x
// (39 - r): r < 33, so 33 packets; port 1's queue ends at 40 = 20/3 x 6,
// low packets there now meet 0.5/3 x 6 = 1.
//
// DT with the paper's single-queue alpha 0.5 for all: queues stop at
// y = 0.5 x (60 - 3y) = 12 each; the burst meets 0.5 x 24 = 12, the queue's
// length: it takes nothing.
func TestSingleQueueFBGivesABurstItsClassThresholdInTheSharedQueue(t *testing.T) {
	for _, c := range []struct {
		alg                Algorithm
		low, burst, length int
		lowT, highT        float64 // port 1's thresholds at the end, packets
		cause              DropCause
	}{
		{FB, 7, 33, 40, 1, 40, DropFBThreshold},
		{DynamicThresholds, 12, 0, 12, 12, 12, DropDTThreshold},
	} {
		t.Run(c.alg.String(), func(t *testing.T) {
			cfg := singleQueueClasses(c.alg)
			if c.alg == DynamicThresholds {
				cfg.Classes[1].Alpha = 0.5
			}
			l := newTMLab(t, cfg, 1, 2, 3)
			for range 100 {
				for _, p := range []int{1, 2, 3} {
					l.offer(p, 0, 1)
				}
			}
			for _, p := range []int{1, 2, 3} {
				if got := l.length(p, 0); got != c.low {
					t.Fatalf("port %d holds %d low packets, want %d", p, got, c.low)
				}
			}
			taken, why := l.offer(1, 1, 100)
			if taken != c.burst || why[c.cause] != 100-c.burst {
				t.Fatalf("the burst took %d of 100 (%v), want %d, the rest %v", taken, why, c.burst, c.cause)
			}
			// One queue per port: the burst is in queue 0, behind the low packets.
			if got, other := l.length(1, 0), l.length(1, 1); got != c.length || other != 0 {
				t.Fatalf("port 1: queue 0 holds %d, queue 1 %d; want %d and 0", got, other, c.length)
			}
			if lowT, highT := l.threshold(1, 0), l.threshold(1, 1); !near(lowT, c.lowT) || !near(highT, c.highT) {
				t.Fatalf("port 1's thresholds: low %v, high %v; want %v and %v", lowT, highT, c.lowT, c.highT)
			}
			if got := l.ports[1].drops[1][c.cause].Load(); got != uint64(100-c.burst) {
				t.Fatalf("class 1 counted %d drops, want %d", got, 100-c.burst)
			}
			out := make([]*pipeline.Packet, c.length)
			if n, _ := l.ports[1].dequeue(out, time.Now(), 0); n != c.length {
				t.Fatalf("port 1 gave %d packets, want %d", n, c.length)
			}
			for i, pk := range out {
				want := uint8(0) // the low packets first, then the burst
				if i >= c.low {
					want = 1
				}
				if pk.Meta.Priority != want {
					t.Fatalf("packet %d left with class %d, want %d: a single queue keeps arrival order", i, pk.Meta.Priority, want)
				}
			}
			if st := l.buf.stats(); st.Congested != [NumPriorities]int{2} {
				t.Fatalf("congested %v, want ports 2 and 3's queue 0", st.Congested)
			}
		})
	}
}

// TestSingleQueueNCountsEveryCongestedQueue: with one queue per port, N_p
// is every congested queue in the buffer whatever its priority (§4.1):
// a high packet at an empty port 3, with ports 1 (low) and 2 (high)
// congested, meets 20 x 1/3 x 58; with two queues per port the high
// class counts only port 2's high queue and itself: 20 x 1/2 x 58.
func TestSingleQueueNCountsEveryCongestedQueue(t *testing.T) {
	for _, c := range []struct {
		single bool
		want   float64
	}{{true, 20.0 / 3 * 58}, {false, 20.0 / 2 * 58}} {
		cfg := singleQueueClasses(FB)
		cfg.SingleQueue = c.single
		l := newTMLab(t, cfg, 1, 2, 3)
		l.offer(1, 0, 1)
		l.offer(2, 1, 1)
		if got := l.threshold(3, 1); !near(got, c.want) {
			t.Errorf("single queue %v: an empty port's high threshold %v, want %v", c.single, got, c.want)
		}
	}
}
