// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"
)

// tssShape is flow_steering's key: from_vport (1 bit, ternary),
// ingress_port (9 bits, ternary), an LPM address and an optional byte.
var tssShape = []KeyField{{Bits: 1, Kind: Ternary}, {Bits: 9, Kind: Ternary},
	{Bits: 32, Kind: LPM}, {Bits: 8, Kind: Optional}}

func shapeOffsets() ([]int, int) { return offsetsOf(tssShape) }

// randomEntry draws from few values and masks, so that entries overlap,
// share tuples and tie on priority.
func randomEntry(r *rand.Rand) *Entry {
	e := &Entry{Priority: int32(r.Intn(4))}
	masks := [][]byte{{0x01}, {0x01, 0xff}, {0x00, 0x0f}}
	for i, f := range tssShape {
		m := FieldMatch{}
		w := Width(f.Bits)
		switch {
		case r.Intn(3) == 0:
			m.Wildcard = true
		case f.Kind == Ternary:
			mask := masks[i]
			if i == 1 && r.Intn(2) == 0 {
				mask = masks[2]
			}
			m.Mask = append([]byte(nil), mask...)
			m.Value = make([]byte, w)
			for j := range m.Value {
				m.Value[j] = byte(r.Intn(4)) & m.Mask[j]
			}
		case f.Kind == LPM:
			m.PrefixLen = []int{8, 24, 32}[r.Intn(3)]
			m.Mask = prefixMask(f.Bits, m.PrefixLen)
			m.Value = []byte{10, 0, byte(r.Intn(2)), byte(r.Intn(3))}
			for j := range m.Value {
				m.Value[j] &= m.Mask[j]
			}
		default:
			m.Value = []byte{byte(r.Intn(3))}
		}
		e.Match = append(e.Match, m)
	}
	return e
}

func randomKey(r *rand.Rand, w int) []byte {
	return []byte{byte(r.Intn(2)), 0, byte(r.Intn(4)), 10, 0, byte(r.Intn(2)), byte(r.Intn(3)), byte(r.Intn(3))}[:w]
}

// TestTupleSpaceSearchAgreesWithTheScan: the same entries, inserted and
// removed in the same order, give the same winner for every key.
func TestTupleSpaceSearchAgreesWithTheScan(t *testing.T) {
	offs, w := shapeOffsets()
	r := rand.New(rand.NewSource(1))
	for round := 0; round < 50; round++ {
		scan := &scanMatcher{fields: tssShape, offsets: offs}
		tss := newTSS(tssShape, offs, w)
		var live []*Entry
		for step := 0; step < 200; step++ {
			if len(live) > 0 && r.Intn(3) == 0 {
				i := r.Intn(len(live))
				scan.remove(live[i])
				tss.remove(live[i])
				live = append(live[:i], live[i+1:]...)
			} else {
				e := randomEntry(r)
				scan.add(e)
				tss.add(e)
				live = append(live, e)
			}
			for k := 0; k < 20; k++ {
				key := randomKey(r, w)
				if got, want := tss.lookup(key), scan.lookup(key); got != want {
					t.Fatalf("round %d step %d key %x: tuple space search found %+v, the scan %+v", round, step, key, got, want)
				}
			}
		}
	}
}

// BenchmarkSteeringLookup10k: 10,000 pause rules of one shape (distinct
// L4 ports), a lookup of the last one.
func BenchmarkSteeringLookup10k(b *testing.B) {
	fields := []KeyField{{Bits: 1, Kind: Ternary}, {Bits: 9, Kind: Ternary}, {Bits: 16, Kind: Ternary}}
	offs, w := []int{0, 1, 3}, 5
	for _, kind := range []string{"tss", "scan"} {
		var m matcher = newTSS(fields, offs, w)
		if kind == "scan" {
			m = &scanMatcher{fields: fields, offsets: offs}
		}
		for i := 0; i < 10000; i++ {
			m.add(&Entry{Priority: 100, Match: []FieldMatch{
				{Value: []byte{0}, Mask: []byte{1}}, {Value: []byte{0, 1}, Mask: []byte{1, 0xff}},
				{Value: []byte{byte(i >> 8), byte(i)}, Mask: []byte{0xff, 0xff}}}})
		}
		key := []byte{0, 0, 1, byte(9999 >> 8), byte(9999 & 0xff)}
		b.Run(kind, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if m.lookup(key) == nil {
					b.Fatal("no match")
				}
			}
		})
	}
}

// tssShapes are key shapes of several widths: 3 bytes, 8 (tssShape), 16
// (flow_steering's, the widest kept as two words), 18, 37 (an IPv6
// five-tuple) and 70 (wider than the lookup's stack buffer).
var tssShapes = [][]KeyField{
	{{Bits: 1, Kind: Ternary}, {Bits: 9, Kind: Exact}},
	tssShape,
	{{Bits: 1, Kind: Ternary}, {Bits: 9, Kind: Ternary}, {Bits: 32, Kind: Ternary}, {Bits: 32, Kind: Ternary},
		{Bits: 8, Kind: Ternary}, {Bits: 16, Kind: Ternary}, {Bits: 16, Kind: Ternary}},
	{{Bits: 9, Kind: Ternary}, {Bits: 120, Kind: LPM}, {Bits: 4, Kind: Optional}},
	{{Bits: 128, Kind: Ternary}, {Bits: 128, Kind: LPM}, {Bits: 8, Kind: Optional}, {Bits: 16, Kind: Ternary}, {Bits: 16, Kind: Exact}},
	{{Bits: 256, Kind: Ternary}, {Bits: 256, Kind: LPM}, {Bits: 48, Kind: Ternary}},
}

// offsetsOf is a shape's field offsets and width.
func offsetsOf(fields []KeyField) ([]int, int) {
	var offs []int
	w := 0
	for _, f := range fields {
		offs = append(offs, w)
		w += Width(f.Bits)
	}
	return offs, w
}

// topByte is the bits a field's first byte may carry.
func topByte(bits int) byte {
	if bits%8 == 0 {
		return 0xff
	}
	return byte(1)<<(bits%8) - 1
}

// fewBytes draws from a few byte values, so that entries overlap.
func fewBytes(r *rand.Rand, w, bits int) []byte {
	b := make([]byte, w)
	for i := range b {
		b[i] = []byte{0x00, 0x01, 0x0a, 0xff}[r.Intn(4)]
	}
	b[0] &= topByte(bits)
	return b
}

// randomShapedEntry is an entry of shape fields, drawn from few masks and
// values; its priority from 0..3, so that ties are common.
func randomShapedEntry(r *rand.Rand, fields []KeyField) *Entry {
	e := &Entry{Priority: int32(r.Intn(4))}
	for _, f := range fields {
		w := Width(f.Bits)
		m := FieldMatch{}
		switch {
		case f.Kind != Exact && r.Intn(3) == 0:
			m.Wildcard = true
		case f.Kind == Ternary:
			m.Mask = make([]byte, w)
			for i := range m.Mask {
				m.Mask[i] = []byte{0x00, 0x0f, 0xff, 0xff}[r.Intn(4)]
			}
			m.Mask[0] &= topByte(f.Bits)
			m.Value = fewBytes(r, w, f.Bits)
			for i := range m.Value {
				m.Value[i] &= m.Mask[i]
			}
		case f.Kind == LPM:
			m.PrefixLen = []int{0, 1, f.Bits / 2, f.Bits - 1, f.Bits}[r.Intn(5)]
			m.Mask = prefixMask(f.Bits, m.PrefixLen)
			m.Value = fewBytes(r, w, f.Bits)
			for i := range m.Value {
				m.Value[i] &= m.Mask[i]
			}
		default: // exact, optional
			m.Value = fewBytes(r, w, f.Bits)
		}
		e.Match = append(e.Match, m)
	}
	return e
}

// shapedKey is a key near a live entry's value (some fields or bytes
// changed) or a random one.
func shapedKey(r *rand.Rand, fields []KeyField, offs []int, w int, live []*Entry) []byte {
	key := make([]byte, w)
	var e *Entry
	if len(live) > 0 && r.Intn(4) != 0 {
		e = live[r.Intn(len(live))]
	}
	for i, f := range fields {
		v := fewBytes(r, Width(f.Bits), f.Bits)
		if e != nil && !e.Match[i].Wildcard && r.Intn(4) != 0 {
			v = append([]byte(nil), e.Match[i].Value...)
			if r.Intn(4) == 0 {
				j := r.Intn(len(v))
				v[j] = fewBytes(r, 1, 8)[0]
				v[0] &= topByte(f.Bits)
			}
		}
		copy(key[offs[i]:], v)
	}
	return key
}

// plainScan is the reference: of the entries in insertion order, the first
// of the highest priority among those that match.
func plainScan(fields []KeyField, offs []int, live []*Entry, key []byte) *Entry {
	var best *Entry
	for _, e := range live {
		if (best == nil || e.Priority > best.Priority) && entryMatches(fields, offs, e, key) {
			best = e
		}
	}
	return best
}

func entryMatches(fields []KeyField, offs []int, e *Entry, key []byte) bool {
	for i, f := range fields {
		m := &e.Match[i]
		if m.Wildcard {
			continue
		}
		v := key[offs[i] : offs[i]+Width(f.Bits)]
		for j := range v {
			mask := byte(0xff)
			if f.Kind == Ternary || f.Kind == LPM {
				mask = m.Mask[j]
			}
			if v[j]&mask != m.Value[j] {
				return false
			}
		}
	}
	return true
}

// TestTupleSpaceSearchAgreesWithAPlainScan: for keys of several widths,
// entries of random masks, priorities and ties, added, removed and added
// again, the lookup finds what a plain scan in insertion order finds: the
// highest priority, among equal ones the entry inserted first (an entry
// added again counts as inserted then).
func TestTupleSpaceSearchAgreesWithAPlainScan(t *testing.T) {
	for si, fields := range tssShapes {
		offs, w := offsetsOf(fields)
		r := rand.New(rand.NewSource(int64(si + 7)))
		hits, groups := 0, 0
		for round := 0; round < 30; round++ {
			tss := newTSS(fields, offs, w)
			var live, dead []*Entry
			for step := 0; step < 150; step++ {
				switch n := r.Intn(6); {
				case n == 0 && len(live) > 0:
					i := r.Intn(len(live))
					tss.remove(live[i])
					dead = append(dead, live[i])
					live = slices.Delete(live, i, i+1)
				case n == 1 && len(dead) > 0:
					i := r.Intn(len(dead))
					tss.add(dead[i])
					live = append(live, dead[i])
					dead = slices.Delete(dead, i, i+1)
				default:
					e := randomShapedEntry(r, fields)
					tss.add(e)
					live = append(live, e)
				}
				groups = max(groups, len(tss.groups))
				for k := 0; k < 20; k++ {
					key := shapedKey(r, fields, offs, w, live)
					got, want := tss.lookup(key), plainScan(fields, offs, live, key)
					if got != want {
						t.Fatalf("width %d round %d step %d key %x: tuple space search found %v, the scan %v",
							w, round, step, key, got, want)
					}
					if want != nil {
						hits++
					}
				}
			}
		}
		// The draw must exercise what it claims: matches and, past the
		// narrowest shape (one 1-bit ternary field), many masks at once.
		t.Logf("width %d: %d of %d lookups hit, up to %d groups", w, hits, 30*150*20, groups)
		if hits < 10000 || groups < 2 || (w > 3 && groups < 20) {
			t.Fatalf("width %d: only %d hits, at most %d groups", w, hits, groups)
		}
	}
}

// TestTupleSpaceSearchAllocatesNothing: a lookup allocates nothing, for
// keys kept as two words and for wider ones up to 64 bytes.
func TestTupleSpaceSearchAllocatesNothing(t *testing.T) {
	for _, fields := range tssShapes {
		offs, w := offsetsOf(fields)
		if w > 64 {
			continue
		}
		r := rand.New(rand.NewSource(3))
		tss := newTSS(fields, offs, w)
		var live []*Entry
		for i := 0; i < 100; i++ {
			e := randomShapedEntry(r, fields)
			tss.add(e)
			live = append(live, e)
		}
		keys := make([][]byte, 64)
		for i := range keys {
			keys[i] = shapedKey(r, fields, offs, w, live)
		}
		i := 0
		if n := testing.AllocsPerRun(1000, func() { tss.lookup(keys[i%len(keys)]); i++ }); n != 0 {
			t.Errorf("width %d: %.1f allocations a lookup", w, n)
		}
	}
}

// BenchmarkSteeringLookupOne: flow_steering's 16-byte key, one pause rule
// (the in-process hop's table), a hit and a miss.
func BenchmarkSteeringLookupOne(b *testing.B) {
	fields := tssShapes[2]
	offs, w := offsetsOf(fields)
	tss := newTSS(fields, offs, w)
	ones := func(n int) []byte { return bytes.Repeat([]byte{0xff}, n) }
	tss.add(&Entry{Priority: 10, Match: []FieldMatch{{Value: []byte{0}, Mask: []byte{1}}, {Wildcard: true},
		{Wildcard: true}, {Value: []byte{10, 251, 0, 2}, Mask: ones(4)}, {Wildcard: true}, {Wildcard: true}, {Wildcard: true}}})
	hit := []byte{0, 0, 1, 10, 0, 0, 1, 10, 251, 0, 2, 17, 0, 9, 0, 9}
	miss := slices.Clone(hit)
	miss[0] = 1
	for _, k := range []struct {
		name string
		key  []byte
	}{{"hit", hit}, {"miss", miss}} {
		b.Run(k.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if (tss.lookup(k.key) == nil) != (k.name == "miss") {
					b.Fatal("wrong result")
				}
			}
		})
	}
}

// TestWordTableAgreesWithAMap: the two-word hash table under random puts
// and removals (growing to thousands of keys, emptied and refilled) holds
// what a Go map holds; removal's back-shifting keeps every key findable.
func TestWordTableAgreesWithAMap(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var tab wordTable
	tab.init()
	ref := map[[2]uint64][]tssItem{}
	key := func() [2]uint64 { n := uint64(r.Intn(3000)); return [2]uint64{n % 7, n / 7 << 40} }
	for step := 0; step < 60000; step++ {
		k := key()
		// Fill for the first 20,000 steps, then mostly remove, then mixed.
		if p := r.Intn(10); (step < 20000 && p < 2) || (step >= 20000 && step < 40000 && p < 8) || (step >= 40000 && p < 5) {
			tab.put(k, nil)
			delete(ref, k)
		} else {
			list := []tssItem{{seq: uint64(step)}}
			tab.put(k, list)
			ref[k] = list
		}
		if tab.n != len(ref) {
			t.Fatalf("step %d: %d keys, the map %d", step, tab.n, len(ref))
		}
		if step%100 == 0 {
			for n := uint64(0); n < 3000; n++ {
				k := [2]uint64{n % 7, n / 7 << 40}
				if got, want := tab.get(k), ref[k]; len(got) != len(want) || (len(got) > 0 && got[0].seq != want[0].seq) {
					t.Fatalf("step %d key %x: %v, the map %v", step, k, got, want)
				}
			}
		}
	}
	if len(tab.slots) < 4096 {
		t.Fatalf("the table never grew past %d slots", len(tab.slots))
	}
}
