// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"sort"
)

// tssMatcher is tuple space search for ternary, LPM and optional keys:
// entries are grouped by their mask over the whole key (a "tuple"), and a
// lookup masks the key once per group and finds that group's entries by
// hash. Thousands of rules of one shape (FlowBuf pauses 10,000 UEs' flows,
// all with the same fields set) are one hash lookup instead of a scan.
// Priority order is the scan's: the highest priority wins, among equal
// priorities the entry inserted first.
//
// A key of at most 16 bytes (flow_steering's is 16) is two words: the
// masking is two ANDs and the groups' maps are keyed by the two words.
// Each list keeps its entries' insertion numbers next to them, so a lookup
// compares two groups' winners without looking anything up.
type tssMatcher struct {
	fields  []KeyField
	offsets []int
	width   int
	small   bool        // width <= 16: keys and masks as two words
	groups  []*tssGroup // highest top priority first
	byMask  map[string]*tssGroup
	seq     uint64
}

// tssItem is an entry and its insertion number (for ties).
type tssItem struct {
	e   *Entry
	seq uint64
}

// wins reports whether a wins over b.
func (a tssItem) wins(b tssItem) bool {
	if a.e.Priority != b.e.Priority {
		return a.e.Priority > b.e.Priority
	}
	return a.seq < b.seq
}

type tssGroup struct {
	mask  []byte
	m     [2]uint64            // mask as words (small keys)
	words wordTable            // small keys: masked key -> best first
	wide  map[string][]tssItem // wider keys: masked key -> best first
	prios map[int32]int        // entries per priority
	top   int32
}

func newTSS(fields []KeyField, offsets []int, width int) *tssMatcher {
	return &tssMatcher{fields: fields, offsets: offsets, width: width, small: width <= 16,
		byMask: map[string]*tssGroup{}}
}

// keyWords is a key of at most 16 bytes as two little-endian words, zero
// padded.
func keyWords(b []byte) [2]uint64 {
	if len(b) == 16 {
		return [2]uint64{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}
	}
	var buf [16]byte
	copy(buf[:], b)
	return [2]uint64{binary.LittleEndian.Uint64(buf[:]), binary.LittleEndian.Uint64(buf[8:])}
}

// tuple is e's mask over the key and its value under that mask.
func (x *tssMatcher) tuple(e *Entry) (mask, value []byte) {
	mask, value = make([]byte, x.width), make([]byte, x.width)
	for i, f := range x.fields {
		m := &e.Match[i]
		if m.Wildcard {
			continue
		}
		off, w := x.offsets[i], Width(f.Bits)
		copy(value[off:off+w], m.Value)
		if f.Kind == Ternary || f.Kind == LPM {
			copy(mask[off:off+w], m.Mask)
			continue
		}
		for j := off; j < off+w; j++ {
			mask[j] = 0xff
		}
	}
	return mask, value
}

func (x *tssMatcher) add(e *Entry) {
	x.seq++
	it := tssItem{e: e, seq: x.seq}
	mask, value := x.tuple(e)
	g := x.byMask[string(mask)]
	if g == nil {
		g = &tssGroup{mask: mask, prios: map[int32]int{}, top: e.Priority}
		if x.small {
			g.m = keyWords(mask)
			g.words.init()
		} else {
			g.wide = map[string][]tssItem{}
		}
		x.byMask[string(mask)] = g
		x.groups = append(x.groups, g)
	}
	// A new entry loses every tie: it goes after all it does not beat.
	insert := func(list []tssItem) []tssItem {
		i := sort.Search(len(list), func(i int) bool { return it.wins(list[i]) })
		return slices.Insert(list, i, it)
	}
	if x.small {
		k := keyWords(value)
		g.words.put(k, insert(g.words.get(k)))
	} else {
		g.wide[string(value)] = insert(g.wide[string(value)])
	}
	g.prios[e.Priority]++
	g.top = max(g.top, e.Priority)
	x.sortGroups()
}

func (x *tssMatcher) remove(e *Entry) {
	mask, value := x.tuple(e)
	g := x.byMask[string(mask)]
	if g == nil {
		return
	}
	found := false
	drop := func(list []tssItem) []tssItem {
		return slices.DeleteFunc(list, func(o tssItem) bool {
			found = found || o.e == e
			return o.e == e
		})
	}
	if x.small {
		k := keyWords(value)
		g.words.put(k, drop(g.words.get(k)))
	} else {
		if list := drop(g.wide[string(value)]); len(list) == 0 {
			delete(g.wide, string(value))
		} else {
			g.wide[string(value)] = list
		}
	}
	if !found {
		return
	}
	if g.prios[e.Priority]--; g.prios[e.Priority] == 0 {
		delete(g.prios, e.Priority)
	}
	if g.words.n == 0 && len(g.wide) == 0 {
		delete(x.byMask, string(mask))
		x.groups = slices.DeleteFunc(x.groups, func(o *tssGroup) bool { return o == g })
		return
	}
	if e.Priority == g.top {
		g.top = topOf(g.prios)
	}
	x.sortGroups()
}

func topOf(prios map[int32]int) int32 {
	first, top := true, int32(0)
	for p := range prios {
		if first || p > top {
			first, top = false, p
		}
	}
	return top
}

func (x *tssMatcher) sortGroups() {
	sort.SliceStable(x.groups, func(i, j int) bool { return x.groups[i].top > x.groups[j].top })
}

func (x *tssMatcher) lookup(key []byte) *Entry {
	if x.small {
		return x.lookupWords(key)
	}
	return x.lookupWide(key)
}

// lookupWords is the lookup of a key of at most 16 bytes.
func (x *tssMatcher) lookupWords(key []byte) *Entry {
	k := keyWords(key)
	if len(x.groups) == 1 {
		g := x.groups[0]
		if list := g.words.get([2]uint64{k[0] & g.m[0], k[1] & g.m[1]}); len(list) > 0 {
			return list[0].e
		}
		return nil
	}
	var best tssItem
	for _, g := range x.groups {
		if best.e != nil && g.top < best.e.Priority {
			break // groups are in top-priority order: none can win now
		}
		if list := g.words.get([2]uint64{k[0] & g.m[0], k[1] & g.m[1]}); len(list) > 0 && (best.e == nil || list[0].wins(best)) {
			best = list[0]
		}
	}
	return best.e
}

// lookupWide is the lookup of a key wider than 16 bytes.
func (x *tssMatcher) lookupWide(key []byte) *Entry {
	var stack [64]byte
	masked := stack[:0]
	if len(key) > len(stack) {
		masked = make([]byte, 0, len(key))
	}
	masked = masked[:len(key)]
	var best tssItem
	for _, g := range x.groups {
		if best.e != nil && g.top < best.e.Priority {
			break // groups are in top-priority order: none can win now
		}
		mask := g.mask[:len(masked)]
		i := 0
		for ; i+8 <= len(masked); i += 8 {
			binary.LittleEndian.PutUint64(masked[i:], binary.LittleEndian.Uint64(key[i:])&binary.LittleEndian.Uint64(mask[i:]))
		}
		for ; i < len(masked); i++ {
			masked[i] = key[i] & mask[i]
		}
		if list := g.wide[string(masked)]; len(list) > 0 && (best.e == nil || list[0].wins(best)) {
			best = list[0]
		}
	}
	return best.e
}

// wordTable is a hash table from two-word keys to lists, open addressing
// with linear probing, at most half full: a lookup is a multiply and a
// probe or two, where Go's map of [2]uint64 costs about 125 instructions
// (callgrind). The seed is random per table, so that packets' keys cannot
// be chosen to collide.
type wordTable struct {
	slots []wordSlot // a power of two long
	shift uint       // 64 - log2(len(slots))
	seed  uint64
	n     int
}

type wordSlot struct {
	k    [2]uint64
	list []tssItem // empty: a free slot
}

func (t *wordTable) init() {
	t.seed = rand.Uint64()
	t.slots, t.shift, t.n = make([]wordSlot, 8), 61, 0
}

func (t *wordTable) home(k [2]uint64) int {
	h := (k[0] ^ t.seed) * 0x9e3779b97f4a7c15
	h = (h ^ k[1] ^ h>>29) * 0xbf58476d1ce4e5b9
	return int(h >> t.shift)
}

// get is k's list, nil if none.
func (t *wordTable) get(k [2]uint64) []tssItem {
	mask := len(t.slots) - 1
	for i := t.home(k); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if len(s.list) == 0 {
			return nil
		}
		if s.k == k {
			return s.list
		}
	}
}

// put sets k's list; an empty list removes k.
func (t *wordTable) put(k [2]uint64, list []tssItem) {
	mask := len(t.slots) - 1
	i := t.home(k)
	for ; len(t.slots[i].list) > 0 && t.slots[i].k != k; i = (i + 1) & mask {
	}
	switch s := &t.slots[i]; {
	case len(list) > 0 && len(s.list) > 0:
		s.list = list
	case len(list) > 0:
		*s = wordSlot{k: k, list: list}
		if t.n++; 2*t.n > len(t.slots) {
			t.grow()
		}
	case len(s.list) > 0:
		t.n--
		t.free(i)
	}
}

// free empties slot i and moves later entries of its run back into the
// gap where their home allows (deletion without tombstones).
func (t *wordTable) free(i int) {
	mask := len(t.slots) - 1
	for {
		t.slots[i] = wordSlot{}
		j := i
		for {
			j = (j + 1) & mask
			if len(t.slots[j].list) == 0 {
				return
			}
			h := t.home(t.slots[j].k)
			// j's entry may fill the gap at i unless its home lies in (i, j].
			if (i < j && (h <= i || h > j)) || (j < i && h <= i && h > j) {
				t.slots[i] = t.slots[j]
				i = j
				break
			}
		}
	}
}

func (t *wordTable) grow() {
	old := t.slots
	t.slots, t.shift, t.n = make([]wordSlot, 2*len(old)), t.shift-1, 0
	for _, s := range old {
		if len(s.list) > 0 {
			t.put(s.k, s.list)
		}
	}
}
