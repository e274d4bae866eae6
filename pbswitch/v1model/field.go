// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"encoding/binary"
	"math/big"
)

// lvalue is a field the program reads or writes: a metadata field's words
// in phv.slots (slot >= 0), a header field's bits in phv.hdr (bit >= 0), or
// a field of a header chosen at run time (dyn: a stack element, whose bit
// offset it returns, -1 when out of range).
type lvalue struct {
	hdr          int // the header instance, -1 with dyn
	width, words int
	signed       bool
	name         string
	slot         int
	bit          int
	dyn          func(*phv) int
	// vl is set for a variable-length field, which has no fixed width: only
	// the code that knows varbit fields (varbit.go) reads or writes it.
	vl *vlField
}

// getU reads a field of at most 64 bits, unsigned.
func (lv *lvalue) getU() func(*phv) uint64 {
	w := lv.width
	switch {
	case lv.slot >= 0:
		slot := lv.slot
		return func(s *phv) uint64 { return s.slots[slot] }
	case lv.dyn != nil:
		dyn := lv.dyn
		return func(s *phv) uint64 {
			bit := dyn(s)
			if bit < 0 {
				return 0
			}
			return readBits(s.hdr, bit, w)
		}
	}
	bit := lv.bit
	if bit%8 == 0 {
		b := bit / 8
		switch w {
		case 8:
			return func(s *phv) uint64 { return uint64(s.hdr[b]) }
		case 16:
			return func(s *phv) uint64 { return uint64(binary.BigEndian.Uint16(s.hdr[b:])) }
		case 32:
			return func(s *phv) uint64 { return uint64(binary.BigEndian.Uint32(s.hdr[b:])) }
		case 48:
			return func(s *phv) uint64 {
				h := s.hdr[b : b+6]
				return uint64(binary.BigEndian.Uint16(h))<<32 | uint64(binary.BigEndian.Uint32(h[2:]))
			}
		case 64:
			return func(s *phv) uint64 { return binary.BigEndian.Uint64(s.hdr[b:]) }
		}
	}
	if shift := bit % 8; shift+w <= 16 { // a field inside two bytes
		b, pos, m := bit/8, uint(16-shift-w), uint16(mask64(w))
		if shift+w <= 8 {
			pos -= 8
			m8 := byte(m)
			return func(s *phv) uint64 { return uint64(s.hdr[b] >> pos & m8) }
		}
		return func(s *phv) uint64 { return uint64(binary.BigEndian.Uint16(s.hdr[b:]) >> pos & m) }
	}
	return func(s *phv) uint64 { return readBits(s.hdr, bit, w) }
}

// setU writes the low width bits of v into a field of at most 64 bits.
func (lv *lvalue) setU() func(*phv, uint64) {
	w, m := lv.width, mask64(lv.width)
	switch {
	case lv.slot >= 0:
		slot := lv.slot
		return func(s *phv, v uint64) { s.slots[slot] = v & m }
	case lv.dyn != nil:
		dyn := lv.dyn
		return func(s *phv, v uint64) {
			if bit := dyn(s); bit >= 0 {
				writeBits(s.hdr, bit, w, v)
			}
		}
	}
	bit := lv.bit
	if bit%8 == 0 {
		b := bit / 8
		switch w {
		case 8:
			return func(s *phv, v uint64) { s.hdr[b] = byte(v) }
		case 16:
			return func(s *phv, v uint64) { binary.BigEndian.PutUint16(s.hdr[b:], uint16(v)) }
		case 32:
			return func(s *phv, v uint64) { binary.BigEndian.PutUint32(s.hdr[b:], uint32(v)) }
		case 48:
			return func(s *phv, v uint64) {
				h := s.hdr[b : b+6]
				binary.BigEndian.PutUint16(h, uint16(v>>32))
				binary.BigEndian.PutUint32(h[2:], uint32(v))
			}
		}
	}
	if shift := bit % 8; shift+w <= 16 { // a field inside two bytes
		b, pos := bit/8, uint(16-shift-w)
		m := uint16(mask64(w)) << pos
		if shift+w <= 8 {
			pos -= 8
			m8 := byte(m >> 8)
			return func(s *phv, v uint64) { s.hdr[b] = s.hdr[b]&^m8 | byte(v)<<pos&m8 }
		}
		return func(s *phv, v uint64) {
			h := s.hdr[b : b+2]
			binary.BigEndian.PutUint16(h, binary.BigEndian.Uint16(h)&^m|uint16(v)<<pos&m)
		}
	}
	return func(s *phv, v uint64) { writeBits(s.hdr, bit, w, v) }
}

// load copies the field's value into words (little-endian 64-bit words).
func (lv *lvalue) load(s *phv, words []uint64) {
	words = words[:lv.words]
	switch {
	case lv.slot >= 0:
		copy(words, s.slots[lv.slot:lv.slot+lv.words])
		return
	}
	bit := lv.bit
	if lv.dyn != nil {
		if bit = lv.dyn(s); bit < 0 {
			clear(words)
			return
		}
	}
	if lv.words == 1 {
		words[0] = readBits(s.hdr, bit, lv.width)
		return
	}
	readWide(s.hdr, bit, lv.width, words)
}

// store is load's inverse (bits above width are dropped).
func (lv *lvalue) store(s *phv, words []uint64) {
	words = words[:lv.words]
	if lv.slot >= 0 {
		copy(s.slots[lv.slot:lv.slot+lv.words], words)
		top := lv.width - 64*(lv.words-1)
		s.slots[lv.slot+lv.words-1] &= mask64(top)
		return
	}
	bit := lv.bit
	if lv.dyn != nil {
		if bit = lv.dyn(s); bit < 0 {
			return
		}
	}
	if lv.words == 1 {
		writeBits(s.hdr, bit, lv.width, words[0])
		return
	}
	writeWide(s.hdr, bit, lv.width, words)
}

// getBig reads any field as an unsigned integer.
func (lv *lvalue) getBig() func(*phv) *big.Int {
	return func(s *phv) *big.Int {
		words := make([]uint64, lv.words)
		lv.load(s, words)
		return wordsToBig(words)
	}
}

// setBig writes k modulo 2^width.
func (lv *lvalue) setBig() func(*phv, *big.Int) {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(lv.width))
	return func(s *phv, k *big.Int) {
		words := make([]uint64, lv.words)
		bigToWords(new(big.Int).Mod(k, mod), words)
		lv.store(s, words)
	}
}
