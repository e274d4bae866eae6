// SPDX-License-Identifier: Apache-2.0

package main

import (
	"strings"
	"testing"
	"time"
)

func us(v ...int) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x) * time.Microsecond
	}
	return out
}

func TestPairedDifferencesSkipLostProbes(t *testing.T) {
	diffs, lost := pairedDifferences(us(10, 0, 12, 14), us(7, 8, 0, 9))
	if lost != 2 || len(diffs) != 2 || diffs[0] != 3*time.Microsecond || diffs[1] != 5*time.Microsecond {
		t.Fatalf("diffs %v lost %d", diffs, lost)
	}
}

// The failure this replaces: two percentiles taken from different runs
// differ by the runs' noise. Paired, a constant added cost shows whatever
// load both paths share.
func TestAConstantAddedCostIsFoundUnderSharedNoise(t *testing.T) {
	var agent, bridge []time.Duration
	for i := range 10000 {
		noise := time.Duration(i%97*i%89) * time.Microsecond // load both paths see
		bridge = append(bridge, 20*time.Microsecond+noise)
		agent = append(agent, 25*time.Microsecond+noise)
	}
	diffs, _ := pairedDifferences(agent, bridge)
	for _, q := range []float64{0.5, 0.99} {
		e := quantileOf(diffs, q)
		if e.value != 5*time.Microsecond || e.low != e.value || e.high != e.value || e.why() != "" {
			t.Fatalf("q%.2f: %+v (%s)", q, e, e.why())
		}
	}
}

func TestANegativeOrZeroEstimateSaysWhy(t *testing.T) {
	faster, _ := pairedDifferences(us(5, 5, 5, 5, 9), us(8, 8, 8, 8, 8))
	e := quantileOf(faster, 0.5)
	if e.value >= 0 || !strings.Contains(e.why(), "80.0 % of the paired probes") {
		t.Fatalf("%+v: %q", e, e.why())
	}
	var mixed []time.Duration
	for i := range 1000 {
		mixed = append(mixed, time.Duration(i%21-10)*time.Microsecond)
	}
	sortDurations(mixed)
	e = quantileOf(mixed, 0.5)
	if e.value != 0 || e.low >= 0 || e.high <= 0 || !strings.Contains(e.why(), "includes 0") {
		t.Fatalf("%+v: %q", e, e.why())
	}
	if quantileOf(nil, 0.5).why() != "no probe arrived on both paths" {
		t.Fatal("empty")
	}
}

func TestTheIntervalWidensTowardsTheTail(t *testing.T) {
	var d []time.Duration
	for i := range 1000 {
		d = append(d, time.Duration(i)*time.Microsecond)
	}
	mid, tail := quantileOf(d, 0.5), quantileOf(d, 0.99)
	if mid.value != 500*time.Microsecond || mid.low != 469*time.Microsecond || mid.high != 531*time.Microsecond {
		t.Fatalf("p50 %+v", mid)
	}
	if tail.value != 990*time.Microsecond || tail.low != 983*time.Microsecond || tail.high != 997*time.Microsecond {
		t.Fatalf("p99 %+v", tail)
	}
}
