// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"math/rand"
	"testing"
)

// tssShape is flow_steering's key: from_vport (1 bit, ternary),
// ingress_port (9 bits, ternary), an LPM address and an optional byte.
var tssShape = []KeyField{{Bits: 1, Kind: Ternary}, {Bits: 9, Kind: Ternary},
	{Bits: 32, Kind: LPM}, {Bits: 8, Kind: Optional}}

func shapeOffsets() ([]int, int) {
	var offs []int
	w := 0
	for _, f := range tssShape {
		offs = append(offs, w)
		w += Width(f.Bits)
	}
	return offs, w
}

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
