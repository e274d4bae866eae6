// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// The generated count and execute_meter code (genprims.go) counts and
// colours as the reference's closures: the UPF's packets (and ones to an
// unknown UE, whose drops are counted by reason) run through the generated
// and the reference program with the UPF's meters unconfigured (green),
// its application meter yellow and its session meter red, and its
// application meter red; every answer and then every indirect counter's
// every cell agree, and the meters' drops were counted.
func TestGeneratedCountersAndMetersAsTheReference(t *testing.T) {
	spec := upfFixtureOn(loadBuild(t, filepath.Dir(flowbufJSON), Options{CPUPort: cpuPort}))
	ref := upfFixtureOn(loadBuild(t, filepath.Dir(flowbufJSON), Options{CPUPort: cpuPort, reference: true}))
	if len(spec.prog.counterRefs) == 0 || len(spec.prog.meterRefs) == 0 {
		t.Fatal("no generated count or execute_meter code")
	}
	inner := ipv4UDP(upfUE, upfDN, 4000, 80, 64, make([]byte, 64))
	frames := []struct {
		frame []byte
		port  uint32
	}{
		{ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp, inner))), 1},
		{ether(ipv4UDP(upfDN, upfUE, 80, 4000, 64, make([]byte, 64))), 2},
		{ether(ipv4UDP(upfDN, [4]byte{10, 250, 9, 9}, 80, 4000, 64, make([]byte, 100))), 2},
		{ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp+1, inner))), 1},
	}
	meter := func(p *Program, name string, cfg pipeline.MeterConfig) {
		for _, m := range p.objs.Meters {
			if m.Name == name {
				cell, err := m.Cell(0)
				if err != nil {
					t.Fatal(err)
				}
				if err := cell.Configure(cfg); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
		t.Fatalf("no meter %s", name)
	}
	none, yellow := pipeline.MeterConfig{}, pipeline.MeterConfig{PIR: 1, PBurst: 1 << 40}
	for _, phase := range []struct{ app, session *pipeline.MeterConfig }{{nil, nil}, {&yellow, &none}, {&none, nil}} {
		for _, p := range []*Program{spec.prog, ref.prog} {
			if phase.app != nil {
				meter(p, "IngressPipeImpl.upf.app_meter", *phase.app)
			}
			if phase.session != nil {
				meter(p, "IngressPipeImpl.upf.session_meter", *phase.session)
			}
		}
		for i := 0; i < 20; i++ {
			f := frames[i%len(frames)]
			a, aok := runBoth(spec.prog, f.frame, f.port)
			b, bok := runBoth(ref.prog, f.frame, f.port)
			if aok != bok || a.Meta != b.Meta || !bytes.Equal(a.Frame, b.Frame) {
				t.Fatalf("packet %d: generated %v %+v, reference %v %+v", i, aok, a.Meta, bok, b.Meta)
			}
		}
	}
	counted := 0
	for id, arr := range spec.prog.objs.Counters {
		other := ref.prog.objs.Counters[id]
		for i := 0; i < arr.Size(); i++ {
			c, _ := arr.Cell(int64(i))
			o, _ := other.Cell(int64(i))
			cp, cb := c.Read()
			op, ob := o.Read()
			if cp != op || cb != ob {
				t.Fatalf("counter %s[%d]: generated %d packets %d bytes, reference %d %d", arr.Name, i, cp, cb, op, ob)
			}
			if strings.HasSuffix(arr.Name, "upf.drops") && (i == 7 || i == 8) && cp != 0 {
				counted++ // UPF_DROP_SESSION_METER, UPF_DROP_APP_METER
			}
		}
	}
	if counted != 2 {
		t.Fatalf("the meters' drops were counted in %d of their 2 cells", counted)
	}
}
