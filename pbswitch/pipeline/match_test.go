// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"
)

// The LPM matcher (one level per prefix length present; uint64 keys when
// the key is at most 8 bytes) answers as a scan for the longest matching
// prefix, through random inserts, deletes and lookups, on narrow keys (a
// 32-bit LPM field alone, and with an exact byte before it) and wide ones
// (a 128-bit field with an exact 16-bit one), wildcards included; and
// kept small (0 to 10 entries, so a narrow key's lookup crosses between
// the scan of lpmFewMax entries and the maps).
func TestLPMMatcherFindsTheLongestPrefix(t *testing.T) {
	for _, limit := range []int{0, 10} {
		t.Run(fmt.Sprint("limit", limit), func(t *testing.T) { testLPMMatcher(t, limit) })
	}
}

func testLPMMatcher(t *testing.T, limit int) {
	for _, shape := range [][]KeyField{
		{{Bits: 32, Kind: LPM}},
		{{Bits: 8, Kind: Exact}, {Bits: 32, Kind: LPM}},
		{{Bits: 9, Kind: Exact}, {Bits: 20, Kind: LPM}},
		{{Bits: 16, Kind: Exact}, {Bits: 128, Kind: LPM}},
	} {
		t.Run(fmt.Sprint(shape), func(t *testing.T) {
			var offs []int
			width, lpm := 0, 0
			for i, f := range shape {
				offs = append(offs, width)
				width += Width(f.Bits)
				if f.Kind == LPM {
					lpm = i
				}
			}
			x := newMatcher(shape, offs, width)
			if _, ok := x.(*lpmMatcher); !ok {
				t.Fatalf("%T, not the LPM matcher", x)
			}
			r := rand.New(rand.NewSource(3))
			// Few values, so prefixes nest and lookups hit.
			value := func(f KeyField) []byte {
				v := make([]byte, Width(f.Bits))
				for i := range v {
					v[i] = byte(r.Intn(3)) * 0x55
				}
				v[0] &= byte(0xff >> (8*len(v) - f.Bits))
				return v
			}
			live := map[string]*Entry{} // by key and prefix length
			hits, scanned := 0, 0
			for step := 0; step < 4000; step++ {
				if limit > 0 && len(live) >= limit {
					keep := r.Intn(limit) // down to 0..limit-1 entries
					for id, old := range live {
						if len(live) <= keep {
							break
						}
						x.remove(old)
						delete(live, id)
					}
				}
				if lx := x.(*lpmMatcher); lx.few != nil {
					scanned++
				}
				e := &Entry{}
				for _, f := range shape {
					m := FieldMatch{Value: value(f)}
					if f.Kind == LPM {
						n := r.Intn(f.Bits + 1) // 0: a wildcard, as the table validates it
						if n == 0 {
							m = FieldMatch{Wildcard: true}
						} else {
							m.PrefixLen, m.Mask = n, prefixMask(f.Bits, n)
							for i := range m.Value {
								m.Value[i] &= m.Mask[i]
							}
						}
					}
					e.Match = append(e.Match, m)
				}
				id := fmt.Sprintf("%x/%d", concatValues(e), e.Match[lpm].PrefixLen)
				switch old := live[id]; {
				case old != nil && r.Intn(2) == 0:
					x.remove(old)
					delete(live, id)
				case old == nil:
					x.add(e)
					live[id] = e
				}
				var key []byte
				for _, f := range shape {
					key = append(key, value(f)...)
				}
				got := x.lookup(key)
				var want *Entry
				for _, c := range live {
					if matchesLPM(c, shape, offs, key) && (want == nil || c.Match[lpm].PrefixLen > want.Match[lpm].PrefixLen) {
						want = c
					}
				}
				if got != want {
					t.Fatalf("step %d: key %x: got %v, want %v", step, key, got, want)
				}
				if got != nil {
					hits++
				}
			}
			if minHits := map[bool]int{false: 500, true: 100}[limit > 0]; hits < minHits {
				t.Fatalf("only %d of 4000 lookups hit", hits)
			}
			if narrow := width <= 8; limit > 0 && narrow && scanned < 1000 {
				t.Fatalf("only %d of 4000 lookups scanned the few entries", scanned)
			}
		})
	}
}

// matchesLPM is the scan's test of one entry against key.
func matchesLPM(e *Entry, shape []KeyField, offs []int, key []byte) bool {
	for i, f := range shape {
		m := e.Match[i]
		k := key[offs[i] : offs[i]+Width(f.Bits)]
		switch {
		case m.Wildcard:
		case f.Kind == Exact:
			if !bytes.Equal(k, m.Value) {
				return false
			}
		default:
			for j := range k {
				if k[j]&m.Mask[j] != m.Value[j] {
					return false
				}
			}
		}
	}
	return true
}
