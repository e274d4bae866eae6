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

// The ports index agrees with the ports map as ports come and go, for
// numbers in the index and beyond it.
func TestPortIndexFollowsPorts(t *testing.T) {
	sw := New(Options{CPUPort: 255})
	defer sw.Close()
	drop := SinkFunc(func([][]byte) error { return nil })
	check := func(when string) {
		t.Helper()
		ports := *sw.ports.Load()
		for _, id := range []uint32{0, 1, 7, 255, 300, 510, 511, 512, 4000, 70000} {
			want, wantOK := ports[id]
			got, ok := sw.portByID(ports, id)
			if got != want || ok != wantOK {
				t.Errorf("%s: port %d: index gives %p %v, map %p %v", when, id, got, ok, want, wantOK)
			}
		}
	}
	check("new")
	for _, id := range []uint32{1, 7, 300, 510, 4000} {
		if err := sw.AddPort(id, drop, 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	check("added")
	for _, id := range []uint32{7, 510, 4000} {
		if err := sw.RemovePort(id); err != nil {
			t.Fatal(err)
		}
	}
	check("removed")
	if p := sw.egressQueue(*sw.ports.Load(), 7); p != sw.unattached {
		t.Errorf("a removed port's copies go to %p, want the unattached queue", p)
	}
}
