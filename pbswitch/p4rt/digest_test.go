// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
)

func bitSpec(w int32) *p4info.P4DataTypeSpec {
	return &p4info.P4DataTypeSpec{TypeSpec: &p4info.P4DataTypeSpec_Bitstring{Bitstring: &p4info.P4BitstringLikeTypeSpec{
		TypeSpec: &p4info.P4BitstringLikeTypeSpec_Bit{Bit: &p4info.P4BitTypeSpec{Bitwidth: w}}}}}
}

// A digest whose p4info type is a struct reaches the controller as a
// P4Data struct, one bitstring per member, as ONOS decodes it.
func TestDigestDataFollowsTheP4InfoStruct(t *testing.T) {
	info := &p4info.P4Info{
		Digests: []*p4info.Digest{{Preamble: &p4info.Preamble{Id: 7, Name: "learn_t"},
			TypeSpec: &p4info.P4DataTypeSpec{TypeSpec: &p4info.P4DataTypeSpec_Struct{Struct: &p4info.P4NamedType{Name: "learn_t"}}}}},
		TypeInfo: &p4info.P4TypeInfo{Structs: map[string]*p4info.P4StructTypeSpec{"learn_t": {Members: []*p4info.P4StructTypeSpec_Member{
			{Name: "mac", TypeSpec: bitSpec(48)}, {Name: "port", TypeSpec: bitSpec(9)}}}}},
	}
	members := digestMembers(info, 7)
	if len(members) != 2 || members[0] != 48 || members[1] != 9 {
		t.Fatalf("members %v", members)
	}
	d := digestData([]byte{2, 0, 0, 0, 0, 1, 0, 3}, members)
	st := d.GetStruct().GetMembers()
	if len(st) != 2 || string(st[0].GetBitstring()) != "\x02\x00\x00\x00\x00\x01" || string(st[1].GetBitstring()) != "\x03" {
		t.Fatalf("digest data %v", d)
	}
	// A message that does not fit the declared members stays one bitstring.
	if d := digestData([]byte{1, 2}, members); string(d.GetBitstring()) != "\x01\x02" {
		t.Fatalf("mismatched message %v", d)
	}
	if digestMembers(info, 8) != nil {
		t.Fatal("members of an unknown digest")
	}
}
