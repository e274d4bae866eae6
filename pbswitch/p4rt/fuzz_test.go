// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
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
func applied(t testing.TB, updates int, err error) int {
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

func writeRequest(updates ...*p4.Update) *p4.WriteRequest {
	return &p4.WriteRequest{DeviceId: deviceID, ElectionId: &p4.Uint128{Low: fuzzElection}, Updates: updates}
}

// fuzzSeed is one input of FuzzWrite or FuzzRead: a program's index and a
// WriteRequest's or ReadRequest's wire bytes.
type fuzzSeed struct {
	program uint8
	data    []byte
}

// writeSeeds are well-formed and subtly malformed updates of each program.
func writeSeeds(tb testing.TB, rigs []*fuzzRig) []fuzzSeed {
	var seeds []fuzzSeed
	add := func(program int, updates ...*p4.Update) {
		b, err := proto.Marshal(&p4.WriteRequest{Updates: updates})
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, fuzzSeed{uint8(program), b})
	}
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
	add(0, update(p4.Update_INSERT, route))
	add(0, update(p4.Update_INSERT, route), update(p4.Update_INSERT, route), update(p4.Update_MODIFY, route),
		update(p4.Update_INSERT, tooWide), update(p4.Update_DELETE, route))
	add(0, update(p4.Update_INSERT, acl), update(p4.Update_INSERT, steerEntry), update(p4.Update_INSERT, vport))
	add(0, update(p4.Update_MODIFY, constDefault))
	add(0, groupUpdate(5, &p4.Replica{PortKind: &p4.Replica_Port{Port: []byte{1}}, Instance: 1},
		&p4.Replica{PortKind: &p4.Replica_EgressPort{EgressPort: 3}}))
	add(0, &p4.Update{Type: p4.Update_INSERT, Entity: &p4.Entity{Entity: &p4.Entity_PacketReplicationEngineEntry{
		PacketReplicationEngineEntry: &p4.PacketReplicationEngineEntry{Type: &p4.PacketReplicationEngineEntry_CloneSessionEntry{
			CloneSessionEntry: &p4.CloneSessionEntry{SessionId: ctl.CPUCloneSession, Replicas: []*p4.Replica{
				{PortKind: &p4.Replica_EgressPort{EgressPort: ctl.DefaultCPUPort}}}}}}}}})
	add(0, update(p4.Update_INSERT, route), &p4.Update{Type: p4.Update_MODIFY, Entity: &p4.Entity{
		Entity: &p4.Entity_DirectCounterEntry{DirectCounterEntry: &p4.DirectCounterEntry{TableEntry: route,
			Data: &p4.CounterData{PacketCount: 7, ByteCount: 700}}}}})
	add(0, &p4.Update{Type: p4.Update_INSERT})
	// An exact table in a slab: insert, duplicate, modify, delete, delete
	// again, insert with a cookie, and a parameter too wide.
	session := &p4.TableEntry{TableId: fb.id(ctl.TableDownlinkSessions), Match: []*p4.FieldMatch{exact(1, []byte{10, 250, 0, 1})},
		Action: action(fb.id(ctl.ActionSetDownlinkSession), b16(1), b16(0), b16(7)), ControllerMetadata: 0xfeed}
	dropped := proto.Clone(session).(*p4.TableEntry)
	dropped.Action = action(fb.id(ctl.ActionDownlinkSessionDrop), b16(3))
	wideSession := proto.Clone(session).(*p4.TableEntry)
	wideSession.Action = action(fb.id(ctl.ActionSetDownlinkSession), []byte{1, 0, 0}, b16(0), b16(7))
	add(0, update(p4.Update_INSERT, session), update(p4.Update_INSERT, session), update(p4.Update_MODIFY, dropped),
		update(p4.Update_DELETE, session), update(p4.Update_DELETE, session), update(p4.Update_INSERT, dropped),
		update(p4.Update_INSERT, wideSession))

	vs := rigs[1]
	types := vs.valueSetID("P.tag_types")
	add(1, vsetUpdate(p4.Update_MODIFY, types, []*p4.FieldMatch{exact(1, b16(0x88b5))}, []*p4.FieldMatch{exact(1, b16(0x88b6))}))
	add(1, vsetUpdate(p4.Update_INSERT, types, []*p4.FieldMatch{exact(1, b16(0x88b5))}))

	ap := rigs[2]
	prof, sel := ap.profileID("I.ports_ap"), ap.profileID("I.spread_sel")
	setPort, steer := ap.id("I.set_port"), ap.id("I.steer")
	add(2, memberUpdate(p4.Update_INSERT, prof, 1, action(setPort, []byte{3}, []byte{11})),
		update(p4.Update_INSERT, &p4.TableEntry{TableId: ap.id("I.ports"),
			Match: []*p4.FieldMatch{exact(1, []byte{2, 0, 0, 0, 0, 0xa})}, Action: memberRef(1)}))
	add(2, memberUpdate(p4.Update_INSERT, sel, 11, action(steer, []byte{1})),
		memberUpdate(p4.Update_INSERT, sel, 12, action(steer, []byte{2})), groupOf(p4.Update_INSERT, sel, 100, 4, 11, 1, 12, 2),
		update(p4.Update_INSERT, &p4.TableEntry{TableId: ap.id("I.spread"), Match: []*p4.FieldMatch{exact(1, []byte{0x12, 0x34})},
			Action: groupRef(100)}))
	// A group over a member that does not exist, and a member missing a parameter.
	add(2, groupOf(p4.Update_INSERT, sel, 10, 4, 1, 1), memberUpdate(p4.Update_INSERT, prof, 2, action(setPort, []byte{3})))

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
		add(3, &p4.Update{Type: p4.Update_MODIFY, Entity: e})
	}
	add(3, &p4.Update{Type: p4.Update_INSERT, Entity: &p4.Entity{Entity: &p4.Entity_DigestEntry{DigestEntry: &p4.DigestEntry{
		DigestId: ex.externID("digest_t"), Config: &p4.DigestEntry_Config{MaxTimeoutNs: 1000, MaxListSize: 4}}}}})
	return seeds
}

// externID is the id of a counter, meter, register or digest of r's p4info.
func (r *rig) externID(name string) uint32 {
	return r.found("extern", name, idIn(r.info.Counters, name), idIn(r.info.Meters, name),
		idIn(r.info.Registers, name), idIn(r.info.Digests, name))
}

// writeInput is FuzzWrite's body: it decodes data as a WriteRequest, sends
// it with the device, election id and atomicity of the primary to
// rigs[program], checks the answer, puts back what it applied and checks
// that the state is the settled one again. It returns how many updates
// applied.
func writeInput(t testing.TB, rigs []*fuzzRig, program uint8, data []byte) int {
	t.Helper()
	req := &p4.WriteRequest{}
	if proto.Unmarshal(data, req) != nil {
		return 0
	}
	r := rigs[int(program)%len(rigs)]
	req.DeviceId, req.ElectionId, req.Role = deviceID, &p4.Uint128{Low: fuzzElection}, ""
	req.Atomicity = p4.WriteRequest_CONTINUE_ON_ERROR
	cells := namedCells(req.GetUpdates())
	before, cellsRead := r.readCells(t, cells)
	_, err := r.srv.Write(context.Background(), req)
	n := applied(t, len(req.GetUpdates()), err)
	if n == 0 {
		r.check(t, fmt.Sprintf("a write that applied nothing (%v)", err), cells, before)
		return 0
	}
	r.restore(t, cellsRead)
	r.check(t, "after putting back what a write applied", cells, before)
	return n
}

// FuzzWrite feeds arbitrary P4Runtime Write requests (as the wire bytes a
// client sends, with the device, election id and atomicity of the primary)
// to the server running each program: it never panics, answers in
// P4Runtime's error model, a Write whose every update failed changes
// nothing a Read can see, and whatever Read returns afterwards is accepted
// back as a DELETE (restore). Each input starts from the freshly pushed
// program: restore puts back what the input applied and check proves it.
// The fixture is built once per process; under go test (seeds and corpus),
// the cleanup compares every cell of every program with the fresh one.
func FuzzWrite(f *testing.F) {
	rigs := newFuzzRigs(f)
	for _, s := range writeSeeds(f, rigs) {
		f.Add(s.program, s.data)
	}
	if !fuzzing() {
		full := make([]string, len(rigs))
		for i, r := range rigs {
			full[i] = r.fullState(f)
		}
		f.Cleanup(func() {
			for i, r := range rigs {
				if r.fullState(f) != full[i] {
					f.Errorf("%s: after the seeds and corpus, what Read returns is not the fresh program's", fuzzPrograms[i])
				}
			}
		})
	}
	f.Fuzz(func(t *testing.T, program uint8, data []byte) {
		writeInput(t, rigs, program, data)
	})
}

// readRigs is FuzzRead's fixture: every fuzz program, and in the FlowBuf
// program a route and a multicast group, so that reads naming entries find
// some.
func readRigs(tb testing.TB) []*fuzzRig {
	rigs := newFuzzRigs(tb)
	fb := rigs[0]
	if _, err := fb.srv.Write(context.Background(), writeRequest(update(p4.Update_INSERT, fuzzRoute(fb)),
		groupUpdate(5, &p4.Replica{PortKind: &p4.Replica_EgressPort{EgressPort: 3}}))); err != nil {
		tb.Fatal(err)
	}
	fb.settle(tb)
	return rigs
}

func fuzzRoute(fb *fuzzRig) *p4.TableEntry {
	mac := []byte{2, 0, 0, 0, 0, 9}
	return &p4.TableEntry{TableId: fb.id(ctl.TableRoutingV4), Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 2, 0}, 24)},
		Action: action(fb.id(ctl.ActionRoute), b16(2), mac, mac)}
}

// readSeeds are every wildcard read of each program, and reads of the
// route and of a prefix too long for it.
func readSeeds(tb testing.TB, rigs []*fuzzRig) []fuzzSeed {
	var seeds []fuzzSeed
	add := func(program int, entities ...*p4.Entity) {
		b, err := proto.Marshal(&p4.ReadRequest{Entities: entities})
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, fuzzSeed{uint8(program), b})
	}
	for i := range rigs {
		for _, e := range everything {
			add(i, e)
		}
	}
	route := fuzzRoute(rigs[0])
	add(0, tableEntity(&p4.TableEntry{TableId: route.TableId, Match: route.Match}),
		tableEntity(&p4.TableEntry{TableId: route.TableId, Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 2, 0}, 33)}}))
	return seeds
}

// readInput is FuzzRead's body: it decodes data as a ReadRequest and reads
// it from rigs[program] (the first readCap entities), checks the answer,
// reads again and checks that the state is the settled one.
func readInput(t testing.TB, rigs []*fuzzRig, program uint8, data []byte) {
	t.Helper()
	req := &p4.ReadRequest{}
	if proto.Unmarshal(data, req) != nil {
		return
	}
	r := rigs[int(program)%len(rigs)]
	req.DeviceId = deviceID
	got, err := r.readFirst(req)
	if !errors.Is(err, errReadCap) && !readCodes[status.Code(err)] {
		t.Fatalf("read answered %v", err)
	}
	for _, e := range got {
		if e.GetEntity() == nil {
			t.Fatal("read returned an empty entity")
		}
	}
	again, err2 := r.readFirst(req)
	if keys(t, again, err2) != keys(t, got, err) {
		t.Fatalf("reading twice answered differently: %v, then %v", err, err2)
	}
	r.check(t, "a read", nil, "")
}

// FuzzRead feeds arbitrary Read requests to the server running each
// program, after a few writes so that reads naming entries find some: it
// never panics, answers with a code of the model (or, past the first
// ReadResponse, which the stream refuses, with the stream's error), a
// second read answers the same, and nothing a Read can see changed.
func FuzzRead(f *testing.F) {
	rigs := readRigs(f)
	for _, s := range readSeeds(f, rigs) {
		f.Add(s.program, s.data)
	}
	f.Fuzz(func(t *testing.T, program uint8, data []byte) {
		readInput(t, rigs, program, data)
	})
}

// BenchmarkFuzzWriteSeeds is the time FuzzWrite takes per seed input,
// the fixture built once (as in a fuzz worker).
func BenchmarkFuzzWriteSeeds(b *testing.B) {
	rigs := newFuzzRigs(b)
	benchmarkSeeds(b, writeSeeds(b, rigs), func(tb testing.TB, program uint8, data []byte) {
		writeInput(tb, rigs, program, data)
	})
}

// BenchmarkFuzzReadSeeds is the same for FuzzRead.
func BenchmarkFuzzReadSeeds(b *testing.B) {
	rigs := readRigs(b)
	benchmarkSeeds(b, readSeeds(b, rigs), func(tb testing.TB, program uint8, data []byte) {
		readInput(tb, rigs, program, data)
	})
}

// benchmarkSeeds runs every seed per iteration and reports the time an input.
func benchmarkSeeds(b *testing.B, seeds []fuzzSeed, input func(testing.TB, uint8, []byte)) {
	b.ResetTimer()
	for b.Loop() {
		for _, s := range seeds {
			input(b, s.program, s.data)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(seeds)), "ns/input")
}
