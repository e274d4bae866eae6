// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"testing"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

func TestPacketPoolReusesAndBounds(t *testing.T) {
	var p packetPool
	got := make([]*pipeline.Packet, 3)
	p.take(got)
	seen := map[*pipeline.Packet]bool{}
	for _, pk := range got {
		if pk == nil || seen[pk] {
			t.Fatalf("take from an empty pool: %v, want 3 distinct packets", got)
		}
		seen[pk] = true
	}
	p.give(got)
	again := make([]*pipeline.Packet, 4)
	p.take(again)
	reused := 0
	for _, pk := range again {
		if pk == nil {
			t.Fatal("take left a nil packet")
		}
		if seen[pk] {
			reused++
		}
	}
	if reused != 3 || len(p.free) != 0 {
		t.Fatalf("reused %d of the 3 given back (free list %d), want 3 and 0", reused, len(p.free))
	}
	many := make([]*pipeline.Packet, maxFreePackets+10)
	p.take(many)
	p.give(many)
	if len(p.free) != maxFreePackets {
		t.Fatalf("free list holds %d after giving back %d, want the bound %d", len(p.free), len(many), maxFreePackets)
	}
}

// The switch's packet path takes and gives back its packets without
// allocating once the pool is warm.
func TestPacketPoolAllocatesNothingWhenWarm(t *testing.T) {
	var p packetPool
	batch := make([]*pipeline.Packet, egressBatch)
	p.take(batch)
	p.give(batch)
	if n := testing.AllocsPerRun(100, func() {
		p.take(batch)
		p.give(batch)
	}); n != 0 {
		t.Fatalf("%v allocations a batch, want 0", n)
	}
}
