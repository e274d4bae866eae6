// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// Generated actions and key building (p4gen, genemit.go): an action's
// straight body as Go statements (genprims.go) with the closures of the
// steps that have no generated form called in place; a compiler-made
// action node's body inlined into its control; a table's key built by
// stores at offsets resolved at generation time.

// actionsCode writes the program's generated action bodies: a struct of
// the closures their steps without a generated form call, a method per
// action that has generated steps, and the bind function that sets each
// such action's gen (the actions in the program's order).
func actionsCode(bind, what string, acts []*action) string {
	typ := "acts" + strings.TrimPrefix(strings.TrimSuffix(bind, "_actions"), "bind")
	var fields, binds, methods strings.Builder
	for i, a := range acts {
		if !generatedAction(a) {
			continue
		}
		fmt.Fprintf(&binds, "\tacts[%d].gen = g.a%d\n", i, i)
		fmt.Fprintf(&methods, "// a%d is action %s.\nfunc (g *%s) a%d(s *phv) {\n", i, a.name, typ, i)
		for k, code := range a.code {
			if code != "" {
				fmt.Fprintf(&methods, "%s\n", code)
				continue
			}
			fmt.Fprintf(&fields, "\ta%d_%d func(*phv)\n", i, k)
			fmt.Fprintf(&binds, "\tg.a%d_%d = acts[%d].straight[%d]\n", i, k, i, k)
			fmt.Fprintf(&methods, "g.a%d_%d(s)\n", i, k)
			if a.exits && k < len(a.code)-1 {
				methods.WriteString("if s.exited {\nreturn\n}\n")
			}
		}
		methods.WriteString("}\n\n")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// %s is the generated actions of %s: the closures of the steps without generated code.\n", typ, what)
	fmt.Fprintf(&b, "type %s struct {\n%s}\n\n", typ, fields.String())
	fmt.Fprintf(&b, "// %s binds the generated actions of %s.\nfunc %s(acts []*action) {\n\tg := &%s{}\n%s}\n\n", bind, what, bind, typ, binds.String())
	b.WriteString(methods.String())
	return b.String()
}

// generatedAction: a straight body with at least one generated step
// gets a generated method.
func generatedAction(a *action) bool {
	if a.straight == nil || len(a.code) != len(a.straight) {
		return false
	}
	for _, c := range a.code {
		if c != "" {
			return true
		}
	}
	return false
}

// inlinable: a compiler-made action node whose body the control runs in
// place: straight, with generated steps, no data, no register locks and
// no exit.
func inlinable(n *fixedNode) bool {
	return generatedAction(n.a) && n.a.registers == nil && !n.a.exits && len(n.words) == 0
}

// tableMethod is table node i's apply as a method of the control's struct
// (CTL stands for its type): an empty table's default as tableNode.run
// takes it, else the key built in place, the lookup, and apply.
func (e *emitter) tableMethod(i int, n *tableNode) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// table%d applies %s.\nfunc (g *CTL) table%d(s *phv) node {\n\tt := g.t%d\n", i, n.name, i, i)
	b.WriteString(emptyDefaultCode(n))
	fmt.Fprintf(&b, "\tkey := s.key[:%d]\n", n.t.KeyWidth())
	for j, k := range n.keys {
		b.WriteString(e.keyCode(i, j, k))
		for x, m := range k.mask {
			if m != 0xff {
				fmt.Fprintf(&b, "\tkey[%d] &= %#x\n", k.off+x, m)
			}
		}
	}
	b.WriteString(slabHitCode(n))
	b.WriteString(hitCode(n))
	b.WriteString("}\n\n")
	return b.String()
}

// slabHitCode is a plain exact-match table's lookup when the table keeps a
// slab (Table.LookupSlab): a miss runs the default as hitCode does; a hit
// whose action has a fused body (fusedBody) runs it on the entry's
// parameter bytes, decoded at offsets fixed at generation time, without
// runtime data words. Anything else (no slab, an action without a fused
// body, parameters not at the JSON's widths) goes on to hitCode's lookup.
func slabHitCode(n *tableNode) string {
	if !plainTable(n) {
		return ""
	}
	for _, f := range n.t.Fields {
		if f.Kind != pipeline.Exact {
			return ""
		}
	}
	var cases strings.Builder
	next := "bc.ba.next"
	if n.byHit {
		next = "t.hit"
	}
	for _, ba := range n.acts {
		if body, ok := fusedBody(ba.a); ok {
			fmt.Fprintf(&cases, "\t\t\tcase %d: // %s\n%s\t\t\t\treturn %s\n", ba.a.index, ba.a.name, body, next)
		}
	}
	if cases.Len() == 0 {
		return ""
	}
	miss := "bc.ba.next"
	if n.byHit {
		miss = "t.miss"
	}
	return `	if bound, matched, ok := t.t.LookupSlab(key, &s.slabParams); ok {
		if bc, isCall := bound.(*boundCall); isCall && bc.ba != nil {
			if !matched {
				if a := bc.ba.a; !a.empty {
					if a.words != 0 {
						s.params = bc.words
					}
					runAction(a, s)
					if s.exited {
						return nil
					}
				}
				return ` + miss + `
			}
			if bc.packed {
				switch bc.ba.a.index {
` + cases.String() + `				}
			}
		}
	}
`
}

// slabParamRef is a generated step's read of a runtime data word.
var slabParamRef = regexp.MustCompile(`s\.params\[(\d+)\]`)

// fusedBody is a's straight body with each runtime data word read as its
// parameter's bytes in s.slabParams (packed in order at their byte widths,
// as a slab keeps them): for an action whose every step has generated
// code, which holds no register locks, cannot exit, and whose parameters
// (each at most 64 bits) leave room for an 8-byte load past the last.
func fusedBody(a *action) (string, bool) {
	if a.empty || !generatedAction(a) || a.registers != nil || a.exits {
		return "", false
	}
	byWord := map[int]string{}
	off := 0
	for _, p := range a.params {
		w := (p.width + 7) / 8
		if p.width > 64 {
			return "", false
		}
		var read string
		switch w {
		case 0:
			read = "uint64(0)"
		case 1:
			read = fmt.Sprintf("uint64(s.slabParams[%d])", off)
		case 2:
			read = fmt.Sprintf("uint64(binary.BigEndian.Uint16(s.slabParams[%d:]))", off)
		case 4:
			read = fmt.Sprintf("uint64(binary.BigEndian.Uint32(s.slabParams[%d:]))", off)
		case 8:
			read = fmt.Sprintf("binary.BigEndian.Uint64(s.slabParams[%d:])", off)
		default:
			read = fmt.Sprintf("(binary.BigEndian.Uint64(s.slabParams[%d:]) >> %d)", off, 64-8*w)
		}
		byWord[p.word] = read
		off += w
	}
	if off+8 > pipeline.SlabParamBytes {
		return "", false
	}
	var b strings.Builder
	for _, code := range a.code {
		if code == "" {
			return "", false
		}
		fused := slabParamRef.ReplaceAllStringFunc(code, func(m string) string {
			var w int
			fmt.Sscanf(slabParamRef.FindStringSubmatch(m)[1], "%d", &w)
			if r, ok := byWord[w]; ok {
				return r
			}
			return m
		})
		if strings.Contains(fused, "s.params") {
			return "", false
		}
		b.WriteString(fused + "\n")
	}
	return b.String(), true
}

// emptyDefaultCode is tableNode.runDefault in place: an empty table runs
// its bound default action (none when it does nothing; its data set only
// when it has some) and goes to its successor, known here for a table
// whose successor is by hit or miss.
func emptyDefaultCode(n *tableNode) string {
	next := "bc.ba.next"
	if n.byHit {
		next = "t.miss"
	}
	return `	if h := t.t.EmptyDefault(); h != nil {
		bc, ok := h.Bound.(*boundCall)
		if !ok || bc.ba == nil {
			return t.apply(s, h)
		}
		if a := bc.ba.a; !a.empty {
			if a.words != 0 {
				s.params = bc.words
			}
` + runActionCode(n, "a", "\t\t\t") + `		}
		return ` + next + `
	}
`
}

// runActionCode is runAction(a, s) (then a nil return when the action
// exited) for the action in variable a of table node n, with the bodies of
// the table's actions that have one in place (inlineBody), so that the
// common defaults and hits run without the two calls.
func runActionCode(n *tableNode, a, indent string) string {
	call := indent + "runAction(" + a + ", s)\n" + indent + "if s.exited {\n" + indent + "\treturn nil\n" + indent + "}\n"
	var cases strings.Builder
	seen := map[int]bool{}
	for _, ba := range n.acts {
		if body, ok := inlineBody(ba.a); ok && !seen[ba.a.index] {
			seen[ba.a.index] = true
			fmt.Fprintf(&cases, "%scase %d: // %s\n%s", indent, ba.a.index, ba.a.name, body)
		}
	}
	if cases.Len() == 0 {
		return call
	}
	return indent + "switch " + a + ".index {\n" + cases.String() + indent + "default:\n" + call + indent + "}\n"
}

// inlineBody is the generated body of an action a table method may run in
// place of runAction: every step generated, no register locks (runAction
// takes them through exec), no exit, not empty.
func inlineBody(a *action) (string, bool) {
	if a.empty || !generatedAction(a) || a.registers != nil || a.exits {
		return "", false
	}
	var b strings.Builder
	for _, code := range a.code {
		if code == "" {
			return "", false
		}
		b.WriteString(code + "\n")
	}
	return b.String(), true
}

// plainTable: no action profile, direct counter or meter, so a hit is its
// bound action and successor alone.
func plainTable(n *tableNode) bool {
	return n.profile == nil && !n.counts && n.meter == nil
}

// hitCode is the lookup and tableNode.apply in place for a plain table's
// bound entries (Table.LookupPlain: no Hit filled); anything else, and a
// hit whose action is not bound, goes through LookupHit and apply.
func hitCode(n *tableNode) string {
	const full = "\tvar found pipeline.Hit\n\tt.t.LookupHit(key, &found, s.paramBuf)\n\treturn t.apply(s, &found)\n"
	if !plainTable(n) {
		return full
	}
	next, matched := "if ba == nil {\n\t\treturn nil\n\t}\n\treturn ba.next\n", "_"
	if n.byHit {
		next, matched = "if matched {\n\t\treturn t.hit\n\t}\n\treturn t.miss\n", "matched"
	}
	return `	bound, words, ` + matched + ` := t.t.LookupPlain(key, s.paramBuf)
	bc, ok := bound.(*boundCall)
	if !ok {
	` + full + `	}
	ba := bc.ba
	if ba != nil && !ba.a.empty {
		if words != nil { // a slab table's entry: its own words
			s.params = words
		} else {
			s.params = bc.words
		}
` + runActionCode(n, "ba.a", "\t\t") + `	}
	` + next
}

// keyCode writes key field j of table node i into key.
func (e *emitter) keyCode(i, j int, k keyElem) string {
	o, n := k.off, k.bytes
	switch {
	case k.read == nil:
		if store := beStore("key", o, n, beLoad("s.hdr", k.src, n)); store != "" {
			return "\t" + store + "\n"
		}
		return fmt.Sprintf("\tcopy(key[%d:%d], s.hdr[%d:%d])\n", o, o+n, k.src, k.src+n)
	case k.slot >= 0:
		v := fmt.Sprintf("s.slots[%d]", k.slot)
		if store := beStore("key", o, n, fromUint64(n, v)); store != "" {
			return "\t" + store + "\n"
		}
		return fmt.Sprintf("\tpipeline.PutUint(key[%d:%d], %s)\n", o, o+n, v)
	}
	read := e.bindField(fmt.Sprintf("k%d_%d", i, j), "func(*phv, []byte)", fmt.Sprintf("n[%d].(*tableNode).keys[%d].read", i, j))
	return fmt.Sprintf("\t%s(s, key[%d:%d])\n", read, o, o+n)
}

// deparserCode writes the program's deparser as straight code: the emit
// order's headers tested and copied one by one at the offsets resolved at
// generation time (as deparseFixed does in two loops), the copies fixed-
// size array moves. Empty when the program's deparser is not one
// deparseFixed takes (varbit headers, long orders).
func deparserCode(bind, what string, p *Program) string {
	if !p.emitFixed {
		return ""
	}
	typ := "dep" + strings.TrimPrefix(strings.TrimSuffix(bind, "_deparser"), "bind")
	var b strings.Builder
	fmt.Fprintf(&b, "// %s is the generated deparser of %s.\ntype %s struct {\n\tp *Program\n}\n\n", typ, what, typ)
	fmt.Fprintf(&b, "// %s binds the generated deparser of %s.\nfunc %s(p *Program) func(*phv, []byte) []byte {\n\treturn (&%s{p: p}).run\n}\n\n", bind, what, bind, typ)
	fmt.Fprintf(&b, "func (g *%s) run(s *phv, frame []byte) []byte {\n", typ)
	fmt.Fprintf(&b, "\tv, h := s.valid[:%d], s.hdr[:%d]\n\tsize := 0\n", len(p.layout.headers), p.layout.hdrBytes)
	for _, e := range p.emit {
		fmt.Fprintf(&b, "\tif v[%d] {\n\t\tsize += %d\n\t}\n", e.hdr, e.bytes)
	}
	b.WriteString("\tout, replaced := frame, false\n\tif size != s.pos {\n\t\tout, replaced = g.p.outFrame(frame, s.pos, size)\n\t}\n\tat := 0\n")
	for _, e := range p.emit {
		fmt.Fprintf(&b, "\tif v[%d] {\n\t\t*(*[%d]byte)(out[at:]) = [%d]byte(h[%d:%d])\n\t\tat += %d\n\t}\n",
			e.hdr, e.bytes, e.bytes, e.off, e.off+e.bytes, e.bytes)
	}
	b.WriteString("\tif size != s.pos {\n\t\tif replaced {\n\t\t\tg.p.opts.Frames.Put(frame)\n\t\t}\n\t\ts.data, s.pos = out, size\n\t}\n\treturn out\n}\n\n")
	return b.String()
}

// deparserSignature is what the generated deparser depends on: the PHV's
// sizes and each emitted header's index, offset and size.
func deparserSignature(p *Program) []string {
	if !p.emitFixed {
		return nil
	}
	sig := []string{fmt.Sprintf("headers=%d bytes=%d", len(p.layout.headers), p.layout.hdrBytes)}
	for _, e := range p.emit {
		sig = append(sig, fmt.Sprintf("emit hdr=%d off=%d bytes=%d", e.hdr, e.off, e.bytes))
	}
	return sig
}
