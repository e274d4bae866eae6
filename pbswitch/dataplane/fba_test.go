// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestQueueAlphasReplaceTheClassAlphaUnderDT: FBA's per-queue alphas. A
// 60 000-byte buffer, DT with class alpha 1, port 1 held by a plug: queue 0
// with its own alpha 0.25 takes q < 0.25 · (60 000 − q), 12 packets of
// 1000 bytes (12 000 < 0.25 · 48 000 = 12 000 is false at the 13th), while
// queue 3 keeps its class's alpha 1: q < 48 000 − q, 24. Each queue reports
// its alpha and, once drained, the bytes it sent.
func TestQueueAlphasReplaceTheClassAlphaUnderDT(t *testing.T) {
	sw, gate := withGatedPort(t, 60_000)
	if err := sw.SetQueueAlphas([]QueueAlpha{{Port: 1, Queue: 0, Alpha: 0.25}}); err != nil {
		t.Fatal(err)
	}
	sw.Receive(2, frames(1, 64, 0)) // the plug holds the port's worker
	<-gate.entered
	sw.Receive(2, frames(40, 1000, 0))
	sw.Receive(2, frames(40, 1000, 3))
	st := sw.Stats()
	q0, q3 := st.Ports[1].Queues[0], st.Ports[1].Queues[3]
	// Queue 0: at 12 packets 12 000 ≥ 0.25 · 48 000. Queue 3 then sees
	// 48 000 free: q < 48 000 − q stops at 24 packets.
	if q0.Packets != 12 || q0.Alpha != 0.25 || q0.Drops["dt_threshold"] != 28 {
		t.Fatalf("queue 0 %+v: want 12 held, alpha 0.25, 28 dropped", q0)
	}
	if q3.Packets != 24 || q3.Alpha != 0 || q3.Drops["dt_threshold"] != 16 {
		t.Fatalf("queue 3 %+v: want 24 held on its class's alpha, 16 dropped", q3)
	}
	close(gate.open)
	waitFor(t, "the port to drain", func() bool { return sw.Stats().Buffer.UsedBytes == 0 })
	st = sw.Stats()
	if got := st.Ports[1].Queues[0].DequeuedBytes; got != 12_000+64 {
		t.Errorf("queue 0 sent %d bytes, want 12 064 (the plug and 12 packets)", got)
	}
	if got := st.Ports[1].Queues[3].DequeuedBytes; got != 24_000 {
		t.Errorf("queue 3 sent %d bytes, want 24 000", got)
	}
	// A new admission setting replaces the queues' own alphas too.
	if err := sw.SetBufferConfig(DefaultBufferConfig()); err != nil {
		t.Fatal(err)
	}
	if a := sw.Stats().Ports[1].Queues[0].Alpha; a != 0 {
		t.Errorf("queue 0 keeps alpha %v after a new buffer setting", a)
	}
}

// TestBadQueueAlphasAreRefused: each bad list is refused with an error
// saying what is wrong, and the alphas in force stay.
func TestBadQueueAlphasAreRefused(t *testing.T) {
	sw := New(Options{CPUPort: 255, SharedBufferBytes: 60_000})
	defer sw.Close()
	if err := sw.AddPort(1, newGateSink(), 0, nil); err != nil {
		t.Fatal(err)
	}
	good := QueueAlpha{Port: 1, Queue: 2, Alpha: 0.5}
	if err := sw.SetQueueAlphas([]QueueAlpha{good}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		alphas []QueueAlpha
		want   string
	}{
		{"unknown port", []QueueAlpha{{Port: 7, Queue: 0, Alpha: 1}}, "the switch has no port 7"},
		{"queue out of range", []QueueAlpha{{Port: 1, Queue: NumPriorities, Alpha: 1}}, "want a queue in [0, 7]"},
		{"negative queue", []QueueAlpha{{Port: 1, Queue: -1, Alpha: 1}}, "want a queue in"},
		{"alpha 0", []QueueAlpha{{Port: 1, Queue: 0, Alpha: 0}}, "0 must be a finite number > 0"},
		{"NaN alpha", []QueueAlpha{{Port: 1, Queue: 0, Alpha: math.NaN()}}, "NaN must be"},
		{"infinite alpha", []QueueAlpha{{Port: 1, Queue: 0, Alpha: math.Inf(1)}}, "+Inf must be"},
		{"a queue twice", []QueueAlpha{{Port: 1, Queue: 0, Alpha: 1}, {Port: 1, Queue: 0, Alpha: 2}}, "given twice"},
		{"good then bad", []QueueAlpha{{Port: 1, Queue: 0, Alpha: 1}, {Port: 1, Queue: 1, Alpha: -2}}, "-2 must be"},
	} {
		err := sw.SetQueueAlphas(c.alphas)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
		q := sw.Stats().Ports[1].Queues
		if q[2].Alpha != 0.5 || q[0].Alpha != 0 || q[1].Alpha != 0 {
			t.Errorf("%s: the refused list changed the alphas: %v %v %v", c.name, q[0].Alpha, q[1].Alpha, q[2].Alpha)
		}
	}
	fb := DefaultBufferConfig()
	fb.Algorithm = FB
	if err := sw.SetBufferConfig(fb); err != nil {
		t.Fatal(err)
	}
	if err := sw.SetQueueAlphas([]QueueAlpha{good}); !errors.Is(err, ErrNotDT) {
		t.Errorf("per-queue alphas under FB: %v, want ErrNotDT", err)
	}
	plain := New(Options{CPUPort: 255})
	defer plain.Close()
	if err := plain.SetQueueAlphas(nil); !errors.Is(err, ErrNoSharedBuffer) {
		t.Errorf("per-queue alphas without a shared buffer: %v, want ErrNoSharedBuffer", err)
	}
}
