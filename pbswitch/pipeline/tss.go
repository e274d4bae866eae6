// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
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
type tssMatcher struct {
	fields  []KeyField
	offsets []int
	width   int
	groups  []*tssGroup // highest top priority first
	byMask  map[string]*tssGroup
	seq     uint64
	order   map[*Entry]uint64 // insertion order, for ties
}

type tssGroup struct {
	mask    []byte
	entries map[string][]*Entry // masked key -> best first
	prios   map[int32]int       // entries per priority
	top     int32
}

func newTSS(fields []KeyField, offsets []int, width int) *tssMatcher {
	return &tssMatcher{fields: fields, offsets: offsets, width: width,
		byMask: map[string]*tssGroup{}, order: map[*Entry]uint64{}}
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

// before reports whether a wins over b.
func (x *tssMatcher) before(a, b *Entry) bool {
	if a.Priority != b.Priority {
		return a.Priority > b.Priority
	}
	return x.order[a] < x.order[b]
}

func (x *tssMatcher) add(e *Entry) {
	x.seq++
	x.order[e] = x.seq
	mask, value := x.tuple(e)
	g := x.byMask[string(mask)]
	if g == nil {
		g = &tssGroup{mask: mask, entries: map[string][]*Entry{}, prios: map[int32]int{}, top: e.Priority}
		x.byMask[string(mask)] = g
		x.groups = append(x.groups, g)
	}
	list := g.entries[string(value)]
	i := sort.Search(len(list), func(i int) bool { return x.before(e, list[i]) })
	g.entries[string(value)] = slices.Insert(list, i, e)
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
	list := slices.DeleteFunc(g.entries[string(value)], func(o *Entry) bool { return o == e })
	if len(list) == 0 {
		delete(g.entries, string(value))
	} else {
		g.entries[string(value)] = list
	}
	delete(x.order, e)
	if g.prios[e.Priority]--; g.prios[e.Priority] == 0 {
		delete(g.prios, e.Priority)
	}
	if len(g.entries) == 0 {
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
	var stack [64]byte
	masked := stack[:0]
	if len(key) > len(stack) {
		masked = make([]byte, 0, len(key))
	}
	masked = masked[:len(key)]
	var best *Entry
	for _, g := range x.groups {
		if best != nil && g.top < best.Priority {
			break // groups are in top-priority order: none can win now
		}
		for i := range masked {
			masked[i] = key[i] & g.mask[i]
		}
		if list := g.entries[string(masked)]; len(list) > 0 && (best == nil || x.before(list[0], best)) {
			best = list[0]
		}
	}
	return best
}
