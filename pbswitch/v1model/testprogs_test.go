// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"os"
	"path/filepath"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// testProgram is one of testdata's programs, loaded into the engine.
type testProgram struct {
	t      *testing.T
	prog   *Program
	info   *p4info.P4Info
	ids    map[string]uint32
	digest []pipeline.DigestList
}

func loadTestProgram(t *testing.T, name string) *testProgram {
	t.Helper()
	js, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join("testdata", name+".p4info.txt"))
	if err != nil {
		t.Fatal(err)
	}
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal(text, info); err != nil {
		t.Fatal(err)
	}
	tp := &testProgram{t: t, info: info, ids: map[string]uint32{}}
	tp.prog, err = Load(js, info, Options{CPUPort: 64, DigestOut: func(l pipeline.DigestList) { tp.digest = append(tp.digest, l) }})
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	for _, x := range info.Tables {
		tp.ids[x.Preamble.Name] = x.Preamble.Id
	}
	for _, x := range info.Actions {
		tp.ids[x.Preamble.Name] = x.Preamble.Id
	}
	for _, x := range info.Counters {
		tp.ids[x.Preamble.Name] = x.Preamble.Id
	}
	for _, x := range info.Meters {
		tp.ids[x.Preamble.Name] = x.Preamble.Id
	}
	for _, x := range info.Digests {
		tp.ids[x.Preamble.Name] = x.Preamble.Id
	}
	for _, x := range info.Registers {
		tp.ids[x.Preamble.Name] = x.Preamble.Id
	}
	return tp
}

func (tp *testProgram) table(name string) *pipeline.Table { return tp.prog.objs.Tables[tp.ids[name]] }

func (tp *testProgram) id(name string) uint32 {
	id, ok := tp.ids[name]
	if !ok {
		tp.t.Fatalf("no p4info object %s", name)
	}
	return id
}

func (tp *testProgram) insert(table string, e *pipeline.Entry) *pipeline.Entry {
	tp.t.Helper()
	if err := tp.table(table).Insert(e); err != nil {
		tp.t.Fatal(err)
	}
	return e
}

// run sends frame in on port 1 and, unless ingress drops it, through egress
// on the port ingress chose; it returns the packet as it leaves.
func (tp *testProgram) run(frame []byte) (*pipeline.Packet, bool) {
	pk := &pipeline.Packet{Frame: append([]byte(nil), frame...), Meta: pipeline.StdMeta{IngressPort: 1}}
	tp.prog.Ingress(pk)
	if pk.Meta.EgressSpec == pipeline.DropPort {
		return pk, false
	}
	pk.Meta.EgressPort = pk.Meta.EgressSpec
	return pk, tp.prog.Egress(pk)
}

func TestTestProgramsLoad(t *testing.T) {
	for _, name := range []string{"exprs", "parsing", "checksums", "externs", "valuesets", "actionprofiles", "parity"} {
		loadTestProgram(t, name)
	}
}
