// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// An if-condition built of and, or and not over simpler tests is lowered
// into the control's graph at load: each leaf test is an if-node of its own
// (a specialised one where conds.go has its shape, else a condNode running
// the leaf's closure), and the operators become the edges between them,
// as short-circuit evaluation takes them (`a && b`: a's true edge goes to
// b, its false edge to the if's false successor). BMv2's conditions have
// no side effects, so the path taken is the expression's value. A packet
// then pays one node dispatch per leaf it tests instead of a closure call
// per operator and operand.

// exit names where a lowered leaf's edge leads.
type exit int8

const (
	toNode  exit = iota // another leaf of the same condition
	toTrue              // the if's true successor
	toFalse             // the if's false successor
)

// dest is one edge of a lowered leaf.
type dest struct {
	n    node
	exit exit
}

// condFlow is one lowered if-condition: its entry leaf, every leaf's
// branch with its two edges, and the whole expression's generic closure
// (kept for the test that holds the lowered graph to it).
type condFlow struct {
	entry           node
	leaves          []leafEdges
	whole           func(*phv) bool
	onTrue, onFalse node // the if's successors, set by link
}

// leafEdges is a leaf's branch and where its two outcomes lead.
type leafEdges struct {
	n               node
	br              *branch
	ifTrue, ifFalse dest
}

// link points the leaves at the if's successors, known once the control's
// nodes all exist.
func (f *condFlow) link(onTrue, onFalse node) {
	f.onTrue, f.onFalse = onTrue, onFalse
	resolve := func(d dest) node {
		switch d.exit {
		case toTrue:
			return onTrue
		case toFalse:
			return onFalse
		}
		return d.n
	}
	for _, l := range f.leaves {
		l.br.onTrue, l.br.onFalse = resolve(l.ifTrue), resolve(l.ifFalse)
	}
}

// lowerable says whether tv is a logical and/or (under any number of
// nots): the conditions worth lowering.
func lowerable(tv *bmv2json.TypedValue) bool {
	for tv != nil && tv.Type == "expression" {
		e, err := tv.Expression()
		if err != nil {
			return false
		}
		switch e.Op {
		case "and", "or":
			return true
		case "not":
			tv = e.Right
		default:
			return false
		}
	}
	return false
}

// lower compiles tv into leaves of f whose outcome leads to ifTrue when tv
// holds and to ifFalse otherwise, and returns the leaf to test first.
func (c *compiler) lower(f *condFlow, tv *bmv2json.TypedValue, ifTrue, ifFalse dest, x *exprCtx) (node, error) {
	if tv != nil && tv.Type == "expression" {
		if e, err := tv.Expression(); err == nil {
			switch e.Op {
			case "not":
				return c.lower(f, e.Right, ifFalse, ifTrue, x)
			case "and", "or":
				right, err := c.lower(f, e.Right, ifTrue, ifFalse, x)
				if err != nil {
					return nil, err
				}
				if e.Op == "and" {
					return c.lower(f, e.Left, dest{n: right}, ifFalse, x)
				}
				return c.lower(f, e.Left, ifTrue, dest{n: right}, x)
			}
		}
	}
	return c.leaf(f, tv, ifTrue, ifFalse, x)
}

// leaf compiles one test of a lowered condition.
func (c *compiler) leaf(f *condFlow, tv *bmv2json.TypedValue, ifTrue, ifFalse dest, x *exprCtx) (node, error) {
	v, err := c.operand(tv, kBool, x)
	if err != nil {
		return nil, err
	}
	n, negated := c.fastConditional(tv)
	if n == nil {
		n, negated = &condNode{cond: v.b}, false // the closure is the whole leaf
	}
	br := branchOf(n)
	br.generic, br.negated = v.b, negated
	if negated {
		ifTrue, ifFalse = ifFalse, ifTrue
	}
	f.leaves = append(f.leaves, leafEdges{n: n, br: br, ifTrue: ifTrue, ifFalse: ifFalse})
	return n, nil
}

// lowerConditional lowers an and/or condition (lowerable): its entry node
// and the flow to link.
func (c *compiler) lowerConditional(tv *bmv2json.TypedValue, x *exprCtx) (*condFlow, error) {
	whole, err := c.operand(tv, kBool, x)
	if err != nil {
		return nil, err
	}
	f := &condFlow{whole: whole.b}
	if f.entry, err = c.lower(f, tv, dest{exit: toTrue}, dest{exit: toFalse}, x); err != nil {
		return nil, err
	}
	c.prog.condFlows = append(c.prog.condFlows, f)
	return f, nil
}
