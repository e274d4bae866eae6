// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Generated controls: Go code that cmd/p4gen writes at build time for a
// given bmv2.json (controls_*_gen.go), one function per pipeline in which
// the control's graph is straight code: its if-nodes are Go if statements
// on resolved offsets, its tables and compiler-made action nodes direct
// calls of the compiled nodes, its edges gotos. It removes the node loop's
// interface dispatch, which led the engine's profile. With them: each
// table's key building, empty-table default and plain hit in place; each
// straight action's body as Go statements (genprims.go; the steps without
// a generated form call their closures), a compiler-made action node's
// inlined into its control; the deparser's emit order as straight code
// (genactions.go); the parser's states as one function of labels and
// gotos (genparser.go).
//
// The generic node graph stays the reference. Load takes the generated
// code only when the JSON's SHA-256 is one it was generated from and the
// graph the engine compiled has, node for node, the signature the code was
// generated against (kinds, offsets, constants, key layouts, successors),
// and the actions, deparser and parser theirs (each action's generated
// code by hash; the emit order; the parser's code by hash), all or
// nothing, so a stale file (another JSON, or an engine that compiles the
// same JSON otherwise) is never run.

// generatedControls is one generated file's code: the JSONs it serves and
// its pipelines' code by name.
type generatedControls struct {
	hashes []string // hex SHA-256 of each bmv2.json
	// layout is the PHV's sizes the code was generated for
	// (layoutSignature): its functions see the PHV's metadata words, header
	// bytes and validity bits as arrays of these sizes.
	layout    string
	pipelines map[string]generatedPipeline
	actions   generatedActions
	deparser  generatedDeparser
	parser    generatedParser
}

// generatedParser is the program's parser as straight code (nil bind when
// the program's parser has no generated form, genparser.go): the
// signature it was generated against (parserSignature) and the function
// binding it to the program.
type generatedParser struct {
	signature []string
	bind      func(p *Program) func(*phv)
}

// generatedDeparser is the program's deparser as straight code (nil bind
// when the program has none): the emit order it was generated against
// (deparserSignature) and the function binding it to the program.
type generatedDeparser struct {
	signature []string
	bind      func(p *Program) func(*phv, []byte) []byte
}

// generatedActions is the program's generated action bodies: the
// actions' signature they were generated against (actionSignature) and
// the function setting each generated action's gen.
type generatedActions struct {
	signature []string
	bind      func(acts []*action)
}

// generatedPipeline is one control's code: the graph's signature it was
// generated against and the function binding it to the compiled nodes
// (in walk order).
type generatedPipeline struct {
	signature []string
	bind      func(nodes []node) func(*phv)
}

// generatedByHash is every generated file's code by JSON hash (filled by
// their init functions).
var generatedByHash = map[string]*generatedControls{}

// registerGenerated records a generated file's code.
func registerGenerated(g *generatedControls) {
	for _, h := range g.hashes {
		generatedByHash[h] = g
	}
}

// jsonHash is the key of generated code: the bmv2.json's SHA-256.
func jsonHash(bmv2 []byte) string {
	sum := sha256.Sum256(bmv2)
	return hex.EncodeToString(sum[:])
}

// bindGenerated installs the generated code for the loaded JSON when there
// is code for its hash and every pipeline's graph matches its signature;
// otherwise the program keeps interpreting its graph.
func (p *Program) bindGenerated(bmv2 []byte, registry map[string]*generatedControls) {
	g := registry[jsonHash(bmv2)]
	if g == nil || p.opts.reference || p.opts.interpret {
		return
	}
	if g.layout != layoutSignature(p.layout) {
		return
	}
	ingress, ok := g.pipelines["ingress"]
	if !ok {
		return
	}
	egress, ok := g.pipelines["egress"]
	if !ok {
		return
	}
	in, eg := walkControl(p.ingress), walkControl(p.egress)
	if !slices.Equal(signature(in), ingress.signature) || !slices.Equal(signature(eg), egress.signature) {
		return
	}
	if g.actions.bind == nil || !slices.Equal(actionSignature(p.actions), g.actions.signature) {
		return
	}
	if !slices.Equal(deparserSignature(p), g.deparser.signature) {
		return
	}
	if !slices.Equal(parserSignature(p), g.parser.signature) {
		return
	}
	g.actions.bind(p.actions)
	if g.parser.bind != nil {
		p.genParse = g.parser.bind(p)
	}
	p.genIngress, p.genEgress = ingress.bind(in), egress.bind(eg)
	if g.deparser.bind != nil {
		p.genDeparse = g.deparser.bind(p)
	}
}

// layoutSignature is the PHV's sizes: the generated code's array views
// (phvArrays) are these long.
func layoutSignature(l *layout) string {
	return fmt.Sprintf("words=%d headers=%d bytes=%d", l.words, len(l.headers), l.hdrBytes)
}

// actionSignature describes each action with what its generated body and
// the controls' inlined copies depend on: its steps' generated code (by
// hash), whether it is straight, may exit or holds register locks.
func actionSignature(acts []*action) []string {
	sig := make([]string, len(acts))
	for i, a := range acts {
		sig[i] = fmt.Sprintf("%s straight=%d exits=%v locks=%v code=%s", a.name, len(a.straight), a.exits, a.registers != nil, codeHash(a.code))
	}
	return sig
}

// codeHash is a short digest of an action's generated code.
func codeHash(code []string) string {
	sum := sha256.Sum256([]byte(strings.Join(code, "\x00")))
	return hex.EncodeToString(sum[:6])
}

// keySignature describes a table's key building: each field's place in
// the key, its source (a header byte, a metadata slot or a closure) and
// its static mask.
func keySignature(keys []keyElem) string {
	var b strings.Builder
	for _, k := range keys {
		switch {
		case k.read == nil:
			fmt.Fprintf(&b, "[%d+%d hdr%d", k.off, k.bytes, k.src)
		case k.slot >= 0:
			fmt.Fprintf(&b, "[%d+%d slot%d", k.off, k.bytes, k.slot)
		default:
			fmt.Fprintf(&b, "[%d+%d read", k.off, k.bytes)
		}
		if k.mask != nil {
			fmt.Fprintf(&b, " &%x", k.mask)
		}
		b.WriteString("]")
	}
	return b.String()
}

// runIngress and runEgress run a control: its generated code when bound,
// else the node graph.
func (p *Program) runIngress(s *phv) { p.runPipeline(p.genIngress, p.ingress, s) }
func (p *Program) runEgress(s *phv)  { p.runPipeline(p.genEgress, p.egress, s) }

func (p *Program) runPipeline(gen func(*phv), first node, s *phv) {
	if gen == nil {
		runControl(first, s)
		return
	}
	s.exited = false
	gen(s)
	s.exited = false
}

// walkControl lists the nodes reachable from first, each once, in
// depth-first preorder (the order generated code numbers them in).
func walkControl(first node) []node {
	var order []node
	seen := map[node]bool{}
	var visit func(n node)
	visit = func(n node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		order = append(order, n)
		for _, next := range successors(n) {
			visit(next)
		}
	}
	visit(first)
	return order
}

// successors are a node's possible next nodes (nil: the control's end),
// in a fixed order.
func successors(n node) []node {
	switch n := n.(type) {
	case *tableNode:
		if n.byHit {
			return []node{n.hit, n.miss}
		}
		out := []node{n.baseNext}
		for i := range n.acts {
			out = append(out, n.acts[i].next)
		}
		return out
	case *fixedNode:
		return []node{n.next}
	}
	if br := branchOf(n); br != nil {
		return []node{br.onTrue, br.onFalse}
	}
	return nil
}

// distinctSuccessors are a node's successors without repeats, nil (the
// end) left out.
func distinctSuccessors(n node) []node {
	var out []node
	for _, s := range successors(n) {
		if s != nil && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// signature describes each node of a walked graph with what generated
// code depends on: its kind, resolved offsets and constants, and its
// successors by walk index (-1: the end).
func signature(order []node) []string {
	index := map[node]int{}
	for i, n := range order {
		index[n] = i
	}
	at := func(n node) int {
		if n == nil {
			return -1
		}
		return index[n]
	}
	var succ func(ns []node) []int
	succ = func(ns []node) []int {
		out := make([]int, len(ns))
		for i, n := range ns {
			out[i] = at(n)
		}
		return out
	}
	sig := make([]string, len(order))
	for i, n := range order {
		next := succ(successors(n))
		switch n := n.(type) {
		case *validNode:
			sig[i] = fmt.Sprintf("valid hdr=%d next=%v", n.hdr, next)
		case *flagNode:
			sig[i] = fmt.Sprintf("flag slot=%d next=%v", n.slot, next)
		case *slotEqNode:
			sig[i] = fmt.Sprintf("slot== slot=%d k=%#x next=%v", n.slot, n.k, next)
		case *fieldEqNode:
			sig[i] = fmt.Sprintf("field== bit=%d width=%d slot=%d k=%#x next=%v", n.lv.bit, n.lv.width, n.lv.slot, n.k, next)
		case *condNode:
			sig[i] = fmt.Sprintf("cond next=%v", next)
		case *tableNode:
			sig[i] = fmt.Sprintf("table %s byhit=%v plain=%v key=%d%s next=%v", n.name, n.byHit, plainTable(n), n.t.KeyWidth(), keySignature(n.keys), next)
		case *fixedNode:
			sig[i] = fmt.Sprintf("action %s one=%v words=%d code=%s next=%v", n.a.name, n.one != nil, len(n.words), codeHash(n.a.code), next)
		default:
			sig[i] = fmt.Sprintf("unknown %T", n)
		}
	}
	return sig
}

//go:generate go run ../cmd/p4gen -root ../../pipeconf/p4src -o controls_flowbuf_gen.go ../../pipeconf/p4src/build ../../pipeconf/p4src/build/upf-fast ../../pipeconf/p4src/build/upf-slow
