// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"testing"
	"time"
)

// testEntries keeps entries by index for a wheel under test.
type testEntries struct {
	data    [][]byte
	resends []uint32
	gone    []bool
}

func (t *testEntries) add(payload byte) int {
	f := GetFrame(1)
	f[0] = payload
	t.data = append(t.data, f)
	t.resends = append(t.resends, 0)
	t.gone = append(t.gone, false)
	return len(t.data) - 1
}

func (t *testEntries) held(i int) ([]byte, *uint32, bool) {
	return t.data[i], &t.resends[i], !t.gone[i]
}

func (t *testEntries) expire(i int) []byte {
	t.gone[i] = true
	return t.data[i]
}

func payloads(frames [][]byte) []byte {
	var out []byte
	for _, f := range frames {
		out = append(out, f[0])
	}
	return out
}

func TestWheelResendsEachTurnUntilReleased(t *testing.T) {
	w := newWheel[int](ArqConfig{Buckets: 3, BucketUs: 1000})
	es := &testEntries{}
	w.file(es.add('a'))
	w.file(es.add('b'))
	for i := 0; i < 2; i++ {
		if n := w.turn(es, true); n != 0 {
			t.Fatalf("turn %d resent %d before a full turn", i+1, n)
		}
	}
	if n := w.turn(es, true); n != 2 || string(payloads(w.resend)) != "ab" {
		t.Fatalf("full turn resent %d: %q", n, payloads(w.resend))
	}
	if &w.resend[0][0] == &es.data[0][0] {
		t.Fatal("the resend is the kept frame itself, not a copy")
	}
	es.gone[0] = true // acknowledged: its reference leaves at the next visit
	w.resend = nil
	w.turn(es, true)
	w.turn(es, true)
	if n := w.turn(es, true); n != 1 || string(payloads(w.resend)) != "b" || len(w.buckets[w.cur]) != 1 {
		t.Fatalf("second turn resent %d %q, bucket %v", n, payloads(w.resend), w.buckets[w.cur])
	}
	if es.resends[1] != 2 || es.resends[0] != 1 {
		t.Fatalf("resend counters %v", es.resends)
	}
}

func TestWheelGivesUpAfterMaxResends(t *testing.T) {
	w := newWheel[int](ArqConfig{Buckets: 1, BucketUs: 1000, MaxResends: 2})
	es := &testEntries{}
	w.file(es.add('x'))
	for i := 0; i < 2; i++ {
		if n := w.turn(es, true); n != 1 || len(w.expired) != 0 {
			t.Fatalf("turn %d: resent %d, expired %d", i+1, n, len(w.expired))
		}
	}
	if n := w.turn(es, true); n != 0 || string(payloads(w.expired)) != "x" || !es.gone[0] || len(w.buckets[0]) != 0 {
		t.Fatalf("third turn: resent %d, expired %q, gone %v, bucket %v", n, payloads(w.expired), es.gone[0], w.buckets[0])
	}
}

func TestWheelKeepsWithoutResendWhenItCannotSend(t *testing.T) {
	w := newWheel[int](ArqConfig{Buckets: 1, BucketUs: 1000, MaxResends: 1})
	es := &testEntries{}
	w.file(es.add('x'))
	for i := 0; i < 3; i++ {
		if n := w.turn(es, false); n != 0 || len(w.expired) != 0 || len(w.buckets[0]) != 1 {
			t.Fatalf("turn %d without TX: resent %d, expired %d", i+1, n, len(w.expired))
		}
	}
	if es.resends[0] != 0 {
		t.Fatalf("counted %d resends that were not sent", es.resends[0])
	}
}

// armClock records AfterFunc calls.
type armClock struct{ calls []time.Duration }

func (c *armClock) Now() time.Time { return time.Time{} }

func (c *armClock) AfterFunc(d time.Duration, f func()) Timer {
	c.calls = append(c.calls, d)
	return stopTimer{}
}

type stopTimer struct{}

func (stopTimer) Stop() bool { return true }

func TestWheelArmsOnceATick(t *testing.T) {
	w := newWheel[int](ArqConfig{Buckets: 2, BucketUs: 250})
	c := &armClock{}
	w.arm(c, func() {})
	w.arm(c, func() {})
	if len(c.calls) != 1 || c.calls[0] != 250*time.Microsecond {
		t.Fatalf("armed %v, want one tick of 250µs", c.calls)
	}
	w.turn(&testEntries{}, true)
	w.arm(c, func() {})
	if len(c.calls) != 2 {
		t.Fatalf("not armed again after its tick: %v", c.calls)
	}
}

func TestWheelStopForgetsAll(t *testing.T) {
	w := newWheel[int](ArqConfig{Buckets: 1, BucketUs: 1000})
	es := &testEntries{}
	w.file(es.add('x'))
	w.turn(es, true)
	w.stop()
	if len(w.resend) != 0 || len(w.buckets[0]) != 0 {
		t.Fatalf("after stop: %d resends, bucket %v", len(w.resend), w.buckets[0])
	}
}
