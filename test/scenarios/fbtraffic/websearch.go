// SPDX-License-Identifier: Apache-2.0

package main

import (
	"math/rand/v2"
	"sort"
)

// webSearchCDF is DCTCP's web-search flow-size distribution (Alizadeh et
// al. 2010, as FB §6.2 uses it): bytes and cumulative probability, linear
// in between; mean 1.71 MB. The same table as test/scenarios/fb_traffic.py's,
// whose web_search_mean() sets the flow rate.
var webSearchCDF = []struct {
	bytes, p float64
}{
	{0, 0}, {10_000, 0.15}, {20_000, 0.2}, {30_000, 0.3}, {50_000, 0.4},
	{80_000, 0.53}, {200_000, 0.6}, {1_000_000, 0.7}, {2_000_000, 0.8},
	{5_000_000, 0.9}, {10_000_000, 0.97}, {30_000_000, 1.0},
}

// webSearchMean is the distribution's mean in bytes.
func webSearchMean() float64 {
	mean := 0.0
	for i := 1; i < len(webSearchCDF); i++ {
		a, b := webSearchCDF[i-1], webSearchCDF[i]
		mean += (b.p - a.p) * (a.bytes + b.bytes) / 2
	}
	return mean
}

// webSearchSize draws one flow size in bytes by inverting the CDF.
func webSearchSize(rng *rand.Rand) float64 {
	u := rng.Float64()
	i := sort.Search(len(webSearchCDF), func(i int) bool { return webSearchCDF[i].p >= u })
	if i < 1 {
		i = 1
	}
	a, b := webSearchCDF[i-1], webSearchCDF[i]
	return max(1, a.bytes+(b.bytes-a.bytes)*(u-a.p)/(b.p-a.p))
}
