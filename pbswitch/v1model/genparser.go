// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"fmt"
	"strings"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// The generated parser: p4gen writes the parse graph as one Go function, a
// label per state, as parse runs it: each state's ops (an extract of a
// fixed header into its bytes at the offset resolved at load, a plain
// write as the actions' generated writes; any other op its closure, called
// in place, the parser error checked after it), its select key as one
// uint64 expression on resolved offsets, its cases as compares in order
// (the first match wins, a default ends the list) and gotos. A parser
// with a state the generated form cannot express (a value set case, a key
// wider than 64 bits or not made of plain fields) is not generated: the
// engine's parser runs it.

// parserOpCode is the Go source of a parser op ("" when it keeps its
// closure): extracts of fixed headers that are not metadata, in no union
// or stack, without a varbit field; writes assignCode has a form for.
func (c *compiler) parserOpCode(op *bmv2json.ParserOp) string {
	x := &exprCtx{inParser: true, si: op.SourceInfo}
	switch op.Op {
	case "extract":
		if len(op.Parameters) != 1 || op.Parameters[0].Type != "regular" {
			return ""
		}
		name, err := op.Parameters[0].String()
		if err != nil {
			return ""
		}
		h, ok := c.l.header(name)
		if !ok {
			return ""
		}
		hi := &c.l.headers[h]
		if hi.metadata || hi.union >= 0 || hi.vlOff >= 0 || hi.stack >= 0 || hi.bits%8 != 0 || hi.bits == 0 {
			return ""
		}
		n := hi.bits / 8
		return fmt.Sprintf("if s.pos+%d > len(s.data) {\npe.raise(s, pe.tooShort)\nreturn\n}\n"+
			"*(*[%d]byte)(s.hdr[%d:]) = [%d]byte(s.data[s.pos:])\ns.valid[%d] = true\ns.pos += %d",
			n, n, hi.byteOff, n, h, n)
	case "set":
		if len(op.Parameters) != 2 || op.Parameters[0].Type != "field" {
			return ""
		}
		return c.assignCode(&op.Parameters[0], &op.Parameters[1], x)
	}
	return ""
}

// parserCode is the generated parser's function body (after its
// receiver's declaration) for p's parse graph: the states reachable from
// the start, in the JSON's order, each labelled when something jumps to
// it. It calls the ops without generated code as g.ops[i], i counting
// them over all states in state and op order (parserClosures); ok false
// when a reachable state has no generated form.
func parserCode(p *Program) (code string, closures int, ok bool) {
	if p.start == nil || len(p.states) == 0 {
		return "", 0, false
	}
	index, base := map[*parseState]int{}, make([]int, len(p.states))
	for i, st := range p.states {
		index[st] = i
		base[i] = closures
		for _, oc := range st.opCodes {
			if oc == "" {
				closures++
			}
		}
	}
	if _, ok := index[p.start]; !ok {
		return "", 0, false
	}
	reached := map[*parseState]bool{p.start: true}
	for queue := []*parseState{p.start}; len(queue) > 0; queue = queue[1:] {
		for _, pc := range queue[0].cases {
			if pc.next != nil && !reached[pc.next] {
				if _, ok := index[pc.next]; !ok {
					return "", 0, false
				}
				reached[pc.next] = true
				queue = append(queue, pc.next)
			}
		}
	}
	targets := map[int]bool{}
	goTo := func(next *parseState) string {
		if next == nil {
			return "return"
		}
		targets[index[next]] = true
		return fmt.Sprintf("goto state%d", index[next])
	}
	first := -1
	bodies := make([]string, len(p.states))
	for i, st := range p.states {
		if !reached[st] {
			continue
		}
		if first < 0 {
			first = i
		}
		if st.key == nil || st.bkey != nil || st.keyCode == "" || len(st.opCodes) != len(st.ops) {
			return "", 0, false
		}
		var b strings.Builder
		n := base[i]
		for j, oc := range st.opCodes {
			if oc == "" {
				fmt.Fprintf(&b, "g.ops[%d](s) // op %d\nif s.parserErr {\nreturn\n}\n", n, j)
				n++
				continue
			}
			b.WriteString(oc + "\n")
		}
		if len(st.cases) > 0 && !st.cases[0].isDefault {
			fmt.Fprintf(&b, "k = %s\n", st.keyCode)
		}
		ended := false
		for _, pc := range st.cases {
			if pc.vset != nil {
				return "", 0, false
			}
			if pc.isDefault {
				b.WriteString(goTo(pc.next) + "\n")
				ended = true
				break
			}
			if pc.mask == ^uint64(0) {
				fmt.Fprintf(&b, "if k == %#x {\n%s\n}\n", pc.value, goTo(pc.next))
			} else {
				fmt.Fprintf(&b, "if k&%#x == %#x {\n%s\n}\n", pc.mask, pc.value, goTo(pc.next))
			}
		}
		if !ended {
			b.WriteString("pe.raise(s, pe.noMatch)\nreturn\n")
		}
		bodies[i] = b.String()
	}
	var b strings.Builder
	b.WriteString("pe := &g.p.perr\nvar k uint64\n_ = k\n")
	if first != index[p.start] {
		b.WriteString(goTo(p.start) + "\n")
	}
	for i, st := range p.states {
		if !reached[st] {
			continue
		}
		if targets[i] {
			fmt.Fprintf(&b, "state%d: // %s\n", i, st.name)
		} else {
			fmt.Fprintf(&b, "// %s\n", st.name)
		}
		b.WriteString(bodies[i])
	}
	return b.String(), closures, true
}

// parserClosures are the closures the generated parser calls (g.ops):
// the ops without generated code, in state and op order.
func parserClosures(p *Program) []func(*phv) {
	var ops []func(*phv)
	for _, st := range p.states {
		for j, oc := range st.opCodes {
			if oc == "" {
				ops = append(ops, st.ops[j])
			}
		}
	}
	return ops
}

// parserSignature is what the generated parser depends on: its code (by
// hash) and the closures it calls; nil when there is no generated form.
func parserSignature(p *Program) []string {
	code, n, ok := parserCode(p)
	if !ok {
		return nil
	}
	return []string{fmt.Sprintf("states=%d closures=%d code=%s", len(p.states), n, codeHash([]string{code}))}
}

// parserGenCode writes the generated parser's type and binding function
// ("" when the program's parser has no generated form).
func parserGenCode(bind, what string, p *Program) string {
	code, _, ok := parserCode(p)
	if !ok {
		return ""
	}
	typ := "parse" + strings.TrimPrefix(strings.TrimSuffix(bind, "_parser"), "bind")
	var b strings.Builder
	fmt.Fprintf(&b, "// %s is the generated parser of %s.\ntype %s struct {\n\tp   *Program\n\tops []func(*phv)\n}\n\n", typ, what, typ)
	fmt.Fprintf(&b, "// %s binds the generated parser of %s.\nfunc %s(p *Program) func(*phv) {\n\treturn (&%s{p: p, ops: parserClosures(p)}).run\n}\n\n", bind, what, bind, typ)
	fmt.Fprintf(&b, "func (g *%s) run(s *phv) {\n%s}\n\n", typ, code)
	return b.String()
}
