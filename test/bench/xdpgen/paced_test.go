// SPDX-License-Identifier: Apache-2.0

package xdpgen

import (
	"errors"
	"testing"
	"time"
)

// fakeClock advances only when paced sleeps, or when a test stalls it (a
// generator descheduled on a loaded machine).
type fakeClock struct {
	now    time.Time
	stalls map[int]time.Duration // after the nth sleep, this much more time passes
	sleeps int
}

func (c *fakeClock) Now() time.Time { return c.now }

func (c *fakeClock) Sleep(d time.Duration) {
	c.sleeps++
	c.now = c.now.Add(d + c.stalls[c.sleeps])
}

func TestPacedSendsWhatTheRateOwesAtEachTick(t *testing.T) {
	const pps, dur = 200_000.0, 300 * time.Millisecond
	c := &fakeClock{now: time.Unix(0, 0)}
	var calls []uint32
	sent, err := pacedOn(c, pps, dur, func(n uint32) error { calls = append(calls, n); return nil })
	if err != nil {
		t.Fatal(err)
	}
	// Ticks at 1..299 ms each send one millisecond's 200 frames; the tick at
	// 300 ms ends the run.
	if want := uint64(pps * (dur - pacingTick).Seconds()); sent != want || len(calls) != 299 {
		t.Fatalf("paced %v at %.0f/s: sent %d in %d calls, want %d in 299", dur, pps, sent, len(calls), want)
	}
	for i, n := range calls {
		if n < 199 || n > 201 { // owed is floored from a float: a frame early or late
			t.Fatalf("call %d sent %d frames, want 200 (one tick's worth)", i, n)
		}
	}
}

func TestPacedCatchesUpALateTick(t *testing.T) {
	const pps, dur = 200_000.0, 300 * time.Millisecond
	// Descheduled for 20 ms after the 100th tick's sleep.
	c := &fakeClock{now: time.Unix(0, 0), stalls: map[int]time.Duration{100: 20 * time.Millisecond}}
	var calls []uint32
	sent, err := pacedOn(c, pps, dur, func(n uint32) error { calls = append(calls, n); return nil })
	if err != nil {
		t.Fatal(err)
	}
	// The late tick sends the 20 ms it owes at once, then one tick's worth
	// again; the total is what the rate owes by the last tick before dur.
	if want := uint64(pps * (dur - pacingTick).Seconds()); sent != want {
		t.Fatalf("paced with a 20 ms stall: sent %d, want %d", sent, want)
	}
	if late := calls[99]; late < 4_199 || late > 4_201 {
		t.Fatalf("the late tick sent %d frames, want 4,200 (its own 200 and the stall's 4,000)", late)
	}
}

func TestPacedSendsAtMostARunAtATime(t *testing.T) {
	// A stall longer than repeatPerRun frames at this rate: the debt is sent
	// in runs of at most repeatPerRun, one a tick.
	const pps = 10e6
	c := &fakeClock{now: time.Unix(0, 0), stalls: map[int]time.Duration{1: 20 * time.Millisecond}}
	var most uint32
	_, err := pacedOn(c, pps, 50*time.Millisecond, func(n uint32) error { most = max(most, n); return nil })
	if err != nil || most != repeatPerRun {
		t.Fatalf("largest call %d frames (err %v), want repeatPerRun = %d", most, err, repeatPerRun)
	}
}

func TestPacedOnTheWallClockTakesTheWholeDuration(t *testing.T) {
	const pps, dur = 200_000.0, 100 * time.Millisecond
	start := time.Now()
	sent, err := paced(pps, dur, func(uint32) error { return nil })
	if took := time.Since(start); err != nil || took < dur || float64(sent) > pps*dur.Seconds() {
		t.Fatalf("paced %v at %.0f/s: returned after %v having sent %d (err %v); want at least %v and at most %.0f frames",
			dur, pps, took, sent, err, dur, pps*dur.Seconds())
	}
}

func TestPacedStopsAtTheSendersError(t *testing.T) {
	boom := errors.New("boom")
	sent, err := paced(1e6, time.Second, func(uint32) error { return boom })
	if !errors.Is(err, boom) || sent != 0 {
		t.Fatalf("paced with a failing sender: sent %d, err %v; want 0 and the error", sent, err)
	}
}
