// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"math/rand/v2"
	"testing"
)

// Every specialised if-node of the FlowBuf program and the test programs
// takes the branch its expression's generic closure picks, over PHVs with
// random validity and metadata values (each within its field's width, the
// constants the nodes compare against among them).
func TestSpecialisedConditionalsAgreeWithTheGenericOnes(t *testing.T) {
	progs := map[string]*Program{"flowbuf": loadFlowBuf(t).prog}
	for _, name := range []string{"exprs", "externs", "parsing", "regressions", "checksums"} {
		progs[name] = loadTestProgram(t, name).prog
	}
	r := rand.New(rand.NewPCG(5, 6))
	specialised := 0
	for name, p := range progs {
		conds := conditionalsOf(p)
		var ks []uint64
		for _, n := range conds {
			if eq, ok := n.(*slotEqNode); ok {
				ks = append(ks, eq.k)
			}
		}
		widths := slotWidths(p.layout)
		for _, n := range conds {
			if _, generic := n.(*condNode); generic {
				continue
			}
			specialised++
			br := branchOf(n)
			if br.onTrue == br.onFalse {
				continue // either answer goes the same way
			}
			for trial := 0; trial < 200; trial++ {
				s := p.newPHV()
				for i := range s.valid {
					s.valid[i] = r.IntN(2) == 0
				}
				for slot, w := range widths {
					v := uint64(r.IntN(3))
					if len(ks) > 0 && r.IntN(2) == 0 {
						v = ks[r.IntN(len(ks))]
					}
					s.slots[slot] = v & mask64(w)
				}
				for i := range s.hdr {
					s.hdr[i] = byte(r.IntN(256))
				}
				if fe, ok := n.(*fieldEqNode); ok && r.IntN(2) == 0 {
					fe.lv.setU()(s, fe.k)
				}
				want := br.onFalse
				if br.generic(s) != br.negated {
					want = br.onTrue
				}
				if got := n.run(s); got != want {
					t.Fatalf("%s: a %T took the other branch than its expression's closure", name, n)
				}
			}
		}
	}
	if specialised < 50 {
		t.Fatalf("only %d conditionals specialised", specialised)
	}
}

// conditionalsOf lists the if-nodes of the program's two controls.
func conditionalsOf(p *Program) []node {
	var out []node
	for _, n := range nodesOf(p) {
		if branchOf(n) != nil {
			out = append(out, n)
		}
	}
	return out
}

// slotWidths maps each metadata slot that starts a field to its width.
func slotWidths(l *layout) map[int]int {
	out := map[int]int{}
	for _, h := range l.headers {
		if !h.metadata {
			continue
		}
		for _, f := range l.types[h.typ].fields {
			if lv, ok := l.field(h.name, f.Name); ok && lv.slot >= 0 && lv.words == 1 {
				out[lv.slot] = lv.width
			}
		}
	}
	return out
}

// Every if-condition lowered into leaf nodes (condflow.go) leads a packet
// to the successor its whole expression's generic closure picks, over
// PHVs with random validity, header bytes and metadata values (the
// constants its leaves compare against among them).
func TestLoweredConditionsAgreeWithTheirExpressions(t *testing.T) {
	progs := specialisationPrograms(t)
	r := rand.New(rand.NewPCG(7, 8))
	lowered, tested := 0, 0
	for name, p := range progs {
		widths := slotWidths(p.layout)
		for _, f := range p.condFlows {
			lowered++
			leaves := map[node]bool{}
			var ks []uint64
			for _, l := range f.leaves {
				leaves[l.n] = true
				if eq, ok := l.n.(*slotEqNode); ok {
					ks = append(ks, eq.k)
				}
			}
			if f.onTrue == f.onFalse {
				continue // either answer goes the same way
			}
			tested++
			for trial := 0; trial < 300; trial++ {
				s := p.newPHV()
				for i := range s.valid {
					s.valid[i] = r.IntN(2) == 0
				}
				for i := range s.hdr {
					s.hdr[i] = byte(r.IntN(256))
				}
				for slot, w := range widths {
					v := uint64(r.IntN(3))
					if len(ks) > 0 && r.IntN(2) == 0 {
						v = ks[r.IntN(len(ks))]
					}
					s.slots[slot] = v & mask64(w)
				}
				for _, l := range f.leaves {
					if fe, ok := l.n.(*fieldEqNode); ok && r.IntN(2) == 0 {
						fe.lv.setU()(s, fe.k)
					}
				}
				want := f.onFalse
				if f.whole(s) {
					want = f.onTrue
				}
				n, steps := f.entry, 0
				for leaves[n] {
					n = n.run(s)
					if steps++; steps > len(f.leaves) {
						t.Fatalf("%s: a lowered condition loops", name)
					}
				}
				if n != want {
					t.Fatalf("%s: a lowered condition of %d leaves took the other branch than its expression", name, len(f.leaves))
				}
			}
		}
	}
	if tested < 20 {
		t.Fatalf("only %d of %d lowered conditions tested", tested, lowered)
	}
}
