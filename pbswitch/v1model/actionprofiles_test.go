// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"encoding/binary"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// apFrame is testdata/actionprofiles.p4's input: Ethernet to dst from src
// with type typ, then the 32-bit flow id.
func apFrame(dst, src byte, typ uint16, flow uint32) []byte {
	f := []byte{2, 0, 0, 0, 0, dst, 2, 0, 0, 0, 0, src}
	f = binary.BigEndian.AppendUint16(f, typ)
	return binary.BigEndian.AppendUint32(f, flow)
}

// apReport is what ingress wrote: the ports member's tag, the selector
// member's tag, whether the node after the selector table ran, and the
// egress port.
type apReport struct {
	member, steered, after byte
	port                   uint32
}

func (tp *testProgram) apRun(frame []byte) apReport {
	tp.t.Helper()
	pk := &pipeline.Packet{Frame: append([]byte(nil), frame...), Meta: pipeline.StdMeta{IngressPort: 1}}
	tp.prog.Ingress(pk)
	if pk.Meta.EgressSpec == pipeline.DropPort {
		return apReport{port: pipeline.DropPort}
	}
	pk.Meta.EgressPort = pk.Meta.EgressSpec
	if !tp.prog.Egress(pk) {
		tp.t.Fatal("egress dropped")
	}
	return apReport{pk.Frame[0], pk.Frame[1], pk.Frame[2], pk.Meta.EgressSpec}
}

func (tp *testProgram) profile(name string) *pipeline.ActionProfile {
	for _, p := range tp.prog.objs.ActionProfiles {
		if p.Name == name {
			return p
		}
	}
	tp.t.Fatalf("no action profile %s", name)
	return nil
}

func (tp *testProgram) action(name string, params ...[]byte) pipeline.Action {
	return pipeline.Action{ID: tp.id(name), Params: params}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantCode(t *testing.T, err error, code codes.Code) {
	t.Helper()
	if status.Code(err) != code {
		t.Fatalf("%v, want %v", err, code)
	}
}

// crc16ARC is BMv2's crc16 (boost's crc_16_type: CRC-16/ARC), written out
// bit by bit independently of hashalg.
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

// selectorHash is the selector's input (eth.src, flow.id) hashed.
func selectorHash(src byte, flow uint32) uint32 {
	in := []byte{2, 0, 0, 0, 0, src}
	return uint32(crc16ARC(binary.BigEndian.AppendUint32(in, flow)))
}

func TestActionProfileMembers(t *testing.T) {
	if crc16ARC([]byte("123456789")) != 0xbb3d {
		t.Fatal("crc16ARC is not CRC-16/ARC")
	}
	tp := loadTestProgram(t, "actionprofiles")
	ap := tp.profile("I.ports_ap")
	setPort := func(port uint16, tag byte) pipeline.Action {
		return tp.action("I.set_port", binary.BigEndian.AppendUint16(nil, port), []byte{tag})
	}
	must(t, ap.InsertMember(1, setPort(3, 11)))
	must(t, ap.InsertMember(2, setPort(4, 22)))
	ports := tp.table("I.ports")
	entry := func(dst byte, member uint32) *pipeline.Entry {
		return &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{2, 0, 0, 0, 0, dst}}}, MemberID: member}
	}
	must(t, ports.Insert(entry(0xa, 1)))
	must(t, ports.Insert(entry(0xb, 2)))
	must(t, ports.Insert(entry(0xc, 2)))
	for dst, want := range map[byte]apReport{
		0xa: {11, 0, 1, 3}, 0xb: {22, 0, 1, 4}, 0xc: {22, 0, 1, 4},
		0xd: {0, 0, 1, 2}, // a miss: NoAction
	} {
		if got := tp.apRun(apFrame(dst, 1, 0x0800, 7)); got != want {
			t.Errorf("dst %#x: %+v, want %+v", dst, got, want)
		}
	}
	// Modifying a member changes every entry naming it.
	must(t, ap.ModifyMember(2, setPort(6, 66)))
	if got := tp.apRun(apFrame(0xc, 1, 0x0800, 7)); got != (apReport{66, 0, 1, 6}) {
		t.Errorf("after modify: %+v", got)
	}
	// An entry moved to another member.
	must(t, ports.Modify(entry(0xc, 1)))
	if got := tp.apRun(apFrame(0xc, 1, 0x0800, 7)); got.member != 11 {
		t.Errorf("entry moved to member 1: %+v", got)
	}

	// The statuses.
	wantCode(t, ap.InsertMember(1, setPort(3, 11)), codes.AlreadyExists)
	wantCode(t, ap.ModifyMember(9, setPort(3, 11)), codes.NotFound)
	wantCode(t, ap.DeleteMember(9), codes.NotFound)
	wantCode(t, ap.InsertMember(3, tp.action("I.steer", []byte{1})), codes.InvalidArgument)                     // not an action of its table
	wantCode(t, ap.InsertMember(3, tp.action("I.set_port", []byte{0, 3}, []byte{0, 1})), codes.InvalidArgument) // tag is 8 bits
	wantCode(t, ap.InsertGroup(1, 0, nil), codes.InvalidArgument)                                               // no selector
	wantCode(t, ports.Insert(entry(0xe, 9)), codes.NotFound)
	wantCode(t, ports.Insert(&pipeline.Entry{Match: entry(0xe, 0).Match, IsGroup: true}), codes.InvalidArgument)
	wantCode(t, ap.DeleteMember(2), codes.FailedPrecondition) // entry 0xb
	must(t, ports.Delete(entry(0xb, 0)))
	must(t, ap.DeleteMember(2))
	for i := uint32(10); i < 17; i++ { // 1 and 10-16
		must(t, ap.InsertMember(i, setPort(1, 1)))
	}
	wantCode(t, ap.InsertMember(17, setPort(1, 1)), codes.ResourceExhausted) // size 8
}

func TestActionSelectorGroups(t *testing.T) {
	tp := loadTestProgram(t, "actionprofiles")
	sel := tp.profile("I.spread_sel")
	for i := uint32(1); i <= 3; i++ {
		must(t, sel.InsertMember(10+i, tp.action("I.steer", []byte{byte(i)})))
	}
	members := func(ms ...uint32) []pipeline.GroupMember {
		var out []pipeline.GroupMember
		for i := 0; i < len(ms); i += 2 {
			out = append(out, pipeline.GroupMember{ID: ms[i], Weight: int32(ms[i+1])})
		}
		return out
	}
	must(t, sel.InsertGroup(100, 4, members(11, 1, 12, 1, 13, 1)))
	spread := tp.table("I.spread")
	key := []pipeline.FieldMatch{{Value: []byte{0x12, 0x34}}}
	must(t, spread.Insert(&pipeline.Entry{Match: key, GroupID: 100, IsGroup: true}))
	must(t, spread.Insert(&pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{0x56, 0x78}}}, MemberID: 13}))

	// check sends 48 flows and compares each with BMv2's choice: the
	// member at crc16(src, flow) modulo the group's handles (in handle
	// order, a member of weight w holding w of them); every member in
	// slots must be chosen by some flow, and a flow always by the same.
	check := func(slots ...byte) {
		t.Helper()
		seen := map[byte]int{}
		for src := byte(1); src <= 4; src++ {
			for i := uint32(0); i < 12; i++ {
				flow := i * 0x9e3779b1
				want := slots[selectorHash(src, flow)%uint32(len(slots))]
				for range 2 {
					if got := tp.apRun(apFrame(0xa, src, 0x1234, flow)); got.steered != want || got.after != 1 {
						t.Fatalf("src %d flow %d: %+v, want member tag %d", src, flow, got, want)
					}
				}
				seen[want]++
			}
		}
		for _, s := range slots {
			if seen[s] == 0 {
				t.Errorf("member tag %d never chosen: %v", s, seen)
			}
		}
	}
	check(1, 2, 3)

	// Weights: member 11 gets a copy with the lowest free handle (3),
	// after 12's and 13's; 13 leaves.
	must(t, sel.ModifyGroup(100, 0, members(11, 2, 12, 1)))
	check(1, 2, 1)
	// Back to weight 1: 11's copy gives its handle back, which its next
	// copy takes again, after 13's.
	must(t, sel.ModifyGroup(100, 0, members(11, 1, 12, 1)))
	check(1, 2)
	// A new member takes that freed handle (3), so 11's next copy gets 4.
	must(t, sel.InsertMember(14, tp.action("I.steer", []byte{4})))
	must(t, sel.ModifyGroup(100, 0, members(14, 1, 11, 2)))
	check(1, 4, 1)
	must(t, sel.ModifyGroup(100, 0, members(13, 1, 11, 2, 12, 1)))
	check(1, 2, 3, 1)

	// A member entry, a miss.
	if got := tp.apRun(apFrame(0xa, 1, 0x5678, 1)); got.steered != 3 || got.after != 1 {
		t.Errorf("member entry: %+v", got)
	}
	if got := tp.apRun(apFrame(0xa, 1, 0x9999, 1)); got.steered != 0 || got.after != 1 {
		t.Errorf("miss: %+v", got)
	}

	// The statuses; a refused write leaves the group as it was.
	wantCode(t, sel.DeleteMember(13), codes.FailedPrecondition)                          // in the group and an entry
	wantCode(t, sel.DeleteMember(12), codes.FailedPrecondition)                          // in the group
	wantCode(t, sel.DeleteGroup(100), codes.FailedPrecondition)                          // an entry names it
	wantCode(t, sel.ModifyGroup(100, 0, members(11, 3, 12, 2)), codes.ResourceExhausted) // max size 4
	wantCode(t, sel.InsertGroup(100, 4, nil), codes.AlreadyExists)
	wantCode(t, sel.ModifyGroup(101, 0, nil), codes.NotFound)
	wantCode(t, sel.DeleteGroup(101), codes.NotFound)
	wantCode(t, sel.InsertGroup(101, 0, members(99, 1)), codes.NotFound)
	wantCode(t, sel.InsertGroup(101, 0, members(11, 0)), codes.InvalidArgument)
	wantCode(t, sel.InsertGroup(101, 0, members(11, 1, 11, 1)), codes.InvalidArgument)
	wantCode(t, sel.InsertGroup(101, -1, nil), codes.InvalidArgument)
	wantCode(t, sel.ModifyGroup(100, 8, members(11, 1)), codes.InvalidArgument) // max size is fixed
	wantCode(t, spread.Insert(&pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{0, 1}}}, GroupID: 101, IsGroup: true}), codes.NotFound)
	check(1, 2, 3, 1)

	// An empty group: no action runs (BMv2: "yielded empty group") and
	// the control goes on.
	must(t, sel.ModifyGroup(100, 0, nil))
	if got := tp.apRun(apFrame(0xa, 1, 0x1234, 1)); got.steered != 0 || got.after != 1 {
		t.Errorf("empty group: %+v", got)
	}
	must(t, spread.Delete(&pipeline.Entry{Match: key}))
	must(t, sel.DeleteGroup(100))
	must(t, sel.DeleteMember(12))
}

func BenchmarkActionSelector(b *testing.B) {
	tp := loadTestProgram(&testing.T{}, "actionprofiles")
	sel := tp.profile("I.spread_sel")
	for i := uint32(1); i <= 4; i++ {
		_ = sel.InsertMember(i, tp.action("I.steer", []byte{byte(i)}))
	}
	_ = sel.InsertGroup(1, 0, []pipeline.GroupMember{{ID: 1, Weight: 1}, {ID: 2, Weight: 2}, {ID: 3, Weight: 1}})
	_ = tp.table("I.spread").Insert(&pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{0x12, 0x34}}}, GroupID: 1, IsGroup: true})
	frame := apFrame(0xa, 1, 0x1234, 9)
	pk := &pipeline.Packet{Frame: make([]byte, len(frame)), Meta: pipeline.StdMeta{IngressPort: 1}}
	b.ReportAllocs()
	for range b.N {
		pk.Frame = append(pk.Frame[:0], frame...)
		pk.Meta = pipeline.StdMeta{IngressPort: 1}
		tp.prog.Ingress(pk)
	}
}

// Packets run while the control plane rewrites members, groups and
// entries (run with -race).
func TestActionSelectorConcurrentWrites(t *testing.T) {
	tp := loadTestProgram(t, "actionprofiles")
	sel := tp.profile("I.spread_sel")
	for i := uint32(1); i <= 3; i++ {
		must(t, sel.InsertMember(i, tp.action("I.steer", []byte{byte(i)})))
	}
	must(t, sel.InsertGroup(1, 0, []pipeline.GroupMember{{ID: 1, Weight: 1}}))
	spread := tp.table("I.spread")
	key := []pipeline.FieldMatch{{Value: []byte{0x12, 0x34}}}
	must(t, spread.Insert(&pipeline.Entry{Match: key, GroupID: 1, IsGroup: true}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range uint32(3000) {
			pk := &pipeline.Packet{Frame: apFrame(0xa, 1, 0x1234, i), Meta: pipeline.StdMeta{IngressPort: 1}}
			tp.prog.Ingress(pk)
		}
	}()
	for i := 0; ; i++ {
		select {
		case <-done:
			return
		default:
		}
		w := int32(i%3 + 1)
		must(t, sel.ModifyGroup(1, 0, []pipeline.GroupMember{{ID: 1, Weight: w}, {ID: 2, Weight: 1}}))
		must(t, sel.ModifyMember(2, tp.action("I.steer", []byte{byte(i%3 + 1)})))
		must(t, spread.Modify(&pipeline.Entry{Match: key, MemberID: 3}))
		must(t, spread.Modify(&pipeline.Entry{Match: key, GroupID: 1, IsGroup: true}))
		must(t, sel.ModifyGroup(1, 0, nil))
	}
}

// One-shot action sets (P4Runtime's ActionProfileActionSet): the entry's
// own group, a member per unit of weight, as PI programs BMv2.
func TestActionSelectorOneShot(t *testing.T) {
	tp := loadTestProgram(t, "actionprofiles")
	sel, spread := tp.profile("I.spread_sel"), tp.table("I.spread")
	steer := func(tag byte, w int32) pipeline.OneShotAction {
		return pipeline.OneShotAction{Action: tp.action("I.steer", []byte{tag}), Weight: w}
	}
	key := []pipeline.FieldMatch{{Value: []byte{0x12, 0x34}}}
	check := func(slots ...byte) {
		t.Helper()
		for i := range uint32(16) {
			flow := i * 0x9e3779b1
			want := slots[selectorHash(1, flow)%uint32(len(slots))]
			if got := tp.apRun(apFrame(0xa, 1, 0x1234, flow)); got.steered != want {
				t.Fatalf("flow %#x: %+v, want member tag %d", flow, got, want)
			}
		}
	}
	must(t, spread.Insert(&pipeline.Entry{Match: key, OneShot: []pipeline.OneShotAction{steer(1, 1), steer(2, 2)}}))
	check(1, 2, 2)
	// A modified entry's new members take new handles (3, 4) before the
	// old ones are freed.
	must(t, spread.Modify(&pipeline.Entry{Match: key, OneShot: []pipeline.OneShotAction{steer(3, 1), steer(1, 1)}}))
	check(3, 1)
	wantCode(t, sel.InsertMember(1, tp.action("I.steer", []byte{1})), codes.InvalidArgument) // no mixing
	other := []pipeline.FieldMatch{{Value: []byte{0, 1}}}
	wantCode(t, spread.Insert(&pipeline.Entry{Match: other, OneShot: []pipeline.OneShotAction{steer(1, 0)}}), codes.InvalidArgument)
	wantCode(t, spread.Insert(&pipeline.Entry{Match: other, OneShot: []pipeline.OneShotAction{}}), codes.Unimplemented)
	wantCode(t, spread.Insert(&pipeline.Entry{Match: other, MemberID: 1}), codes.InvalidArgument)

	// Without a selector: one action, a member of the entry's own.
	ports := tp.table("I.ports")
	setPort := pipeline.OneShotAction{Action: tp.action("I.set_port", []byte{0, 3}, []byte{7}), Weight: 1}
	dst := []pipeline.FieldMatch{{Value: []byte{2, 0, 0, 0, 0, 0xa}}}
	wantCode(t, ports.Insert(&pipeline.Entry{Match: dst, OneShot: []pipeline.OneShotAction{setPort, setPort}}), codes.InvalidArgument)
	must(t, ports.Insert(&pipeline.Entry{Match: dst, OneShot: []pipeline.OneShotAction{setPort}}))
	if got := tp.apRun(apFrame(0xa, 1, 0x9999, 1)); got.member != 7 || got.port != 3 {
		t.Errorf("one-shot member: %+v", got)
	}

	// Once the one-shot entries are gone, members and groups are allowed.
	must(t, spread.Delete(&pipeline.Entry{Match: key}))
	must(t, sel.InsertMember(1, tp.action("I.steer", []byte{1})))
	wantCode(t, spread.Insert(&pipeline.Entry{Match: key, OneShot: []pipeline.OneShotAction{steer(1, 1)}}), codes.InvalidArgument)
}
