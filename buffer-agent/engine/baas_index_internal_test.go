// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"slices"
	"testing"
)

// indexModel checks a pdcpIndex against a map after each step.
type indexModel struct {
	t    *testing.T
	x    pdcpIndex
	want map[PDCPID]uint32
	ids  map[uint32]PDCPID // slot → id, for spilledIn
	next uint32
}

func newIndexModel(t *testing.T) *indexModel {
	return &indexModel{t: t, x: newPDCPIndex(), want: map[PDCPID]uint32{}, ids: map[uint32]PDCPID{}}
}

func (m *indexModel) put(teid, sn uint32) {
	id := PDCPID{teid, sn}
	if _, ok := m.want[id]; ok {
		m.t.Fatalf("model: %v put twice", id)
	}
	m.x.put(id, m.next)
	m.want[id], m.ids[m.next] = m.next, id
	m.next++
}

func (m *indexModel) del(teid, sn uint32) {
	id := PDCPID{teid, sn}
	m.x.del(id)
	delete(m.ids, m.want[id])
	delete(m.want, id)
}

// check looks every kept id up, and ids next to them that are not kept.
func (m *indexModel) check() {
	m.t.Helper()
	for id, slot := range m.want {
		if got, ok := m.x.get(id); !ok || got != slot {
			m.t.Fatalf("get %v = %d, %v; want %d", id, got, ok, slot)
		}
		for _, other := range []PDCPID{{id.TEID, (id.SN + 1) & pdcpSNMask}, {id.TEID + 1, id.SN}, {id.TEID, (id.SN + 1<<10) & pdcpSNMask}} {
			if _, kept := m.want[other]; kept {
				continue
			}
			if got, ok := m.x.get(other); ok {
				m.t.Fatalf("get %v (not kept) = %d", other, got)
			}
		}
	}
}

// ranged returns the slots the index names for a range, ring and spill.
func (m *indexModel) ranged(teid, first, n uint32) []uint32 {
	var slots []uint32
	m.x.forRange(teid, first, n, func(slot uint32) { slots = append(slots, slot) })
	slots = append(slots, m.x.spilledIn(teid, first, n, func(slot uint32) PDCPID { return m.ids[slot] })...)
	slices.Sort(slots)
	return slots
}

func (m *indexModel) wantRange(teid, first, n uint32) []uint32 {
	var slots []uint32
	for id, slot := range m.want {
		if id.TEID == teid && (id.SN-first)&pdcpSNMask < n {
			slots = append(slots, slot)
		}
	}
	slices.Sort(slots)
	return slots
}

func TestPDCPIndexRingGrowsWithTheSNsInFlight(t *testing.T) {
	m := newIndexModel(t)
	for sn := uint32(0); sn < 1000; sn++ {
		m.put(7, sn)
	}
	m.check()
	r := m.x.bearer(7)
	if len(r.pos) != 1024 || m.x.spill.Len() != 0 {
		t.Fatalf("1000 consecutive SNs: ring %d, spilled %d; want a ring of 1024 and nothing spilled", len(r.pos), m.x.spill.Len())
	}
	if got, want := m.ranged(7, 100, 300), m.wantRange(7, 100, 300); !slices.Equal(got, want) {
		t.Fatalf("range 100..399: %v, want %v", got, want)
	}
}

func TestPDCPIndexSpillsSNsFarApart(t *testing.T) {
	m := newIndexModel(t)
	// PDUs half the SN space or a ring apart share a position: the ring
	// stays dense (at most 8 positions a PDU) and they spill.
	m.put(7, 5)
	m.put(7, 5+MaxPDCPAckRange)
	m.put(7, 5+minRingLen)
	m.check()
	if r := m.x.bearer(7); len(r.pos) != minRingLen || m.x.spill.Len() != 2 {
		t.Fatalf("ring %d, spilled %d", len(r.pos), m.x.spill.Len())
	}
	for _, rg := range [][2]uint32{{5, 1}, {5 + MaxPDCPAckRange, 1}, {0, 100}, {MaxPDCPAckRange, MaxPDCPAckRange}, {5, MaxPDCPAckRange}} {
		if got, want := m.ranged(7, rg[0], rg[1]), m.wantRange(7, rg[0], rg[1]); !slices.Equal(got, want) {
			t.Fatalf("range %d+%d: %v, want %v", rg[0], rg[1], got, want)
		}
	}
	// The bearer's ring empties and goes; its spilled PDUs stay found.
	m.del(7, 5)
	m.check()
	m.del(7, 5+MaxPDCPAckRange)
	m.del(7, 5+minRingLen)
	m.check()
	if m.x.spill.Len() != 0 || m.x.bearers.Len() != 0 {
		t.Fatalf("spill keeps %d after its PDU left", m.x.spill.Len())
	}
}

func TestPDCPIndexRangesAcrossTheWrap(t *testing.T) {
	m := newIndexModel(t)
	top := uint32(PDCPSNSpace - 1)
	for _, sn := range []uint32{top - 2, top - 1, top, 0, 1, 2} {
		m.put(9, sn)
	}
	m.check()
	// A range shorter than the ring walks it; a longer one scans it.
	for _, rg := range [][2]uint32{{top - 1, 3}, {top, 2}, {top - 100, 102}, {top - 1000, 1002}, {1, 2}} {
		if got, want := m.ranged(9, rg[0], rg[1]), m.wantRange(9, rg[0], rg[1]); !slices.Equal(got, want) {
			t.Fatalf("range %d+%d: %v, want %v", rg[0], rg[1], got, want)
		}
	}
}

func TestPDCPIndexBearersApartAndReused(t *testing.T) {
	m := newIndexModel(t)
	for teid := uint32(1); teid <= 300; teid++ {
		for sn := uint32(0); sn < 4; sn++ {
			m.put(teid, sn)
		}
	}
	m.check()
	if got, want := m.ranged(150, 0, 4), m.wantRange(150, 0, 4); !slices.Equal(got, want) || len(got) != 4 {
		t.Fatalf("bearer 150: %v, want %v", got, want)
	}
	for sn := uint32(0); sn < 4; sn++ {
		m.del(150, sn)
	}
	if m.x.bearer(150) != nil || m.x.bearers.Len() != 299 || len(m.x.free) != 1 {
		t.Fatalf("an empty bearer stays: %d bearers, %d free rings", m.x.bearers.Len(), len(m.x.free))
	}
	m.put(1000, 3) // takes the freed ring, which must be empty
	m.check()
	if got := m.ranged(1000, 0, 4); len(got) != 1 {
		t.Fatalf("a reused ring names %v", got)
	}
}

// A random walk of puts and deletes over a few bearers, SNs close and
// far, against the model.
func TestPDCPIndexMatchesAMap(t *testing.T) {
	m := newIndexModel(t)
	rnd := uint64(1)
	next := func(n uint64) uint32 {
		rnd ^= rnd << 13
		rnd ^= rnd >> 7
		rnd ^= rnd << 17
		return uint32(rnd % n)
	}
	base := map[uint32]uint32{}
	for step := 0; step < 20000; step++ {
		teid := 1 + next(4)
		var sn uint32
		if next(50) == 0 {
			sn = next(PDCPSNSpace) // far
		} else {
			base[teid] += next(3)
			sn = base[teid] & pdcpSNMask
		}
		if _, kept := m.want[PDCPID{teid, sn}]; kept {
			m.del(teid, sn)
		} else {
			m.put(teid, sn)
		}
		if next(3) == 0 && len(m.want) > 0 {
			first, n := (base[teid]-next(200))&pdcpSNMask, next(300)+1
			got := m.ranged(teid, first, n)
			if want := m.wantRange(teid, first, n); !slices.Equal(got, want) {
				t.Fatalf("step %d range %d+%d: %v, want %v", step, first, n, got, want)
			}
			for _, slot := range got {
				m.del(m.ids[slot].TEID, m.ids[slot].SN)
			}
		}
		if step%1000 == 0 {
			m.check()
		}
	}
	m.check()
}
