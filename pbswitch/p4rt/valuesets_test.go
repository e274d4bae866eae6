// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"os"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// newTestProgramRig is a rig running one of the engine's test programs
// (pbswitch/v1model/testdata/NAME), pushed and with a primary client.
func newTestProgramRig(t testing.TB, name string) *rig {
	r := newRig(t)
	dir := "../v1model/testdata/"
	js, err := os.ReadFile(dir + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(dir + name + ".p4info.txt")
	if err != nil {
		t.Fatal(err)
	}
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal(text, info); err != nil {
		t.Fatal(err)
	}
	r.info, r.deviceConfig = info, js
	r.stream(1)
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *rig) valueSetID(name string) uint32 {
	return r.found("value set", name, idIn(r.info.ValueSets, name))
}

func vsetUpdate(typ p4.Update_Type, id uint32, members ...[]*p4.FieldMatch) *p4.Update {
	ve := &p4.ValueSetEntry{ValueSetId: id}
	for _, m := range members {
		ve.Members = append(ve.Members, &p4.ValueSetMember{Match: m})
	}
	return &p4.Update{Type: typ, Entity: &p4.Entity{Entity: &p4.Entity_ValueSetEntry{ValueSetEntry: ve}}}
}

func vsetEntity(id uint32) *p4.Entity {
	return &p4.Entity{Entity: &p4.Entity_ValueSetEntry{ValueSetEntry: &p4.ValueSetEntry{ValueSetId: id}}}
}

// perUpdate is the canonical code of each update of a failed batch.
func perUpdate(t *testing.T, err error) []codes.Code {
	t.Helper()
	st := status.Convert(err)
	if st.Code() != codes.Unknown {
		t.Fatalf("batch: %v, want UNKNOWN with per-update errors", err)
	}
	var out []codes.Code
	for _, d := range st.Details() {
		out = append(out, codes.Code(d.(*p4.Error).GetCanonicalCode()))
	}
	return out
}

func wantCodes(t *testing.T, err error, want ...codes.Code) {
	t.Helper()
	got := perUpdate(t, err)
	if len(got) != len(want) {
		t.Fatalf("codes %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("codes %v, want %v", got, want)
		}
	}
}

// vsFrame is valuesets.p4's Ethernet frame of type typ with a tag.
func vsFrame(typ uint16, kind, verFlags, val byte) []byte {
	f := []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}
	f = append(f, b16(typ)...)
	return append(f, kind, verFlags, val)
}

func TestValueSetWriteReadAndStatuses(t *testing.T) {
	r := newTestProgramRig(t, "valuesets")
	types, kinds := r.valueSetID("P.tag_types"), r.valueSetID("P.kind_vers")
	m88b5 := []*p4.FieldMatch{exact(1, []byte{0x88, 0xb5})}

	// A packet before and after: the set decides the parser's path.
	send := func() byte {
		r.sw.Receive(1, [][]byte{vsFrame(0x88b5, 7, 0x10, 9)})
		return r.ports[2].wait(t)[0]
	}
	if p := send(); p != 0 {
		t.Fatalf("empty set: path %d", p)
	}
	if err := r.write(1, vsetUpdate(p4.Update_MODIFY, types, m88b5, []*p4.FieldMatch{exact(1, []byte{0x91, 0})})); err != nil {
		t.Fatal(err)
	}
	if p := send(); p != 2 {
		t.Fatalf("member 0x88b5: path %d", p)
	}
	if err := r.write(1, vsetUpdate(p4.Update_MODIFY, kinds, []*p4.FieldMatch{exact(1, []byte{7}), exact(2, []byte{1})})); err != nil {
		t.Fatal(err)
	}
	if p := send(); p != 3 {
		t.Fatalf("struct member (7, 1): path %d", p)
	}

	// Read one set, then all (members as written, canonical values).
	got := r.read(vsetEntity(types))
	if len(got) != 1 || len(got[0].GetValueSetEntry().GetMembers()) != 2 ||
		!proto.Equal(got[0].GetValueSetEntry().GetMembers()[0].GetMatch()[0], m88b5[0]) {
		t.Fatalf("read %v", got)
	}
	if all := r.read(vsetEntity(0)); len(all) != 3 {
		t.Fatalf("read all: %d value sets, want 3", len(all))
	}
	one := []*p4.FieldMatch{exact(1, []byte{1})}
	wantCodes(t, r.write(1,
		vsetUpdate(p4.Update_INSERT, types, m88b5),
		vsetUpdate(p4.Update_DELETE, types),
		vsetUpdate(p4.Update_MODIFY, 0x03000099, m88b5),
		vsetUpdate(p4.Update_MODIFY, types, one, one, one, one, one),                                       // five members, size 4
		vsetUpdate(p4.Update_MODIFY, types, m88b5, m88b5),                                                  // a duplicate
		vsetUpdate(p4.Update_MODIFY, types, []*p4.FieldMatch{exact(1, []byte{1, 0, 0})}),                   // 24 bits for 16
		vsetUpdate(p4.Update_MODIFY, kinds, []*p4.FieldMatch{exact(1, []byte{7}), exact(2, []byte{0x10})}), // 5 bits for 4
		vsetUpdate(p4.Update_MODIFY, kinds, []*p4.FieldMatch{exact(1, []byte{7})}),                         // an exact field omitted
		vsetUpdate(p4.Update_MODIFY, kinds, []*p4.FieldMatch{exact(3, []byte{7})}),                         // no such field
		vsetUpdate(p4.Update_MODIFY, kinds, []*p4.FieldMatch{lpm(1, []byte{7}, 8), exact(2, []byte{1})}),   // not its match kind
	), codes.InvalidArgument, codes.InvalidArgument, codes.NotFound, codes.ResourceExhausted, codes.AlreadyExists,
		codes.InvalidArgument, codes.InvalidArgument, codes.InvalidArgument, codes.InvalidArgument, codes.InvalidArgument)
	if got := r.read(vsetEntity(types)); len(got[0].GetValueSetEntry().GetMembers()) != 2 {
		t.Fatalf("a refused write changed the set: %v", got)
	}
	rs, err := r.client.Read(t.Context(), &p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{vsetEntity(0x03000099)}})
	if err == nil {
		_, err = rs.Recv()
	}
	if status.Code(err) != codes.NotFound {
		t.Fatalf("read of an unknown value set: %v", err)
	}

	// MODIFY with no members empties the set.
	if err := r.write(1, vsetUpdate(p4.Update_MODIFY, types)); err != nil {
		t.Fatal(err)
	}
	if got := r.read(vsetEntity(types)); len(got) != 1 || len(got[0].GetValueSetEntry().GetMembers()) != 0 {
		t.Fatalf("emptied set reads %v", got)
	}
	if p := send(); p != 0 {
		t.Fatalf("emptied set: path %d", p)
	}
}
