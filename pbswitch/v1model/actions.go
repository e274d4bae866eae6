// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"math/rand/v2"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// action is a compiled action body.
type action struct {
	name   string
	p4id   uint32 // its p4info id, or privateActionID|its JSON id
	inInfo bool   // false: compiler-made, not in the p4info
	params []paramInfo
	words  int // runtime data words
	steps  []step
	// straight is the body without jumps, run as a plain list.
	straight []func(*phv)
	// registers are the arrays the body accesses, held while it runs.
	registers registerSet
	// empty: the body does nothing (NoAction), so running it is skipped.
	empty bool
	// exits: the body may end the control (exit, a failed assert or
	// assume); only then is s.exited checked between its primitives.
	exits bool
	// code is the generated Go of each straight step ("": none, the
	// step's closure runs), genprims.go; gen the generated body when
	// Load bound one (generated.go), run in place of straight.
	code []string
	gen  func(*phv)
	// index is the action's place in the program's actions (the JSON's
	// order), by which generated code names it.
	index int
}

// privateActionID marks the ids of actions that are not in the p4info.
const privateActionID = 0xfe000000

// step is one primitive; jumps implement the if-statements p4c compiles
// into action bodies (_jump, _jump_if_zero).
type step struct {
	run    func(*phv)
	jumpTo int             // -1: no jump
	ifZero func(*phv) bool // with jumpTo: jump when it is true
}

func (a *action) exec(s *phv) {
	if a.registers != nil {
		a.registers.lock()
		defer a.registers.unlock()
	}
	if a.straight != nil {
		runStraight(a, s)
		return
	}
	for pc := 0; pc < len(a.steps) && !s.exited; {
		st := &a.steps[pc]
		switch {
		case st.jumpTo < 0:
			st.run(s)
			pc++
		case st.ifZero == nil || st.ifZero(s):
			pc = st.jumpTo
		default:
			pc++
		}
	}
}

// runAction runs a bound action: its generated body directly when it has
// one and holds no register lock, else exec.
func runAction(a *action, s *phv) {
	if a.gen != nil && a.registers == nil {
		a.gen(s)
		return
	}
	a.exec(s)
}

// runStraight runs a body without jumps, checking for exit only when the
// body may exit.
func runStraight(a *action, s *phv) {
	if a.gen != nil {
		a.gen(s)
		return
	}
	if !a.exits {
		for _, run := range a.straight {
			run(s)
		}
		return
	}
	for _, run := range a.straight {
		run(s)
		if s.exited {
			return
		}
	}
}

// setParams loads an entry's action data (big-endian byte strings) as
// runtime data words into the PHV's own buffer.
func (a *action) setParams(s *phv, params [][]byte) {
	s.params = s.paramBuf
	a.decodeParams(s.params, params)
}

// decodeParams writes params as runtime data words into words.
func (a *action) decodeParams(words []uint64, params [][]byte) {
	for i, p := range a.params {
		if i >= len(params) {
			return
		}
		if p.width <= 64 {
			words[p.word] = pipeline.Uint(params[i])
			continue
		}
		n := wordsOf(p.width)
		w := words[p.word : p.word+n]
		clear(w)
		b := params[i]
		for j := 0; j < len(b); j++ {
			bit := (len(b) - 1 - j) * 8
			w[bit/64] |= uint64(b[j]) << (bit % 64)
		}
	}
}

// decoded is params as runtime data words, decoded once (when a table
// entry is written, or at load for constant data); a packet's action
// reads them in place.
func (a *action) decoded(params [][]byte) []uint64 {
	words := make([]uint64, a.words)
	a.decodeParams(words, params)
	return words
}

func (c *compiler) action(ja *bmv2json.Action) (*action, error) {
	a := &action{name: ja.Name}
	for _, rd := range ja.RuntimeData {
		a.params = append(a.params, paramInfo{word: a.words, width: rd.Bitwidth})
		a.words += wordsOf(rd.Bitwidth)
	}
	c.maxParamWords = max(c.maxParamWords, a.words)
	c.touched.take()
	var consts []*constWrite // per step: a constant header write, or nil
	var codes []string       // per step: its generated Go, or ""
	for i := range ja.Primitives {
		p := &ja.Primitives[i]
		x := &exprCtx{params: a.params, si: p.SourceInfo}
		codes = append(codes, c.primitiveCode(p, x))
		if w, ok := c.constHeaderWrite(p, x); ok {
			consts = append(consts, &w)
		} else {
			consts = append(consts, nil)
		}
		switch p.Op {
		case "exit", "assert", "assume":
			a.exits = true
		}
		switch p.Op {
		case "_jump", "_jump_if_zero":
			st, err := c.jump(p, x)
			if err != nil {
				return nil, err
			}
			a.steps = append(a.steps, st)
			continue
		}
		run, err := c.primitive(p, x)
		if err != nil {
			return nil, err
		}
		a.steps = append(a.steps, step{run: run, jumpTo: -1})
	}
	a.straight = []func(*phv){}
	for _, st := range a.steps {
		if st.jumpTo >= 0 {
			a.straight = nil
			break
		}
		a.straight = append(a.straight, st.run)
	}
	if a.straight != nil {
		a.straight = mergeConstWrites(a.straight, consts)
		a.code = mergeConstCodes(codes, consts)
	}
	a.registers = c.touched.take()
	a.empty = a.straight != nil && len(a.straight) == 0 && a.registers == nil
	return a, nil
}

func (c *compiler) jump(p *bmv2json.Primitive, x *exprCtx) (step, error) {
	offArg := 0
	st := step{}
	if p.Op == "_jump_if_zero" {
		if len(p.Parameters) != 2 {
			return st, invalid(p.SourceInfo, "_jump_if_zero takes two parameters")
		}
		v, err := c.expr(&p.Parameters[0], x)
		if err != nil {
			return st, err
		}
		switch v.kind {
		case kVarbit:
			return st, unsupported("a varbit field as a condition", p.SourceInfo)
		case kBool:
			b := v.b
			st.ifZero = func(s *phv) bool { return !b(s) }
		case kData:
			u := v.u
			if v.wide {
				w := v.w
				st.ifZero = func(s *phv) bool { return w(s).Sign() == 0 }
			} else {
				st.ifZero = func(s *phv) bool { return u(s) == 0 }
			}
		default:
			return st, invalid(p.SourceInfo, "_jump_if_zero condition")
		}
		offArg = 1
	} else if len(p.Parameters) != 1 {
		return st, invalid(p.SourceInfo, "_jump takes one parameter")
	}
	k, err := p.Parameters[offArg].HexValue()
	if err != nil {
		return st, invalid(p.SourceInfo, "jump offset: %v", err)
	}
	st.jumpTo = int(k.Int64())
	return st, nil
}

// primitive compiles one primitive call.
func (c *compiler) primitive(p *bmv2json.Primitive, x *exprCtx) (func(*phv), error) {
	ps := p.Parameters
	need := func(n int) error {
		if len(ps) != n {
			return invalid(p.SourceInfo, "%s takes %d parameters, got %d", p.Op, n, len(ps))
		}
		return nil
	}
	switch p.Op {
	case "assign", "modify_field":
		if err := need(2); err != nil {
			return nil, err
		}
		return c.assign(&ps[0], &ps[1], x)
	case "assign_VL":
		if err := need(2); err != nil {
			return nil, err
		}
		return c.assignVL(&ps[0], &ps[1], x)
	case "assign_header", "copy_header":
		if err := need(2); err != nil {
			return nil, err
		}
		d, err := c.headerOperand(&ps[0], x)
		if err != nil {
			return nil, err
		}
		s, err := c.headerOperand(&ps[1], x)
		if err != nil {
			return nil, err
		}
		if d.htype != s.htype {
			return nil, invalid(p.SourceInfo, "assign_header between different header types")
		}
		return c.copyHeader(d, s), nil
	case "assign_union":
		return c.assignUnion(p, x)
	case "assign_header_stack":
		return c.assignStack(p, x)
	case "add_header", "remove_header", "add_header_fast":
		if err := need(1); err != nil {
			return nil, err
		}
		h, err := c.headerOperand(&ps[0], x)
		if err != nil {
			return nil, err
		}
		if p.Op == "remove_header" {
			return c.setInvalid(h), nil
		}
		return c.setValid(h), nil
	case "push", "pop":
		if err := need(2); err != nil {
			return nil, err
		}
		st, err := c.operand(&ps[0], kStack, x)
		if err != nil {
			return nil, err
		}
		n, err := ps[1].HexValue()
		if err != nil {
			return nil, invalid(p.SourceInfo, "%s count: %v", p.Op, err)
		}
		return c.shiftStack(st.stack, int(n.Int64()), p.Op == "push"), nil
	case "mark_to_drop", "drop":
		return c.markToDrop(), nil
	case "exit":
		return func(s *phv) { s.exited = true }, nil
	case "no_op", "log_msg":
		return func(*phv) {}, nil
	case "assert", "assume":
		if err := need(1); err != nil {
			return nil, err
		}
		v, err := c.expr(&ps[0], x)
		if err != nil {
			return nil, err
		}
		if v.kind != kBool && v.kind != kData {
			return nil, unsupported(p.Op+" of something that is not a condition", p.SourceInfo)
		}
		return c.assertion(v, p.SourceInfo), nil
	case "count":
		return c.count(p, x)
	case "execute_meter":
		return c.executeMeter(p, x)
	case "register_read", "register_write":
		return c.register(p, x)
	case "clone_ingress_pkt_to_egress":
		return c.cloneI2E(p, x)
	case "recirculate":
		if err := need(1); err != nil {
			return nil, err
		}
		list, err := c.fieldListID(&ps[0], x)
		if err != nil {
			return nil, err
		}
		return func(s *phv) { s.recircList = list }, nil
	case "clone_egress_pkt_to_egress":
		return c.cloneI2E(p, x) // the same request; egress acts on it
	case "resubmit":
		if err := need(1); err != nil {
			return nil, err
		}
		list, err := c.fieldListID(&ps[0], x)
		if err != nil {
			return nil, err
		}
		return func(s *phv) { s.resubmitList = list }, nil
	case "generate_digest":
		return c.digest(p, x)
	case "modify_field_with_hash_based_offset":
		return c.hashOffset(p, x)
	case "modify_field_rng_uniform":
		return c.random(p, x)
	case "truncate":
		if err := need(1); err != nil {
			return nil, err
		}
		n, err := c.operand(&ps[0], kData, x)
		if err != nil {
			return nil, err
		}
		u := n.u
		return func(s *phv) { s.truncateTo = int(u(s)) }, nil
	}
	return nil, unsupported("the primitive "+p.Op, p.SourceInfo)
}

func (c *compiler) markToDrop() func(*phv) {
	spec, mc := c.std.egressSpec, c.std.mcastGrp
	return func(s *phv) {
		s.slots[spec] = pipeline.DropPort
		if mc >= 0 {
			s.slots[mc] = 0
		}
	}
}

// assertion drops the packet when cond is false. BMv2 aborts the switch
// process; pbswitch keeps running and counts the failure.
func (c *compiler) assertion(v val, si *bmv2json.SourceInfo) func(*phv) {
	prog := c.prog
	var ok func(*phv) bool
	if v.kind == kBool {
		ok = v.b
	} else {
		u := v.u
		ok = func(s *phv) bool { return u(s) != 0 }
	}
	drop := c.markToDrop()
	return func(s *phv) {
		if !ok(s) {
			prog.assertFailures.Add(1)
			drop(s)
			s.assertFailed = true
			s.exited = true
		}
	}
}

func (c *compiler) fieldListID(tv *bmv2json.TypedValue, x *exprCtx) (int, error) {
	k, err := tv.HexValue()
	if err != nil {
		return 0, invalid(x.si, "field list id: %v", err)
	}
	id := int(k.Int64())
	if _, ok := c.fieldLists[id]; !ok && id != 0 {
		return 0, invalid(x.si, "unknown field list %d", id)
	}
	return id, nil
}

func (c *compiler) cloneI2E(p *bmv2json.Primitive, x *exprCtx) (func(*phv), error) {
	if len(p.Parameters) != 2 {
		return nil, invalid(p.SourceInfo, "%s takes two parameters", p.Op)
	}
	sess, err := c.operand(&p.Parameters[0], kData, x)
	if err != nil {
		return nil, err
	}
	list, err := c.fieldListID(&p.Parameters[1], x)
	if err != nil {
		return nil, err
	}
	u := sess.u
	return func(s *phv) {
		s.cloneSpec = uint32(u(s)&0xffff) | cloneValid
		s.cloneList = list
	}, nil
}

func (c *compiler) random(p *bmv2json.Primitive, x *exprCtx) (func(*phv), error) {
	if len(p.Parameters) != 3 {
		return nil, invalid(p.SourceInfo, "modify_field_rng_uniform takes three parameters")
	}
	lv, err := c.lvalueOf(&p.Parameters[0], x)
	if err != nil {
		return nil, err
	}
	lo, err := c.operand(&p.Parameters[1], kData, x)
	if err != nil {
		return nil, err
	}
	hi, err := c.operand(&p.Parameters[2], kData, x)
	if err != nil {
		return nil, err
	}
	lu, hu := lo.u, hi.u
	return writer(lv, val{kind: kData, u: func(s *phv) uint64 {
		l, h := lu(s), hu(s)
		if h <= l {
			return l
		}
		return l + rand.Uint64N(h-l+1)
	}}), nil
}

// now is the time meters and digests see.
func now() time.Time { return time.Now() }
