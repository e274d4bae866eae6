// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// The if-conditions p4c emits most are a header's validity, a metadata
// flag (d2b of a field: p4c's return and hit flags among them) and a
// metadata field against a constant, each maybe negated. Each of these
// becomes its own node type at load, testing its resolved offset in its
// run: the control's one dispatch per node, no closure per operator.
// Anything else is a condNode running its compiled closure.

// branch is a conditional node's two successors, and the expression's
// generic closure (what condNode runs; kept by the specialised nodes for
// the test that holds them to it).
type branch struct {
	onTrue, onFalse node
	generic         func(*phv) bool
	// negated: the node tests the expression's negation (its successors
	// went in swapped).
	negated bool
}

// validNode tests a header's validity.
type validNode struct {
	hdr int
	branch
}

func (n *validNode) run(s *phv) node {
	if s.valid[n.hdr] {
		return n.onTrue
	}
	return n.onFalse
}

// flagNode tests a metadata field against zero.
type flagNode struct {
	slot int
	branch
}

func (n *flagNode) run(s *phv) node {
	if s.slots[n.slot] != 0 {
		return n.onTrue
	}
	return n.onFalse
}

// slotEqNode tests a metadata field against a constant.
type slotEqNode struct {
	slot int
	k    uint64
	branch
}

func (n *slotEqNode) run(s *phv) node {
	if s.slots[n.slot] == n.k {
		return n.onTrue
	}
	return n.onFalse
}

// fieldEqNode tests a header field against a constant.
type fieldEqNode struct {
	get func(*phv) uint64
	k   uint64
	lv  *lvalue // the field (the tests write k into it)
	branch
}

func (n *fieldEqNode) run(s *phv) node {
	if n.get(s) == n.k {
		return n.onTrue
	}
	return n.onFalse
}

// conditional compiles a control's if-node: the generic closure always
// (its errors and the facts compiling records), then a specialised node
// when the expression has one of the shapes above. The branch is filled
// when the control's nodes are linked; negated says the expression is the
// shape's negation, so its successors go in swapped.
func (c *compiler) conditional(tv *bmv2json.TypedValue, x *exprCtx) (n node, br *branch, negated bool, err error) {
	v, err := c.operand(tv, kBool, x)
	if err != nil {
		return nil, nil, false, err
	}
	if fast, negated := c.fastConditional(tv); fast != nil {
		br := branchOf(fast)
		br.generic, br.negated = v.b, negated
		return fast, br, negated, nil
	}
	cn := &condNode{cond: v.b}
	cn.generic = v.b
	return cn, &cn.branch, false, nil
}

// branchOf is a conditional node's branch.
func branchOf(n node) *branch {
	switch n := n.(type) {
	case *validNode:
		return &n.branch
	case *flagNode:
		return &n.branch
	case *slotEqNode:
		return &n.branch
	case *fieldEqNode:
		return &n.branch
	case *condNode:
		return &n.branch
	}
	return nil
}

// fastConditional is tv's specialised node (nil: none) and whether tv
// negates it.
func (c *compiler) fastConditional(tv *bmv2json.TypedValue) (node, bool) {
	if tv == nil || tv.Type != "expression" {
		return nil, false
	}
	e, err := tv.Expression()
	if err != nil {
		return nil, false
	}
	switch e.Op {
	case "not":
		n, negated := c.fastConditional(e.Right)
		return n, !negated
	case "d2b":
		return c.fastFlag(e.Right), false
	case "==":
		return c.fastCompare(e), false
	case "!=":
		return c.fastCompare(e), true
	}
	return nil, false
}

// fastFlag is d2b of a header's validity or of an unsigned metadata field.
func (c *compiler) fastFlag(tv *bmv2json.TypedValue) node {
	if tv == nil || tv.Type != "field" {
		return nil
	}
	h, f, err := tv.FieldRef()
	if err != nil {
		return nil
	}
	if f == "$valid$" {
		if hi, ok := c.l.header(h); ok {
			return &validNode{hdr: hi}
		}
		return nil
	}
	if lv, ok := c.narrowSlot(h, f); ok {
		return &flagNode{slot: lv.slot}
	}
	return nil
}

// fastCompare is an unsigned metadata field == a constant that fits it
// (either operand order).
func (c *compiler) fastCompare(e *bmv2json.Expr) node {
	field, konst := e.Left, e.Right
	if field == nil || konst == nil {
		return nil
	}
	if field.Type == "hexstr" {
		field, konst = konst, field
	}
	if field.Type != "field" || konst.Type != "hexstr" {
		return nil
	}
	h, f, err := field.FieldRef()
	if err != nil {
		return nil
	}
	lv, ok := c.narrowSlot(h, f)
	if !ok {
		if lv, ok = c.narrowHeaderField(h, f); !ok {
			return nil
		}
	}
	k, err := konst.HexValue()
	if err != nil || k.Sign() < 0 || k.BitLen() > lv.width {
		return nil
	}
	if lv.slot < 0 {
		return &fieldEqNode{get: lv.getU(), k: k.Uint64(), lv: lv}
	}
	return &slotEqNode{slot: lv.slot, k: k.Uint64()}
}

// narrowHeaderField is an unsigned field of at most 64 bits at a fixed
// place in a header (not a stack element chosen at run time, not varbit).
func (c *compiler) narrowHeaderField(header, field string) (*lvalue, bool) {
	if field == "$valid$" {
		return nil, false
	}
	lv, ok := c.l.field(header, field)
	if !ok || lv.bit < 0 || lv.dyn != nil || lv.vl != nil || lv.signed || lv.width > 64 {
		return nil, false
	}
	return lv, true
}

// narrowSlot is an unsigned metadata field of at most 64 bits (its value
// stored cut to its width, so it compares as it is).
func (c *compiler) narrowSlot(header, field string) (*lvalue, bool) {
	lv, ok := c.l.field(header, field)
	if !ok || lv.slot < 0 || lv.dyn != nil || lv.vl != nil || lv.signed || lv.words != 1 {
		return nil, false
	}
	return lv, true
}

// ifNode compiles a control's if-node: an and/or condition lowered into
// leaf nodes (condflow.go), anything else one node (conditional). setNext
// links it to its successors.
func (c *compiler) ifNode(tv *bmv2json.TypedValue, x *exprCtx) (n node, setNext func(onTrue, onFalse node), err error) {
	if lowerable(tv) {
		f, err := c.lowerConditional(tv, x)
		if err != nil {
			return nil, nil, err
		}
		return f.entry, f.link, nil
	}
	n, br, negated, err := c.conditional(tv, x)
	if err != nil {
		return nil, nil, err
	}
	return n, func(onTrue, onFalse node) {
		if negated {
			onTrue, onFalse = onFalse, onTrue
		}
		br.onTrue, br.onFalse = onTrue, onFalse
	}, nil
}
