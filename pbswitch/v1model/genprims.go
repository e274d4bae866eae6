// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// Generated primitives: the Go statements p4gen writes for an action's
// primitive in place of its closure (genemit.go). The compiler derives
// them at load from the same resolved operands as the closure, so the
// code and the signature that guards it (actionSignature) say exactly
// what the engine compiled. A primitive without a form here ("") keeps
// its closure, which the generated action calls.
//
// The forms: writes of a constant, an action parameter, a metadata field
// or a fixed header field into a metadata field or a fixed header field
// of at most 64 bits (each unsigned); a run of constant header writes
// (constRun); mark_to_drop; add_header, remove_header and copy_header of
// fixed headers that are not metadata, in no union and without a varbit
// field.

// primitiveCode is the Go source of primitive p of a straight action body,
// or "" when it has no generated form.
func (c *compiler) primitiveCode(p *bmv2json.Primitive, x *exprCtx) string {
	ps := p.Parameters
	switch p.Op {
	case "assign", "modify_field":
		if len(ps) != 2 || ps[0].Type != "field" {
			return ""
		}
		return c.assignCode(&ps[0], &ps[1], x)
	case "mark_to_drop", "drop":
		code := fmt.Sprintf("s.slots[%d] = %#x", c.std.egressSpec, uint64(pipeline.DropPort))
		if c.std.mcastGrp >= 0 {
			code += fmt.Sprintf("\ns.slots[%d] = 0", c.std.mcastGrp)
		}
		return code
	case "add_header", "add_header_fast", "remove_header":
		h, ok := c.plainHeader(ps, 1, 0)
		if !ok {
			return ""
		}
		hi := &c.l.headers[h]
		n := hi.bits / 8
		if p.Op == "remove_header" {
			return fmt.Sprintf("if s.valid[%d] {\ns.valid[%d] = false\ns.pktLen -= %d\n}", h, h, n)
		}
		return fmt.Sprintf("if !s.valid[%d] {\nclear(s.hdr[%d:%d])\ns.valid[%d] = true\ns.pktLen += %d\n}",
			h, hi.byteOff, hi.byteOff+n, h, n)
	case "assign_header", "copy_header":
		d, ok := c.plainHeader(ps, 2, 0)
		if !ok {
			return ""
		}
		o, ok := c.plainHeader(ps, 2, 1)
		if !ok || c.l.headers[d].typ != c.l.headers[o].typ {
			return ""
		}
		n := c.l.headers[d].bits / 8
		db, ob := c.l.headers[d].byteOff, c.l.headers[o].byteOff
		return fmt.Sprintf("copy(s.hdr[%d:%d], s.hdr[%d:%d])\ns.valid[%d] = s.valid[%d]", db, db+n, ob, ob+n, d, o)
	case "count":
		// As compiler.count: an index outside the array counts nothing.
		if len(ps) != 2 {
			return ""
		}
		name, err := ps[0].String()
		arr, ok := c.counters[name]
		idx := c.valueCode(&ps[1], x)
		if err != nil || !ok || idx == "" {
			return ""
		}
		k := refIndex(&c.prog.counterRefs, arr)
		return fmt.Sprintf("s.prog.counterRefs[%d].CountAt(%s, s.ingressLen) // %s", k, idx, name)
	case "execute_meter":
		// As compiler.executeMeter: an index outside the array is green.
		if len(ps) != 3 {
			return ""
		}
		name, err := ps[0].String()
		arr, ok := c.meters[name]
		idx := c.valueCode(&ps[1], x)
		if err != nil || !ok || idx == "" {
			return ""
		}
		lv, err := c.lvalueOf(&ps[2], x)
		if err != nil || !plainField(lv) {
			return ""
		}
		k := refIndex(&c.prog.meterRefs, arr)
		size := "int64(s.ingressLen)"
		if arr.Packets {
			size = "1"
		}
		return storeCode(lv, fmt.Sprintf("uint64(s.prog.meterRefs[%d].ExecuteAt(%s, %s))", k, idx, size)) + " // " + name
	}
	return ""
}

// plainHeader is parameter i of ps (of n) when it names a header the
// generated forms handle: fixed, not metadata, in no union, no varbit.
func (c *compiler) plainHeader(ps []bmv2json.TypedValue, n, i int) (int, bool) {
	if len(ps) != n || ps[i].Type != "header" {
		return 0, false
	}
	name, err := ps[i].String()
	if err != nil {
		return 0, false
	}
	h, ok := c.l.header(name)
	if !ok {
		return 0, false
	}
	hi := &c.l.headers[h]
	if hi.metadata || hi.union >= 0 || hi.vlOff >= 0 || hi.stack >= 0 {
		return 0, false
	}
	return h, true
}

// assignCode is a write's statement: the source read by readCode, stored
// by storeCode, as the closure writer and assign build it.
func (c *compiler) assignCode(dst, src *bmv2json.TypedValue, x *exprCtx) string {
	switch src.Type {
	case "hexstr", "bool", "runtime_data", "field", "expression":
	default:
		return ""
	}
	lv, err := c.lvalueOf(dst, x)
	if err != nil || !plainField(lv) {
		return ""
	}
	v, err := c.expr(src, x)
	if err != nil {
		return ""
	}
	var read string
	switch {
	case v.kind == kBool && v.isK:
		read = fmt.Sprintf("%#x", v.k.Uint64()&1)
	case v.kind != kData || v.wide:
		return ""
	case v.isK:
		read = fmt.Sprintf("%#x", v.u(nil)&mask64(lv.width))
	default:
		if read = c.valueCode(src, x); read == "" {
			return ""
		}
	}
	return storeCode(lv, read)
}

// valueCode is a data value of at most 64 bits as a uint64 Go expression,
// as its closure computes it ("" when it has no form here): a constant, an
// action parameter, a plain field, or +, -, &, |, ^ of such values (on
// 64-bit words, wrapping, as the closures compute them whatever the
// operands' signs; a write cuts the result to the field's width).
func (c *compiler) valueCode(tv *bmv2json.TypedValue, x *exprCtx) string {
	v, err := c.expr(tv, x)
	if err != nil || v.kind != kData || v.wide {
		return ""
	}
	switch {
	case v.isK:
		return fmt.Sprintf("%#x", v.u(nil))
	case v.param > 0:
		return fmt.Sprintf("s.params[%d]", v.param-1)
	case v.lv != nil:
		if !plainField(v.lv) {
			return ""
		}
		return readCode(v.lv)
	case tv.Type != "expression":
		return ""
	}
	if inner, ok := tv.Wrapped(); ok {
		return c.valueCode(inner, x)
	}
	e, err := tv.Expression()
	if err != nil || e.Left == nil || e.Right == nil {
		return ""
	}
	switch e.Op {
	case "+", "-", "&", "|", "^":
	default:
		return ""
	}
	l, r := c.valueCode(e.Left, x), c.valueCode(e.Right, x)
	if l == "" || r == "" {
		return ""
	}
	return "(" + l + " " + e.Op + " " + r + ")"
}

// plainField is a field of at most 64 bits at a fixed place.
func plainField(lv *lvalue) bool {
	return lv.dyn == nil && lv.vl == nil && lv.width <= 64 && lv.words <= 1 && (lv.slot >= 0 || lv.bit >= 0)
}

// readCode reads a plain field as a uint64 expression ("" when its
// place has no form here).
func readCode(lv *lvalue) string {
	if lv.slot >= 0 {
		return fmt.Sprintf("s.slots[%d]", lv.slot)
	}
	bit, w := lv.bit, lv.width
	if load := beLoad("s.hdr", bit/8, w/8); bit%8 == 0 && w%8 == 0 && load != "" {
		return toUint64(w/8, load)
	}
	if shift := bit % 8; shift+w <= 8 {
		return fmt.Sprintf("uint64(s.hdr[%d]>>%d&%#x)", bit/8, 8-shift-w, mask64(w))
	}
	return ""
}

// The generated code's big-endian accesses of 1, 2, 4 or 8 bytes, shared
// by the reads and writes of fields, the key building and the
// conditions: a byte indexed, or binary.BigEndian's UintN / PutUintN.

// beLoad reads n bytes big-endian at buf[at:] as an expression of type
// uintType(n) ("" for other n).
func beLoad(buf string, at, n int) string {
	switch n {
	case 1:
		return fmt.Sprintf("%s[%d]", buf, at)
	case 2, 4, 8:
		return fmt.Sprintf("binary.BigEndian.Uint%d(%s[%d:])", 8*n, buf, at)
	}
	return ""
}

// beStore writes v, an expression of type uintType(n), as n bytes
// big-endian at buf[at:] ("" for other n).
func beStore(buf string, at, n int, v string) string {
	switch n {
	case 1:
		return fmt.Sprintf("%s[%d] = %s", buf, at, v)
	case 2, 4, 8:
		return fmt.Sprintf("binary.BigEndian.PutUint%d(%s[%d:], %s)", 8*n, buf, at, v)
	}
	return ""
}

// uintType is the Go type of n bytes: byte, uint16, uint32 or uint64.
func uintType(n int) string {
	if n == 1 {
		return "byte"
	}
	return fmt.Sprintf("uint%d", 8*n)
}

// fromUint64 cuts v, a uint64 expression, to uintType(n).
func fromUint64(n int, v string) string {
	if n == 8 {
		return v
	}
	return uintType(n) + "(" + v + ")"
}

// toUint64 widens v, an expression of type uintType(n), to uint64.
func toUint64(n int, v string) string {
	if n == 8 {
		return v
	}
	return "uint64(" + v + ")"
}

// storeCode writes the uint64 expression v into a plain field, cut to
// its width.
func storeCode(lv *lvalue, v string) string {
	w, m := lv.width, mask64(lv.width)
	if lv.slot >= 0 {
		if strings.HasPrefix(v, "0x") || v == "0" { // a constant, cut already
			return fmt.Sprintf("s.slots[%d] = %s", lv.slot, v)
		}
		return fmt.Sprintf("s.slots[%d] = %s & %#x", lv.slot, v, m)
	}
	bit := lv.bit
	if b := bit / 8; bit%8 == 0 && w == 48 {
		return fmt.Sprintf("put48(s.hdr[%d:%d], %s)", b, b+6, v)
	}
	if store := beStore("s.hdr", bit/8, w/8, fromUint64(w/8, v)); bit%8 == 0 && w%8 == 0 && store != "" {
		return store
	}
	if shift := bit % 8; shift+w <= 8 {
		pos := 8 - shift - w
		m8 := byte(m) << pos
		return fmt.Sprintf("s.hdr[%d] = s.hdr[%d]&^%#x | byte(%s)<<%d&%#x", bit/8, bit/8, m8, v, pos, m8)
	}
	return ""
}

// constRunCode is constRun's masked store written out byte by byte.
func constRunCode(ws []constWrite) string {
	lo, mask, val := constRunBytes(ws)
	var b strings.Builder
	for i, m := range mask {
		switch m {
		case 0:
		case 0xff:
			fmt.Fprintf(&b, "s.hdr[%d] = %#x\n", lo+i, val[i])
		default:
			fmt.Fprintf(&b, "s.hdr[%d] = s.hdr[%d]&^%#x | %#x\n", lo+i, lo+i, m, val[i])
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// mergeConstCodes is mergeConstWrites on the steps' generated code: the
// same runs become one constRunCode each.
func mergeConstCodes(codes []string, consts []*constWrite) []string {
	return mergeConstRuns(codes, consts, constRunCode)
}

// refIndex is x's place in *refs (Program.counterRefs, meterRefs), appended
// the first time: generated code names the array by it.
func refIndex[T comparable](refs *[]T, x T) int {
	if k := slices.Index(*refs, x); k >= 0 {
		return k
	}
	*refs = append(*refs, x)
	return len(*refs) - 1
}
