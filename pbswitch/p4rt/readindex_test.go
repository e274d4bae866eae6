// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"runtime"
	"slices"
	"testing"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
)

func TestIndexesYieldsTheNamedCellOrEveryCellInOrder(t *testing.T) {
	if got := slices.Collect(indexes(&p4.Index{Index: 7}, 10)); !slices.Equal(got, []int64{7}) {
		t.Fatalf("named index: %v", got)
	}
	if got := slices.Collect(indexes(nil, 4)); !slices.Equal(got, []int64{0, 1, 2, 3}) {
		t.Fatalf("wildcard: %v", got)
	}
	if got := slices.Collect(indexes(nil, 0)); len(got) != 0 {
		t.Fatalf("empty array: %v", got)
	}
}

// A wildcard read of a large array that stops early (a client gone after
// the first response) must not pay for the whole array up front: the list
// of every index it once built was 8 MiB for a 1 Mi-cell register.
func TestIndexesOfALargeArrayCostNothingUpFront(t *testing.T) {
	const size = 1 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	seen := 0
	for range indexes(nil, size) {
		seen++
		if seen == 3 {
			break
		}
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; seen != 3 || grew > 64<<10 {
		t.Fatalf("stopped after %d cells having allocated %d bytes", seen, grew)
	}
}
