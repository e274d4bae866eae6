// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"bytes"
	"encoding/binary"
	"sort"
)

// matcher is a table's lookup index. Callers hold the table's lock.
type matcher interface {
	add(e *Entry)
	remove(e *Entry)
	lookup(key []byte) *Entry
}

// newMatcher picks the index for a key shape: a hash map when every field
// is exact, one hash map per prefix length (longest first) when one field
// is LPM and the rest exact, tuple space search for ternary, LPM and
// optional keys, and a priority-ordered scan when a field is a range.
func newMatcher(fields []KeyField, offsets []int, width int) matcher {
	lpm := -1
	for i, f := range fields {
		switch f.Kind {
		case Exact:
		case LPM:
			if lpm >= 0 {
				return newMasked(fields, offsets, width)
			}
			lpm = i
		default:
			return newMasked(fields, offsets, width)
		}
	}
	if lpm < 0 {
		return &exactMatcher{m: map[string]*Entry{}}
	}
	return &lpmMatcher{field: lpm, bits: fields[lpm].Bits, off: offsets[lpm], width: width}
}

// newMasked is the index of a key with a ternary, optional or second LPM
// field: tuple space search, or a scan when a field is a range (a range is
// no mask).
func newMasked(fields []KeyField, offsets []int, width int) matcher {
	for _, f := range fields {
		if f.Kind == Range {
			return &scanMatcher{fields: fields, offsets: offsets}
		}
	}
	return newTSS(fields, offsets, width)
}

// concatValues is the lookup key an entry of an exact or LPM table matches.
func concatValues(e *Entry) []byte {
	var b []byte
	for _, m := range e.Match {
		b = append(b, m.Value...)
	}
	return b
}

type exactMatcher struct{ m map[string]*Entry }

func (x *exactMatcher) add(e *Entry)             { x.m[string(concatValues(e))] = e }
func (x *exactMatcher) remove(e *Entry)          { delete(x.m, string(concatValues(e))) }
func (x *exactMatcher) lookup(key []byte) *Entry { return x.m[string(key)] }

// lpmMatcher keeps one map per prefix length of the LPM field; the map key
// is the lookup key with the LPM field masked to that length. A wildcard
// LPM field is prefix length 0. The lengths present are a slice, longest
// first, each with its mask and map, so a lookup walks only them. A key of
// at most 8 bytes (an IPv4 route's, say) is a big-endian uint64 in
// uint64-keyed maps, masked in one AND.
type lpmMatcher struct {
	field, bits, off, width int
	levels                  []*lpmLevel // the prefix lengths present, longest first
	// few is every entry, longest prefix first, while the key is narrow
	// and there are at most lpmFew: lookup scans it (a masked compare an
	// entry) instead of probing a map per level. Nil otherwise.
	few []lpmFew
}

// lpmFew is one entry of a small narrow LPM table: the key a lookup's key
// matches once masked.
type lpmFew struct {
	key, mask uint64
	e         *Entry
}

// lpmFewMax is the most entries lookup scans; more take the levels' maps.
const lpmFewMax = 8

// lpmLevel is one prefix length's entries.
type lpmLevel struct {
	n      int
	mask   []byte            // the LPM field's mask for length n
	mask64 uint64            // the whole key's mask, when the key is narrow
	m      map[string]*Entry // wide keys
	m64    map[uint64]*Entry // narrow keys
}

// narrow says whether the matcher keys its maps by uint64.
func (x *lpmMatcher) narrow() bool { return x.width <= 8 }

// key64 is a key of at most 8 bytes as a big-endian uint64.
func key64(b []byte) uint64 {
	switch len(b) { // the common widths in one load
	case 4:
		return uint64(binary.BigEndian.Uint32(b))
	case 8:
		return binary.BigEndian.Uint64(b)
	}
	var k uint64
	for _, c := range b {
		k = k<<8 | uint64(c)
	}
	return k
}

func (x *lpmMatcher) plen(e *Entry) int {
	if e.Match[x.field].Wildcard {
		return 0
	}
	return e.Match[x.field].PrefixLen
}

func (x *lpmMatcher) entryKey(e *Entry) string {
	var b []byte
	for i, m := range e.Match {
		if i == x.field && m.Wildcard {
			b = append(b, make([]byte, Width(x.bits))...)
			continue
		}
		b = append(b, m.Value...)
	}
	return string(b)
}

// level is prefix length n's level, made when add is true and it is
// missing.
func (x *lpmMatcher) level(n int, add bool) *lpmLevel {
	i := 0
	for ; i < len(x.levels) && x.levels[i].n >= n; i++ {
		if x.levels[i].n == n {
			return x.levels[i]
		}
	}
	if !add {
		return nil
	}
	l := &lpmLevel{n: n, mask: prefixMask(x.bits, n)}
	if x.narrow() {
		l.m64 = map[uint64]*Entry{}
		whole := make([]byte, x.width)
		for j := range whole {
			whole[j] = 0xff
		}
		copy(whole[x.off:], l.mask)
		l.mask64 = key64(whole)
	} else {
		l.m = map[string]*Entry{}
	}
	x.levels = append(x.levels, nil)
	copy(x.levels[i+1:], x.levels[i:])
	x.levels[i] = l
	return l
}

func (x *lpmMatcher) add(e *Entry) {
	l, k := x.level(x.plen(e), true), x.entryKey(e)
	if l.m64 != nil {
		if len(k) == x.width {
			l.m64[key64([]byte(k))] = e
		}
		x.listFew()
		return
	}
	l.m[k] = e
}

// listFew rebuilds few from the levels after a change: every entry,
// longest prefix first, when the key is narrow and there are at most
// lpmFewMax (entries of one length are disjoint once masked, so their
// order does not matter), nil otherwise.
func (x *lpmMatcher) listFew() {
	x.few = x.few[:0]
	n := 0
	for _, l := range x.levels {
		n += len(l.m64)
	}
	if !x.narrow() || n > lpmFewMax {
		x.few = nil
		return
	}
	for _, l := range x.levels {
		for k, e := range l.m64 {
			x.few = append(x.few, lpmFew{key: k, mask: l.mask64, e: e})
		}
	}
}

func (x *lpmMatcher) remove(e *Entry) {
	l := x.level(x.plen(e), false)
	if l == nil {
		return
	}
	k := x.entryKey(e)
	if l.m64 != nil {
		if len(k) == x.width {
			delete(l.m64, key64([]byte(k)))
		}
	} else {
		delete(l.m, k)
	}
	if len(l.m)+len(l.m64) == 0 {
		for i := range x.levels {
			if x.levels[i] == l {
				x.levels = append(x.levels[:i], x.levels[i+1:]...)
				break
			}
		}
	}
	if l.m64 != nil {
		x.listFew()
	}
}

func (x *lpmMatcher) lookup(key []byte) *Entry {
	if x.narrow() {
		if len(key) != x.width {
			return nil // no entry's key has another length
		}
		k := key64(key)
		if x.few != nil {
			for i := range x.few {
				if f := &x.few[i]; k&f.mask == f.key {
					return f.e
				}
			}
			return nil
		}
		for _, l := range x.levels {
			if e, ok := l.m64[k&l.mask64]; ok {
				return e
			}
		}
		return nil
	}
	var stack [64]byte
	var masked []byte
	if len(key) <= len(stack) {
		masked = stack[:len(key)]
	} else {
		masked = make([]byte, len(key))
	}
	copy(masked, key)
	w := Width(x.bits)
	for _, l := range x.levels {
		mask := l.mask
		for i := 0; i < w; i++ {
			masked[x.off+i] = key[x.off+i] & mask[i]
		}
		if e, ok := l.m[string(masked)]; ok {
			return e
		}
	}
	return nil
}

// scanMatcher checks entries in priority order (highest first; among equal
// priorities the earlier insert wins).
type scanMatcher struct {
	fields  []KeyField
	offsets []int
	list    []*Entry
}

func (x *scanMatcher) add(e *Entry) {
	i := sort.Search(len(x.list), func(i int) bool { return x.list[i].Priority < e.Priority })
	x.list = append(x.list, nil)
	copy(x.list[i+1:], x.list[i:])
	x.list[i] = e
}

func (x *scanMatcher) remove(e *Entry) {
	for i, o := range x.list {
		if o == e {
			x.list = append(x.list[:i], x.list[i+1:]...)
			return
		}
	}
}

func (x *scanMatcher) lookup(key []byte) *Entry {
	for _, e := range x.list {
		if x.matches(e, key) {
			return e
		}
	}
	return nil
}

func (x *scanMatcher) matches(e *Entry, key []byte) bool {
	for i, f := range x.fields {
		m := &e.Match[i]
		if m.Wildcard {
			continue
		}
		v := key[x.offsets[i] : x.offsets[i]+Width(f.Bits)]
		switch f.Kind {
		case Exact, Optional:
			if !bytes.Equal(v, m.Value) {
				return false
			}
		case Ternary, LPM:
			for j := range v {
				if v[j]&m.Mask[j] != m.Value[j] {
					return false
				}
			}
		case Range:
			if bytes.Compare(v, m.Low) < 0 || bytes.Compare(v, m.High) > 0 {
				return false
			}
		}
	}
	return true
}
