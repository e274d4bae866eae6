// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// kind is what an expression produces.
type kind int

const (
	kData kind = iota
	kBool
	kHeader
	kStack
	kUnion
	kVarbit // a varbit field: only ==, != and assign_VL take one
)

// val is a compiled expression. Data values are BMv2's infinite-precision
// integers: up to 64 bits they are computed in a uint64 holding the low 64
// bits of the two's complement value (u); an expression over a wider field
// or constant is computed with math/big (w). signed says the value may be
// negative, so comparisons and right shifts treat it as an int64.
type val struct {
	kind   kind
	signed bool
	wide   bool
	width  int // a field's or parameter's width; 0 when unbounded
	u      func(*phv) uint64
	w      func(*phv) *big.Int
	b      func(*phv) bool
	hdr    func(*phv) int // header index, -1 when out of range
	htype  int            // the header's type
	stack  int
	union  int
	lv     *lvalue  // set when the value is a field
	vl     *vlField // kVarbit: the field
	isK    bool     // a constant, with value k
	k      *big.Int
	// param is 1 + the word of the action parameter the value is (0: not
	// a parameter), for the writers that read it in place.
	param int
}

// exprCtx is where an expression is compiled: an action's runtime data or
// a parser state.
type exprCtx struct {
	params   []paramInfo
	inParser bool
	si       *bmv2json.SourceInfo
}

type paramInfo struct {
	word, width int
}

// bigOf gives any data value as a big.Int closure.
func bigOf(v val) func(*phv) *big.Int {
	if v.wide {
		return v.w
	}
	u := v.u
	if v.signed {
		return func(s *phv) *big.Int { return big.NewInt(int64(u(s))) }
	}
	return func(s *phv) *big.Int { return new(big.Int).SetUint64(u(s)) }
}

// constData makes a constant data value.
func constData(k *big.Int) val {
	v := val{kind: kData, isK: true, k: k, signed: k.Sign() < 0}
	if k.IsInt64() || k.IsUint64() {
		var x uint64
		if k.IsInt64() {
			x = uint64(k.Int64())
		} else {
			x = k.Uint64()
		}
		v.u = func(*phv) uint64 { return x }
		return v
	}
	kk := new(big.Int).Set(k)
	v.wide = true
	v.w = func(*phv) *big.Int { return kk }
	return v
}

// expr compiles a value, remembering the constant ones so that an
// operator over them folds (fold.go).
func (c *compiler) expr(tv *bmv2json.TypedValue, x *exprCtx) (val, error) {
	v, err := c.compileExpr(tv, x)
	if err == nil && v.isK {
		if c.konst == nil {
			c.konst = map[*bmv2json.TypedValue]bool{}
		}
		c.konst[tv] = true
	}
	return v, err
}

func (c *compiler) compileExpr(tv *bmv2json.TypedValue, x *exprCtx) (val, error) {
	if tv == nil {
		return val{}, invalid(x.si, "missing operand")
	}
	switch tv.Type {
	case "field":
		h, f, err := tv.FieldRef()
		if err != nil {
			return val{}, invalid(x.si, "%v", err)
		}
		return c.fieldValue(h, f, x)
	case "hexstr":
		k, err := tv.HexValue()
		if err != nil {
			return val{}, invalid(x.si, "%v", err)
		}
		return constData(k), nil
	case "bool":
		b, err := tv.Bool()
		if err != nil {
			return val{}, invalid(x.si, "%v", err)
		}
		k := big.NewInt(0)
		if b {
			k = big.NewInt(1)
		}
		return val{kind: kBool, isK: true, k: k, b: func(*phv) bool { return b }}, nil
	case "header":
		name, err := tv.String()
		if err != nil {
			return val{}, invalid(x.si, "%v", err)
		}
		h, ok := c.l.header(name)
		if !ok {
			return val{}, invalid(x.si, "unknown header %s", name)
		}
		return val{kind: kHeader, htype: c.l.headers[h].typ, hdr: func(*phv) int { return h }}, nil
	case "header_stack":
		name, err := tv.String()
		if err != nil {
			return val{}, invalid(x.si, "%v", err)
		}
		st, ok := c.l.stackByName[name]
		if !ok {
			return val{}, invalid(x.si, "unknown header stack %s", name)
		}
		return val{kind: kStack, stack: st}, nil
	case "header_union":
		name, err := tv.String()
		if err != nil {
			return val{}, invalid(x.si, "%v", err)
		}
		u, ok := c.l.unionByName[name]
		if !ok {
			return val{}, invalid(x.si, "unknown header union %s", name)
		}
		return val{kind: kUnion, union: u}, nil
	case "runtime_data", "local":
		i, err := tv.Int()
		if err != nil || i < 0 || i >= len(x.params) {
			return val{}, invalid(x.si, "runtime data %s out of range", tv.Value)
		}
		return paramValue(x.params[i]), nil
	case "stack_field":
		return c.stackField(tv, x)
	case "lookahead":
		if !x.inParser {
			return val{}, invalid(x.si, "lookahead outside a parser")
		}
		return c.lookahead(tv, x)
	case "expression":
		if inner, ok := tv.Wrapped(); ok {
			return c.expr(inner, x)
		}
		e, err := tv.Expression()
		if err != nil {
			return val{}, invalid(x.si, "%v", err)
		}
		v, err := c.op(e, x)
		if err == nil && !c.prog.opts.reference && c.overConstants(e) {
			v = fold(v)
		}
		return v, err
	}
	return val{}, unsupported(fmt.Sprintf("an operand of type %q", tv.Type), x.si)
}

func paramValue(p paramInfo) val {
	word := p.word
	v := val{kind: kData, width: p.width}
	if p.width <= 64 {
		v.u = func(s *phv) uint64 { return s.params[word] }
		v.param = 1 + word
		return v
	}
	n := wordsOf(p.width)
	v.wide = true
	v.w = func(s *phv) *big.Int { return wordsToBig(s.params[word : word+n]) }
	return v
}

// fieldValue reads header.field; $valid$ is the header's validity bit.
func (c *compiler) fieldValue(header, name string, x *exprCtx) (val, error) {
	if name == "$valid$" {
		h, ok := c.l.header(header)
		if !ok {
			return val{}, invalid(x.si, "unknown header %s", header)
		}
		return val{kind: kData, width: 1, u: func(s *phv) uint64 {
			if s.valid[h] {
				return 1
			}
			return 0
		}}, nil
	}
	lv, ok := c.l.field(header, name)
	if !ok {
		return val{}, invalid(x.si, "unknown field %s.%s", header, name)
	}
	if lv.slot >= 0 && lv.slot == c.std.checksumError {
		c.readsChecksumError = true
	}
	if lv.vl != nil {
		return val{kind: kVarbit, vl: lv.vl}, nil
	}
	return fieldVal(lv), nil
}

// fieldVal reads the field lv designates.
func fieldVal(lv *lvalue) val {
	v := val{kind: kData, width: lv.width, signed: lv.signed, lv: lv}
	if lv.width > 64 {
		v.wide = true
		v.w = lv.getBig()
		return v
	}
	get := lv.getU()
	if lv.signed {
		w := lv.width
		v.u = func(s *phv) uint64 { return signExtend(get(s), w) }
		return v
	}
	v.u = get
	return v
}

// dynField is field number fi of the header a dynamic header expression
// selects (all candidates share a header type and are headers, not
// metadata).
func (c *compiler) dynField(hdr func(*phv) int, typ, fi int) *lvalue {
	t := c.l.types[typ]
	fbit := t.fieldBits[fi]
	offs := c.hdrOff
	f := t.fields[fi]
	return &lvalue{hdr: -1, width: f.Width, words: wordsOf(f.Width), signed: f.Signed, name: t.name + "." + f.Name,
		slot: -1, bit: -1, dyn: func(s *phv) int {
			h := hdr(s)
			if h < 0 {
				return -1
			}
			return offs[h]*8 + fbit
		}}
}

func (c *compiler) stackField(tv *bmv2json.TypedValue, x *exprCtx) (val, error) {
	var sf []string
	if err := json.Unmarshal(tv.Value, &sf); err != nil || len(sf) != 2 {
		return val{}, invalid(x.si, "stack_field %s", tv.Value)
	}
	st, ok := c.l.stackByName[sf[0]]
	if !ok {
		return val{}, invalid(x.si, "unknown header stack %s", sf[0])
	}
	hs := c.l.stacks[st].headers
	typ := c.l.headers[hs[0]].typ
	fi := c.l.fieldIndex(typ, sf[1])
	if fi < 0 {
		return val{}, invalid(x.si, "unknown field %s of stack %s", sf[1], sf[0])
	}
	if fi == c.l.types[typ].vl {
		return val{}, unsupported("the varbit field "+sf[1]+" of the last element of stack "+sf[0], x.si)
	}
	last := func(s *phv) int {
		n := s.stackNext[st]
		if n == 0 {
			return -1
		}
		return hs[n-1]
	}
	return fieldVal(c.dynField(last, typ, fi)), nil
}

func (c *compiler) lookahead(tv *bmv2json.TypedValue, x *exprCtx) (val, error) {
	var ow []int
	if err := json.Unmarshal(tv.Value, &ow); err != nil || len(ow) != 2 {
		return val{}, invalid(x.si, "lookahead %s", tv.Value)
	}
	off, width := ow[0], ow[1]
	v := val{kind: kData, width: width}
	pe := &c.prog.perr // looking past the end is PacketTooShort, as on BMv2
	if width > 64 {
		n := wordsOf(width)
		v.wide = true
		v.w = func(s *phv) *big.Int {
			if !s.has(off + width) {
				pe.raise(s, pe.tooShort)
				return new(big.Int)
			}
			words := make([]uint64, n)
			readWide(s.data, s.pos*8+off, width, words)
			return wordsToBig(words)
		}
		return v, nil
	}
	v.u = func(s *phv) uint64 {
		if !s.has(off + width) {
			pe.raise(s, pe.tooShort)
			return 0
		}
		return readBits(s.data, s.pos*8+off, width)
	}
	return v, nil
}

// has says whether bits more bits are left to parse.
func (s *phv) has(bits int) bool { return s.pos*8+bits <= len(s.data)*8 }

func wordsToBig(words []uint64) *big.Int {
	ws := make([]big.Word, len(words))
	for i, w := range words {
		ws[i] = big.Word(w)
	}
	return new(big.Int).SetBits(ws)
}

// bigToWords stores the low 64*len(words) bits of k (two's complement)
// into words.
func bigToWords(k *big.Int, words []uint64) {
	if k.Sign() < 0 {
		m := new(big.Int).Lsh(big.NewInt(1), uint(64*len(words)))
		k = new(big.Int).Add(k, m)
	}
	bs := k.Bits()
	for i := range words {
		words[i] = 0
		if i < len(bs) {
			words[i] = uint64(bs[i])
		}
	}
}
