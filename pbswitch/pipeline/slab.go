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
	// paramBytes is the widest action's parameter bytes.
	paramBytes int
	stride     int // the most parameters of an action (words a hit gives)
	actions    []uint32
	bits       [][]int // each action's parameter widths
	// params is each action's parameters as a hit decodes them: where
	// each starts in the record and the shift that cuts its 8-byte load
	// to its width.
	params [][]paramAt

	records  [][]byte
	counters []*[slabChunk]CounterCell // nil without a direct counter
	counted  bool
	cookies  map[uint32]uint64 // non-zero cookies only
	meters   map[uint32]*Meter // configured direct meters only

	index []uint32 // slot+1 per bucket, 0: empty; len a power of two
	seed  maphash.Seed
	// seed64 keys the hash of keys of at most 8 bytes (hashShort).
	seed64 uint64
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
		var at []paramAt
		for _, b := range bits {
			w := Width(b)
			at = append(at, paramAt{off: uint16(s.keyWidth + 1 + n), shift: uint8(64 - 8*w)}) // w 0..8
			n += w
		}
		s.params = append(s.params, at)
		paramBytes = max(paramBytes, n)
	}
	s.recWidth, s.paramBytes = s.keyWidth+1+paramBytes, paramBytes
	s.seed64 = maphash.Bytes(s.seed, []byte("slab seed64"))
	return s
}

// paramAt is where a hit finds one parameter in a record: an 8-byte
// big-endian load at off, shifted right by shift (64 for a 0-bit one).
type paramAt struct {
	off   uint16
	shift uint8
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
// big-endian load at its offset shifted down to its width (the chunk ends
// in slabSlack bytes, so the load past the last record stays in it).
func (s *exactSlab) decodeRecord(rec []byte, words []uint64) []uint64 {
	at := s.params[int(rec[s.keyWidth])-1]
	words = words[:len(at)]
	rec = rec[:cap(rec)]
	for i, p := range at {
		words[i] = binary.BigEndian.Uint64(rec[p.off:]) >> p.shift
	}
	return words
}

// slabSlack is the bytes a chunk has after its last record, for
// decodeRecord's 8-byte loads and LookupSlab's 16-byte moves.
const slabSlack = 16

func (s *exactSlab) counter(slot uint32) *CounterCell {
	return &s.counters[slot/slabChunk][slot%slabChunk]
}

func (s *exactSlab) hash(key []byte) uint64 {
	if s.hashKey != nil {
		return s.hashKey(key)
	}
	if len(key) <= 8 {
		return hashShort(shortKey(key), s.seed64)
	}
	return maphash.Bytes(s.seed, key)
}

// shortKey packs a key of 1 to 8 bytes into a word that tells apart any two
// keys of its length (loads that may overlap, as wyhash reads short keys).
func shortKey(b []byte) uint64 {
	switch n := len(b); {
	case n >= 4:
		return uint64(binary.BigEndian.Uint32(b))<<32 | uint64(binary.BigEndian.Uint32(b[n-4:]))
	case n > 0:
		return uint64(b[0])<<16 | uint64(b[n/2])<<8 | uint64(b[n-1])
	}
	return 0
}

// hashShort mixes a short key's word with the slab's seed (splitmix64's
// finaliser: every bit of the word reaches the low bits the index uses).
func hashShort(k, seed uint64) uint64 {
	k ^= seed
	k ^= k >> 30
	k *= 0xbf58476d1ce4e5b9
	k ^= k >> 27
	k *= 0x94d049bb133111eb
	return k ^ k>>31
}

// find is the bucket holding key's slot, or -1.
func (s *exactSlab) find(key []byte) (bucket int, slot uint32) {
	b, slot, _ := s.findRecord(key)
	return b, slot
}

// findRecord is find that also gives the slot's record (nil: no slot).
func (s *exactSlab) findRecord(key []byte) (bucket int, slot uint32, rec []byte) {
	mask := len(s.index) - 1
	kw := s.keyWidth
	if kw <= 8 && s.hashKey == nil && len(key) == kw {
		// A short key is compared as its word.
		k := shortKey(key)
		for b := int(hashShort(k, s.seed64)) & mask; ; b = (b + 1) & mask {
			v := s.index[b]
			if v == 0 {
				return -1, 0, nil
			}
			if r := s.record(v - 1); shortKey(r[:kw]) == k {
				return b, v - 1, r
			}
		}
	}
	for b := int(s.hash(key)) & mask; ; b = (b + 1) & mask {
		v := s.index[b]
		if v == 0 {
			return -1, 0, nil
		}
		if r := s.record(v - 1); bytes.Equal(r[:kw], key) {
			return b, v - 1, r
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

// lookupRecord is the record of key's entry, nil when it has none.
func (s *exactSlab) lookupRecord(key []byte) []byte {
	if s.n == 0 {
		return nil
	}
	_, _, rec := s.findRecord(key)
	return rec
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
