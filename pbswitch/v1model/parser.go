// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"fmt"
	"math/big"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// parseState is a compiled parser state.
type parseState struct {
	name  string
	ops   []func(*phv)      // a parser error sets phv.parserErr
	key   func(*phv) uint64 // select key, when it fits 64 bits
	bkey  func(*phv) *big.Int
	cases []parseCase
	// noMatch: no case matched and there is no default.

	keyWidths []int // the select key elements' widths in bits

	// For the generated parser (genparser.go): each op's Go statements
	// ("" where the op keeps its closure) and the select key as a uint64
	// expression ("" when it has no form there).
	opCodes []string
	keyCode string
}

type parseCase struct {
	value, mask uint64 // narrow keys (mask all ones when none)
	bv, bm      *big.Int
	isDefault   bool
	vset        *pipeline.ValueSet // a value set case: mask/bm are its own mask
	next        *parseState        // nil: accept
}

// parser error codes the engine raises, from the program's error list.
type parserErrors struct {
	slot                                int
	tooShort, noMatch, stackOutOfBounds uint64
	headerTooShort, invalidArgument     uint64
}

func (c *compiler) parser(p *bmv2json.Parser) (*parseState, error) {
	states := map[string]*parseState{}
	c.prog.states = nil
	for i := range p.ParseStates {
		st := &parseState{name: p.ParseStates[i].Name}
		states[st.name] = st
		c.prog.states = append(c.prog.states, st)
	}
	for i := range p.ParseStates {
		js := &p.ParseStates[i]
		st := states[js.Name]
		for j := range js.ParserOps {
			op, err := c.parserOp(&js.ParserOps[j])
			if err != nil {
				return nil, err
			}
			st.ops = append(st.ops, op)
			st.opCodes = append(st.opCodes, c.parserOpCode(&js.ParserOps[j]))
		}
		if err := c.selectKey(st, js); err != nil {
			return nil, err
		}
		for _, t := range js.Transitions {
			pc := parseCase{}
			if t.NextState != nil {
				n, ok := states[*t.NextState]
				if !ok {
					return nil, invalid(nil, "parser state %s goes to unknown state %s", js.Name, *t.NextState)
				}
				pc.next = n
			}
			switch t.Type {
			case "default":
				pc.isDefault = true
			case "hexstr":
				if t.Value == nil {
					return nil, invalid(nil, "parser state %s: a hexstr case without a value", js.Name)
				}
				v, err := bmv2json.Hex(*t.Value)
				if err != nil {
					return nil, invalid(nil, "parser state %s: %v", js.Name, err)
				}
				m := new(big.Int).Lsh(big.NewInt(1), 512)
				m.Sub(m, big.NewInt(1))
				if t.Mask != nil {
					if m, err = bmv2json.Hex(*t.Mask); err != nil {
						return nil, invalid(nil, "parser state %s: %v", js.Name, err)
					}
				}
				pc.bv, pc.bm = new(big.Int).And(v, m), m
				if st.key != nil {
					pc.value = new(big.Int).And(v, m).Uint64()
					pc.mask = ^uint64(0)
					if t.Mask != nil {
						pc.mask = m.Uint64()
					}
					pc.value &= pc.mask
				}
			case "parse_vset":
				if err := c.vsetCase(&pc, st, js, &t); err != nil {
					return nil, err
				}
			default:
				return nil, unsupported("a select case of type "+t.Type, nil)
			}
			st.cases = append(st.cases, pc)
		}
	}
	init, ok := states[p.InitState]
	if !ok {
		return nil, invalid(nil, "parser %s: unknown start state %s", p.Name, p.InitState)
	}
	return init, nil
}

// vsetCase binds a select case on a parser value set to the p4info's value
// set of that name, whose fields must be the select key's elements.
func (c *compiler) vsetCase(pc *parseCase, st *parseState, js *bmv2json.ParseState, t *bmv2json.Transition) error {
	if t.Value == nil {
		return invalid(nil, "parser state %s: a parse_vset case without a value set", js.Name)
	}
	vs, ok := c.vsets[*t.Value]
	if !ok {
		return invalid(nil, "parser state %s: value set %s is not in the p4info", js.Name, *t.Value)
	}
	if len(vs.Fields) != len(st.keyWidths) {
		return invalid(nil, "parser state %s: value set %s has %d fields, the select key %d", js.Name, vs.Name, len(vs.Fields), len(st.keyWidths))
	}
	for i, f := range vs.Fields {
		if f.Bits != st.keyWidths[i] {
			return invalid(nil, "parser state %s: value set %s field %s is %d bits, the select key's element %d bits", js.Name, vs.Name, f.Name, f.Bits, st.keyWidths[i])
		}
	}
	pc.vset = vs
	pc.mask = ^uint64(0)
	if t.Mask != nil {
		m, err := bmv2json.Hex(*t.Mask)
		if err != nil {
			return invalid(nil, "parser state %s: %v", js.Name, err)
		}
		pc.bm = m
		pc.mask = m.Uint64()
	}
	return nil
}

// selectKey compiles a state's transition key: the key elements, each
// padded to whole bytes, concatenated.
func (c *compiler) selectKey(st *parseState, js *bmv2json.ParseState) error {
	x := &exprCtx{inParser: true}
	type elem struct {
		v     val
		bytes int
	}
	var elems []elem
	total := 0
	for i := range js.TransitionKey {
		tv := &js.TransitionKey[i]
		v, err := c.expr(tv, x)
		if err != nil {
			return err
		}
		if v.kind == kVarbit {
			return unsupported("a varbit field in a select key (parser state "+js.Name+")", x.si)
		}
		if v.kind != kData || v.width == 0 {
			return invalid(nil, "parser state %s: select key element %s", js.Name, tv.Value)
		}
		n := (v.width + 7) / 8
		elems = append(elems, elem{v, n})
		st.keyWidths = append(st.keyWidths, v.width)
		total += n
	}
	if total <= 8 {
		// The generated parser's key: the same elements, each cut to its
		// width, concatenated at whole bytes.
		st.keyCode = "0"
		for _, e := range elems {
			if e.v.lv == nil || !plainField(e.v.lv) || e.v.wide {
				st.keyCode = ""
				break
			}
			read := readCode(e.v.lv)
			if read == "" {
				st.keyCode = ""
				break
			}
			part := fmt.Sprintf("%s&%#x", read, mask64(e.v.width))
			if st.keyCode == "0" {
				st.keyCode = part
			} else {
				st.keyCode = fmt.Sprintf("(%s)<<%d | %s", st.keyCode, 8*e.bytes, part)
			}
		}
	}
	switch {
	case len(elems) == 0:
		st.key = func(*phv) uint64 { return 0 }
		return nil
	case len(elems) == 1 && total <= 8:
		u, m := elems[0].v.u, mask64(elems[0].v.width)
		st.key = func(s *phv) uint64 { return u(s) & m }
		return nil
	}
	if total <= 8 {
		parts := elems
		st.key = func(s *phv) uint64 {
			var k uint64
			for _, e := range parts {
				k = k<<(8*e.bytes) | e.v.u(s)&mask64(e.v.width)
			}
			return k
		}
		return nil
	}
	var fns []func(*phv) *big.Int
	var widths []int
	for _, e := range elems {
		fns = append(fns, bigOf(e.v))
		widths = append(widths, e.bytes*8)
	}
	st.bkey = func(s *phv) *big.Int {
		k := new(big.Int)
		for i, f := range fns {
			m := new(big.Int).Lsh(big.NewInt(1), uint(widths[i]))
			m.Sub(m, big.NewInt(1))
			k.Lsh(k, uint(widths[i])).Or(k, new(big.Int).And(f(s), m))
		}
		return k
	}
	return nil
}

// run parses s.data from its start state; a parser error sets
// parser_error and stops parsing (the packet still goes to ingress, as on
// BMv2).
func (pe *parserErrors) raise(s *phv, code uint64) {
	s.parserErr = true
	if pe.slot >= 0 {
		s.slots[pe.slot] = code
	}
}

func (p *Program) parse(s *phv) {
	if p.genParse != nil {
		p.genParse(s)
		return
	}
	st := p.start
	for st != nil {
		for _, op := range st.ops {
			if op(s); s.parserErr {
				return
			}
		}
		next, ok := st.transition(s)
		if s.parserErr { // the select key looked past the end
			return
		}
		if !ok {
			p.perr.raise(s, p.perr.noMatch)
			return
		}
		st = next
	}
}

func (st *parseState) transition(s *phv) (*parseState, bool) {
	if st.key != nil {
		k := st.key(s)
		for i := range st.cases {
			c := &st.cases[i]
			switch {
			case c.isDefault:
				return c.next, true
			case c.vset != nil:
				if c.vset.Current().ContainsNarrow(k, c.mask) {
					return c.next, true
				}
			case k&c.mask == c.value:
				return c.next, true
			}
		}
		return nil, false
	}
	k := st.bkey(s)
	for i := range st.cases {
		c := &st.cases[i]
		switch {
		case c.isDefault:
			return c.next, true
		case c.vset != nil:
			if c.vset.Current().ContainsWide(k, c.bm) {
				return c.next, true
			}
		case new(big.Int).And(k, c.bm).Cmp(c.bv) == 0:
			return c.next, true
		}
	}
	return nil, false
}

func (c *compiler) parserOp(op *bmv2json.ParserOp) (func(*phv), error) {
	x := &exprCtx{inParser: true, si: op.SourceInfo}
	switch op.Op {
	case "extract":
		if len(op.Parameters) != 1 {
			return nil, invalid(op.SourceInfo, "extract takes one parameter")
		}
		return c.extract(&op.Parameters[0], x)
	case "extract_VL":
		return c.extractVL(op, x)
	case "set":
		if len(op.Parameters) != 2 {
			return nil, invalid(op.SourceInfo, "set takes two parameters")
		}
		assign, err := c.assign(&op.Parameters[0], &op.Parameters[1], x)
		if err != nil {
			return nil, err
		}
		return assign, nil
	case "verify":
		if len(op.Parameters) != 2 {
			return nil, invalid(op.SourceInfo, "verify takes two parameters")
		}
		cond, err := c.operand(&op.Parameters[0], kBool, x)
		if err != nil {
			return nil, err
		}
		code, err := c.operand(&op.Parameters[1], kData, x)
		if err != nil {
			return nil, err
		}
		pe, cb, cu := &c.prog.perr, cond.b, code.u
		return func(s *phv) {
			if !cb(s) {
				pe.raise(s, cu(s))
			}
		}, nil
	case "advance", "shift":
		if len(op.Parameters) != 1 {
			return nil, invalid(op.SourceInfo, "%s takes one parameter", op.Op)
		}
		n, err := c.operand(&op.Parameters[0], kData, x)
		if err != nil {
			return nil, err
		}
		bits, nu, pe := op.Op == "advance", n.u, &c.prog.perr
		return func(s *phv) {
			b := int(nu(s))
			if !bits {
				b *= 8
			}
			if !s.has(b) {
				pe.raise(s, pe.tooShort)
				return
			}
			s.pos += b / 8
		}, nil
	case "primitive":
		prim := *op.Primitive
		if prim.SourceInfo == nil {
			prim.SourceInfo = op.SourceInfo
		}
		c.touched.take()
		run, err := c.primitive(&prim, x)
		if err != nil {
			return nil, err
		}
		return c.touched.take().holding(run), nil
	}
	return nil, unsupported("the parser operation "+op.Op, op.SourceInfo)
}

func (c *compiler) extract(tv *bmv2json.TypedValue, x *exprCtx) (func(*phv), error) {
	name, err := tv.String()
	if err != nil {
		return nil, invalid(x.si, "extract: %v", err)
	}
	pe := &c.prog.perr
	switch tv.Type {
	case "regular":
		h, ok := c.l.header(name)
		if !ok {
			return nil, invalid(x.si, "extract of unknown header %s", name)
		}
		if ex := c.extractor(h, pe); ex != nil {
			return ex, nil
		}
		return nil, unsupported("extract of the varbit header "+name+" without a length", x.si)
	case "stack":
		st, ok := c.l.stackByName[name]
		if !ok {
			return nil, invalid(x.si, "extract of unknown header stack %s", name)
		}
		var exs []func(*phv)
		for _, h := range c.l.stacks[st].headers {
			ex := c.extractor(h, pe)
			if ex == nil {
				return nil, unsupported("extract to the varbit header stack "+name+" without a length", x.si)
			}
			exs = append(exs, ex)
		}
		return extractNext(st, exs, pe), nil
	}
	return nil, unsupported("extract to a "+tv.Type, x.si)
}

// extractNext extracts into stack st's next element with that element's
// extractor (exs[i]), raising StackOutOfBounds when the stack is full.
func extractNext(st int, exs []func(*phv), pe *parserErrors) func(*phv) {
	return func(s *phv) {
		i := s.stackNext[st]
		if i >= len(exs) {
			pe.raise(s, pe.stackOutOfBounds)
			return
		}
		if exs[i](s); !s.parserErr {
			s.stackNext[st] = i + 1
		}
	}
}

// extractor reads header h at the parser's position, or raises
// PacketTooShort.
func (c *compiler) extractor(h int, pe *parserErrors) func(*phv) {
	hi := c.l.headers[h]
	if hi.metadata {
		return func(*phv) {}
	}
	if hi.vlOff >= 0 {
		return nil // extract of a varbit header without a length
	}
	off, n, bits := hi.byteOff, hi.bits/8, hi.bits
	inUnion := hi.union >= 0
	return func(s *phv) {
		if !s.has(bits) {
			pe.raise(s, pe.tooShort)
			return
		}
		copy(s.hdr[off:off+n], s.data[s.pos:])
		if inUnion {
			c.makeValid(s, h)
		} else {
			s.valid[h] = true
		}
		s.pos += n
	}
}
