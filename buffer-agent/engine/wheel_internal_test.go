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
	if !w.fired(c) {
		t.Fatal("the timer did not turn the wheel")
	}
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

// nowClock reads a set time; its timers never fire (a busy core's).
type nowClock struct{ now int64 }

func (c *nowClock) Now() time.Time { return time.Unix(0, c.now) }

func (c *nowClock) AfterFunc(time.Duration, func()) Timer { return stopTimer{} }

func TestWheelTurnsOnThePacketPathOnlyWhenATurnIsDue(t *testing.T) {
	w := newWheel[int](ArqConfig{Buckets: 4, BucketUs: 1000})
	c := &nowClock{now: 1_000_000}
	if w.due(c.now + 5_000_000) {
		t.Fatal("turned while not ticking (nothing kept)")
	}
	w.arm(c, func() {})
	if w.due(c.now + 999_999) {
		t.Fatal("turned before a bucket's time")
	}
	if !w.due(c.now + 1_000_000) {
		t.Fatal("no turn after a bucket's time")
	}
	if w.due(c.now + 1_500_000) {
		t.Fatal("turned twice within a bucket")
	}
	// The timer then finds its turn done, and turns at the next one.
	if w.fired(c) || !w.ticking {
		t.Fatal("the late timer turned again")
	}
	if !w.fired(c) || w.ticking {
		t.Fatal("the next timer did not turn")
	}
}

// The wheel's buckets reference acknowledged entries until their next
// visit: with late timers and no turn on the packet path they piled up a
// reference per packet ever taken.
func TestBaasWheelReferencesStayBoundedWhenTimersRunLate(t *testing.T) {
	c := &nowClock{now: 1_700_000_000_000_000_000}
	e := New(Options{Clock: c})
	defer e.Close()
	if _, err := e.CreateBuffer("a", "b", BufferConfig{CapacityPackets: 1000, Queue: QueueARQ,
		Arq: ArqConfig{Buckets: 4, BucketUs: 1000, Protocol: ArqPDCP}}); err != nil {
		t.Fatal(err)
	}
	b := e.buffers["b"]
	const perBatch = 8
	for k := uint32(0); k < 500; k++ {
		batch := make([][]byte, 0, perBatch+1)
		for i := uint32(0); i < perBatch; i++ {
			batch = append(batch, PDCPDataFrame(7, k*perBatch+i, make([]byte, 40)))
		}
		if k > 0 {
			batch = append(batch, PDCPStatusFrame(PDCPStatus{TEID: 7, First: (k - 1) * perBatch, Last: k*perBatch - 1}))
		}
		b.mu.Lock()
		b.receiveBaas(batch)
		c.now += 1_000_000 // a bucket's time a batch
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	refs := 0
	for _, bk := range b.baas.buckets {
		refs += len(bk)
	}
	if b.baas.n != perBatch || refs > 5*perBatch {
		t.Fatalf("%d kept, %d references in the buckets; want %d kept and at most a turn's batches referenced", b.baas.n, refs, perBatch)
	}
}
