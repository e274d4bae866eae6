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
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

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
