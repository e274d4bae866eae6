// SPDX-License-Identifier: Apache-2.0

package main

import (
	"testing"
	"time"
)

// The feed is the service's real work: every data clone is kept as a
// PDCP PDU and the statuses acknowledge them (baasRate fails otherwise),
// and the round says what it ran on.
func TestBaasFeedIsKeptAndAcknowledged(t *testing.T) {
	r, err := baasRate(1, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r.mpps() <= 0 || r.mppsPerCPU() <= 0 || r.busyCores() <= 0 || r.workerCPU <= 0 {
		t.Fatalf("round %+v", r)
	}
	if r.feedShare <= 0 || r.feedShare >= 1 || r.engineNs() <= 0 || r.feederNs() <= 0 {
		t.Fatalf("feeder share %f, engine %f ns, feeder %f ns a frame", r.feedShare, r.engineNs(), r.feederNs())
	}
}

// Two cells run on two threads of their own; each cell's buffer kept and
// acknowledged its feed (baasRate checks).
func TestBaasTwoCellsBothFed(t *testing.T) {
	r, err := baasRate(2, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r.frames == 0 || r.workerCPU <= 0 {
		t.Fatalf("round %+v", r)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{7}, 7}} {
		if got := median(c.xs); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

func TestMachineBusyReadsProcStat(t *testing.T) {
	busy, total := machineBusy()
	if total == 0 || busy > total {
		t.Fatalf("busy %d of %d ticks", busy, total)
	}
}
