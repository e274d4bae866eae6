// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// vsetFrame is testdata/valuesets.p4's eth header (dst 02:..:02, src
// 02:..:01) with type typ, then rest.
func vsetFrame(typ uint16, rest ...byte) []byte { return ethFrame(typ, rest...) }

var (
	vsDst = []byte{2, 0, 0, 0, 0, 2}
	vsSrc = []byte{2, 0, 0, 0, 0, 1}
)

func (tp *testProgram) valueSet(name string) *pipeline.ValueSet {
	for _, vs := range tp.prog.objs.ValueSets {
		if vs.Name == name {
			return vs
		}
	}
	tp.t.Fatalf("no value set %s", name)
	return nil
}

func exactM(v ...byte) pipeline.FieldMatch { return pipeline.FieldMatch{Value: v} }

func (tp *testProgram) replace(vs string, members ...[]pipeline.FieldMatch) {
	tp.t.Helper()
	if err := tp.valueSet(vs).Replace(members); err != nil {
		tp.t.Fatal(err)
	}
}

// path runs frame and returns the report's path and val bytes.
func (tp *testProgram) path(frame []byte) (byte, byte) {
	tp.t.Helper()
	pk, ok := tp.run(frame)
	if !ok {
		tp.t.Fatal("dropped")
	}
	if !bytes.Equal(pk.Frame[2:], frame) {
		tp.t.Fatalf("frame changed: %x, want %x", pk.Frame[2:], frame)
	}
	return pk.Frame[0], pk.Frame[1]
}

func TestParserValueSets(t *testing.T) {
	tp := loadTestProgram(t, "valuesets")
	tag := func(kind, ver, flags, val byte) []byte { return []byte{kind, ver<<4 | flags, val} }
	want := func(frame []byte, path, val byte) {
		t.Helper()
		if p, v := tp.path(frame); p != path || v != val {
			t.Errorf("frame %x: path %d val %d, want %d %d", frame, p, v, path, val)
		}
	}
	// Empty sets match nothing.
	want(vsetFrame(0x0800), 1, 0)
	want(vsetFrame(0x88b5, tag(7, 1, 0, 9)...), 0, 0)

	tp.replace("P.tag_types", []pipeline.FieldMatch{exactM(0x88, 0xb5)}, []pipeline.FieldMatch{exactM(0x91, 0x00)})
	want(vsetFrame(0x88b5, tag(7, 1, 0, 9)...), 2, 9)
	want(vsetFrame(0x9100, tag(7, 1, 0, 8)...), 2, 8)
	want(vsetFrame(0x88b6, tag(7, 1, 0, 9)...), 0, 0)
	want(vsetFrame(0x0800), 1, 0) // the constant case comes first

	// A struct set: kind and the 4-bit ver, each in its own key bytes.
	tp.replace("P.kind_vers", []pipeline.FieldMatch{exactM(7), exactM(1)}, []pipeline.FieldMatch{exactM(8), exactM(0xf)})
	want(vsetFrame(0x88b5, tag(7, 1, 0xf, 3)...), 3, 3)
	want(vsetFrame(0x88b5, tag(8, 0xf, 0, 4)...), 3, 4)
	want(vsetFrame(0x88b5, tag(7, 2, 0, 5)...), 2, 5)
	want(vsetFrame(0x88b5, tag(8, 1, 0, 6)...), 2, 6)

	// Wider than 64 bits.
	want(vsetFrame(0x1234), 0, 0)
	tp.replace("P.mac_pairs", []pipeline.FieldMatch{{Value: vsDst}, {Value: vsSrc}})
	want(vsetFrame(0x1234), 4, 0)
	other := vsetFrame(0x1234)
	other[11] = 9
	want(other, 0, 0)

	// Emptied again: the frame falls to the MAC pairs.
	tp.replace("P.tag_types")
	want(vsetFrame(0x88b5, tag(7, 1, 0, 9)...), 4, 0)
}

func TestValueSetReplaceRefusesAndKeepsMembers(t *testing.T) {
	tp := loadTestProgram(t, "valuesets")
	vs := tp.valueSet("P.tag_types")
	one := []pipeline.FieldMatch{exactM(0x88, 0xb5)}
	tp.replace("P.tag_types", one)
	m := func(v byte) []pipeline.FieldMatch { return []pipeline.FieldMatch{exactM(0x10, v)} }
	for _, c := range []struct {
		name    string
		members [][]pipeline.FieldMatch
		code    codes.Code
	}{
		{"more than size", [][]pipeline.FieldMatch{m(1), m(2), m(3), m(4), m(5)}, codes.ResourceExhausted},
		{"duplicate", [][]pipeline.FieldMatch{m(1), m(1)}, codes.AlreadyExists},
		{"wrong width", [][]pipeline.FieldMatch{{exactM(1)}}, codes.InvalidArgument},
		{"missing field", [][]pipeline.FieldMatch{{}}, codes.InvalidArgument},
	} {
		if err := vs.Replace(c.members); status.Code(err) != c.code {
			t.Errorf("%s: %v, want %v", c.name, err, c.code)
		}
		if got := vs.Members(); len(got) != 1 || !bytes.Equal(got[0][0].Value, one[0].Value) {
			t.Errorf("%s: members now %v", c.name, got)
		}
	}
	if err := vs.Replace([][]pipeline.FieldMatch{m(1), m(2), m(3), m(4)}); err != nil {
		t.Errorf("size members: %v", err)
	}
	if pk, _ := tp.run(vsetFrame(0x88b5, 7, 0x10, 9)); pk.Frame[0] != 0 {
		t.Error("a replaced member still matches")
	}
	if p, _ := tp.path(vsetFrame(0x1003, 7, 0x10, 9)); p != 2 {
		t.Errorf("a new member: path %d", p)
	}
}

// A parse_vset case with a mask (BMv2 masks the key and the members).
func TestParserValueSetCaseMask(t *testing.T) {
	raw, err := os.ReadFile("testdata/valuesets.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, st := range obj(list(doc, "parsers")[0])["parse_states"].([]any) {
		for _, tr := range obj(st)["transitions"].([]any) {
			if obj(tr)["value"] == "P.tag_types" {
				obj(tr)["mask"] = "0xff00"
			}
		}
	}
	out, _ := json.Marshal(doc)
	tp := loadTestProgram(t, "valuesets")
	if tp.prog, err = Load(out, tp.info, Options{CPUPort: 64}); err != nil {
		t.Fatal(err)
	}
	tp.replace("P.tag_types", []pipeline.FieldMatch{exactM(0x88, 0x00)}, []pipeline.FieldMatch{exactM(0x77, 0x01)})
	for typ, path := range map[uint16]byte{0x88b5: 2, 0x8801: 2, 0x7700: 2, 0x77ff: 2, 0x8900: 0} {
		if p, _ := tp.path(vsetFrame(typ, 7, 0x10, 9)); p != path {
			t.Errorf("type %#x: path %d, want %d", typ, p, path)
		}
	}
}

func BenchmarkParserValueSet(b *testing.B) {
	tp := loadTestProgram(&testing.T{}, "valuesets")
	tp.t = &testing.T{}
	tp.replace("P.tag_types", []pipeline.FieldMatch{exactM(0x88, 0xb4)}, []pipeline.FieldMatch{exactM(0x88, 0xb5)})
	frame := vsetFrame(0x88b5, 7, 0x10, 9)
	s := tp.prog.getPHV()
	b.ReportAllocs()
	for range b.N {
		s.reset()
		s.data, s.pos, s.parserErr = frame, 0, false
		tp.prog.parse(s)
	}
}

func TestLoadRefusesAValueSetThatDoesNotFitItsSelectKey(t *testing.T) {
	raw, err := os.ReadFile("testdata/valuesets.json")
	if err != nil {
		t.Fatal(err)
	}
	tp := loadTestProgram(t, "valuesets")
	info := proto.Clone(tp.info).(*p4info.P4Info)
	for _, vs := range info.ValueSets {
		if vs.Preamble.Name == "P.kind_vers" {
			vs.Match[1].Bitwidth = 5
		}
	}
	_, err = Load(raw, info, Options{CPUPort: 64})
	wantInvalid(t, err, "value set P.kind_vers field ver is 5 bits, the select key's element 4 bits")
	info = proto.Clone(tp.info).(*p4info.P4Info)
	info.ValueSets = info.ValueSets[1:]
	_, err = Load(raw, info, Options{CPUPort: 64})
	wantInvalid(t, err, "is not in the p4info")
}
