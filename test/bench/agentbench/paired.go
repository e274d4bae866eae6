// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// pairedQuantile is a quantile of per-probe differences (agent minus
// bridge, for probes sent at the same moment on the two paths) with its
// distribution-free 95 % confidence interval: the order statistics around
// rank n*q that bound the true quantile with 95 % probability (binomial,
// normal approximation), whatever the shape of the distribution.
type pairedQuantile struct {
	q         float64
	value     time.Duration
	low, high time.Duration
	pairs     int
	// agentFaster is the share of pairs whose agent probe arrived first.
	agentFaster float64
}

// pairedDifferences are agent[i]-bridge[i] for every probe that arrived on
// both paths (a 0 latency marks a lost probe), sorted; lost counts the
// probes missing on either path.
func pairedDifferences(agent, bridge []time.Duration) (diffs []time.Duration, lost int) {
	for i := range min(len(agent), len(bridge)) {
		if agent[i] <= 0 || bridge[i] <= 0 {
			lost++
			continue
		}
		diffs = append(diffs, agent[i]-bridge[i])
	}
	sortDurations(diffs)
	return diffs, lost
}

// quantileOf sorted differences, with its 95 % interval.
func quantileOf(sorted []time.Duration, q float64) pairedQuantile {
	n := len(sorted)
	est := pairedQuantile{q: q, pairs: n}
	if n == 0 {
		return est
	}
	at := func(rank float64) time.Duration {
		return sorted[min(n-1, max(0, int(rank)))]
	}
	half := 1.96 * math.Sqrt(float64(n)*q*(1-q))
	est.value = at(q * float64(n))
	est.low = at(math.Floor(q*float64(n) - half))
	est.high = at(math.Ceil(q*float64(n) + half))
	faster := sort.Search(n, func(i int) bool { return sorted[i] >= 0 })
	est.agentFaster = float64(faster) / float64(n)
	return est
}

// why says what a quantile that is not plainly above zero means: a paired
// difference is negative when the agent path was the faster one for more
// than 1-q of the probes (the bridge is a baseline, not a path without
// cost), and one whose interval includes zero is no measurable difference.
func (e pairedQuantile) why() string {
	switch {
	case e.pairs == 0:
		return "no probe arrived on both paths"
	case e.value < 0:
		return fmt.Sprintf("negative: the agent path delivered %.1f %% of the paired probes before "+
			"the Linux bridge path (the baseline is a bridge, not a path without cost)", 100*e.agentFaster)
	case e.low <= 0:
		return "the 95 % interval includes 0: no added latency measurable at this quantile"
	}
	return ""
}

func micros(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
