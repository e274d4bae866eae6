// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
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

// fuzzRig is one program's fixture for the fuzz targets. It is built once
// per process (each fuzz worker builds its own): the server with the
// program pushed and a primary client. Every input starts from the state
// settle recorded; after an input, restore puts back only what a Write can
// have changed, and check proves the state is the recorded one again. The
// FlowBuf program's indirect counters, meters and registers (about 740,000
// cells; reading them all takes about 0.4 s) are not read whole per input:
// check reads the cells the input names, and the go test run of the seeds
// and corpus compares every cell at the end (FuzzWrite's cleanup).
type fuzzRig struct {
	*rig
	fresh      [][]*p4.Entity    // per held kind, what its read answered when settled
	freshKeys  []map[string]bool // the same, as keys
	freshState []string          // state() when settled
}

// newFuzzRigs runs every fuzz program, pushed, with a primary client.
func newFuzzRigs(tb testing.TB) []*fuzzRig {
	var rigs []*fuzzRig
	for _, name := range fuzzPrograms {
		var r *rig
		if name == "flowbuf" {
			r = newRig(tb)
			r.stream(fuzzElection)
			if err := r.push(fuzzElection, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
				tb.Fatal(err)
			}
		} else {
			r = newTestProgramRig(tb, name)
		}
		fr := &fuzzRig{rig: r}
		fr.settle(tb)
		rigs = append(rigs, fr)
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

// errReadCap is what a capped read's stream answers once it holds
// readCap entities; the server must stop and return it.
var errReadCap = errors.New("read capped")

// readCap is one ReadResponse's worth of entities (the server's batch): a
// wildcard read of the FlowBuf program's registers would otherwise build
// 474,627 entities per input, each from the same code as the first.
const readCap = 1000

// readAll collects a Read's entities, calling the server directly.
func (r *rig) readAll(req *p4.ReadRequest) ([]*p4.Entity, error) {
	s := &readStream{}
	err := r.srv.Read(req, s)
	return s.entities, err
}

// readFirst is readAll stopping after the first readCap entities (then
// with errReadCap).
func (r *rig) readFirst(req *p4.ReadRequest) ([]*p4.Entity, error) {
	s := &readStream{limit: readCap}
	err := r.srv.Read(req, s)
	return s.entities, err
}

type readStream struct {
	grpc.ServerStream
	entities []*p4.Entity
	limit    int // 0: no limit
}

func (s *readStream) Send(resp *p4.ReadResponse) error {
	s.entities = append(s.entities, resp.GetEntities()...)
	if s.limit > 0 && len(s.entities) >= s.limit {
		return errReadCap
	}
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

// restoreHow is how restore puts a held kind back.
type restoreHow int

const (
	// deleteExtra: DELETE what the settled state did not have, exactly as
	// Read returned it (what the server reports must be accepted back),
	// and INSERT again what it had and lost.
	deleteExtra restoreHow = iota
	// modifyBack: MODIFY back what differs (one entity per id that no
	// update deletes: default actions, value sets).
	modifyBack
	// directBack: MODIFY back the direct counters and meters of entries.
	directBack
)

// heldKinds are the wildcard reads of everything a client can see except
// the indirect counters, meters and registers, with how restore puts each
// back. deleteExtra kinds are in the order restore deletes them: entries
// before the groups and members they use, groups before their members.
var heldKinds = []struct {
	name string
	read *p4.Entity
	how  restoreHow
}{
	{"table entries", everything[0], deleteExtra},
	{"action profile groups", everything[11], deleteExtra},
	{"action profile members", everything[10], deleteExtra},
	{"multicast groups", everything[3], deleteExtra},
	{"clone sessions", everything[4], deleteExtra},
	{"digests", everything[8], deleteExtra},
	{"default actions", everything[1], modifyBack},
	{"value sets", everything[9], modifyBack},
	{"direct counters and meters", everything[2], directBack},
}

func key(t testing.TB, x proto.Message) string {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// keys is what a read answered, in an order that does not depend on the
// server's: its status and its entities' wire bytes, sorted.
func keys(t testing.TB, got []*p4.Entity, err error) string {
	ks := make([]string, len(got))
	for i, x := range got {
		ks[i] = key(t, x)
	}
	slices.Sort(ks)
	var b bytes.Buffer
	code := status.Code(err).String()
	if errors.Is(err, errReadCap) {
		code = "capped"
	}
	fmt.Fprintf(&b, "%s %d;", code, len(ks))
	for _, k := range ks {
		fmt.Fprintf(&b, "%d:%s", len(k), k)
	}
	return b.String()
}

// state is what every held kind's read answers, one string per kind.
func (r *fuzzRig) state(t testing.TB) []string {
	out := make([]string, len(heldKinds))
	for i, k := range heldKinds {
		got, err := r.readAll(&p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{k.read}})
		out[i] = keys(t, got, err)
	}
	return out
}

// settle records the current state as the one every input starts from.
func (r *fuzzRig) settle(t testing.TB) {
	r.fresh = make([][]*p4.Entity, len(heldKinds))
	r.freshKeys = make([]map[string]bool, len(heldKinds))
	for i, k := range heldKinds {
		got, err := r.readAll(&p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{k.read}})
		if err != nil {
			t.Fatalf("reading %s: %v", k.name, err)
		}
		r.fresh[i], r.freshKeys[i] = got, map[string]bool{}
		for _, x := range got {
			r.freshKeys[i][key(t, x)] = true
		}
	}
	r.freshState = r.state(t)
}

// namedCells are reads of the indirect counter, meter and register cells
// updates name with an id and an index: all a Write can change of them.
func namedCells(updates []*p4.Update) []*p4.Entity {
	var cells []*p4.Entity
	for _, u := range updates {
		switch e := u.GetEntity().GetEntity().(type) {
		case *p4.Entity_CounterEntry:
			if c := e.CounterEntry; c.GetCounterId() != 0 && c.GetIndex() != nil {
				cells = append(cells, &p4.Entity{Entity: &p4.Entity_CounterEntry{CounterEntry: &p4.CounterEntry{
					CounterId: c.GetCounterId(), Index: &p4.Index{Index: c.GetIndex().GetIndex()}}}})
			}
		case *p4.Entity_MeterEntry:
			if m := e.MeterEntry; m.GetMeterId() != 0 && m.GetIndex() != nil {
				cells = append(cells, &p4.Entity{Entity: &p4.Entity_MeterEntry{MeterEntry: &p4.MeterEntry{
					MeterId: m.GetMeterId(), Index: &p4.Index{Index: m.GetIndex().GetIndex()}}}})
			}
		case *p4.Entity_RegisterEntry:
			if g := e.RegisterEntry; g.GetRegisterId() != 0 && g.GetIndex() != nil {
				cells = append(cells, &p4.Entity{Entity: &p4.Entity_RegisterEntry{RegisterEntry: &p4.RegisterEntry{
					RegisterId: g.GetRegisterId(), Index: &p4.Index{Index: g.GetIndex().GetIndex()}}}})
			}
		}
	}
	return cells
}

// readCells reads each of cells: what each answered, and the cells read.
func (r *fuzzRig) readCells(t testing.TB, cells []*p4.Entity) (string, []*p4.Entity) {
	var b bytes.Buffer
	var read []*p4.Entity
	for _, c := range cells {
		got, err := r.readFirst(&p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{c}})
		b.WriteString(keys(t, got, err))
		if err == nil {
			read = append(read, got...)
		}
	}
	return b.String(), read
}

// restore puts back what a Write can have changed: the held kinds as
// settled, and cells as read before the Write.
func (r *fuzzRig) restore(t testing.TB, cells []*p4.Entity) {
	t.Helper()
	write := func(what string, updates []*p4.Update) {
		t.Helper()
		if len(updates) == 0 {
			return
		}
		if _, err := r.srv.Write(context.Background(), writeRequest(updates...)); err != nil {
			t.Fatalf("%s: %v\n%v", what, err, updates)
		}
	}
	inserts := make([][]*p4.Update, len(heldKinds))
	for i, k := range heldKinds {
		if k.how != deleteExtra {
			continue
		}
		got, err := r.readAll(&p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{k.read}})
		if err != nil {
			t.Fatalf("reading %s: %v", k.name, err)
		}
		seen := map[string]bool{}
		var dels []*p4.Update
		for _, x := range got {
			kx := key(t, x)
			seen[kx] = true
			if !r.freshKeys[i][kx] {
				dels = append(dels, &p4.Update{Type: p4.Update_DELETE, Entity: x})
			}
		}
		write("deleting "+k.name+" as Read returned them", dels)
		for _, x := range r.fresh[i] {
			if !seen[key(t, x)] {
				inserts[i] = append(inserts[i], &p4.Update{Type: p4.Update_INSERT, Entity: x})
			}
		}
	}
	for i := len(heldKinds) - 1; i >= 0; i-- {
		write("inserting "+heldKinds[i].name+" back", inserts[i])
	}
	for i, k := range heldKinds {
		if k.how == deleteExtra {
			continue
		}
		got, err := r.readAll(&p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{k.read}})
		if err != nil {
			t.Fatalf("reading %s: %v", k.name, err)
		}
		seen := map[string]bool{}
		for _, x := range got {
			seen[key(t, x)] = true
		}
		var mods []*p4.Update
		for _, x := range r.fresh[i] {
			if seen[key(t, x)] {
				continue
			}
			if k.how == modifyBack {
				mods = append(mods, &p4.Update{Type: p4.Update_MODIFY, Entity: x})
				continue
			}
			te := proto.Clone(x.GetTableEntry()).(*p4.TableEntry)
			data, cfg := te.CounterData, te.MeterConfig
			te.CounterData, te.MeterConfig = nil, nil
			if data != nil {
				mods = append(mods, &p4.Update{Type: p4.Update_MODIFY, Entity: &p4.Entity{Entity: &p4.Entity_DirectCounterEntry{
					DirectCounterEntry: &p4.DirectCounterEntry{TableEntry: te, Data: data}}}})
			}
			if cfg != nil {
				mods = append(mods, &p4.Update{Type: p4.Update_MODIFY, Entity: &p4.Entity{Entity: &p4.Entity_DirectMeterEntry{
					DirectMeterEntry: &p4.DirectMeterEntry{TableEntry: te, Config: cfg}}}})
			}
		}
		write("modifying "+k.name+" back", mods)
	}
	var back []*p4.Update
	for _, c := range cells {
		back = append(back, &p4.Update{Type: p4.Update_MODIFY, Entity: c})
	}
	write("writing cells back as Read returned them", back)
}

// differs says what differs from the settled state, or what of cells
// reads otherwise than before; "" when nothing does.
func (r *fuzzRig) differs(t testing.TB, cells []*p4.Entity, before string) string {
	now := r.state(t)
	for i := range heldKinds {
		if now[i] != r.freshState[i] {
			return heldKinds[i].name + " differ from the settled state"
		}
	}
	if after, _ := r.readCells(t, cells); after != before {
		return "the counter, meter or register cells it names changed"
	}
	return ""
}

// check fails t unless the state is the settled one and cells read as
// before.
func (r *fuzzRig) check(t testing.TB, what string, cells []*p4.Entity, before string) {
	t.Helper()
	if d := r.differs(t, cells, before); d != "" {
		t.Fatalf("%s: %s", what, d)
	}
}

// fullState is what every wildcard read answers, every cell of every
// indirect counter, meter and register included (about 0.5 s for the
// FlowBuf program).
func (r *fuzzRig) fullState(t testing.TB) string {
	var b strings.Builder
	for _, e := range everything {
		got, err := r.readAll(&p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{e}})
		b.WriteString(keys(t, got, err))
	}
	return b.String()
}

// fuzzing tells whether go test runs with -fuzz (then the seeds and the
// corpus are a worker's baseline, and the expensive cleanup checks are
// skipped).
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
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
	seeds := writeSeeds(b, rigs)
	b.ResetTimer()
	for b.Loop() {
		for _, s := range seeds {
			writeInput(b, rigs, s.program, s.data)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(seeds)), "ns/input")
}

// BenchmarkFuzzReadSeeds is the same for FuzzRead.
func BenchmarkFuzzReadSeeds(b *testing.B) {
	rigs := readRigs(b)
	seeds := readSeeds(b, rigs)
	b.ResetTimer()
	for b.Loop() {
		for _, s := range seeds {
			readInput(b, rigs, s.program, s.data)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(seeds)), "ns/input")
}

// TestFuzzWriteFixtureReset proves FuzzWrite's reset: for a write of each
// kind restore puts back, the write applies (so it changed the state),
// differs sees the change, restore puts everything back (every cell of
// every program compared at the end) and the next input does not see the
// previous one's entries.
func TestFuzzWriteFixtureReset(t *testing.T) {
	rigs := newFuzzRigs(t)
	full := make([]string, len(rigs))
	for i, r := range rigs {
		full[i] = r.fullState(t)
	}
	fb, vs, ap, ex := rigs[0], rigs[1], rigs[2], rigs[3]
	route := fuzzRoute(fb)
	switchID := &p4.TableEntry{TableId: fb.id("IngressPipeImpl.cc_ingress.cc_switch"), IsDefaultAction: true,
		Action: action(fb.id("IngressPipeImpl.cc_ingress.set_switch_id"), b16(77), []byte{1})}
	prof, sel := ap.profileID("I.ports_ap"), ap.profileID("I.spread_sel")
	cell := func(kind string, index int64, v uint64) *p4.Update {
		id := ex.externID(kind)
		var e *p4.Entity
		switch kind {
		case "I.ctr":
			e = &p4.Entity{Entity: &p4.Entity_CounterEntry{CounterEntry: &p4.CounterEntry{CounterId: id, Index: &p4.Index{Index: index},
				Data: &p4.CounterData{PacketCount: int64(v), ByteCount: int64(v) * 100}}}}
		case "I.mtr":
			e = &p4.Entity{Entity: &p4.Entity_MeterEntry{MeterEntry: &p4.MeterEntry{MeterId: id, Index: &p4.Index{Index: index},
				Config: &p4.MeterConfig{Cir: int64(v), Cburst: 100, Pir: 2 * int64(v), Pburst: 200}}}}
		default:
			e = &p4.Entity{Entity: &p4.Entity_RegisterEntry{RegisterEntry: &p4.RegisterEntry{RegisterId: id, Index: &p4.Index{Index: index},
				Data: &p4.P4Data{Data: &p4.P4Data_Bitstring{Bitstring: []byte{byte(v >> 8), byte(v)}}}}}}
		}
		return &p4.Update{Type: p4.Update_MODIFY, Entity: e}
	}
	cases := []struct {
		name    string
		r       *fuzzRig
		updates []*p4.Update
	}{
		{"a route", fb, []*p4.Update{update(p4.Update_INSERT, route)}},
		{"a default action", fb, []*p4.Update{update(p4.Update_MODIFY, switchID)}},
		{"a multicast group", fb, []*p4.Update{groupUpdate(5, &p4.Replica{PortKind: &p4.Replica_EgressPort{EgressPort: 3}})}},
		{"a value set", vs, []*p4.Update{vsetUpdate(p4.Update_MODIFY, vs.valueSetID("P.tag_types"), []*p4.FieldMatch{exact(1, b16(0x88b5))})}},
		{"members, a group and entries using them", ap, []*p4.Update{
			memberUpdate(p4.Update_INSERT, prof, 1, action(ap.id("I.set_port"), []byte{3}, []byte{11})),
			update(p4.Update_INSERT, &p4.TableEntry{TableId: ap.id("I.ports"), Match: []*p4.FieldMatch{exact(1, []byte{2, 0, 0, 0, 0, 0xa})}, Action: memberRef(1)}),
			memberUpdate(p4.Update_INSERT, sel, 11, action(ap.id("I.steer"), []byte{1})), groupOf(p4.Update_INSERT, sel, 100, 4, 11, 1),
			update(p4.Update_INSERT, &p4.TableEntry{TableId: ap.id("I.spread"), Match: []*p4.FieldMatch{exact(1, []byte{0x12, 0x34})}, Action: groupRef(100)})}},
		{"counter, meter and register cells", ex, []*p4.Update{cell("I.ctr", 3, 7), cell("I.mtr", 1, 1000), cell("I.reg", 15, 0x1234), cell("I.reg", 0, 1)}},
		{"a digest", ex, []*p4.Update{{Type: p4.Update_INSERT, Entity: &p4.Entity{Entity: &p4.Entity_DigestEntry{DigestEntry: &p4.DigestEntry{
			DigestId: ex.externID("digest_t"), Config: &p4.DigestEntry_Config{MaxTimeoutNs: 1000, MaxListSize: 4}}}}}}},
	}
	for _, c := range cases {
		i := slices.Index(rigs, c.r)
		cells := namedCells(c.updates)
		before, read := c.r.readCells(t, cells)
		if _, err := c.r.srv.Write(context.Background(), writeRequest(c.updates...)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if d := c.r.differs(t, cells, before); d == "" {
			t.Fatalf("%s: written, yet differs sees no change", c.name)
		}
		if c.r.fullState(t) == full[i] {
			t.Fatalf("%s: written, yet every read answers as before", c.name)
		}
		c.r.restore(t, read)
		c.r.check(t, c.name+" put back", cells, before)
		// The same write as two fuzz inputs in a row: both apply every
		// update (the second does not find the first's entries).
		data, err := proto.Marshal(&p4.WriteRequest{Updates: c.updates})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if n := writeInput(t, rigs, uint8(i), data); n != len(c.updates) {
				t.Fatalf("%s as a fuzz input: %d of %d updates applied", c.name, n, len(c.updates))
			}
		}
		if _, err := c.r.srv.Write(context.Background(), writeRequest(c.updates...)); err != nil {
			t.Fatalf("%s after two inputs wrote it: %v", c.name, err)
		}
		c.r.restore(t, read)
	}
	for _, s := range writeSeeds(t, rigs) {
		writeInput(t, rigs, s.program, s.data)
	}
	for i, r := range rigs {
		if r.fullState(t) != full[i] {
			t.Errorf("%s: after the cases and the seeds, what Read returns is not the fresh program's", fuzzPrograms[i])
		}
	}
}
