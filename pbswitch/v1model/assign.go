// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"encoding/json"
	"math/big"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

func jsonDecode(b []byte, v any) error { return json.Unmarshal(b, v) }

// lvalueOf compiles the destination of an assignment: a field, or an
// expression selecting a field of a stack element.
func (c *compiler) lvalueOf(tv *bmv2json.TypedValue, x *exprCtx) (*lvalue, error) {
	v, err := c.expr(tv, x)
	if err != nil {
		return nil, err
	}
	if v.lv == nil {
		return nil, invalid(x.si, "%s is not a field that can be written", tv.Value)
	}
	return v.lv, nil
}

// writer stores a data value into lv, truncated to the field's width (BMv2
// truncates on every write to a field).
func writer(lv *lvalue, src val) func(*phv) {
	w, m := lv.width, mask64(lv.width)
	if lv.words == 1 && !src.wide {
		u := src.u
		if lv.slot >= 0 {
			slot := lv.slot
			return func(s *phv) { s.slots[slot] = u(s) & m }
		}
		dyn := lv.dyn
		return func(s *phv) {
			if slot := dyn(s); slot >= 0 {
				s.slots[slot] = u(s) & m
			}
		}
	}
	// A wide field copied from a field of the same width: a word copy.
	if src.lv != nil && src.lv.slot >= 0 && lv.slot >= 0 && src.lv.width == w {
		from, to, n := src.lv.slot, lv.slot, lv.words
		return func(s *phv) { copy(s.slots[to:to+n], s.slots[from:from+n]) }
	}
	get := bigOf(src)
	n := lv.words
	mod := new(big.Int).Lsh(big.NewInt(1), uint(w))
	return func(s *phv) {
		slot := lv.slotOf(s)
		if slot < 0 {
			return
		}
		v := new(big.Int).Mod(get(s), mod)
		bigToWords(v, s.slots[slot:slot+n])
	}
}

func (c *compiler) assign(dst, src *bmv2json.TypedValue, x *exprCtx) (func(*phv), error) {
	lv, err := c.lvalueOf(dst, x)
	if err != nil {
		return nil, err
	}
	v, err := c.expr(src, x)
	if err != nil {
		return nil, err
	}
	if v.kind == kBool {
		b := v.b
		v = val{kind: kData, width: 1, u: func(s *phv) uint64 {
			if b(s) {
				return 1
			}
			return 0
		}}
	}
	if v.kind != kData {
		return nil, invalid(x.si, "assigning something that is not a value to %s", lv.name)
	}
	return writer(lv, v), nil
}

// headerOperand compiles a header-valued parameter (a header name or a
// stack element expression).
func (c *compiler) headerOperand(tv *bmv2json.TypedValue, x *exprCtx) (val, error) {
	return c.operand(tv, kHeader, x)
}

// copyHeader copies src's fields and validity into dst (same type).
func (c *compiler) copyHeader(dst, src val) func(*phv) {
	slots := c.hdrSlots
	words := c.l.types[dst.htype].words
	dh, sh := dst.hdr, src.hdr
	return func(s *phv) {
		d, o := dh(s), sh(s)
		if d < 0 || o < 0 {
			return
		}
		copy(s.slots[slots[d]:slots[d]+words], s.slots[slots[o]:slots[o]+words])
		s.valid[d] = s.valid[o]
	}
}

// setValid is add_header: a header made valid has its fields zeroed (BMv2
// resets it), and the packet grows by its size.
func (c *compiler) setValid(hv val) func(*phv) {
	slots, words := c.hdrSlots, c.l.types[hv.htype].words
	bytes := c.l.types[hv.htype].bits / 8
	hdr := hv.hdr
	return func(s *phv) {
		h := hdr(s)
		if h < 0 || s.valid[h] {
			return
		}
		clear(s.slots[slots[h] : slots[h]+words])
		s.valid[h] = true
		s.pktLen += bytes
	}
}

func (c *compiler) setInvalid(hv val) func(*phv) {
	bytes := c.l.types[hv.htype].bits / 8
	hdr := hv.hdr
	return func(s *phv) {
		h := hdr(s)
		if h < 0 || !s.valid[h] {
			return
		}
		s.valid[h] = false
		s.pktLen -= bytes
	}
}

// pushFront and popFront shift a header stack (P4's push_front and
// pop_front).
func (c *compiler) shiftStack(st int, count int, push bool) func(*phv) {
	hs := c.l.stacks[st].headers
	slots, words := c.hdrSlots, c.l.types[c.l.headers[hs[0]].typ].words
	n := len(hs)
	move := func(s *phv, to, from int) {
		copy(s.slots[slots[hs[to]]:slots[hs[to]]+words], s.slots[slots[hs[from]]:slots[hs[from]]+words])
		s.valid[hs[to]] = s.valid[hs[from]]
	}
	return func(s *phv) {
		if push {
			for i := n - 1; i >= 0; i-- {
				if i >= count {
					move(s, i, i-count)
				} else {
					s.valid[hs[i]] = false
				}
			}
			s.stackNext[st] = min(n, s.stackNext[st]+count)
			return
		}
		for i := 0; i < n; i++ {
			if i+count < n {
				move(s, i, i+count)
			} else {
				s.valid[hs[i]] = false
			}
		}
		s.stackNext[st] = max(0, s.stackNext[st]-count)
	}
}
