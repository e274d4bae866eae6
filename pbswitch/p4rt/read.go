// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"iter"
	"slices"
	"time"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

func nanos(n int64) time.Duration { return time.Duration(n) }

// readBatch bounds the entities per ReadResponse.
const readBatch = 1000

// Read implements P4Runtime, with wildcards: table id 0 reads every table,
// an entry without match reads every entry of its table, id 0 reads every
// counter/meter/register/group/session, an unset index every cell.
func (s *Server) Read(req *p4.ReadRequest, stream p4.P4Runtime_ReadServer) error {
	if err := s.checkDevice(req.GetDeviceId()); err != nil {
		return err
	}
	objs, err := s.objects()
	if err != nil {
		return err
	}
	var out []*p4.Entity
	flush := func() error {
		if len(out) == 0 {
			return nil
		}
		err := stream.Send(&p4.ReadResponse{Entities: out})
		out = nil
		return err
	}
	emit := func(e *p4.Entity) error {
		out = append(out, e)
		if len(out) >= readBatch {
			return flush()
		}
		return nil
	}
	for _, ent := range req.GetEntities() {
		if err := readEntity(objs, ent, emit); err != nil {
			return err
		}
	}
	return flush()
}

func readEntity(objs *pipeline.Objects, ent *p4.Entity, emit func(*p4.Entity) error) error {
	switch e := ent.GetEntity().(type) {
	case *p4.Entity_TableEntry:
		return readTables(objs, e.TableEntry, emit)
	case *p4.Entity_PacketReplicationEngineEntry:
		return readPRE(objs.PRE, e.PacketReplicationEngineEntry, emit)
	case *p4.Entity_CounterEntry:
		return readCounters(objs, e.CounterEntry, emit)
	case *p4.Entity_DirectCounterEntry:
		return readDirectCounters(objs, e.DirectCounterEntry, emit)
	case *p4.Entity_MeterEntry:
		return readMeters(objs, e.MeterEntry, emit)
	case *p4.Entity_RegisterEntry:
		return readRegisters(objs, e.RegisterEntry, emit)
	case *p4.Entity_DigestEntry:
		return readDigests(objs, e.DigestEntry, emit)
	case *p4.Entity_ValueSetEntry:
		return readValueSets(objs, e.ValueSetEntry, emit)
	case *p4.Entity_ActionProfileMember:
		return readProfileMembers(objs, e.ActionProfileMember, emit)
	case *p4.Entity_ActionProfileGroup:
		return readProfileGroups(objs, e.ActionProfileGroup, emit)
	default:
		return status.Errorf(codes.Unimplemented, "reading %T is not supported", e)
	}
}

func tablesFor(objs *pipeline.Objects, id uint32) ([]*pipeline.Table, error) {
	if id == 0 {
		var all []*pipeline.Table
		for _, tid := range objs.TableIDs() {
			all = append(all, objs.Tables[tid])
		}
		return all, nil
	}
	tb, ok := objs.Tables[id]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "table id %d is not in the p4info", id)
	}
	return []*pipeline.Table{tb}, nil
}

func readTables(objs *pipeline.Objects, te *p4.TableEntry, emit func(*p4.Entity) error) error {
	tables, err := tablesFor(objs, te.GetTableId())
	if err != nil {
		return err
	}
	withCounter, withMeter := te.GetCounterData() != nil, te.GetMeterConfig() != nil
	for _, tb := range tables {
		if te.GetIsDefaultAction() {
			d := &p4.TableEntry{TableId: tb.ID, IsDefaultAction: true,
				Action: &p4.TableAction{Type: &p4.TableAction_Action{Action: fromAction(objs, tb.Default())}}}
			if err := emit(&p4.Entity{Entity: &p4.Entity_TableEntry{TableEntry: d}}); err != nil {
				return err
			}
			continue
		}
		entries, err := selectEntries(objs, tb, te)
		if err != nil {
			return err
		}
		for _, e := range entries {
			out := fromEntry(objs, tb, e, withCounter, withMeter)
			if err := emit(&p4.Entity{Entity: &p4.Entity_TableEntry{TableEntry: out}}); err != nil {
				return err
			}
		}
	}
	return nil
}

// selectEntries is every entry of tb, or the one te's match names.
func selectEntries(objs *pipeline.Objects, tb *pipeline.Table, te *p4.TableEntry) ([]*pipeline.Entry, error) {
	if te.GetTableId() == 0 || (len(te.GetMatch()) == 0 && te.GetPriority() == 0) {
		return tb.Entries(), nil
	}
	_, want, err := toEntry(objs, te, false)
	if err != nil {
		return nil, err
	}
	if e := tb.Find(want); e != nil {
		return []*pipeline.Entry{e}, nil
	}
	return nil, nil
}

func p4Replicas(rs []pipeline.Replica) []*p4.Replica {
	out := make([]*p4.Replica, 0, len(rs))
	for _, r := range rs {
		out = append(out, &p4.Replica{PortKind: &p4.Replica_EgressPort{EgressPort: r.Port}, Instance: r.Instance})
	}
	return out
}

func readPRE(pre *pipeline.PRE, e *p4.PacketReplicationEngineEntry, emit func(*p4.Entity) error) error {
	wrap := func(x *p4.PacketReplicationEngineEntry) *p4.Entity {
		return &p4.Entity{Entity: &p4.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: x}}
	}
	if g := e.GetMulticastGroupEntry(); g != nil {
		ids := pre.GroupIDs()
		if g.GetMulticastGroupId() != 0 {
			ids = []uint32{g.GetMulticastGroupId()}
		}
		for _, id := range ids {
			rs, ok := pre.Group(id)
			if !ok {
				continue
			}
			x := &p4.PacketReplicationEngineEntry{Type: &p4.PacketReplicationEngineEntry_MulticastGroupEntry{
				MulticastGroupEntry: &p4.MulticastGroupEntry{MulticastGroupId: id, Replicas: p4Replicas(rs)}}}
			if err := emit(wrap(x)); err != nil {
				return err
			}
		}
		return nil
	}
	c := e.GetCloneSessionEntry()
	ids := pre.CloneIDs()
	if c.GetSessionId() != 0 {
		ids = []uint32{c.GetSessionId()}
	}
	for _, id := range ids {
		s, ok := pre.Clone(id)
		if !ok {
			continue
		}
		x := &p4.PacketReplicationEngineEntry{Type: &p4.PacketReplicationEngineEntry_CloneSessionEntry{
			CloneSessionEntry: &p4.CloneSessionEntry{SessionId: id, Replicas: p4Replicas(s.Replicas),
				ClassOfService: s.ClassOfSvc, PacketLengthBytes: s.TruncateTo}}}
		if err := emit(wrap(x)); err != nil {
			return err
		}
	}
	return nil
}

// indexes yields the cells a read names: the one index it gives, or every
// cell of the array, one at a time (a register array of FlowBuf's program
// holds hundreds of thousands; a client may stop after the first response).
func indexes(idx *p4.Index, size int) iter.Seq[int64] {
	return func(yield func(int64) bool) {
		if idx != nil {
			yield(idx.GetIndex())
			return
		}
		for i := int64(0); i < int64(size); i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func readCounters(objs *pipeline.Objects, ce *p4.CounterEntry, emit func(*p4.Entity) error) error {
	ids := sortedIDs(objs.Counters)
	if ce.GetCounterId() != 0 {
		if _, ok := objs.Counters[ce.GetCounterId()]; !ok {
			return status.Errorf(codes.NotFound, "counter id %d is not in the p4info", ce.GetCounterId())
		}
		ids = []uint32{ce.GetCounterId()}
	}
	for _, id := range ids {
		c := objs.Counters[id]
		for i := range indexes(ce.GetIndex(), c.Size()) {
			cell, err := c.Cell(i)
			if err != nil {
				return err
			}
			p, b := cell.Read()
			x := &p4.CounterEntry{CounterId: id, Index: &p4.Index{Index: i}, Data: &p4.CounterData{PacketCount: int64(p), ByteCount: int64(b)}}
			if err := emit(&p4.Entity{Entity: &p4.Entity_CounterEntry{CounterEntry: x}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func readDirectCounters(objs *pipeline.Objects, dc *p4.DirectCounterEntry, emit func(*p4.Entity) error) error {
	te := dc.GetTableEntry()
	tables, err := tablesFor(objs, te.GetTableId())
	if err != nil {
		return err
	}
	for _, tb := range tables {
		entries, err := selectEntries(objs, tb, te)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p, b := e.Counter.Read()
			x := &p4.DirectCounterEntry{TableEntry: fromEntry(objs, tb, e, false, false),
				Data: &p4.CounterData{PacketCount: int64(p), ByteCount: int64(b)}}
			if err := emit(&p4.Entity{Entity: &p4.Entity_DirectCounterEntry{DirectCounterEntry: x}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func readMeters(objs *pipeline.Objects, me *p4.MeterEntry, emit func(*p4.Entity) error) error {
	ids := sortedIDs(objs.Meters)
	if me.GetMeterId() != 0 {
		if _, ok := objs.Meters[me.GetMeterId()]; !ok {
			return status.Errorf(codes.NotFound, "meter id %d is not in the p4info", me.GetMeterId())
		}
		ids = []uint32{me.GetMeterId()}
	}
	for _, id := range ids {
		m := objs.Meters[id]
		for i := range indexes(me.GetIndex(), m.Size()) {
			cell, err := m.Cell(i)
			if err != nil {
				return err
			}
			x := &p4.MeterEntry{MeterId: id, Index: &p4.Index{Index: i}}
			if cfg, ok := cell.Config(); ok {
				x.Config = toP4MeterConfig(cfg)
			}
			if err := emit(&p4.Entity{Entity: &p4.Entity_MeterEntry{MeterEntry: x}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func readRegisters(objs *pipeline.Objects, re *p4.RegisterEntry, emit func(*p4.Entity) error) error {
	ids := sortedIDs(objs.Registers)
	if re.GetRegisterId() != 0 {
		if _, ok := objs.Registers[re.GetRegisterId()]; !ok {
			return status.Errorf(codes.NotFound, "register id %d is not in the p4info", re.GetRegisterId())
		}
		ids = []uint32{re.GetRegisterId()}
	}
	for _, id := range ids {
		r := objs.Registers[id]
		for i := range indexes(re.GetIndex(), r.Size()) {
			v, err := r.Read(i)
			if err != nil {
				return err
			}
			x := &p4.RegisterEntry{RegisterId: id, Index: &p4.Index{Index: i},
				Data: &p4.P4Data{Data: &p4.P4Data_Bitstring{Bitstring: pipeline.Canonical(v)}}}
			if err := emit(&p4.Entity{Entity: &p4.Entity_RegisterEntry{RegisterEntry: x}}); err != nil {
				return err
			}
		}
	}
	return nil
}

func readDigests(objs *pipeline.Objects, de *p4.DigestEntry, emit func(*p4.Entity) error) error {
	ids := sortedIDs(objs.Digests)
	if de.GetDigestId() != 0 {
		ids = []uint32{de.GetDigestId()}
	}
	for _, id := range ids {
		d, ok := objs.Digests[id]
		if !ok {
			return status.Errorf(codes.NotFound, "digest id %d is not in the p4info", id)
		}
		cfg, configured := d.Config()
		if !configured {
			continue
		}
		x := &p4.DigestEntry{DigestId: id, Config: &p4.DigestEntry_Config{MaxTimeoutNs: int64(cfg.MaxTimeout),
			MaxListSize: int32(cfg.MaxListSize), AckTimeoutNs: int64(cfg.AckTimeout)}}
		if err := emit(&p4.Entity{Entity: &p4.Entity_DigestEntry{DigestEntry: x}}); err != nil {
			return err
		}
	}
	return nil
}

func sortedIDs[V any](m map[uint32]V) []uint32 {
	out := make([]uint32, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// readValueSets returns every value set (id 0) or the one named, with its
// members as written.
func readValueSets(objs *pipeline.Objects, ve *p4.ValueSetEntry, emit func(*p4.Entity) error) error {
	if len(ve.GetMembers()) > 0 {
		return invalid("a value set read takes no members")
	}
	ids := sortedIDs(objs.ValueSets)
	if ve.GetValueSetId() != 0 {
		if _, ok := objs.ValueSets[ve.GetValueSetId()]; !ok {
			return status.Errorf(codes.NotFound, "value set id %d is not in the p4info", ve.GetValueSetId())
		}
		ids = []uint32{ve.GetValueSetId()}
	}
	for _, id := range ids {
		vs := objs.ValueSets[id]
		x := &p4.ValueSetEntry{ValueSetId: id}
		for _, m := range vs.Members() {
			x.Members = append(x.Members, &p4.ValueSetMember{Match: fromMatch(vs.Fields, m)})
		}
		if err := emit(&p4.Entity{Entity: &p4.Entity_ValueSetEntry{ValueSetEntry: x}}); err != nil {
			return err
		}
	}
	return nil
}

// profilesFor is every action profile (id 0) or the one named.
func profilesFor(objs *pipeline.Objects, id uint32) ([]*pipeline.ActionProfile, error) {
	if id != 0 {
		p, err := profileOf(objs, id)
		if err != nil {
			return nil, err
		}
		return []*pipeline.ActionProfile{p}, nil
	}
	var out []*pipeline.ActionProfile
	for _, pid := range sortedIDs(objs.ActionProfiles) {
		out = append(out, objs.ActionProfiles[pid])
	}
	return out, nil
}

// readProfileMembers returns every member of the profiles named (member id
// 0: all of them), or the one member named.
func readProfileMembers(objs *pipeline.Objects, m *p4.ActionProfileMember, emit func(*p4.Entity) error) error {
	profiles, err := profilesFor(objs, m.GetActionProfileId())
	if err != nil {
		return err
	}
	for _, p := range profiles {
		ids := p.MemberIDs()
		if m.GetMemberId() != 0 {
			ids = []uint32{m.GetMemberId()}
		}
		for _, id := range ids {
			a, ok := p.Member(id)
			if !ok {
				continue
			}
			x := &p4.ActionProfileMember{ActionProfileId: p.ID, MemberId: id, Action: fromAction(objs, a)}
			if err := emit(&p4.Entity{Entity: &p4.Entity_ActionProfileMember{ActionProfileMember: x}}); err != nil {
				return err
			}
		}
	}
	return nil
}

// readProfileGroups returns every group of the profiles named (group id 0:
// all of them), or the one group named.
func readProfileGroups(objs *pipeline.Objects, g *p4.ActionProfileGroup, emit func(*p4.Entity) error) error {
	profiles, err := profilesFor(objs, g.GetActionProfileId())
	if err != nil {
		return err
	}
	for _, p := range profiles {
		ids := p.GroupIDs()
		if g.GetGroupId() != 0 {
			ids = []uint32{g.GetGroupId()}
		}
		for _, id := range ids {
			maxSize, members, ok := p.GroupInfo(id)
			if !ok {
				continue
			}
			x := &p4.ActionProfileGroup{ActionProfileId: p.ID, GroupId: id, MaxSize: int32(maxSize)}
			for _, gm := range members {
				x.Members = append(x.Members, &p4.ActionProfileGroup_Member{MemberId: gm.ID, Weight: gm.Weight})
			}
			if err := emit(&p4.Entity{Entity: &p4.Entity_ActionProfileGroup{ActionProfileGroup: x}}); err != nil {
				return err
			}
		}
	}
	return nil
}
