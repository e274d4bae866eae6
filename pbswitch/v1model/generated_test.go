// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	names "github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// A JSON other than the ones the code was generated from (one more byte:
// another hash) runs its interpreted graph, and still forwards.
func TestGeneratedControlsAreNotUsedForAnotherJSON(t *testing.T) {
	jb, info := readBuild(t, filepath.Dir(flowbufJSON))
	p, err := Load(jb, info, Options{CPUPort: cpuPort})
	if err != nil {
		t.Fatal(err)
	}
	if p.genIngress == nil {
		t.Fatal("the committed JSON does not get its generated controls")
	}
	changed := append(bytes.Clone(jb), '\n')
	p, err = Load(changed, info, Options{CPUPort: cpuPort})
	if err != nil {
		t.Fatal(err)
	}
	if p.genIngress != nil || p.genEgress != nil {
		t.Fatal("generated controls bound to a JSON they were not generated from")
	}
	f := &fixture{t: t, prog: p, info: info, ids: idsOf(info)}
	f.insert(names.TableRoutingV4, &pipeline.Entry{
		Match:  []pipeline.FieldMatch{{Value: []byte{10, 0, 2, 0}, PrefixLen: 24, Mask: []byte{255, 255, 255, 0}}},
		Action: pipeline.Action{ID: f.ids[names.ActionRoute], Params: [][]byte{b16(2), make([]byte, 6), make([]byte, 6)}},
	})
	pk, ok := runBoth(p, udpFrame([4]byte{10, 0, 2, 9}, 64), 1)
	if !ok || pk.Meta.EgressSpec != 2 {
		t.Fatalf("the interpreted program did not route: %v, egress_spec %d", ok, pk.Meta.EgressSpec)
	}
}

// Code registered for the JSON's hash is bound only when the compiled
// graph has, node for node, the signature it was generated against: an
// engine that compiles the same JSON into another graph never runs stale
// code.
func TestGeneratedControlsNeedTheirGraphsSignature(t *testing.T) {
	jb, info := readBuild(t, filepath.Dir(flowbufJSON))
	p, err := Load(jb, info, Options{CPUPort: cpuPort, interpret: true})
	if err != nil {
		t.Fatal(err)
	}
	committed := generatedByHash[jsonHash(jb)]
	if committed == nil {
		t.Fatal("no generated controls for the committed JSON")
	}
	p.opts.interpret = false
	p.bindGenerated(jb, generatedByHash)
	if p.genIngress == nil || p.genEgress == nil {
		t.Fatal("the matching code was not bound")
	}
	for _, pl := range []string{"ingress", "egress"} {
		stale := &generatedControls{hashes: committed.hashes, pipelines: map[string]generatedPipeline{}}
		for name, gp := range committed.pipelines {
			stale.pipelines[name] = gp
		}
		gp := stale.pipelines[pl]
		gp.signature = slices.Clone(gp.signature)
		gp.signature[len(gp.signature)/2] += " changed"
		stale.pipelines[pl] = gp
		p.genIngress, p.genEgress = nil, nil
		p.bindGenerated(jb, map[string]*generatedControls{jsonHash(jb): stale})
		if p.genIngress != nil || p.genEgress != nil {
			t.Fatalf("code bound with its %s signature changed", pl)
		}
	}
	// The actions' signature: one action's generated code changed.
	p, err = Load(jb, info, Options{CPUPort: cpuPort, interpret: true})
	if err != nil {
		t.Fatal(err)
	}
	p.opts.interpret = false
	stale := *committed
	stale.actions.signature = slices.Clone(committed.actions.signature)
	stale.actions.signature[len(stale.actions.signature)/2] += "0"
	p.bindGenerated(jb, map[string]*generatedControls{jsonHash(jb): &stale})
	if p.genIngress != nil || p.genEgress != nil || boundActions(p) != 0 {
		t.Fatal("code bound with its actions' signature changed")
	}
	// The deparser's signature: one header's place changed.
	stale = *committed
	stale.deparser.signature = slices.Clone(committed.deparser.signature)
	stale.deparser.signature[1] += "0"
	p.bindGenerated(jb, map[string]*generatedControls{jsonHash(jb): &stale})
	if p.genIngress != nil || p.genDeparse != nil || boundActions(p) != 0 {
		t.Fatal("code bound with its deparser's signature changed")
	}
	// The parser's signature: its code changed.
	stale = *committed
	if len(committed.parser.signature) != 1 {
		t.Fatalf("the committed parser's signature: %q", committed.parser.signature)
	}
	stale.parser.signature = []string{committed.parser.signature[0] + "0"}
	p.bindGenerated(jb, map[string]*generatedControls{jsonHash(jb): &stale})
	if p.genIngress != nil || p.genParse != nil || boundActions(p) != 0 {
		t.Fatal("code bound with its parser's signature changed")
	}
	// The PHV's sizes, which the code's array views assume.
	stale = *committed
	if stale.layout != layoutSignature(p.layout) {
		t.Fatalf("the committed layout %q, the program's %q", stale.layout, layoutSignature(p.layout))
	}
	stale.layout = layoutSignature(&layout{words: p.layout.words - 1, headers: p.layout.headers, hdrBytes: p.layout.hdrBytes})
	p.bindGenerated(jb, map[string]*generatedControls{jsonHash(jb): &stale})
	if p.genIngress != nil || p.genParse != nil || p.genDeparse != nil || boundActions(p) != 0 {
		t.Fatal("code bound with its layout changed")
	}
	p.bindGenerated(jb, generatedByHash)
	if p.genDeparse == nil || p.genParse == nil || boundActions(p) == 0 {
		t.Fatal("the committed parser, deparser or actions were not bound")
	}
}

// The committed generated file is what p4gen makes of the committed p4c
// outputs: regenerate it (go generate ./pbswitch/v1model, or make p4-build)
// after the P4 or the engine's control compilation changes.
func TestGeneratedControlsAreFresh(t *testing.T) {
	build := filepath.Dir(flowbufJSON)
	var sources []GenSource
	for _, dir := range []string{"build", "build/upf-fast", "build/upf-slow"} {
		jb, info := readBuild(t, filepath.Join(filepath.Dir(build), dir))
		sources = append(sources, GenSource{Name: dir, BMv2: jb, P4Info: info})
	}
	want, err := GenerateControls(sources)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("controls_flowbuf_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("controls_flowbuf_gen.go is stale: run go generate ./pbswitch/v1model (make p4-build does)")
	}
}
