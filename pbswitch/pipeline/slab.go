// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"sort"
)

// slabChunk is the entries per chunk of a slab. Chunks are never moved,
// so a counter cell a packet holds stays valid while the slab grows, and
// growing never copies what is stored.
const slabChunk = 4096

// exactSlab holds the entries of an exact-match table as software UPFs
// do, without a Go object per entry: each entry is a fixed-width record
// (the key bytes, its action's index among the table's actions, then the
// action's parameters packed at their byte widths, every parameter being
// at most 64 bits), in chunks; an open-addressing index (linear probing,
// backward-shift deletion) maps a key's hash to the entry's slot. Cookies,
// direct meters and direct counters, which most entries lack or which the
// table may not have, live beside it, indexed by slot. The caller (Table)
// holds the table's lock.
type exactSlab struct {
	keyWidth int
	recWidth int // keyWidth + 1 (action index + 1; 0: a free slot) + the widest parameters
	stride   int // the most parameters of an action (words a hit gives)
	actions  []uint32
	bits     [][]int // each action's parameter widths
	// widths is each action's parameters' byte widths, what a hit decodes.
	widths [][]uint8

	records  [][]byte
	counters []*[slabChunk]CounterCell // nil without a direct counter
	counted  bool
	cookies  map[uint32]uint64 // non-zero cookies only
	meters   map[uint32]*Meter // configured direct meters only

	index []uint32 // slot+1 per bucket, 0: empty; len a power of two
	seed  maphash.Seed
	// hashKey replaces the seeded hash (tests force collisions with it).
	hashKey func([]byte) uint64
	slots   int // slots handed out (the high-water mark)
	free    []uint32
	n       int
}

// slabEligible reports whether a table's entries fit a slab: every key
// field exact, actions carried by the entries (no action profile), at most
// 255 actions and no parameter over 64 bits.
func slabEligible(t *Table) bool {
	if t.Profile != nil || len(t.Fields) == 0 || len(t.Actions) > 255 {
		return false
	}
	for _, f := range t.Fields {
		if f.Kind != Exact {
			return false
		}
	}
	for _, spec := range t.Actions {
		for _, b := range spec.ParamBits {
			if b > 64 {
				return false
			}
		}
	}
	return true
}

func newExactSlab(t *Table, counted bool) *exactSlab {
	s := &exactSlab{keyWidth: t.keyWidth, counted: counted,
		cookies: map[uint32]uint64{}, meters: map[uint32]*Meter{}, seed: maphash.MakeSeed(),
		index: make([]uint32, 16)}
	for id := range t.Actions {
		s.actions = append(s.actions, id)
	}
	sort.Slice(s.actions, func(i, j int) bool { return s.actions[i] < s.actions[j] })
	paramBytes := 0
	for _, id := range s.actions {
		bits := t.Actions[id].ParamBits
		s.bits = append(s.bits, bits)
		s.stride = max(s.stride, len(bits))
		n := 0
		var widths []uint8
		for _, b := range bits {
			n += Width(b)
			widths = append(widths, uint8(Width(b)))
		}
		s.widths = append(s.widths, widths)
		paramBytes = max(paramBytes, n)
	}
	s.recWidth = s.keyWidth + 1 + paramBytes
	return s
}

// actionIndex is id's position among the table's actions (-1: none).
func (s *exactSlab) actionIndex(id uint32) int {
	for i, a := range s.actions {
		if a == id {
			return i
		}
	}
	return -1
}

func (s *exactSlab) record(slot uint32) []byte {
	c, i := int(slot)/slabChunk, int(slot)%slabChunk
	return s.records[c][i*s.recWidth : (i+1)*s.recWidth]
}

// actionOf is slot's action index.
func (s *exactSlab) actionOf(slot uint32) int { return int(s.record(slot)[s.keyWidth]) - 1 }

// decode writes slot's parameters as words (one per parameter) into
// words and returns them.
// A packet's hit runs it: the common widths are one load each.
func (s *exactSlab) decode(slot uint32, words []uint64) []uint64 {
	return s.decodeRecord(s.record(slot), words)
}

// decodeRecord is decode of a slot's record: each parameter one 8-byte
// big-endian load shifted down to its width (the chunk ends in
// slabSlack bytes, so the load past the last record stays in it).
func (s *exactSlab) decodeRecord(rec []byte, words []uint64) []uint64 {
	widths := s.widths[int(rec[s.keyWidth])-1]
	words = words[:len(widths)]
	p := rec[s.keyWidth+1 : cap(rec)]
	for i, w := range widths {
		words[i] = binary.BigEndian.Uint64(p) >> (64 - 8*uint(w)) // w 0..8 (a parameter is at most 64 bits)
		p = p[w:]
	}
	return words
}

// slabSlack is the bytes a chunk has after its last record, for
// decodeRecord's 8-byte loads.
const slabSlack = 8

func (s *exactSlab) counter(slot uint32) *CounterCell {
	return &s.counters[slot/slabChunk][slot%slabChunk]
}

func (s *exactSlab) hash(key []byte) uint64 {
	if s.hashKey != nil {
		return s.hashKey(key)
	}
	return maphash.Bytes(s.seed, key)
}

// find is the bucket holding key's slot, or -1.
func (s *exactSlab) find(key []byte) (bucket int, slot uint32) {
	mask := len(s.index) - 1
	for b := int(s.hash(key)) & mask; ; b = (b + 1) & mask {
		v := s.index[b]
		if v == 0 {
			return -1, 0
		}
		if bytes.Equal(s.record(v - 1)[:s.keyWidth], key) {
			return b, v - 1
		}
	}
}

// lookup is the slot of key's entry and whether there is one.
func (s *exactSlab) lookup(key []byte) (uint32, bool) {
	if s.n == 0 {
		return 0, false
	}
	b, slot := s.find(key)
	return slot, b >= 0
}

// allocSlot takes a free slot, or a new one (adding a chunk when needed).
func (s *exactSlab) allocSlot() uint32 {
	if n := len(s.free); n > 0 {
		slot := s.free[n-1]
		s.free = s.free[:n-1]
		return slot
	}
	slot := uint32(s.slots)
	if s.slots%slabChunk == 0 {
		s.records = append(s.records, make([]byte, slabChunk*s.recWidth+slabSlack))
		if s.counted {
			s.counters = append(s.counters, new([slabChunk]CounterCell))
		}
	}
	s.slots++
	return slot
}

// insert stores a new entry for key (not present) with action index ai,
// params and cookie.
func (s *exactSlab) insert(key []byte, ai int, params [][]byte, cookie uint64) {
	if (s.n+1)*2 > len(s.index) {
		s.grow()
	}
	slot := s.allocSlot()
	copy(s.record(slot), key)
	s.set(slot, ai, params, cookie)
	if s.counted {
		s.counter(slot).Set(0, 0)
	}
	mask := len(s.index) - 1
	b := int(s.hash(key)) & mask
	for s.index[b] != 0 {
		b = (b + 1) & mask
	}
	s.index[b] = slot + 1
	s.n++
}

// set writes slot's action, parameters (each at its full width, as
// validated) and cookie.
func (s *exactSlab) set(slot uint32, ai int, params [][]byte, cookie uint64) {
	rec := s.record(slot)
	rec[s.keyWidth] = byte(ai + 1)
	p := rec[s.keyWidth+1:]
	clear(p)
	for _, v := range params {
		p = p[copy(p, v):]
	}
	if cookie != 0 {
		s.cookies[slot] = cookie
	} else {
		delete(s.cookies, slot)
	}
}

// remove deletes the entry in bucket b (its slot) and closes the gap the
// bucket leaves in its probe sequence (backward-shift deletion).
func (s *exactSlab) remove(b int, slot uint32) {
	s.record(slot)[s.keyWidth] = 0
	delete(s.cookies, slot)
	delete(s.meters, slot)
	s.free = append(s.free, slot)
	s.n--
	mask := len(s.index) - 1
	for {
		s.index[b] = 0
		next := (b + 1) & mask
		for {
			v := s.index[next]
			if v == 0 {
				return
			}
			home := int(s.hash(s.record(v - 1)[:s.keyWidth])) & mask
			// v may move into b when b lies on its probe path from home.
			if (next-home)&mask >= (next-b)&mask {
				s.index[b] = v
				b = next
				break
			}
			next = (next + 1) & mask
		}
	}
}

// grow doubles the index and re-places every slot.
func (s *exactSlab) grow() {
	old := s.index
	s.index = make([]uint32, 2*len(old))
	mask := len(s.index) - 1
	for _, v := range old {
		if v == 0 {
			continue
		}
		b := int(s.hash(s.record(v - 1)[:s.keyWidth])) & mask
		for s.index[b] != 0 {
			b = (b + 1) & mask
		}
		s.index[b] = v
	}
}

// action rebuilds slot's action (full-width parameters).
func (s *exactSlab) action(slot uint32) Action {
	ai := s.actionOf(slot)
	bits := s.bits[ai]
	a := Action{ID: s.actions[ai], Params: make([][]byte, len(bits))}
	p := s.record(slot)[s.keyWidth+1:]
	for i, b := range bits {
		w := Width(b)
		a.Params[i] = append([]byte(nil), p[:w]...)
		p = p[w:]
	}
	return a
}

// entry materialises slot as an Entry (a copy: changing it changes
// nothing stored), its counter cell holding the slot's counts.
func (s *exactSlab) entry(slot uint32, fields []KeyField, offsets []int) *Entry {
	rec := s.record(slot)
	e := &Entry{Match: make([]FieldMatch, len(fields)), Action: s.action(slot), Cookie: s.cookies[slot], Meter: s.meters[slot]}
	for i, f := range fields {
		e.Match[i].Value = append([]byte(nil), rec[offsets[i]:offsets[i]+Width(f.Bits)]...)
	}
	e.key = entryKey(e)
	if s.counted {
		e.Counter.Set(s.counter(slot).Read())
	}
	return e
}

// each calls fn with every used slot.
func (s *exactSlab) each(fn func(slot uint32)) {
	for _, v := range s.index {
		if v != 0 {
			fn(v - 1)
		}
	}
}

// bytes is the memory the slab holds (records, counters, index).
func (s *exactSlab) bytes() int {
	n := len(s.records)*slabChunk*s.recWidth + 4*len(s.index) + 4*cap(s.free)
	if s.counted {
		n += len(s.counters) * slabChunk * 16
	}
	return n
}
