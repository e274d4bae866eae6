// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// An empty table's shortcut (runDefault) and a fixed node's single
// primitive run directly (fixedNode.one) leave the PHV as the general path
// does (apply on the default's Hit; the action's exec) and pick the same
// next node, on every such node of the FlowBuf, UPF and test programs,
// over PHVs with random headers and metadata.
func TestNodeShortcutsAgreeWithTheGeneralPath(t *testing.T) {
	progs := specialisationPrograms(t)
	r := rand.New(rand.NewPCG(9, 10))
	tables, fixed := 0, 0
	for name, p := range progs {
		for _, n := range nodesOf(p) {
			var short, general func(*phv) node
			switch n := n.(type) {
			case *tableNode:
				h := n.t.EmptyDefault()
				if h == nil {
					continue
				}
				tables++
				short = n.run
				general = func(s *phv) node { return n.apply(s, h) }
			case *fixedNode:
				if n.one == nil {
					continue
				}
				fixed++
				short = n.run
				general = func(s *phv) node {
					s.params = n.words
					n.a.exec(s)
					return n.next
				}
			default:
				continue
			}
			for trial := 0; trial < 50; trial++ {
				a := p.newPHV()
				for i := range a.valid {
					a.valid[i] = r.IntN(2) == 0
				}
				for i := range a.hdr {
					a.hdr[i] = byte(r.IntN(256))
				}
				for i := range a.slots {
					a.slots[i] = uint64(r.IntN(4))
				}
				b := p.newPHV()
				b.copyFrom(a)
				na, nb := short(a), general(b)
				if na != nb || !slices.Equal(a.slots, b.slots) || !slices.Equal(a.hdr, b.hdr) ||
					!slices.Equal(a.valid, b.valid) || a.exited != b.exited {
					t.Fatalf("%s: a %T's shortcut differs from its general path", name, n)
				}
			}
		}
	}
	if tables < 20 || fixed < 10 {
		t.Fatalf("only %d empty tables and %d single-primitive fixed nodes tested", tables, fixed)
	}
}

// nodesOf lists the nodes of the program's two controls.
func nodesOf(p *Program) []node {
	var out []node
	seen := map[node]bool{}
	var walk func(n node)
	walk = func(n node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		out = append(out, n)
		if br := branchOf(n); br != nil {
			walk(br.onTrue)
			walk(br.onFalse)
			return
		}
		switch n := n.(type) {
		case *tableNode:
			walk(n.hit)
			walk(n.miss)
			walk(n.baseNext)
			for i := range n.acts {
				walk(n.acts[i].next)
			}
		case *fixedNode:
			walk(n.next)
		}
	}
	walk(p.ingress)
	walk(p.egress)
	return out
}

// deparseFixed writes the frame deparseAny (the reference) writes, in place
// or into a new frame, over random valid headers, header bytes and parsed
// lengths, on every program whose deparser it takes.
func TestDeparseFixedAgreesWithTheGeneralDeparser(t *testing.T) {
	progs := specialisationPrograms(t)
	r := rand.New(rand.NewPCG(11, 12))
	tested := 0
	for name, p := range progs {
		if !p.emitFixed {
			continue
		}
		tested++
		p.opts.Frames = heapFrames{}
		for trial := 0; trial < 300; trial++ {
			a := p.newPHV()
			for i := range a.valid {
				a.valid[i] = r.IntN(3) == 0
			}
			for i := range a.hdr {
				a.hdr[i] = byte(r.IntN(256))
			}
			frame := make([]byte, 40+r.IntN(200))
			for i := range frame {
				frame[i] = byte(r.IntN(256))
			}
			a.pos = r.IntN(len(frame))
			if trial%2 == 0 { // headers as long as what was parsed: in place
				a.pos = 0
				for _, e := range p.emit {
					if a.valid[e.hdr] {
						a.pos += e.bytes
					}
				}
				frame = append(make([]byte, a.pos), frame...)
			}
			b := p.newPHV()
			b.copyFrom(a)
			got := p.deparseFixed(a, slices.Clone(frame))
			want := p.deparseAny(b, slices.Clone(frame))
			if !slices.Equal(got, want) || a.pos != b.pos {
				t.Fatalf("%s: deparseFixed wrote %x, the general deparser %x", name, got, want)
			}
		}
	}
	if tested < 5 {
		t.Fatalf("only %d programs take deparseFixed", tested)
	}
}

// An Internet checksum over spans of one header, summed in place
// (calculation.sumSpans), equals the general calculation over its built
// input buffer, over random header bytes and validity, on every such
// checksum of the FlowBuf, UPF and test programs.
func TestChecksumSpansAgreeWithTheGeneralCalculation(t *testing.T) {
	progs := specialisationPrograms(t)
	r := rand.New(rand.NewPCG(13, 14))
	tested := 0
	for name, p := range progs {
		for _, ck := range append(slices.Clone(p.update), p.verify...) {
			if ck.calc.sumSpans == nil {
				continue
			}
			tested++
			for trial := 0; trial < 200; trial++ {
				s := p.newPHV()
				for i := range s.hdr {
					s.hdr[i] = byte(r.IntN(256))
				}
				s.valid[ck.calc.sumHdr] = trial%5 != 0
				if got, want := ck.calc.compute(s), ck.calc.computeAny(s); got != want {
					t.Fatalf("%s: %s summed in place is %#x, the general calculation %#x", name, ck.calc.name, got, want)
				}
			}
		}
	}
	if tested < 3 {
		t.Fatalf("only %d checksums summed in place", tested)
	}
}

// specialisationPrograms are the programs the specialisations are checked
// on against the generic path: FlowBuf's, the UPF's and the engine's test
// programs.
func specialisationPrograms(t *testing.T) map[string]*Program {
	progs := map[string]*Program{"flowbuf": loadFlowBuf(t).prog, "upf": upfFixture(t).prog}
	for _, name := range []string{"exprs", "externs", "parsing", "regressions", "checksums"} {
		progs[name] = loadTestProgram(t, name).prog
	}
	return progs
}

// An action with no primitives (NoAction) is empty, so an empty table
// whose default it is runs nothing (it once compiled to a nil straight
// body and went through exec's step loop on every packet).
func TestActionWithoutPrimitivesIsEmpty(t *testing.T) {
	f := loadFlowBuf(t)
	found := 0
	for _, a := range f.prog.actions {
		if a.name != "NoAction" {
			continue
		}
		found++
		if !a.empty || a.straight == nil {
			t.Errorf("NoAction: empty %v, straight %v", a.empty, a.straight != nil)
		}
	}
	if found == 0 {
		t.Fatal("FlowBuf's program has no NoAction")
	}
}
