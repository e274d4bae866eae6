// SPDX-License-Identifier: Apache-2.0

package xdpgen

import (
	"errors"
	"testing"
	"time"
)

func TestPacedSendsTheRateOnAverage(t *testing.T) {
	const pps, dur = 200_000.0, 300 * time.Millisecond
	var calls, frames uint64
	start := time.Now()
	sent, err := paced(pps, dur, func(n uint32) error { calls++; frames += uint64(n); return nil })
	took := time.Since(start)
	if err != nil || sent != frames {
		t.Fatalf("paced: sent %d, the sender got %d, err %v", sent, frames, err)
	}
	// What it owed by the last tick before dur: within a tick of the rate.
	want := pps * dur.Seconds()
	if float64(sent) > want || float64(sent) < want-pps*(2*pacingTick).Seconds() {
		t.Fatalf("paced %v at %.0f/s: sent %d, want %.0f less at most two ticks", dur, pps, sent, want)
	}
	if took < dur || calls < 2 {
		t.Fatalf("paced returned after %v in %d calls: want the whole %v in many calls", took, calls, dur)
	}
}

func TestPacedStopsAtTheSendersError(t *testing.T) {
	boom := errors.New("boom")
	sent, err := paced(1e6, time.Second, func(uint32) error { return boom })
	if !errors.Is(err, boom) || sent != 0 {
		t.Fatalf("paced with a failing sender: sent %d, err %v; want 0 and the error", sent, err)
	}
}
