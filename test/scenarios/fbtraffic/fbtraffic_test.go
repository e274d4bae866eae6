// SPDX-License-Identifier: Apache-2.0

package main

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestWebSearchMeanIsDCTCPs(t *testing.T) {
	// 1.71 MB, as test/scenarios/fb_traffic.py's web_search_mean (the flow
	// rate is set from that one).
	if m := webSearchMean(); math.Abs(m-1_711_250) > 1 {
		t.Fatalf("mean %v, want 1711250", m)
	}
}

func TestDrawnSizesFollowTheCDF(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 0))
	const n = 200_000
	sum, under10k := 0.0, 0
	for i := 0; i < n; i++ {
		s := webSearchSize(rng)
		if s < 1 || s > 30_000_000 {
			t.Fatalf("size %v outside the distribution", s)
		}
		sum += s
		if s <= 10_000 {
			under10k++
		}
	}
	if frac := float64(under10k) / n; math.Abs(frac-0.15) > 0.01 {
		t.Errorf("P(size <= 10 KB) = %.3f, want 0.15", frac)
	}
	if mean := sum / n; math.Abs(mean/webSearchMean()-1) > 0.05 {
		t.Errorf("sample mean %.0f, want %.0f within 5 %%", mean, webSearchMean())
	}
}

func TestBadFlagsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--port", "1", "--rate", "1", "--duration", "1", "--out", "x"}, "--peers"},
		{[]string{"--peers", "a", "--port", "1", "--rate", "0", "--duration", "1", "--out", "x"},
			"--rate > 0"},
		{[]string{"--peers", "a", "--port", "1", "--rate", "1", "--duration", "1", "--out", "x",
			"--tags", "0,64"}, `tag "64"`},
	} {
		_, err := parseBackground(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one naming %s", tc.args, err, tc.want)
		}
	}
}

func TestPercentile(t *testing.T) {
	v := []float64{5, 1, 4, 2, 3}
	if p := percentile(v, 1); p != 5 {
		t.Errorf("max %v", p)
	}
	if p := percentile(v, 0.5); p != 3 {
		t.Errorf("median %v", p)
	}
	if p := percentile(nil, 0.99); p != 0 {
		t.Errorf("empty %v", p)
	}
}
