// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// The paper's examples (fb.txt, §2.2, §2.3 and §3) use a 60-packet buffer,
// a low-priority class with alpha 1 and a high-priority class with alpha 2.

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want)) }

// TestThresholdsOfThePapersFigures computes each algorithm's threshold
// (Eq. 1 for DT, Eq. 3 for FB, the remaining buffer for CS) in the states
// the paper's figures describe, in packets; the expected values are worked
// out by hand in each row's comment.
func TestThresholdsOfThePapersFigures(t *testing.T) {
	const B = 60
	for _, c := range []struct {
		name      string
		alg       Algorithm
		alpha     float64
		congested int     // N_p, this queue included (FB)
		gamma     float64 // its share of its port's dequeue rate (FB)
		occupied  float64 // B_oc
		want      float64
	}{
		// Fig. 2, before t0: Q1 (low, alpha 1) holds 30 of 60, alone.
		// DT: 1 x (60 - 30) = 30, its length: steady state.
		{"fig2 t<t0 Q1 dt", DynamicThresholds, 1, 1, 1, 30, 30},
		// Q2 (high, alpha 2), still empty: 2 x 30 = 60.
		{"fig2 t<t0 Q2 dt", DynamicThresholds, 2, 1, 1, 30, 60},
		// Transient (t0-t1): Q1 30, Q2 10; remaining 20. Q1: 1 x 20 = 20,
		// below its length 30, so Q1's arrivals drop; Q2: 2 x 20 = 40.
		{"fig2 t0-t1 Q1 dt", DynamicThresholds, 1, 1, 1, 40, 20},
		{"fig2 t0-t1 Q2 dt", DynamicThresholds, 2, 1, 1, 40, 40},
		// t2, steady again: Q1 15, Q2 30, remaining 15. Q1: 1 x 15 = 15,
		// Q2: 2 x 15 = 30, as the paper says.
		{"fig2 t2 Q1 dt", DynamicThresholds, 1, 1, 1, 45, 15},
		{"fig2 t2 Q2 dt", DynamicThresholds, 2, 1, 1, 45, 30},
		// FB in the same state: each priority has one congested queue
		// (N = 1) alone on its port (gamma = 1), so FB gives DT's values:
		// Q1 1 x 1/1 x 1 x 15 = 15, Q2 2 x 1/1 x 1 x 15 = 30.
		{"fig2 t2 Q1 fb", FB, 1, 1, 1, 45, 15},
		{"fig2 t2 Q2 fb", FB, 2, 1, 1, 45, 30},
		// CS: the remaining buffer, 15, whatever the queue.
		{"fig2 t2 cs", CompleteSharing, 2, 1, 1, 45, 15},

		// Fig. 4a: red (high, alpha 2) 20 on port 1, three yellow queues
		// (low, alpha 1) of 10 on ports 2-4; 50 held, remaining 10.
		// DT: red 2 x 10 = 20, yellow 1 x 10 = 10 (each at its length).
		{"fig4a red dt", DynamicThresholds, 2, 1, 1, 50, 20},
		{"fig4a yellow dt", DynamicThresholds, 1, 3, 1, 50, 10},
		// FB in that state: red alone in high priority, alone on its port:
		// 2 x 1/1 x 1 x 10 = 20; a yellow shares low priority with two
		// others (N = 3), alone on its port: 1 x 1/3 x 1 x 10 = 10/3, below
		// its length 10, so yellows drop until they drain to Fig. 5a.
		{"fig4a red fb", FB, 2, 1, 1, 50, 20},
		{"fig4a yellow fb", FB, 1, 3, 1, 50, 10.0 / 3},
		// Fig. 5a, FB's steady state of the same scenario: red 30, yellows
		// 5 each; 45 held, remaining 15. Red 2 x 1 x 1 x 15 = 30; yellow
		// 1 x 1/3 x 1 x 15 = 5: "FB bounds low-priority queues to 15 packets
		// on aggregate ... the red queue can use 30".
		{"fig5a red fb", FB, 2, 1, 1, 45, 30},
		{"fig5a yellow fb", FB, 1, 3, 1, 45, 5},
		// DT in that state would let a yellow grow to 1 x 15 = 15.
		{"fig5a yellow dt", DynamicThresholds, 1, 3, 1, 45, 15},

		// Fig. 4b: five low queues (alpha 1) of 10 on one port (port 2);
		// 50 held, remaining 10. DT: 1 x 10 = 10 each.
		{"fig4b dt", DynamicThresholds, 1, 5, 0.2, 50, 10},
		// FB, with the paper's fair scheduler sharing port 2 among its five
		// queues (gamma = 1/5) and N = 5: 1 x 1/5 x 1/5 x 10 = 0.4.
		{"fig4b fb", FB, 1, 5, 0.2, 50, 0.4},
		// Fig. 5b: FB's allocation for that port. Eq. 3's steady state has
		// each queue at q = 1/25 x (60 - 5q), so q = 2 and remaining 50:
		// 1 x 1/5 x 1/5 x 50 = 2. (The text says 6 per queue: that is
		// 1/5 x (60 - 30), one factor 1/5, not Eq. 3's two; Eq. 3 with five
		// queues of 6 gives 1 x 1/5 x 1/5 x 30 = 1.2.)
		{"fig5b steady fb", FB, 1, 5, 0.2, 10, 2},
		{"fig5b text state fb", FB, 1, 5, 0.2, 30, 1.2},

		// Fig. 4c: a 5:1 high-priority incast at port 1 (alpha 2) meets
		// Fig. 4b's buffer; it drops at 8 packets while the low queues
		// still hold 48: 56 held, remaining 4, DT 2 x 4 = 8, its length.
		{"fig4c incast dt", DynamicThresholds, 2, 1, 1, 56, 8},
		// FB in that state: the incast's queue is alone in high priority
		// and on port 1: 2 x 1 x 1 x 4 = 8 too; FB's gain is the state it
		// keeps before the burst (Fig. 5b: 50 of 60 free, not 10).
		{"fig4c incast fb", FB, 2, 1, 1, 56, 8},
		// Fig. 5c: the incast meets FB's Fig. 5b state instead (Eq. 3's:
		// 10 held): 2 x 1 x 1 x 50 = 100, more than the free buffer, which
		// is what bounds it.
		{"fig5c incast fb", FB, 2, 1, 1, 10, 100},

		// FB's factors one by one (alpha 2, N = 4, gamma 1/2, remaining 48):
		// 2 x 1/4 x 1/2 x 48 = 12; a queue behind a busier one at a strict
		// priority port has gamma 0: threshold 0.
		{"fb all factors", FB, 2, 4, 0.5, 12, 12},
		{"fb gamma 0", FB, 2, 1, 0, 12, 0},
	} {
		if got := threshold(c.alg, c.alpha, c.congested, c.gamma, B-c.occupied); !near(got, c.want) {
			t.Errorf("%s: threshold %v, want %v", c.name, got, c.want)
		}
	}
}

// tmLab is a few ports' queues sharing a buffer of 60 packets of 1000
// bytes, the paper's examples' scale. Nothing drains unless drain says so.
type tmLab struct {
	t     *testing.T
	buf   *sharedBuffer
	ports map[int]*queue
}

const labPacket = 1000

func newTMLab(t *testing.T, cfg BufferConfig, ports ...int) *tmLab {
	l := &tmLab{t: t, buf: newSharedBuffer(60*labPacket, cfg), ports: map[int]*queue{}}
	for _, p := range ports {
		l.ports[p] = newQueue(DefaultQueueLen, 0, l.buf)
	}
	return l
}

// offer sends n packets to a port's queue; it returns how many were taken
// and the causes of the others.
func (l *tmLab) offer(port int, prio uint8, n int) (int, map[DropCause]int) {
	taken, why := 0, map[DropCause]int{}
	for range n {
		if c := l.ports[port].enqueue(pkt(prio, labPacket), 0); c == admitted {
			taken++
		} else {
			l.ports[port].countDrop(prio, c)
			why[c]++
		}
	}
	return taken, why
}

// drain sends n packets out of a port (highest priority first).
func (l *tmLab) drain(port, n int) {
	out := make([]*pipeline.Packet, n)
	if got, _ := l.ports[port].dequeue(out, time.Now(), 0); got != n {
		l.t.Fatalf("port %d gave %d packets, want %d", port, got, n)
	}
}

func (l *tmLab) length(port int, prio uint8) int {
	return l.ports[port].stats()[prio].Packets
}

// threshold is the queue's threshold now, in packets.
func (l *tmLab) threshold(port int, prio uint8) float64 {
	return l.ports[port].stats()[prio].Threshold / labPacket
}

// paperClasses: queue 0 is the low-priority class (alpha 1, the paper's
// yellow), queue 1 the high-priority class (alpha 2, red).
func paperClasses(alg Algorithm) BufferConfig {
	c := DefaultBufferConfig()
	c.Algorithm = alg
	c.Classes[1] = ClassConfig{Alpha: 2, High: true}
	return c
}

// TestFig4aUnderDTAndFig5aUnderFB drives the paper's Fig. 4a/5a scenario
// through the traffic manager: three yellow queues (ports 2-4) fill the
// buffer, a red burst arrives at port 1, the yellow ports drain 5 packets
// each, then every queue keeps receiving. DT ends in Fig. 4a (red 20,
// yellows 10, 10 free), FB in Fig. 5a (red 30, yellows 5, 15 free), CS
// with the buffer full. Each step is worked out by hand below.
func TestFig4aUnderDTAndFig5aUnderFB(t *testing.T) {
	type step struct {
		yellowsTaken, redTaken, redAfterDrain int
		red, yellow                           int     // lengths at the end
		redT, yellowT                         float64 // thresholds at the end
		cause                                 DropCause
	}
	for _, c := range []struct {
		alg  Algorithm
		want step
	}{
		// CS: yellows fill all 60 (20 each); red finds no room; after the
		// drain red takes the 15 freed; then nothing fits. Thresholds are
		// the room left: 0.
		{CompleteSharing, step{20, 0, 15, 15, 15, 0, 0, DropBufferFull}},
		// DT: three yellows stop at y = 1 x (60 - 3y): 15 each; red at
		// r = 2 x (15 - r): 10 (2 x 5 = 10 at r = 10); the drain frees 15
		// (yellows 10): red stops at r = 2 x (60 - 30 - r): 20. Then
		// yellows meet 1 x 10 = 10 and red 2 x 10 = 20: Fig. 4a.
		{DynamicThresholds, step{15, 10, 10, 20, 10, 20, 10, DropDTThreshold}},
		// FB: three congested yellows (N = 3) stop at y = 1/3 x (60 - 3y):
		// 10 each; red (N = 1) at r = 2 x (30 - r): 20; after the drain
		// (yellows 5) red stops at r = 2 x (60 - 15 - r): 30. Then yellows
		// meet 1/3 x 15 = 5 and red 2 x 15 = 30: Fig. 5a.
		{FB, step{10, 20, 10, 30, 5, 30, 5, DropFBThreshold}},
	} {
		t.Run(c.alg.String(), func(t *testing.T) {
			l := newTMLab(t, paperClasses(c.alg), 1, 2, 3, 4)
			var got step
			for range 100 {
				for _, p := range []int{2, 3, 4} {
					n, _ := l.offer(p, 0, 1)
					got.yellowsTaken += n
				}
			}
			got.yellowsTaken /= 3
			got.redTaken, _ = l.offer(1, 1, 100)
			for _, p := range []int{2, 3, 4} {
				l.drain(p, 5)
			}
			got.redAfterDrain, _ = l.offer(1, 1, 100)
			var why map[DropCause]int
			for range 50 {
				_, why = l.offer(1, 1, 1)
				for _, p := range []int{2, 3, 4} {
					l.offer(p, 0, 1)
				}
			}
			for cause := range why {
				got.cause = cause
			}
			got.red, got.yellow = l.length(1, 1), l.length(2, 0)
			got.redT, got.yellowT = l.threshold(1, 1), l.threshold(3, 0)
			if got != c.want || l.length(3, 0) != got.yellow || l.length(4, 0) != got.yellow {
				t.Fatalf("got %+v (yellows %d %d %d), want %+v", got, l.length(2, 0), l.length(3, 0), l.length(4, 0), c.want)
			}
			held := int64(got.red+3*got.yellow) * labPacket
			if st := l.buf.stats(); st.UsedBytes != held {
				t.Fatalf("the pool counts %d bytes held, the queues %d", st.UsedBytes, held)
			}
		})
	}
}

// TestFig2DynamicThresholdsInAction follows §2.2 through the traffic
// manager under DT: Q1 (low, alpha 1, port 1) fills to 30; Q2's burst
// (high, alpha 2, port 2) stops at 20 while Q1 sits above its threshold
// (transient state: Q1's arrivals drop); Q1 drains to 15; Q2 grows to 30:
// t2's steady state.
func TestFig2DynamicThresholdsInAction(t *testing.T) {
	l := newTMLab(t, paperClasses(DynamicThresholds), 1, 2)
	// q1 < 1 x (60 - q1) admits up to 30.
	if n, why := l.offer(1, 0, 100); n != 30 || why[DropDTThreshold] != 70 {
		t.Fatalf("Q1 took %d of 100 (%v), want 30 and 70 over its threshold", n, why)
	}
	if T := l.threshold(1, 0); T != 30 {
		t.Fatalf("Q1's threshold before the burst %v, want 30", T)
	}
	// q2 < 2 x (30 - q2) admits up to 20.
	if n, _ := l.offer(2, 1, 100); n != 20 {
		t.Fatalf("Q2's burst took %d, want 20", n)
	}
	// Transient: Q1's threshold 1 x 10 is below its length 30.
	if T := l.threshold(1, 0); T != 10 || l.length(1, 0) != 30 {
		t.Fatalf("Q1: length %d, threshold %v; want 30 and 10", l.length(1, 0), T)
	}
	if n, why := l.offer(1, 0, 1); n != 0 || why[DropDTThreshold] != 1 {
		t.Fatal("Q1 took a packet above its threshold")
	}
	l.drain(1, 15)
	// q2 < 2 x (60 - 15 - q2) admits up to 30.
	if n, _ := l.offer(2, 1, 100); n != 10 || l.length(2, 1) != 30 {
		t.Fatalf("Q2 grew by %d to %d, want by 10 to 30", n, l.length(2, 1))
	}
	if t1, t2 := l.threshold(1, 0), l.threshold(2, 1); t1 != 15 || t2 != 30 {
		t.Fatalf("thresholds at t2: Q1 %v, Q2 %v; want 15 and 30", t1, t2)
	}
	if n, _ := l.offer(1, 0, 1); n != 0 {
		t.Fatal("Q1 took a packet at its threshold")
	}
	counted := l.ports[1].drops[0][DropDTThreshold].Load()
	if counted != 72 {
		t.Fatalf("Q1 counted %d DT drops, want 72", counted)
	}
}

// TestFBCountsCongestedQueuesOfItsPriorityOnly: N_p counts the non-empty
// queues, over all ports, of the classes of the same FB priority; a
// queue's own arrival counts it; changing a class's priority at run time
// moves its queues.
func TestFBCountsCongestedQueuesOfItsPriorityOnly(t *testing.T) {
	cfg := paperClasses(FB)
	cfg.Classes[2] = ClassConfig{Alpha: 1} // a second low class
	l := newTMLab(t, cfg, 1, 2, 3)
	l.offer(1, 0, 1) // low, port 1
	l.offer(2, 2, 1) // low, port 2
	l.offer(3, 1, 1) // high, port 3
	// 3 held, remaining 57. Port 1's low queue: N_low = 2 (itself and port
	// 2's class-2 queue): 1 x 1/2 x 1 x 57 = 28.5. Port 3's high queue:
	// N_high = 1: 2 x 57 = 114. An empty low queue at port 3 (class 0):
	// N_low = 2 + itself = 3, but gamma 0 (port 3's class 1 is higher and
	// busy): 0. An empty high queue at port 1 (above port 1's busy low
	// one, so gamma 1): N_high = 1 + itself = 2: 2 x 1/2 x 57 = 57.
	for _, c := range []struct {
		port int
		prio uint8
		want float64
	}{{1, 0, 28.5}, {3, 1, 114}, {3, 0, 0}, {2, 0, 0}, {1, 1, 57}} {
		if got := l.threshold(c.port, c.prio); !near(got, c.want) {
			t.Errorf("port %d queue %d: threshold %v, want %v", c.port, c.prio, got, c.want)
		}
	}
	// Port 2's class 0 sits below its busy class 2: gamma 0, it takes
	// nothing; port 2's class 2 and port 1's class 0 are not delayed.
	if n, why := l.offer(2, 0, 1); n != 0 || why[DropFBThreshold] != 1 {
		t.Fatalf("a queue behind a busy higher one took %d (%v), want an FB drop", n, why)
	}
	// Class 2 becomes high: N_low = 1 for port 1 (1 x 57 = 57), N_high = 2
	// for port 3 (2 x 1/2 x 57 = 57).
	cfg.Classes[2].High = true
	l.buf.cfg.Store(&cfg)
	if a, b := l.threshold(1, 0), l.threshold(3, 1); !near(a, 57) || !near(b, 57) {
		t.Fatalf("after the move: thresholds %v and %v, want 57 and 57", a, b)
	}
	l.drain(2, 1)
	l.drain(3, 1)
	if st := l.buf.stats(); st.UsedBytes != labPacket || st.Congested != [NumPriorities]int{1} {
		t.Fatalf("pool %+v, want port 1's packet, its queue congested", st)
	}
	// A port removed gives its packets' bytes back.
	if left := l.ports[1].close(); len(left) != 1 {
		t.Fatalf("closing port 1 returned %d packets, want 1", len(left))
	}
	if st := l.buf.stats(); st.UsedBytes != 0 || st.Congested != [NumPriorities]int{} {
		t.Fatalf("emptied pool %+v, want nothing held and no congested queue", st)
	}
}

// TestCompleteSharingFillsTheBufferExactly: CS takes what fits and
// nothing more, and counts the rest as buffer_full; a queue's own packet
// limit still holds (queue_full).
func TestCompleteSharingFillsTheBufferExactly(t *testing.T) {
	cfg := DefaultBufferConfig()
	cfg.Algorithm = CompleteSharing
	buf := newSharedBuffer(10_500, cfg)
	q := newQueue(8, 0, buf)
	taken := 0
	for range 20 {
		if q.enqueue(pkt(0, 1000), 0) == admitted {
			taken++
		}
	}
	if taken != 8 {
		t.Fatalf("took %d, want 8: the queue's own limit", taken)
	}
	q2 := newQueue(100, 0, buf)
	var last DropCause
	for range 5 {
		if c := q2.enqueue(pkt(3, 1000), 0); c != admitted {
			last = c
		} else {
			taken++
		}
	}
	// 10 of 1000 bytes fit in 10 500; the next does not.
	if taken != 10 || last != DropBufferFull {
		t.Fatalf("took %d in all, last refusal %v; want 10 and buffer_full", taken, last)
	}
	if c := q2.enqueue(pkt(3, 500), 0); c != admitted {
		t.Fatalf("a 500-byte packet did not fit the last 500 bytes: %v", c)
	}
}

// frames makes n frames of size bytes whose first byte, the priority the
// recorder gives them, is prio.
func frames(n, size int, prio byte) [][]byte {
	fs := make([][]byte, n)
	for i := range fs {
		fs[i] = engine.GetFrame(size)[:size]
		fs[i][0] = prio
	}
	return fs
}

// withGatedPort is a switch with a shared buffer of bytes whose port 1
// sends into a gate (packets wait in its queues until the gate opens);
// every frame goes to port 1 at the priority in its first byte.
func withGatedPort(t *testing.T, bytes int64) (*Switch, *gateSink) {
	t.Helper()
	sw := New(Options{CPUPort: 255, SharedBufferBytes: bytes})
	t.Cleanup(func() { sw.Close() })
	sw.SetProgram(&recorder{objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	gate := newGateSink()
	if err := sw.AddPort(1, gate, 0, nil); err != nil {
		t.Fatal(err)
	}
	return sw, gate
}

// TestSharedBufferOnTheSwitch: a switch with a 60 000-byte shared buffer
// and a held port; each refusal is counted for the switch, the queue and
// the cause; the algorithm changes while the switch runs; the pool is
// empty again once the port drains.
func TestSharedBufferOnTheSwitch(t *testing.T) {
	sw, gate := withGatedPort(t, 60_000)
	sw.Receive(2, frames(1, 64, 0)) // the plug holds the port's worker
	<-gate.entered
	// DT, alpha 1: queue 0 takes q < 60 000 - q: 30 packets of 1000
	// bytes; queue 3 then q < 30 000 - q: 15.
	sw.Receive(2, frames(100, 1000, 0))
	sw.Receive(2, frames(20, 1000, 3))
	st := sw.Stats()
	q0, q3 := st.Ports[1].Queues[0], st.Ports[1].Queues[3]
	if q0.Packets != 30 || q0.Bytes != 30_000 || q0.Drops["dt_threshold"] != 70 ||
		q3.Packets != 15 || q3.Drops["dt_threshold"] != 5 || st.Drops["dt_threshold"] != 75 {
		t.Fatalf("queue 0 %+v, queue 3 %+v, switch drops %v; want 30 held and 70 dropped, 15 and 5", q0, q3, st.Drops)
	}
	// 15 000 bytes left: queue 0's threshold is 15 000, below its 30 000.
	if st.Buffer == nil || st.Buffer.UsedBytes != 45_000 || q0.Threshold != 15_000 || st.Buffer.Congested[0] != 1 {
		t.Fatalf("buffer %+v, queue 0's threshold %v; want 45 000 held and 15 000", st.Buffer, q0.Threshold)
	}
	cs := DefaultBufferConfig()
	cs.Algorithm = CompleteSharing
	if err := sw.SetBufferConfig(cs); err != nil {
		t.Fatal(err)
	}
	// Complete sharing: what fits, 15 packets, then buffer_full.
	sw.Receive(2, frames(20, 1000, 0))
	st = sw.Stats()
	if q0 := st.Ports[1].Queues[0]; q0.Packets != 45 || q0.Drops["buffer_full"] != 5 || st.Buffer.UsedBytes != 60_000 {
		t.Fatalf("after the switch to CS: queue 0 %+v, buffer %+v; want 45 held, 5 buffer_full, the pool full", q0, st.Buffer)
	}
	close(gate.open)
	waitFor(t, "the port to drain", func() bool { return sw.Stats().Buffer.UsedBytes == 0 })
	if b := sw.Stats().Buffer; b.Congested != [NumPriorities]int{} {
		t.Fatalf("drained buffer %+v still counts congested queues", b)
	}
}

// TestBadBufferSettingsAreRefused: each bad setting is refused with an
// error saying what is wrong, and the admission stays as it was.
func TestBadBufferSettingsAreRefused(t *testing.T) {
	sw := New(Options{CPUPort: 255, SharedBufferBytes: 1 << 20, Buffer: paperClasses(FB)})
	defer sw.Close()
	withAlpha := func(a float64) BufferConfig {
		c := paperClasses(FB)
		c.Classes[5].Alpha = a
		return c
	}
	for _, c := range []struct {
		name string
		cfg  BufferConfig
		want string
	}{
		{"alpha 0", withAlpha(0), "class 5 (queue 5): alpha 0 must be a finite number > 0"},
		{"negative alpha", withAlpha(-1), "alpha -1 must be"},
		{"NaN alpha", withAlpha(math.NaN()), "alpha NaN must be"},
		{"infinite alpha", withAlpha(math.Inf(1)), "alpha +Inf must be"},
		{"no algorithm", BufferConfig{Classes: paperClasses(FB).Classes}, "unknown buffer algorithm"},
		{"unknown algorithm", BufferConfig{Algorithm: 9, Classes: paperClasses(FB).Classes}, "unknown buffer algorithm Algorithm(9)"},
	} {
		err := sw.SetBufferConfig(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
		if b, _ := sw.BufferStats(); b.Config != paperClasses(FB) {
			t.Errorf("%s: the refused setting changed the admission to %+v", c.name, b.Config)
		}
	}
	plain := New(Options{CPUPort: 255})
	defer plain.Close()
	if err := plain.SetBufferConfig(DefaultBufferConfig()); !errors.Is(err, ErrNoSharedBuffer) {
		t.Errorf("an algorithm on a switch without a shared buffer: %v, want ErrNoSharedBuffer", err)
	}
	if _, ok := plain.BufferStats(); ok {
		t.Error("a switch without a shared buffer reports one")
	}
	for _, o := range []Options{
		{SharedBufferBytes: -1},
		{Buffer: DefaultBufferConfig()}, // an algorithm, B = 0
		{SharedBufferBytes: 100, Buffer: withAlpha(0)},
	} {
		if err := o.Validate(); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
	if _, err := ParseAlgorithm("red"); err == nil || !strings.Contains(err.Error(), `unknown buffer algorithm "red"`) {
		t.Errorf("ParseAlgorithm(red): %v", err)
	}
}

// TestAdmissionAllocatesNothing: a packet through an FB-admitted queue and
// out again allocates nothing.
func TestAdmissionAllocatesNothing(t *testing.T) {
	buf := newSharedBuffer(1<<20, paperClasses(FB))
	q := newQueue(16, 0, buf)
	other := newQueue(16, 0, buf)
	other.enqueue(pkt(0, 1000), 0) // another congested low queue: N = 2
	pk := pkt(0, 1000)
	out := make([]*pipeline.Packet, 4)
	now := time.Now()
	allocs := testing.AllocsPerRun(1000, func() {
		if q.enqueue(pk, 0) != admitted {
			t.Fatal("refused")
		}
		if n, _ := q.dequeue(out, now, 0); n != 1 {
			t.Fatal("not dequeued")
		}
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per packet, want 0", allocs)
	}
}

// TestSharedBufferAccountingUnderLoad: ports receiving concurrently while
// their workers drain; once all is delivered or dropped the pool holds
// nothing and counts no congested queue (run with -race).
func TestSharedBufferAccountingUnderLoad(t *testing.T) {
	sw := New(Options{CPUPort: 255, SharedBufferBytes: 20_000, Buffer: paperClasses(FB)})
	defer sw.Close()
	sw.SetProgram(&spread{objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	var delivered atomic.Int64
	for p := uint32(1); p <= 3; p++ {
		sink := SinkFunc(func(f [][]byte) error {
			delivered.Add(int64(len(f)))
			engine.PutFrames(f)
			return nil
		})
		if err := sw.AddPort(p, sink, 8*2_000_000, nil); err != nil { // 2 MB/s: queues build
			t.Fatal(err)
		}
	}
	const senders, each = 4, 2000
	var wg sync.WaitGroup
	for g := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each / 50 {
				fs := frames(50, 500, byte(i%2))
				for j, f := range fs {
					f[1] = byte(1 + (g+i+j)%3) // the port
				}
				sw.Receive(9, fs)
				time.Sleep(200 * time.Microsecond) // let the ports drain meanwhile
			}
		}()
	}
	wg.Wait()
	dropped := func() int64 {
		d := sw.Stats().Drops
		return int64(d["fb_threshold"] + d["buffer_full"] + d["queue_full"])
	}
	waitFor(t, "every packet delivered or dropped", func() bool { return delivered.Load()+dropped() == senders*each })
	b, _ := sw.BufferStats()
	if b.UsedBytes != 0 || b.Congested != [NumPriorities]int{} {
		t.Fatalf("idle pool %+v, want nothing held, no congested queue", b)
	}
	if dropped() == 0 || delivered.Load() == 0 {
		t.Fatalf("%d delivered, %d dropped: the buffer was not contended and the test proves little", delivered.Load(), dropped())
	}
	t.Logf("%d delivered, %d dropped", delivered.Load(), dropped())
}

// spread sends each frame to the port in its second byte at the priority
// in its first.
type spread struct{ objs *pipeline.Objects }

func (s *spread) Ingress(pk *pipeline.Packet) {
	pk.Meta.EgressSpec, pk.Meta.Priority = uint32(pk.Frame[1]), pk.Frame[0]
}
func (s *spread) Egress(pk *pipeline.Packet) bool                             { return true }
func (s *spread) Replicate(dst, src *pipeline.Packet, kind pipeline.CopyKind) {}
func (s *spread) Objects() *pipeline.Objects                                  { return s.objs }

// BenchmarkQueueAdmission: one packet into a port's queue and out again,
// without a shared buffer and with each admission algorithm (another
// port's queue congested, so FB counts N = 2).
func BenchmarkQueueAdmission(b *testing.B) {
	for _, alg := range []Algorithm{0, CompleteSharing, DynamicThresholds, FB} {
		name := "no-shared-buffer"
		if alg != 0 {
			name = alg.String()
		}
		b.Run(name, func(b *testing.B) {
			var buf *sharedBuffer
			if alg != 0 {
				buf = newSharedBuffer(1<<20, paperClasses(alg))
				newQueue(16, 0, buf).enqueue(pkt(0, 1000), 0)
			}
			q := newQueue(16, 0, buf)
			pk := pkt(0, 1000)
			out := make([]*pipeline.Packet, 4)
			now := time.Now()
			b.ReportAllocs()
			for b.Loop() {
				q.enqueue(pk, 0)
				q.dequeue(out, now, 0)
			}
		})
	}
}
