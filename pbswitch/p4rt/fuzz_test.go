// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"context"
	"testing"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
)

// The programs the fuzz targets write to and read from: the FlowBuf
// pipeconf and the engine's test programs with the P4Runtime entities the
// FlowBuf program has none of (value sets, action profiles and selectors,
// indirect counters, meters, registers, digests).
var fuzzPrograms = []string{"flowbuf", "valuesets", "actionprofiles", "externs"}

const fuzzElection = 1

// fuzzRigs runs every fuzz program, pushed, with a primary client.
func fuzzRigs(f *testing.F) []*rig {
	var rigs []*rig
	for _, name := range fuzzPrograms {
		if name == "flowbuf" {
			r := newRig(f)
			r.stream(fuzzElection)
			if err := r.push(fuzzElection, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
				f.Fatal(err)
			}
			rigs = append(rigs, r)
			continue
		}
		rigs = append(rigs, newTestProgramRig(f, name))
	}
	return rigs
}

// perUpdateCodes are the codes one update of a Write may fail with.
var perUpdateCodes = map[codes.Code]bool{
	codes.OK: true, codes.InvalidArgument: true, codes.NotFound: true, codes.AlreadyExists: true,
	codes.FailedPrecondition: true, codes.ResourceExhausted: true, codes.Unimplemented: true,
	codes.OutOfRange: true, codes.PermissionDenied: true,
}

// readCodes are the codes a Read may fail with.
var readCodes = map[codes.Code]bool{
	codes.OK: true, codes.InvalidArgument: true, codes.NotFound: true, codes.Unimplemented: true,
	codes.OutOfRange: true, codes.FailedPrecondition: true,
}

// applied returns how many updates of a Write applied, failing t when the
// answer is outside P4Runtime's error model: a failed Write is UNKNOWN with
// one p4.v1.Error per update, each OK or a code of the model.
func applied(t *testing.T, updates int, err error) int {
	t.Helper()
	if err == nil {
		return updates
	}
	st := status.Convert(err)
	if st.Code() != codes.Unknown {
		if !perUpdateCodes[st.Code()] {
			t.Fatalf("write answered %v", err)
		}
		return 0 // refused as a whole (e.g. UNIMPLEMENTED atomicity)
	}
	if len(st.Details()) != updates {
		t.Fatalf("%d per-update errors for %d updates: %v", len(st.Details()), updates, err)
	}
	ok := 0
	for i, d := range st.Details() {
		pe, isErr := d.(*p4.Error)
		if !isErr {
			t.Fatalf("update %d: detail %T, not p4.v1.Error", i, d)
		}
		code := codes.Code(pe.GetCanonicalCode())
		if !perUpdateCodes[code] {
			t.Fatalf("update %d answered %v: %s", i, code, pe.GetMessage())
		}
		if code == codes.OK {
			ok++
		}
	}
	if ok == updates {
		t.Fatalf("UNKNOWN although every update applied: %v", err)
	}
	return ok
}

// readAll collects a Read's entities, calling the server directly.
func (r *rig) readAll(req *p4.ReadRequest) ([]*p4.Entity, error) {
	s := &readStream{}
	err := r.srv.Read(req, s)
	return s.entities, err
}

type readStream struct {
	grpc.ServerStream
	entities []*p4.Entity
}

func (s *readStream) Send(resp *p4.ReadResponse) error {
	s.entities = append(s.entities, resp.GetEntities()...)
	return nil
}

func (s *readStream) Context() context.Context { return context.Background() }

// everything is one wildcard read per kind of entity: all a client can see.
var everything = []*p4.Entity{
	{Entity: &p4.Entity_TableEntry{TableEntry: &p4.TableEntry{}}},
	{Entity: &p4.Entity_TableEntry{TableEntry: &p4.TableEntry{IsDefaultAction: true}}},
	{Entity: &p4.Entity_TableEntry{TableEntry: &p4.TableEntry{CounterData: &p4.CounterData{}, MeterConfig: &p4.MeterConfig{}}}},
	{Entity: &p4.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4.PacketReplicationEngineEntry{
		Type: &p4.PacketReplicationEngineEntry_MulticastGroupEntry{MulticastGroupEntry: &p4.MulticastGroupEntry{}}}}},
	{Entity: &p4.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4.PacketReplicationEngineEntry{
		Type: &p4.PacketReplicationEngineEntry_CloneSessionEntry{CloneSessionEntry: &p4.CloneSessionEntry{}}}}},
	{Entity: &p4.Entity_CounterEntry{CounterEntry: &p4.CounterEntry{}}},
	{Entity: &p4.Entity_MeterEntry{MeterEntry: &p4.MeterEntry{}}},
	{Entity: &p4.Entity_RegisterEntry{RegisterEntry: &p4.RegisterEntry{}}},
	{Entity: &p4.Entity_DigestEntry{DigestEntry: &p4.DigestEntry{}}},
	{Entity: &p4.Entity_ValueSetEntry{ValueSetEntry: &p4.ValueSetEntry{}}},
	{Entity: &p4.Entity_ActionProfileMember{ActionProfileMember: &p4.ActionProfileMember{}}},
	{Entity: &p4.Entity_ActionProfileGroup{ActionProfileGroup: &p4.ActionProfileGroup{}}},
}

// snapshot is what every wildcard read answers, errors included.
func (r *rig) snapshot(t *testing.T) []byte {
	t.Helper()
	var out []byte
	for _, e := range everything {
		got, err := r.readAll(&p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{e}})
		out = append(out, status.Code(err).String()...)
		for _, x := range got {
			b, merr := proto.MarshalOptions{Deterministic: true}.Marshal(x)
			if merr != nil {
				t.Fatal(merr)
			}
			out = append(out, b...)
		}
	}
	return out
}

// deletable are the wildcard reads of what a client inserts and deletes:
// table entries first (they may use members and groups), then groups (they
// use members), members, and the PRE's groups and sessions.
var deletable = []*p4.Entity{everything[0], everything[11], everything[10], everything[3], everything[4]}

// written is what deletable reads return that the freshly pushed program
// did not have (its const entries stay).
func (r *rig) written(t *testing.T, fresh map[string]bool) [][]*p4.Entity {
	t.Helper()
	var out [][]*p4.Entity
	for _, e := range deletable {
		got, err := r.readAll(&p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{e}})
		var added []*p4.Entity
		for _, x := range got {
			b, merr := proto.MarshalOptions{Deterministic: true}.Marshal(x)
			if merr != nil {
				t.Fatal(merr)
			}
			if err == nil && !fresh[string(b)] {
				added = append(added, x)
			}
		}
		out = append(out, added)
	}
	return out
}

// deleteReadBack deletes every entry, group and member Read returns that a
// write added, with the entities exactly as read: what the server reports
// must be accepted back.
func (r *rig) deleteReadBack(t *testing.T, fresh map[string]bool) {
	t.Helper()
	for _, got := range r.written(t, fresh) {
		var dels []*p4.Update
		for _, x := range got {
			dels = append(dels, &p4.Update{Type: p4.Update_DELETE, Entity: x})
		}
		if len(dels) == 0 {
			continue
		}
		if _, err := r.srv.Write(context.Background(), writeRequest(dels...)); err != nil {
			t.Fatalf("deleting what Read returned: %v\n%v", err, got)
		}
	}
}

func writeRequest(updates ...*p4.Update) *p4.WriteRequest {
	return &p4.WriteRequest{DeviceId: deviceID, ElectionId: &p4.Uint128{Low: fuzzElection}, Updates: updates}
}

func seedWrite(f *testing.F, program int, updates ...*p4.Update) {
	b, err := proto.Marshal(&p4.WriteRequest{Updates: updates})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(program), b)
}

// writeSeeds are well-formed and subtly malformed updates of each program.
func writeSeeds(f *testing.F, rigs []*rig) {
	fb := rigs[0]
	mac := []byte{2, 0, 0, 0, 0, 9}
	route := &p4.TableEntry{TableId: fb.id(ctl.TableRoutingV4), Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 2, 0}, 24)},
		Action: action(fb.id(ctl.ActionRoute), b16(2), mac, mac)}
	tooWide := proto.Clone(route).(*p4.TableEntry)
	tooWide.Action = action(fb.id(ctl.ActionRoute), []byte{2, 0}, mac, mac)
	acl := &p4.TableEntry{TableId: fb.id(ctl.TableACL), Priority: 10,
		Match:  []*p4.FieldMatch{ternary(2, b16(1), b16(0x1ff)), ternary(5, []byte{17}, []byte{0xff})},
		Action: action(fb.id(ctl.ActionPuntToCPU))}
	steerEntry := &p4.TableEntry{TableId: fb.id(ctl.TableFlowSteering), Priority: 100,
		Match:  []*p4.FieldMatch{ternary(1, []byte{0}, []byte{1}), ternary(2, b16(1), b16(0x1ff)), ternary(3, []byte{10, 0, 0, 1}, []byte{255, 255, 255, 255})},
		Action: action(fb.id(ctl.ActionSteerToPort), b16(100))}
	vport := &p4.TableEntry{TableId: fb.id(ctl.TableVportPorts), Match: []*p4.FieldMatch{exact(1, b16(100))},
		Action: action(fb.id(ctl.ActionMarkFromVport))}
	constDefault := &p4.TableEntry{TableId: fb.id(ctl.TableL2Exact), IsDefaultAction: true, Action: action(fb.id(ctl.ActionForwardingDrop))}
	seedWrite(f, 0, update(p4.Update_INSERT, route))
	seedWrite(f, 0, update(p4.Update_INSERT, route), update(p4.Update_INSERT, route), update(p4.Update_MODIFY, route),
		update(p4.Update_INSERT, tooWide), update(p4.Update_DELETE, route))
	seedWrite(f, 0, update(p4.Update_INSERT, acl), update(p4.Update_INSERT, steerEntry), update(p4.Update_INSERT, vport))
	seedWrite(f, 0, update(p4.Update_MODIFY, constDefault))
	seedWrite(f, 0, groupUpdate(5, &p4.Replica{PortKind: &p4.Replica_Port{Port: []byte{1}}, Instance: 1},
		&p4.Replica{PortKind: &p4.Replica_EgressPort{EgressPort: 3}}))
	seedWrite(f, 0, &p4.Update{Type: p4.Update_INSERT, Entity: &p4.Entity{Entity: &p4.Entity_PacketReplicationEngineEntry{
		PacketReplicationEngineEntry: &p4.PacketReplicationEngineEntry{Type: &p4.PacketReplicationEngineEntry_CloneSessionEntry{
			CloneSessionEntry: &p4.CloneSessionEntry{SessionId: ctl.CPUCloneSession, Replicas: []*p4.Replica{
				{PortKind: &p4.Replica_EgressPort{EgressPort: ctl.DefaultCPUPort}}}}}}}}})
	seedWrite(f, 0, update(p4.Update_INSERT, route), &p4.Update{Type: p4.Update_MODIFY, Entity: &p4.Entity{
		Entity: &p4.Entity_DirectCounterEntry{DirectCounterEntry: &p4.DirectCounterEntry{TableEntry: route,
			Data: &p4.CounterData{PacketCount: 7, ByteCount: 700}}}}})
	seedWrite(f, 0, &p4.Update{Type: p4.Update_INSERT})
	// An exact table in a slab: insert, duplicate, modify, delete, delete
	// again, insert with a cookie, and a parameter too wide.
	session := &p4.TableEntry{TableId: fb.id(ctl.TableDownlinkSessions), Match: []*p4.FieldMatch{exact(1, []byte{10, 250, 0, 1})},
		Action: action(fb.id(ctl.ActionSetDownlinkSession), b16(1), b16(0), b16(7)), ControllerMetadata: 0xfeed}
	dropped := proto.Clone(session).(*p4.TableEntry)
	dropped.Action = action(fb.id(ctl.ActionDownlinkSessionDrop), b16(3))
	wideSession := proto.Clone(session).(*p4.TableEntry)
	wideSession.Action = action(fb.id(ctl.ActionSetDownlinkSession), []byte{1, 0, 0}, b16(0), b16(7))
	seedWrite(f, 0, update(p4.Update_INSERT, session), update(p4.Update_INSERT, session), update(p4.Update_MODIFY, dropped),
		update(p4.Update_DELETE, session), update(p4.Update_DELETE, session), update(p4.Update_INSERT, dropped),
		update(p4.Update_INSERT, wideSession))

	vs := rigs[1]
	types := vs.valueSetID("P.tag_types")
	seedWrite(f, 1, vsetUpdate(p4.Update_MODIFY, types, []*p4.FieldMatch{exact(1, b16(0x88b5))}, []*p4.FieldMatch{exact(1, b16(0x88b6))}))
	seedWrite(f, 1, vsetUpdate(p4.Update_INSERT, types, []*p4.FieldMatch{exact(1, b16(0x88b5))}))

	ap := rigs[2]
	prof, sel := ap.profileID("I.ports_ap"), ap.profileID("I.spread_sel")
	setPort, steer := ap.id("I.set_port"), ap.id("I.steer")
	seedWrite(f, 2, memberUpdate(p4.Update_INSERT, prof, 1, action(setPort, []byte{3}, []byte{11})),
		update(p4.Update_INSERT, &p4.TableEntry{TableId: ap.id("I.ports"),
			Match: []*p4.FieldMatch{exact(1, []byte{2, 0, 0, 0, 0, 0xa})}, Action: memberRef(1)}))
	seedWrite(f, 2, memberUpdate(p4.Update_INSERT, sel, 11, action(steer, []byte{1})),
		memberUpdate(p4.Update_INSERT, sel, 12, action(steer, []byte{2})), groupOf(p4.Update_INSERT, sel, 100, 4, 11, 1, 12, 2),
		update(p4.Update_INSERT, &p4.TableEntry{TableId: ap.id("I.spread"), Match: []*p4.FieldMatch{exact(1, []byte{0x12, 0x34})},
			Action: groupRef(100)}))
	// A group over a member that does not exist, and a member missing a parameter.
	seedWrite(f, 2, groupOf(p4.Update_INSERT, sel, 10, 4, 1, 1), memberUpdate(p4.Update_INSERT, prof, 2, action(setPort, []byte{3})))

	ex := rigs[3]
	for _, kind := range []string{"I.ctr", "I.mtr", "I.reg"} {
		id := ex.externID(kind)
		var e *p4.Entity
		switch kind {
		case "I.ctr":
			e = &p4.Entity{Entity: &p4.Entity_CounterEntry{CounterEntry: &p4.CounterEntry{CounterId: id, Index: &p4.Index{Index: 3}, Data: &p4.CounterData{PacketCount: 1}}}}
		case "I.mtr":
			e = &p4.Entity{Entity: &p4.Entity_MeterEntry{MeterEntry: &p4.MeterEntry{MeterId: id, Index: &p4.Index{Index: 1}, Config: &p4.MeterConfig{Cir: 1000, Cburst: 100, Pir: 2000, Pburst: 200}}}}
		default:
			e = &p4.Entity{Entity: &p4.Entity_RegisterEntry{RegisterEntry: &p4.RegisterEntry{RegisterId: id, Index: &p4.Index{Index: 15},
				Data: &p4.P4Data{Data: &p4.P4Data_Bitstring{Bitstring: []byte{0x12, 0x34}}}}}}
		}
		seedWrite(f, 3, &p4.Update{Type: p4.Update_MODIFY, Entity: e})
	}
	seedWrite(f, 3, &p4.Update{Type: p4.Update_INSERT, Entity: &p4.Entity{Entity: &p4.Entity_DigestEntry{DigestEntry: &p4.DigestEntry{
		DigestId: ex.externID("digest_t"), Config: &p4.DigestEntry_Config{MaxTimeoutNs: 1000, MaxListSize: 4}}}}})
}

// externID is the id of a counter, meter, register or digest of r's p4info.
func (r *rig) externID(name string) uint32 {
	return r.found("extern", name, idIn(r.info.Counters, name), idIn(r.info.Meters, name),
		idIn(r.info.Registers, name), idIn(r.info.Digests, name))
}

// FuzzWrite feeds arbitrary P4Runtime Write requests (as the wire bytes a
// client sends, with the device, election id and atomicity of the primary)
// to the server running each program: it never panics, answers in
// P4Runtime's error model, a Write whose every update failed changes
// nothing a Read can see, and whatever Read returns afterwards is accepted
// back as a DELETE. Each input starts from the freshly pushed program.
func FuzzWrite(f *testing.F) {
	rigs := fuzzRigs(f)
	writeSeeds(f, rigs)
	fresh := make([]map[string]bool, len(rigs))
	for i, r := range rigs {
		fresh[i] = map[string]bool{}
		for _, e := range deletable {
			got, _ := r.readAll(&p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{e}})
			for _, x := range got {
				b, err := proto.MarshalOptions{Deterministic: true}.Marshal(x)
				if err != nil {
					f.Fatal(err)
				}
				fresh[i][string(b)] = true
			}
		}
	}
	f.Fuzz(func(t *testing.T, program uint8, data []byte) {
		req := &p4.WriteRequest{}
		if proto.Unmarshal(data, req) != nil {
			return
		}
		i := int(program) % len(rigs)
		r := rigs[i]
		req.DeviceId, req.ElectionId, req.Role = deviceID, &p4.Uint128{Low: fuzzElection}, ""
		req.Atomicity = p4.WriteRequest_CONTINUE_ON_ERROR
		before := r.snapshot(t)
		_, err := r.srv.Write(context.Background(), req)
		n := applied(t, len(req.GetUpdates()), err)
		if n == 0 {
			if after := r.snapshot(t); string(after) != string(before) {
				t.Fatalf("a write that applied nothing (%v) changed what Read returns", err)
			}
			return
		}
		r.deleteReadBack(t, fresh[i])
		if err := r.push(fuzzElection, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzRead feeds arbitrary Read requests to the server running each
// program, after a few writes so that reads naming entries find some: it
// never panics, answers with a code of the model, and changes nothing.
func FuzzRead(f *testing.F) {
	rigs := fuzzRigs(f)
	fb := rigs[0]
	mac := []byte{2, 0, 0, 0, 0, 9}
	route := &p4.TableEntry{TableId: fb.id(ctl.TableRoutingV4), Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 2, 0}, 24)},
		Action: action(fb.id(ctl.ActionRoute), b16(2), mac, mac)}
	if _, err := fb.srv.Write(context.Background(), writeRequest(update(p4.Update_INSERT, route),
		groupUpdate(5, &p4.Replica{PortKind: &p4.Replica_EgressPort{EgressPort: 3}}))); err != nil {
		f.Fatal(err)
	}
	for i := range rigs {
		for _, e := range everything {
			b, err := proto.Marshal(&p4.ReadRequest{Entities: []*p4.Entity{e}})
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), b)
		}
	}
	b, _ := proto.Marshal(&p4.ReadRequest{Entities: []*p4.Entity{tableEntity(&p4.TableEntry{TableId: route.TableId, Match: route.Match}),
		tableEntity(&p4.TableEntry{TableId: route.TableId, Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 2, 0}, 33)}})}})
	f.Add(uint8(0), b)
	f.Fuzz(func(t *testing.T, program uint8, data []byte) {
		req := &p4.ReadRequest{}
		if proto.Unmarshal(data, req) != nil {
			return
		}
		r := rigs[int(program)%len(rigs)]
		req.DeviceId = deviceID
		before := r.snapshot(t)
		got, err := r.readAll(req)
		if !readCodes[status.Code(err)] {
			t.Fatalf("read answered %v", err)
		}
		for _, e := range got {
			if e.GetEntity() == nil {
				t.Fatal("read returned an empty entity")
			}
		}
		if after := r.snapshot(t); string(after) != string(before) {
			t.Fatal("a read changed what Read returns")
		}
	})
}
