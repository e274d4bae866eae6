// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"encoding/binary"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

func (r *rig) profileID(name string) uint32 {
	return r.found("action profile", name, idIn(r.info.ActionProfiles, name))
}

func memberUpdate(typ p4.Update_Type, prof, id uint32, a *p4.TableAction) *p4.Update {
	m := &p4.ActionProfileMember{ActionProfileId: prof, MemberId: id}
	if a != nil {
		m.Action = a.GetAction()
	}
	return &p4.Update{Type: typ, Entity: &p4.Entity{Entity: &p4.Entity_ActionProfileMember{ActionProfileMember: m}}}
}

// groupOf is an ActionProfileGroup update; members are (id, weight) pairs.
func groupOf(typ p4.Update_Type, prof, id uint32, maxSize int32, members ...uint32) *p4.Update {
	g := &p4.ActionProfileGroup{ActionProfileId: prof, GroupId: id, MaxSize: maxSize}
	for i := 0; i < len(members); i += 2 {
		g.Members = append(g.Members, &p4.ActionProfileGroup_Member{MemberId: members[i], Weight: int32(members[i+1])})
	}
	return &p4.Update{Type: typ, Entity: &p4.Entity{Entity: &p4.Entity_ActionProfileGroup{ActionProfileGroup: g}}}
}

func memberRef(id uint32) *p4.TableAction {
	return &p4.TableAction{Type: &p4.TableAction_ActionProfileMemberId{ActionProfileMemberId: id}}
}

func groupRef(id uint32) *p4.TableAction {
	return &p4.TableAction{Type: &p4.TableAction_ActionProfileGroupId{ActionProfileGroupId: id}}
}

// apFrame: actionprofiles.p4's Ethernet (to 02::dst from 02::src, type
// typ) and 32-bit flow id.
func apFrame(dst, src byte, typ uint16, flow uint32) []byte {
	f := []byte{2, 0, 0, 0, 0, dst, 2, 0, 0, 0, 0, src}
	f = binary.BigEndian.AppendUint16(f, typ)
	return binary.BigEndian.AppendUint32(f, flow)
}

// crc16ARC is BMv2's crc16 (CRC-16/ARC), the selector's algorithm.
func crc16ARC(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c ^= uint16(x)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0xa001
			} else {
				c >>= 1
			}
		}
	}
	return c
}

func TestActionProfilesOverP4Runtime(t *testing.T) {
	r := newTestProgramRig(t, "actionprofiles")
	ap, sel := r.profileID("I.ports_ap"), r.profileID("I.spread_sel")
	ports, spread := r.id("I.ports"), r.id("I.spread")
	setPort, steer := r.id("I.set_port"), r.id("I.steer")
	dstA := []byte{2, 0, 0, 0, 0, 0xa}
	typ := []byte{0x12, 0x34}
	if err := r.write(1,
		memberUpdate(p4.Update_INSERT, ap, 1, action(setPort, []byte{3}, []byte{11})),
		memberUpdate(p4.Update_INSERT, sel, 11, action(steer, []byte{1})),
		memberUpdate(p4.Update_INSERT, sel, 12, action(steer, []byte{2})),
		memberUpdate(p4.Update_INSERT, sel, 13, action(steer, []byte{3})),
		groupOf(p4.Update_INSERT, sel, 100, 4, 11, 1, 12, 2, 13, 1),
		update(p4.Update_INSERT, &p4.TableEntry{TableId: ports, Match: []*p4.FieldMatch{exact(1, dstA)}, Action: memberRef(1)}),
		update(p4.Update_INSERT, &p4.TableEntry{TableId: spread, Match: []*p4.FieldMatch{exact(1, typ)}, Action: groupRef(100)}),
	); err != nil {
		t.Fatal(err)
	}
	// A member entry sends to port 3; the group spreads flows as BMv2 with
	// PI's weights: 12's copy has the fourth handle.
	r.sw.Receive(1, [][]byte{apFrame(0xa, 1, 0x1234, 5)})
	if f := r.ports[3].wait(t); f[0] != 11 {
		t.Fatalf("member entry: report %x", f[:3])
	}
	seen := map[byte]bool{}
	for flow := uint32(0); flow < 24; flow++ {
		flow := flow * 0x9e3779b1
		in := binary.BigEndian.AppendUint32([]byte{2, 0, 0, 0, 0, 1}, flow)
		want := []byte{1, 2, 3, 2}[crc16ARC(in)%4]
		r.sw.Receive(1, [][]byte{apFrame(0xb, 1, 0x1234, flow)})
		if f := r.ports[2].wait(t); f[1] != want {
			t.Fatalf("flow %#x: member tag %d, want %d", flow, f[1], want)
		}
		seen[want] = true
	}
	if len(seen) != 3 {
		t.Fatalf("the group used members %v", seen)
	}

	// Read back: members, groups, table entries naming them.
	mem := func(prof, id uint32) *p4.Entity {
		return &p4.Entity{Entity: &p4.Entity_ActionProfileMember{ActionProfileMember: &p4.ActionProfileMember{ActionProfileId: prof, MemberId: id}}}
	}
	if n := len(r.read(mem(0, 0))); n != 4 {
		t.Fatalf("read all members: %d", n)
	}
	if n := len(r.read(mem(sel, 0))); n != 3 {
		t.Fatalf("read the selector's members: %d", n)
	}
	one := r.read(mem(sel, 12))
	if len(one) != 1 || !proto.Equal(one[0].GetActionProfileMember().GetAction(), action(steer, []byte{2}).GetAction()) {
		t.Fatalf("read member 12: %v", one)
	}
	groups := r.read(&p4.Entity{Entity: &p4.Entity_ActionProfileGroup{ActionProfileGroup: &p4.ActionProfileGroup{}}})
	wantGroup := groupOf(p4.Update_INSERT, sel, 100, 4, 11, 1, 12, 2, 13, 1).GetEntity().GetActionProfileGroup()
	if len(groups) != 1 || !proto.Equal(groups[0].GetActionProfileGroup(), wantGroup) {
		t.Fatalf("read groups: %v", groups)
	}
	entries := r.read(tableEntity(&p4.TableEntry{TableId: spread}))
	if len(entries) != 1 || entries[0].GetTableEntry().GetAction().GetActionProfileGroupId() != 100 {
		t.Fatalf("read spread: %v", entries)
	}
	entries = r.read(tableEntity(&p4.TableEntry{TableId: ports}))
	if len(entries) != 1 || entries[0].GetTableEntry().GetAction().GetActionProfileMemberId() != 1 {
		t.Fatalf("read ports: %v", entries)
	}

	// Each status.
	oneShot := &p4.TableAction{Type: &p4.TableAction_ActionProfileActionSet{ActionProfileActionSet: &p4.ActionProfileActionSet{}}}
	dstE := []*p4.FieldMatch{exact(1, []byte{2, 0, 0, 0, 0, 0xe})}
	wantCodes(t, r.write(1,
		memberUpdate(p4.Update_INSERT, sel, 11, action(steer, []byte{1})),
		memberUpdate(p4.Update_MODIFY, sel, 99, action(steer, []byte{1})),
		memberUpdate(p4.Update_DELETE, sel, 99, nil),
		memberUpdate(p4.Update_INSERT, 0x11000099, 1, action(steer, []byte{1})),
		memberUpdate(p4.Update_DELETE, sel, 11, nil), // in group 100
		memberUpdate(p4.Update_DELETE, ap, 1, nil),   // named by an entry
		groupOf(p4.Update_DELETE, sel, 100, 0),       // named by an entry
		groupOf(p4.Update_INSERT, sel, 101, 4, 11, 3, 12, 2),
		groupOf(p4.Update_INSERT, sel, 100, 4),
		groupOf(p4.Update_MODIFY, sel, 101, 0),
		groupOf(p4.Update_INSERT, sel, 101, 4, 99, 1),
		groupOf(p4.Update_INSERT, ap, 101, 0),
		memberUpdate(p4.Update_INSERT, ap, 2, action(steer, []byte{1})), // not an action of its table
		update(p4.Update_INSERT, &p4.TableEntry{TableId: ports, Match: dstE, Action: oneShot}),
		update(p4.Update_INSERT, &p4.TableEntry{TableId: ports, Match: dstE, Action: action(setPort, []byte{3}, []byte{1})}),
		update(p4.Update_INSERT, &p4.TableEntry{TableId: ports, Match: dstE, Action: memberRef(99)}),
		update(p4.Update_INSERT, &p4.TableEntry{TableId: ports, Match: dstE, Action: groupRef(100)}),
	), codes.AlreadyExists, codes.NotFound, codes.NotFound, codes.NotFound,
		codes.FailedPrecondition, codes.FailedPrecondition, codes.FailedPrecondition,
		codes.ResourceExhausted, codes.AlreadyExists, codes.NotFound, codes.NotFound, codes.InvalidArgument,
		codes.InvalidArgument, codes.Unimplemented, codes.InvalidArgument, codes.NotFound, codes.InvalidArgument)

	// Modify and delete, in dependency order.
	if err := r.write(1,
		groupOf(p4.Update_MODIFY, sel, 100, 0, 12, 2),
		memberUpdate(p4.Update_DELETE, sel, 11, nil),
		update(p4.Update_MODIFY, &p4.TableEntry{TableId: spread, Match: []*p4.FieldMatch{exact(1, typ)}, Action: memberRef(13)}),
		groupOf(p4.Update_DELETE, sel, 100, 0),
		update(p4.Update_DELETE, &p4.TableEntry{TableId: ports, Match: []*p4.FieldMatch{exact(1, dstA)}}),
		memberUpdate(p4.Update_DELETE, ap, 1, nil),
	); err != nil {
		t.Fatal(err)
	}
	r.sw.Receive(1, [][]byte{apFrame(0xa, 1, 0x1234, 5)})
	if f := r.ports[2].wait(t); f[0] != 0 || f[1] != 3 {
		t.Fatalf("after the changes: report %x", f[:3])
	}
}

// The p4info's max_group_size bounds a group's max_size and its weights.
func TestActionSelectorMaxGroupSize(t *testing.T) {
	r := newTestProgramRig(t, "actionprofiles")
	info := proto.Clone(r.info).(*p4info.P4Info)
	for _, p := range info.ActionProfiles {
		if p.Preamble.Name == "I.spread_sel" {
			p.MaxGroupSize = 2
		}
	}
	if err := r.push(1, info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	sel, steer := r.profileID("I.spread_sel"), r.id("I.steer")
	if err := r.write(1, memberUpdate(p4.Update_INSERT, sel, 1, action(steer, []byte{1})),
		memberUpdate(p4.Update_INSERT, sel, 2, action(steer, []byte{2}))); err != nil {
		t.Fatal(err)
	}
	wantCodes(t, r.write(1,
		groupOf(p4.Update_INSERT, sel, 1, 3, 1, 1),
		groupOf(p4.Update_INSERT, sel, 1, 0, 1, 2, 2, 1),
		groupOf(p4.Update_INSERT, sel, 1, 0, 1, 1, 2, 1),
	), codes.InvalidArgument, codes.ResourceExhausted, codes.OK)
}

func TestActionSelectorOneShotOverP4Runtime(t *testing.T) {
	r := newTestProgramRig(t, "actionprofiles")
	sel, spread, steer := r.profileID("I.spread_sel"), r.id("I.spread"), r.id("I.steer")
	set := &p4.ActionProfileActionSet{ActionProfileActions: []*p4.ActionProfileAction{
		{Action: action(steer, []byte{1}).GetAction(), Weight: 1},
		{Action: action(steer, []byte{2}).GetAction(), Weight: 2},
	}}
	te := &p4.TableEntry{TableId: spread, Match: []*p4.FieldMatch{exact(1, []byte{0x12, 0x34})},
		Action: &p4.TableAction{Type: &p4.TableAction_ActionProfileActionSet{ActionProfileActionSet: set}}}
	if err := r.write(1, update(p4.Update_INSERT, te)); err != nil {
		t.Fatal(err)
	}
	got := r.read(tableEntity(&p4.TableEntry{TableId: spread}))
	if len(got) != 1 || !proto.Equal(got[0].GetTableEntry(), te) {
		t.Fatalf("read back %v, want %v", got, te)
	}
	for i := range uint32(12) {
		flow := i * 0x9e3779b1
		want := []byte{1, 2, 2}[crc16ARC(binary.BigEndian.AppendUint32([]byte{2, 0, 0, 0, 0, 1}, flow))%3]
		r.sw.Receive(1, [][]byte{apFrame(0xb, 1, 0x1234, flow)})
		if f := r.ports[2].wait(t); f[1] != want {
			t.Fatalf("flow %#x: member tag %d, want %d", flow, f[1], want)
		}
	}
	watch := proto.Clone(te).(*p4.TableEntry)
	watch.Match = []*p4.FieldMatch{exact(1, []byte{0, 1})}
	watch.GetAction().GetActionProfileActionSet().GetActionProfileActions()[0].WatchKind = &p4.ActionProfileAction_WatchPort{WatchPort: []byte{1}}
	wantCodes(t, r.write(1,
		memberUpdate(p4.Update_INSERT, sel, 1, action(steer, []byte{1})), // no mixing with one-shot
		update(p4.Update_INSERT, watch),
	), codes.InvalidArgument, codes.Unimplemented)
	if err := r.write(1, update(p4.Update_DELETE, te), memberUpdate(p4.Update_INSERT, sel, 1, action(steer, []byte{1}))); err != nil {
		t.Fatal(err)
	}
}
