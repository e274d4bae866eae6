// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"encoding/binary"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// lvalueOf compiles the destination of an assignment: a field, or an
// expression selecting a field of a stack element.
func (c *compiler) lvalueOf(tv *bmv2json.TypedValue, x *exprCtx) (*lvalue, error) {
	v, err := c.expr(tv, x)
	if err != nil {
		return nil, err
	}
	if v.kind == kVarbit {
		return nil, unsupported("writing a varbit field other than by assign_VL", x.si)
	}
	if v.lv == nil {
		return nil, invalid(x.si, "%s is not a field that can be written", tv.Value)
	}
	return v.lv, nil
}

// writer stores a data value into lv, truncated to the field's width (BMv2
// truncates on every write to a field).
func writer(lv *lvalue, src val) func(*phv) {
	if lv.width <= 64 && !src.wide {
		if w := fusedWriter(lv, src); w != nil {
			return w
		}
		set, u := lv.setU(), src.u
		return func(s *phv) { set(s, u(s)) }
	}
	// A wide field copied from a field of the same width: a word copy.
	if src.lv != nil && src.lv.width == lv.width {
		from := src.lv
		return func(s *phv) {
			var buf [4]uint64
			words := buf[:0]
			if lv.words > len(buf) {
				words = make([]uint64, lv.words)
			}
			words = words[:lv.words]
			from.load(s, words)
			lv.store(s, words)
		}
	}
	get, set := bigOf(src), lv.setBig()
	return func(s *phv) { set(s, get(s)) }
}

// fusedHeaderWriter writes an action parameter or an unsigned metadata
// field into a header field of 8, 16, 32 or 48 bits on whole bytes.
func fusedHeaderWriter(lv *lvalue, src val) func(*phv) {
	if lv.bit < 0 || lv.bit%8 != 0 || lv.vl != nil || (lv.width != 8 && lv.width != 16 && lv.width != 32 && lv.width != 48) {
		return nil
	}
	b, w := lv.bit/8, lv.width
	o := src.lv
	switch {
	case src.param > 0:
		p := src.param - 1
		switch w {
		case 8:
			return func(s *phv) { s.hdr[b] = byte(s.params[p]) }
		case 16:
			return func(s *phv) { binary.BigEndian.PutUint16(s.hdr[b:], uint16(s.params[p])) }
		case 48:
			return func(s *phv) { put48(s.hdr[b:b+6], s.params[p]) }
		}
		return func(s *phv) { binary.BigEndian.PutUint32(s.hdr[b:], uint32(s.params[p])) }
	case o != nil && o.slot >= 0 && o.dyn == nil && !o.signed && o.words == 1:
		slot := o.slot
		switch w {
		case 8:
			return func(s *phv) { s.hdr[b] = byte(s.slots[slot]) }
		case 16:
			return func(s *phv) { binary.BigEndian.PutUint16(s.hdr[b:], uint16(s.slots[slot])) }
		case 48:
			return func(s *phv) { put48(s.hdr[b:b+6], s.slots[slot]) }
		}
		return func(s *phv) { binary.BigEndian.PutUint32(s.hdr[b:], uint32(s.slots[slot])) }
	}
	return nil
}

func put48(h []byte, v uint64) {
	binary.BigEndian.PutUint16(h, uint16(v>>32))
	binary.BigEndian.PutUint32(h[2:], uint32(v))
}

// fusedWriter is one closure for the commonest writes into a metadata
// field: a constant, an action parameter, another metadata field, or a
// whole-byte header field; and into a whole-byte header field: an action
// parameter or a metadata field.
func fusedWriter(lv *lvalue, src val) func(*phv) {
	if lv.dyn != nil {
		return nil
	}
	if lv.slot < 0 {
		return fusedHeaderWriter(lv, src)
	}
	d, m := lv.slot, mask64(lv.width)
	o := src.lv
	switch {
	case src.isK && !src.wide:
		k := src.u(nil) & m
		return func(s *phv) { s.slots[d] = k }
	case src.param > 0:
		w := src.param - 1
		return func(s *phv) { s.slots[d] = s.params[w] & m }
	case o == nil || o.dyn != nil || o.signed:
		return nil
	case o.slot >= 0:
		return func(s *phv) { s.slots[d] = s.slots[o.slot] & m }
	case o.bit%8 == 0 && o.width == 8:
		b := o.bit / 8
		return func(s *phv) { s.slots[d] = uint64(s.hdr[b]) & m }
	case o.bit%8 == 0 && o.width == 16:
		b := o.bit / 8
		return func(s *phv) { s.slots[d] = uint64(binary.BigEndian.Uint16(s.hdr[b:])) & m }
	}
	return nil
}

func (c *compiler) assign(dst, src *bmv2json.TypedValue, x *exprCtx) (func(*phv), error) {
	if d, err := c.expr(dst, x); err == nil && d.kind == kVarbit {
		return c.assignVL(dst, src, x) // a parser's set of a varbit field
	}
	lv, err := c.lvalueOf(dst, x)
	if err != nil {
		return nil, err
	}
	v, err := c.expr(src, x)
	if err != nil {
		return nil, err
	}
	switch {
	case v.kind == kBool && v.isK && !c.prog.opts.reference: // a literal or a folded condition
		v = constData(v.k)
		v.width = 1
	case v.kind == kBool:
		b := v.b
		v = val{kind: kData, width: 1, u: func(s *phv) uint64 {
			if b(s) {
				return 1
			}
			return 0
		}}
	}
	if v.kind == kVarbit {
		return nil, unsupported("assigning a varbit field to "+lv.name, x.si)
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
	copyFields := c.headerCopier(dst.htype)
	dh, sh := dst.hdr, src.hdr
	return func(s *phv) {
		d, o := dh(s), sh(s)
		if d < 0 || o < 0 {
			return
		}
		copyFields(s, d, o)
		s.valid[d] = s.valid[o]
	}
}

// headerCopier copies the fields of header o into header d (same type).
func (c *compiler) headerCopier(typ int) func(s *phv, d, o int) {
	l := c.l
	t := l.types[typ]
	vl, vlMax := t.vl >= 0, t.vlMax
	return func(s *phv, d, o int) {
		hd, ho := &l.headers[d], &l.headers[o]
		if hd.metadata {
			copy(s.slots[hd.slot:hd.slot+t.words], s.slots[ho.slot:ho.slot+t.words])
		} else {
			n := t.bits / 8
			copy(s.hdr[hd.byteOff:hd.byteOff+n], s.hdr[ho.byteOff:ho.byteOff+n])
		}
		if vl { // the varbit field's bytes and width
			copy(s.hdr[hd.vlOff:hd.vlOff+vlMax], s.hdr[ho.vlOff:ho.vlOff+vlMax])
			s.vlLen[d] = s.vlLen[o]
		}
	}
}

// clearHeader zeroes header h's fields. A varbit field keeps its width
// (BMv2's add_header resets values only; a packet starts with every
// varbit field empty).
func (c *compiler) clearHeader(s *phv, h int) {
	hi := &c.l.headers[h]
	if hi.vlOff >= 0 {
		vm := c.l.types[hi.typ].vlMax
		clear(s.hdr[hi.vlOff : hi.vlOff+vm])
	}
	if hi.metadata {
		clear(s.slots[hi.slot : hi.slot+hi.words])
		return
	}
	clear(s.hdr[hi.byteOff : hi.byteOff+hi.bits/8])
}

// makeValid marks header h valid; in a union, its siblings become invalid
// (one member of a union is valid at a time).
func (c *compiler) makeValid(s *phv, h int) {
	if u := c.l.headers[h].union; u >= 0 {
		for _, o := range c.l.unions[u].headers {
			s.valid[o] = false
		}
	}
	s.valid[h] = true
}

// setValid is add_header: a header made valid has its fields zeroed (BMv2
// resets it), and the packet grows by its size.
func (c *compiler) setValid(hv val) func(*phv) {
	bytes := c.l.types[hv.htype].bits / 8
	hdr := hv.hdr
	return func(s *phv) {
		h := hdr(s)
		if h < 0 || s.valid[h] {
			return
		}
		c.clearHeader(s, h)
		c.makeValid(s, h)
		s.pktLen += bytes + s.vlLen[h]
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
		s.pktLen -= bytes + s.vlLen[h]
	}
}

// shiftStack is P4's push_front (push) and pop_front on a header stack.
// As on BMv2, elements are swapped, not copied: an element the shift
// vacates (invalid) holds what another held, which shows when it is made
// valid again (add_header keeps a varbit field's width).
func (c *compiler) shiftStack(st int, count int, push bool) func(*phv) {
	hs := c.l.stacks[st].headers
	swap := c.headerSwapper(c.l.headers[hs[0]].typ)
	n := len(hs)
	return func(s *phv) {
		if push {
			for i := n - 1; i >= count; i-- {
				swap(s, hs[i], hs[i-count])
			}
			for i := 0; i < min(count, n); i++ {
				s.valid[hs[i]] = false
			}
			s.stackNext[st] = min(n, s.stackNext[st]+count)
			return
		}
		for i := 0; i < n; i++ {
			if i+count < n {
				swap(s, hs[i], hs[i+count])
			} else {
				s.valid[hs[i]] = false
			}
		}
		s.stackNext[st] = max(0, s.stackNext[st]-count)
	}
}

// headerSwapper exchanges the fields, varbit width and validity of
// headers a and b (same type, not metadata).
func (c *compiler) headerSwapper(typ int) func(s *phv, a, b int) {
	l := c.l
	t := l.types[typ]
	n, vl, vlMax := t.bits/8, t.vl >= 0, t.vlMax
	swapBytes := func(x, y []byte) {
		for i := range x {
			x[i], y[i] = y[i], x[i]
		}
	}
	return func(s *phv, a, b int) {
		ha, hb := &l.headers[a], &l.headers[b]
		swapBytes(s.hdr[ha.byteOff:ha.byteOff+n], s.hdr[hb.byteOff:hb.byteOff+n])
		if vl {
			swapBytes(s.hdr[ha.vlOff:ha.vlOff+vlMax], s.hdr[hb.vlOff:hb.vlOff+vlMax])
			s.vlLen[a], s.vlLen[b] = s.vlLen[b], s.vlLen[a]
		}
		s.valid[a], s.valid[b] = s.valid[b], s.valid[a]
	}
}
