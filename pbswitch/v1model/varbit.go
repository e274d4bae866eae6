// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// Variable-length (varbit) fields, as BMv2 has them: a header type has at
// most one, and a max_length (bytes, the whole header). The field's width
// is per packet and per header instance, always whole bytes: extract_VL
// sets it from a length expression, assign_VL and header copies carry it,
// and a packet starts with every varbit field empty.
//
// In phv.hdr a header's fixed fields keep fixed offsets (those they would
// have with the varbit field empty); its varbit field's current bytes sit
// left-aligned in an area of max_length less the fixed bytes after them,
// and phv.vlLen holds their count. When the varbit field is the header's
// last field, which it nearly always is, the header's wire bytes are one
// contiguous run; otherwise extract and deparse move the bits after it.

// vlField is a varbit field: the area of instance hdr at off, max bytes.
type vlField struct {
	hdr, off, max int
}

// vlHeader maps a header with a varbit field to and from the wire.
type vlHeader struct {
	hdr   int
	off   int // first byte of the fixed fields
	fixed int // bytes of the fixed fields
	vlBit int // where the varbit field starts on the wire
	vlOff int // its area
}

// varbitLimits checks a header type's varbit field against what the
// engine implements and sets its area's size.
func (t *headerType) varbitLimits(ht *bmv2json.HeaderType) error {
	name := ht.Name + "." + ht.Fields[t.vl].Name
	switch {
	case ht.LengthExp != nil:
		return unsupported("a header length expression (length_exp, of "+ht.Name+")", nil)
	case ht.MaxLength <= 0:
		return unsupported("the variable-length field "+name+" without a max_length", nil)
	case t.bits%8 != 0:
		return unsupported("the variable-length field "+name+" in a header whose other fields are not whole bytes", nil)
	}
	t.vlMax = ht.MaxLength - t.bits/8
	if t.vlMax < 0 {
		return invalid(nil, "header type %s: max_length %d is less than its fixed fields", ht.Name, ht.MaxLength)
	}
	return nil
}

func (l *layout) vlHeaderOf(h int) *vlHeader {
	hi := &l.headers[h]
	t := &l.types[hi.typ]
	if t.vl < 0 || hi.metadata {
		return nil
	}
	return &vlHeader{hdr: h, off: hi.byteOff, fixed: t.bits / 8, vlBit: t.vlBit, vlOff: hi.vlOff}
}

// size is the header's size on the wire now, in bytes.
func (v *vlHeader) size(s *phv) int { return v.fixed + s.vlLen[v.hdr] }

// toWire writes the header's wire bits at bit at of dst.
func (v *vlHeader) toWire(s *phv, dst []byte, at int) {
	n := 8 * s.vlLen[v.hdr]
	copyBits(dst, at, s.hdr, v.off*8, v.vlBit)
	copyBits(dst, at+v.vlBit, s.hdr, v.vlOff*8, n)
	copyBits(dst, at+v.vlBit+n, s.hdr, v.off*8+v.vlBit, v.fixed*8-v.vlBit)
}

// fromWire reads the header, its varbit field n bytes, from bit at of src.
func (v *vlHeader) fromWire(s *phv, src []byte, at, n int) {
	copyBits(s.hdr, v.off*8, src, at, v.vlBit)
	copyBits(s.hdr, v.vlOff*8, src, at+v.vlBit, 8*n)
	copyBits(s.hdr, v.off*8+v.vlBit, src, at+v.vlBit+8*n, v.fixed*8-v.vlBit)
	s.vlLen[v.hdr] = n
}

// copyBits copies n bits from bit sb of src to bit db of dst, leaving the
// bits of dst around them alone.
func copyBits(dst []byte, db int, src []byte, sb, n int) {
	if n <= 0 {
		return
	}
	if db%8 == 0 && sb%8 == 0 {
		nb := n / 8
		copy(dst[db/8:db/8+nb], src[sb/8:sb/8+nb])
		if r := n % 8; r > 0 {
			writeBits(dst, db+8*nb, r, readBits(src, sb+8*nb, r))
		}
		return
	}
	for n > 0 {
		w := min(n, 56)
		writeBits(dst, db, w, readBits(src, sb, w))
		db, sb, n = db+w, sb+w, n-w
	}
}

// value is the field's current bytes.
func (f *vlField) value(s *phv) []byte { return s.hdr[f.off : f.off+s.vlLen[f.hdr]] }

// vlEqual is == on two varbit fields: BMv2 compares their values as
// integers, whatever their widths.
func vlEqual(a, b []byte) bool {
	for len(a) > 0 && a[0] == 0 {
		a = a[1:]
	}
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	return bytes.Equal(a, b)
}

func (c *compiler) varbitCompare(op string, l, r val, x *exprCtx) (val, error) {
	if l.kind != kVarbit || r.kind != kVarbit || (op != "==" && op != "!=") {
		return val{}, unsupported("a varbit field in the comparison "+op+" (only == and != between varbit fields are implemented)", x.si)
	}
	a, b, eq := l.vl, r.vl, op == "=="
	return val{kind: kBool, b: func(s *phv) bool { return vlEqual(a.value(s), b.value(s)) == eq }}, nil
}

// assignVL is assign_VL (and a parser set of a varbit field): the value
// and the width.
func (c *compiler) assignVL(dst, src *bmv2json.TypedValue, x *exprCtx) (func(*phv), error) {
	d, err := c.expr(dst, x)
	if err != nil {
		return nil, err
	}
	o, err := c.expr(src, x)
	if err != nil {
		return nil, err
	}
	if d.kind != kVarbit || o.kind != kVarbit {
		return nil, unsupported("assign_VL between something other than two varbit fields", x.si)
	}
	df, of := d.vl, o.vl
	if df.max < of.max {
		return nil, unsupported("assign_VL into a varbit field narrower than its source", x.si)
	}
	return func(s *phv) {
		n := s.vlLen[of.hdr]
		copy(s.hdr[df.off:df.off+n], s.hdr[of.off:of.off+n])
		s.vlLen[df.hdr] = n
	}, nil
}

// extractVL is the parser's extract_VL: a header (or a stack's next) with
// a varbit field of the length expression's bits.
func (c *compiler) extractVL(op *bmv2json.ParserOp, x *exprCtx) (func(*phv), error) {
	if len(op.Parameters) != 2 {
		return nil, invalid(op.SourceInfo, "extract_VL takes two parameters")
	}
	tv := &op.Parameters[0]
	name, err := tv.String()
	if err != nil {
		return nil, invalid(x.si, "extract_VL: %v", err)
	}
	n, err := c.operand(&op.Parameters[1], kData, x)
	if err != nil {
		return nil, err
	}
	if n.wide {
		return nil, unsupported("an extract_VL length wider than 64 bits", x.si)
	}
	length, signed := n.u, n.signed
	pe := &c.prog.perr
	switch tv.Type {
	case "regular":
		h, ok := c.l.header(name)
		if !ok {
			return nil, invalid(x.si, "extract_VL of unknown header %s", name)
		}
		return c.vlExtractor(h, length, signed, pe, x)
	case "stack":
		st, ok := c.l.stackByName[name]
		if !ok {
			return nil, invalid(x.si, "extract_VL of unknown header stack %s", name)
		}
		var exs []func(*phv)
		for _, h := range c.l.stacks[st].headers {
			ex, err := c.vlExtractor(h, length, signed, pe, x)
			if err != nil {
				return nil, err
			}
			exs = append(exs, ex)
		}
		return extractNext(st, exs, pe), nil
	}
	return nil, unsupported("extract_VL to a "+tv.Type, x.si)
}

// vlExtractor extracts header h with a varbit field of length(s) bits,
// raising BMv2's errors in its order: a length that is not whole bytes is
// ParserInvalidArgument, a packet too short for the header
// PacketTooShort, a header past its max_length HeaderTooShort.
func (c *compiler) vlExtractor(h int, length func(*phv) uint64, signed bool, pe *parserErrors, x *exprCtx) (func(*phv), error) {
	v := c.l.vlHeaderOf(h)
	if v == nil {
		return nil, invalid(x.si, "extract_VL of %s, which has no varbit field", c.l.headers[h].name)
	}
	maxBytes := v.fixed + c.l.types[c.l.headers[h].typ].vlMax
	inUnion := c.l.headers[h].union >= 0
	return func(s *phv) {
		bits := length(s)
		neg := signed && int64(bits) < 0
		if neg && int64(bits)%8 != 0 || !neg && bits%8 != 0 {
			pe.raise(s, pe.invalidArgument)
			return
		}
		left := uint64(len(s.data) - s.pos)
		if neg || bits/8 > left || uint64(v.fixed)+bits/8 > left {
			pe.raise(s, pe.tooShort)
			return
		}
		n := int(bits / 8)
		if v.fixed+n > maxBytes {
			pe.raise(s, pe.headerTooShort)
			return
		}
		v.fromWire(s, s.data, s.pos*8, n)
		if inUnion {
			c.makeValid(s, h)
		} else {
			s.valid[h] = true
		}
		s.pos += v.fixed + n
	}, nil
}
