// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// The specialised program (what Load builds: its controls the generated
// code, generated.go) and the reference one (Options.reference: no
// load-time specialisation of how values are computed, the node graph
// interpreted) answer every packet alike: the same verdict, metadata and
// frame out, on the FlowBuf program with the UPF's entries, over the
// UPF's and the routed packets and thousands of mutations of them (bytes
// flipped in their headers, other ingress ports), so the parser, the
// controls and the deparser take many paths. The same program with its
// graph interpreted (Options.interpret) answers alike too, which holds the
// generated controls alone to the nodes they replace; so does the UPF's
// slow-path profile, whose generated code is shared.
func TestSpecialisedProgramAgreesWithTheReference(t *testing.T) {
	for _, dir := range []string{filepath.Dir(flowbufJSON), filepath.Join(filepath.Dir(flowbufJSON), "upf-slow")} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			spec := upfFixtureOn(loadBuild(t, dir, Options{CPUPort: cpuPort}))
			// The generated code with every table on the generic store:
			// its slab lookups (Table.LookupSlab) answer no, so the plain
			// lookups run.
			specGeneric := upfFixtureOn(loadBuild(t, dir, Options{CPUPort: cpuPort, GenericTables: true}))
			ref := upfFixtureOn(loadBuild(t, dir, Options{CPUPort: cpuPort, reference: true}))
			interp := upfFixtureOn(loadBuild(t, dir, Options{CPUPort: cpuPort, interpret: true}))
			if spec.prog.genIngress == nil || spec.prog.genEgress == nil || spec.prog.genDeparse == nil {
				t.Fatal("the committed program does not run its generated controls (run go generate ./pbswitch/v1model)")
			}
			if ref.prog.genIngress != nil || interp.prog.genIngress != nil {
				t.Fatal("the reference or the interpreted program runs generated controls")
			}
			if boundActions(spec.prog) == 0 || boundActions(ref.prog)+boundActions(interp.prog) != 0 {
				t.Fatalf("generated action bodies: %d bound on the program, %d on the reference and interpreted ones",
					boundActions(spec.prog), boundActions(ref.prog)+boundActions(interp.prog))
			}
			if specGeneric.prog.genIngress == nil {
				t.Fatal("the generated controls are not bound with generic tables")
			}
			// The UPF's slab tables hit through fused generated bodies.
			fused := 0
			for _, n := range walkControl(spec.prog.ingress) {
				tn, ok := n.(*tableNode)
				if !ok || !slices.Contains(fusedUpfTables, tn.name) {
					continue
				}
				if !tn.t.UsesSlab() || slabHitCode(tn) == "" {
					t.Errorf("%s: slab %v, fused hits %v", tn.name, tn.t.UsesSlab(), slabHitCode(tn) != "")
				}
				fused++
			}
			if fused != len(fusedUpfTables) {
				t.Errorf("%d of the UPF's %d exact tables found", fused, len(fusedUpfTables))
			}
			agreeOnPackets(t, spec.prog, ref.prog, interp.prog, specGeneric.prog)
		})
	}
}

// fusedUpfTables are the UPF's exact-match tables, whose hits the generated
// code decodes from the slab's record (slabHitCode).
var fusedUpfTables = []string{"IngressPipeImpl.upf.uplink_sessions", "IngressPipeImpl.upf.downlink_sessions",
	"IngressPipeImpl.upf.uplink_terminations", "IngressPipeImpl.upf.downlink_terminations", "IngressPipeImpl.upf.tunnel_peers"}

// boundActions counts a program's actions that run generated bodies.
func boundActions(p *Program) int {
	n := 0
	for _, a := range p.actions {
		if a.gen != nil {
			n++
		}
	}
	return n
}

// agreeOnPackets runs the UPF's and the routed packets and 4,000
// mutations of them, and parserVariants whole and cut short, through
// progs[0] and each other program, and fails on the first answer that
// differs.
func agreeOnPackets(t *testing.T, progs ...*Program) {
	t.Helper()
	inner := ipv4UDP(upfUE, upfDN, 4000, 80, 64, make([]byte, 64))
	seeds := []struct {
		frame []byte
		port  uint32
	}{
		{ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp, inner))), 1},
		{ether(ipv4UDP(upfDN, upfUE, 80, 4000, 64, make([]byte, 64))), 2},
		{udpFrame([4]byte{10, 0, 2, 9}, 64), 1},
		{udpFrame([4]byte{10, 0, 2, 9}, 1), 1},
	}
	r := rand.New(rand.NewPCG(42, 42))
	forwarded := 0
	for trial := 0; trial < 4000; trial++ {
		sd := seeds[trial%len(seeds)]
		frame, port := bytes.Clone(sd.frame), sd.port
		if trial >= len(seeds) {
			for range 1 + r.IntN(3) {
				frame[r.IntN(min(len(frame), 90))] ^= byte(1 << r.IntN(8))
			}
			if r.IntN(4) == 0 {
				port = uint32(1 + r.IntN(4))
			}
		}
		a, aok := runBoth(progs[0], frame, port)
		for i, other := range progs[1:] {
			b, bok := runBoth(other, frame, port)
			if aok != bok || a.Meta != b.Meta || !bytes.Equal(a.Frame, b.Frame) {
				t.Fatalf("packet %x on port %d: program 0 %v %+v %x, program %d %v %+v %x",
					frame, port, aok, a.Meta, a.Frame, i+1, bok, b.Meta, b.Frame)
			}
		}
		if aok {
			forwarded++
		}
	}
	// The parser's other paths (parserVariants), whole and cut short.
	for _, whole := range parserVariants() {
		for _, n := range []int{len(whole), r.IntN(len(whole) + 1), r.IntN(len(whole) + 1)} {
			for _, port := range []uint32{1, 2, cpuPort} {
				a, aok := runBoth(progs[0], whole[:n], port)
				for i, other := range progs[1:] {
					b, bok := runBoth(other, whole[:n], port)
					if aok != bok || a.Meta != b.Meta || !bytes.Equal(a.Frame, b.Frame) {
						t.Fatalf("packet %x on port %d: program 0 %v %+v %x, program %d %v %+v %x",
							whole[:n], port, aok, a.Meta, a.Frame, i+1, bok, b.Meta, b.Frame)
					}
				}
			}
		}
	}
	if forwarded < 1000 {
		t.Fatalf("only %d of 4000 packets forwarded: the comparison saw too little", forwarded)
	}
}

// runBoth runs frame through ingress and, unless it is dropped there,
// egress on the port ingress chose.
func runBoth(p *Program, frame []byte, port uint32) (*pipeline.Packet, bool) {
	pk := &pipeline.Packet{Frame: bytes.Clone(frame), Meta: pipeline.StdMeta{IngressPort: port}}
	p.Ingress(pk)
	if pk.Meta.EgressSpec == pipeline.DropPort {
		return pk, false
	}
	pk.Meta.EgressPort = pk.Meta.EgressSpec
	return pk, p.Egress(pk)
}

// Every constant expression of the FlowBuf program and the test programs
// folds to the value its closure computes (the test programs' include
// p4c's casts, saturations and signed arithmetic over literals).
func TestFoldedConstantsEqualTheirExpressions(t *testing.T) {
	files := []string{flowbufJSON}
	for _, name := range []string{"exprs", "externs", "parsing", "regressions", "checksums", "parity"} {
		files = append(files, filepath.Join("testdata", name+".json"))
	}
	folded := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		jp, err := bmv2json.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		l, err := newLayout(jp)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		for _, tv := range expressionsIn(t, doc) {
			if !constTree(tv) {
				continue
			}
			ref := &compiler{prog: &Program{opts: Options{reference: true}}, l: l}
			spec := &compiler{prog: &Program{}, l: l}
			want, err := ref.expr(tv, &exprCtx{})
			if err != nil {
				continue // not a value on its own (a header operand's part)
			}
			got, err := spec.expr(tv, &exprCtx{})
			if err != nil {
				t.Fatalf("%s: %s compiles for reference only: %v", file, tv.Value, err)
			}
			if want.wide || (want.kind != kData && want.kind != kBool) {
				continue
			}
			if !got.isK {
				t.Fatalf("%s: %s was not folded", file, tv.Value)
			}
			folded++
			var s phv
			if want.kind == kBool {
				if got.b(nil) != want.b(&s) {
					t.Fatalf("%s: %s folded to %v", file, tv.Value, got.b(nil))
				}
				continue
			}
			if got.u(nil) != want.u(&s) || got.width != want.width || got.signed != want.signed {
				t.Fatalf("%s: %s folded to %d (width %d), the expression gives %d (width %d)", file, tv.Value, got.u(nil), got.width, want.u(&s), want.width)
			}
		}
	}
	if folded < 50 {
		t.Fatalf("only %d constant expressions folded", folded)
	}
}

// constTree says whether tv is a literal or an expression of foldable
// operators over literals.
func constTree(tv *bmv2json.TypedValue) bool {
	if tv == nil {
		return true // an absent operand (a unary operator's left)
	}
	switch tv.Type {
	case "hexstr", "bool":
		return true
	case "expression":
		if inner, ok := tv.Wrapped(); ok {
			return constTree(inner)
		}
		e, err := tv.Expression()
		if err != nil || !foldableOps[e.Op] {
			return false
		}
		return constTree(e.Left) && constTree(e.Right) && constTree(e.Cond)
	}
	return false
}

// expressionsIn lists every "expression" typed value in a bmv2 JSON
// document.
func expressionsIn(t *testing.T, doc any) []*bmv2json.TypedValue {
	var out []*bmv2json.TypedValue
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			if x["type"] == "expression" {
				b, _ := json.Marshal(x)
				tv := &bmv2json.TypedValue{}
				if err := json.Unmarshal(b, tv); err != nil {
					t.Fatal(err)
				}
				out = append(out, tv)
			}
			for _, v := range x {
				walk(v)
			}
		case []any:
			for _, v := range x {
				walk(v)
			}
		}
	}
	walk(doc)
	return out
}
