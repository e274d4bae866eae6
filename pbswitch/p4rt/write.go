// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"context"
	"fmt"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// Write implements P4Runtime. Updates apply in order (CONTINUE_ON_ERROR);
// when any fails the RPC returns UNKNOWN whose details hold one p4.v1.Error
// per update (OK for those that applied), as the spec prescribes.
func (s *Server) Write(_ context.Context, req *p4.WriteRequest) (*p4.WriteResponse, error) {
	if err := s.checkDevice(req.GetDeviceId()); err != nil {
		return nil, err
	}
	if err := s.arb.checkPrimary(req.GetRole(), req.GetElectionId()); err != nil {
		return nil, err
	}
	if req.GetAtomicity() != p4.WriteRequest_CONTINUE_ON_ERROR {
		return nil, status.Errorf(codes.Unimplemented, "atomicity %v is not supported; use CONTINUE_ON_ERROR", req.GetAtomicity())
	}
	objs, err := s.objects()
	if err != nil {
		return nil, err
	}
	errs := make([]error, len(req.GetUpdates()))
	failed := 0
	var exact exactWriter // its buffers serve every update of the Write
	for i, u := range req.GetUpdates() {
		if errs[i] = applyUpdate(objs, &exact, u); errs[i] != nil {
			failed++
		}
	}
	if failed == 0 {
		return &p4.WriteResponse{}, nil
	}
	return nil, batchError(errs, failed)
}

func batchError(errs []error, failed int) error {
	st := status.New(codes.Unknown, fmt.Sprintf("%d of %d updates failed", failed, len(errs)))
	details := make([]*anypb.Any, 0, len(errs))
	for _, e := range errs {
		pe := &p4.Error{CanonicalCode: int32(codes.OK)}
		if e != nil {
			se := status.Convert(e)
			pe.CanonicalCode, pe.Message = int32(se.Code()), se.Message()
		}
		a, err := anypb.New(pe)
		if err != nil {
			return status.Errorf(codes.Internal, "encoding per-update errors: %v", err)
		}
		details = append(details, a)
	}
	p := st.Proto()
	p.Details = details
	return status.ErrorProto(p)
}

func applyUpdate(objs *pipeline.Objects, exact *exactWriter, u *p4.Update) error {
	if u.GetType() == p4.Update_UNSPECIFIED {
		return invalid("update type UNSPECIFIED")
	}
	switch e := u.GetEntity().GetEntity().(type) {
	case *p4.Entity_TableEntry:
		if handled, err := exact.write(objs, u.GetType(), e.TableEntry); handled {
			return err
		}
		return writeTableEntry(objs, u.GetType(), e.TableEntry)
	case *p4.Entity_PacketReplicationEngineEntry:
		return writePRE(objs.PRE, u.GetType(), e.PacketReplicationEngineEntry)
	case *p4.Entity_CounterEntry:
		return writeCounter(objs, u.GetType(), e.CounterEntry)
	case *p4.Entity_DirectCounterEntry:
		return writeDirectCounter(objs, u.GetType(), e.DirectCounterEntry)
	case *p4.Entity_MeterEntry:
		return writeMeter(objs, u.GetType(), e.MeterEntry)
	case *p4.Entity_DirectMeterEntry:
		return writeDirectMeter(objs, u.GetType(), e.DirectMeterEntry)
	case *p4.Entity_RegisterEntry:
		return writeRegister(objs, u.GetType(), e.RegisterEntry)
	case *p4.Entity_DigestEntry:
		return writeDigest(objs, u.GetType(), e.DigestEntry)
	case *p4.Entity_ValueSetEntry:
		return writeValueSet(objs, u.GetType(), e.ValueSetEntry)
	case *p4.Entity_ActionProfileMember:
		return writeProfileMember(objs, u.GetType(), e.ActionProfileMember)
	case *p4.Entity_ActionProfileGroup:
		return writeProfileGroup(objs, u.GetType(), e.ActionProfileGroup)
	case nil:
		return invalid("update without an entity")
	default:
		return status.Errorf(codes.Unimplemented, "entity %T is not supported", e)
	}
}

func writeTableEntry(objs *pipeline.Objects, typ p4.Update_Type, te *p4.TableEntry) error {
	if te.GetIsDefaultAction() {
		return writeDefaultAction(objs, typ, te)
	}
	tb, e, err := toEntry(objs, te, typ != p4.Update_DELETE)
	if err != nil {
		return err
	}
	switch typ {
	case p4.Update_INSERT:
		return tb.Insert(e)
	case p4.Update_MODIFY:
		return tb.Modify(e)
	default:
		return tb.Delete(e)
	}
}

func writeDefaultAction(objs *pipeline.Objects, typ p4.Update_Type, te *p4.TableEntry) error {
	if typ != p4.Update_MODIFY {
		return invalid("the default entry can only be modified")
	}
	if len(te.GetMatch()) > 0 || te.GetPriority() != 0 {
		return invalid("the default entry has no match and no priority")
	}
	tb, ok := objs.Tables[te.GetTableId()]
	if !ok {
		return status.Errorf(codes.NotFound, "table id %d is not in the p4info", te.GetTableId())
	}
	if tb.Profile != nil {
		return status.Errorf(codes.Unimplemented, "table %s has an action profile: setting its default entry is not supported", tb.Name)
	}
	a, err := toAction(objs, tb, te.GetAction(), nil)
	if err != nil {
		return err
	}
	return tb.SetDefault(a)
}

func toReplicas(rs []*p4.Replica) ([]pipeline.Replica, error) {
	out := make([]pipeline.Replica, 0, len(rs))
	for _, r := range rs {
		port := r.GetEgressPort()
		if b := r.GetPort(); b != nil {
			if len(b) > 4 {
				return nil, invalid("replica port 0x%x does not fit in 32 bits", b)
			}
			port = uint32(pipeline.Uint(b))
		}
		out = append(out, pipeline.Replica{Port: port, Instance: r.GetInstance()})
	}
	return out, nil
}

func writePRE(pre *pipeline.PRE, typ p4.Update_Type, e *p4.PacketReplicationEngineEntry) error {
	if g := e.GetMulticastGroupEntry(); g != nil {
		rs, err := toReplicas(g.GetReplicas())
		if err != nil {
			return err
		}
		switch typ {
		case p4.Update_INSERT:
			return pre.InsertGroup(g.GetMulticastGroupId(), rs)
		case p4.Update_MODIFY:
			return pre.ModifyGroup(g.GetMulticastGroupId(), rs)
		default:
			return pre.DeleteGroup(g.GetMulticastGroupId())
		}
	}
	c := e.GetCloneSessionEntry()
	if c == nil {
		return invalid("PRE entry is neither a multicast group nor a clone session")
	}
	rs, err := toReplicas(c.GetReplicas())
	if err != nil {
		return err
	}
	cs := pipeline.CloneSession{ID: c.GetSessionId(), Replicas: rs, ClassOfSvc: c.GetClassOfService(), TruncateTo: c.GetPacketLengthBytes()}
	switch typ {
	case p4.Update_INSERT:
		return pre.InsertClone(cs)
	case p4.Update_MODIFY:
		return pre.ModifyClone(cs)
	default:
		return pre.DeleteClone(c.GetSessionId())
	}
}

func modifyOnly(typ p4.Update_Type, what string) error {
	if typ != p4.Update_MODIFY {
		return invalid("%s entries exist for every index and can only be modified", what)
	}
	return nil
}

func writeCounter(objs *pipeline.Objects, typ p4.Update_Type, ce *p4.CounterEntry) error {
	if err := modifyOnly(typ, "counter"); err != nil {
		return err
	}
	c, ok := objs.Counters[ce.GetCounterId()]
	if !ok {
		return status.Errorf(codes.NotFound, "counter id %d is not in the p4info", ce.GetCounterId())
	}
	if ce.GetIndex() == nil {
		return invalid("counter %s: writing needs an index", c.Name)
	}
	cell, err := c.Cell(ce.GetIndex().GetIndex())
	if err != nil {
		return err
	}
	cell.Set(uint64(ce.GetData().GetPacketCount()), uint64(ce.GetData().GetByteCount()))
	return nil
}

func findDirect(objs *pipeline.Objects, te *p4.TableEntry) (*pipeline.Table, *pipeline.Entry, error) {
	tb, e, err := toEntry(objs, te, false)
	if err != nil {
		return nil, nil, err
	}
	stored := tb.Find(e)
	if stored == nil {
		return nil, nil, status.Errorf(codes.NotFound, "table %s: no such entry", tb.Name)
	}
	return tb, stored, nil
}

func writeDirectCounter(objs *pipeline.Objects, typ p4.Update_Type, dc *p4.DirectCounterEntry) error {
	if err := modifyOnly(typ, "direct counter"); err != nil {
		return err
	}
	tb, e, err := findDirect(objs, dc.GetTableEntry())
	if err != nil {
		return err
	}
	return tb.SetCounter(e, uint64(dc.GetData().GetPacketCount()), uint64(dc.GetData().GetByteCount()))
}

func writeMeter(objs *pipeline.Objects, typ p4.Update_Type, me *p4.MeterEntry) error {
	if err := modifyOnly(typ, "meter"); err != nil {
		return err
	}
	m, ok := objs.Meters[me.GetMeterId()]
	if !ok {
		return status.Errorf(codes.NotFound, "meter id %d is not in the p4info", me.GetMeterId())
	}
	if me.GetIndex() == nil {
		return invalid("meter %s: writing needs an index", m.Name)
	}
	cell, err := m.Cell(me.GetIndex().GetIndex())
	if err != nil {
		return err
	}
	if me.GetConfig() == nil {
		cell.Reset()
		return nil
	}
	return cell.Configure(meterConfig(me.GetConfig()))
}

func writeDirectMeter(objs *pipeline.Objects, typ p4.Update_Type, dm *p4.DirectMeterEntry) error {
	if err := modifyOnly(typ, "direct meter"); err != nil {
		return err
	}
	tb, e, err := findDirect(objs, dm.GetTableEntry())
	if err != nil {
		return err
	}
	if dm.GetConfig() == nil {
		return tb.SetMeter(e, nil)
	}
	m, err := pipeline.NewMeter(meterConfig(dm.GetConfig()))
	if err != nil {
		return err
	}
	return tb.SetMeter(e, m)
}

func writeRegister(objs *pipeline.Objects, typ p4.Update_Type, re *p4.RegisterEntry) error {
	if err := modifyOnly(typ, "register"); err != nil {
		return err
	}
	r, ok := objs.Registers[re.GetRegisterId()]
	if !ok {
		return status.Errorf(codes.NotFound, "register id %d is not in the p4info", re.GetRegisterId())
	}
	if re.GetIndex() == nil {
		return invalid("register %s: writing needs an index", r.Name)
	}
	bs := re.GetData().GetBitstring()
	if bs == nil {
		return invalid("register %s: data must be a bitstring", r.Name)
	}
	return r.Write(re.GetIndex().GetIndex(), bs)
}

func writeDigest(objs *pipeline.Objects, typ p4.Update_Type, de *p4.DigestEntry) error {
	d, ok := objs.Digests[de.GetDigestId()]
	if !ok {
		return status.Errorf(codes.NotFound, "digest id %d is not in the p4info", de.GetDigestId())
	}
	_, configured := d.Config()
	switch typ {
	case p4.Update_INSERT:
		if configured {
			return status.Errorf(codes.AlreadyExists, "digest %s is already configured", d.Name)
		}
	case p4.Update_MODIFY:
		if !configured {
			return status.Errorf(codes.NotFound, "digest %s is not configured", d.Name)
		}
	default:
		if !configured {
			return status.Errorf(codes.NotFound, "digest %s is not configured", d.Name)
		}
		d.Unconfigure()
		return nil
	}
	c := de.GetConfig()
	return d.Configure(pipeline.DigestConfig{MaxTimeout: nanos(c.GetMaxTimeoutNs()), MaxListSize: int(c.GetMaxListSize()), AckTimeout: nanos(c.GetAckTimeoutNs())})
}

// writeValueSet replaces a parser value set's members: P4Runtime allows
// only MODIFY (INSERT and DELETE are INVALID_ARGUMENT).
func writeValueSet(objs *pipeline.Objects, typ p4.Update_Type, ve *p4.ValueSetEntry) error {
	if typ != p4.Update_MODIFY {
		return invalid("a value set can only be modified (its members are replaced as a whole)")
	}
	vs, ok := objs.ValueSets[ve.GetValueSetId()]
	if !ok {
		return status.Errorf(codes.NotFound, "value set id %d is not in the p4info", ve.GetValueSetId())
	}
	if len(ve.GetMembers()) > vs.Size {
		return status.Errorf(codes.ResourceExhausted, "value set %s: %d members, its size is %d", vs.Name, len(ve.GetMembers()), vs.Size)
	}
	members := make([][]pipeline.FieldMatch, 0, len(ve.GetMembers()))
	for i, m := range ve.GetMembers() {
		match, err := toFieldMatches(vs.Fields, m.GetMatch(), "value set", vs.Name, nil)
		if err != nil {
			return status.Errorf(status.Code(err), "member %d: %s", i, status.Convert(err).Message())
		}
		members = append(members, match)
	}
	return vs.Replace(members)
}

func profileOf(objs *pipeline.Objects, id uint32) (*pipeline.ActionProfile, error) {
	p, ok := objs.ActionProfiles[id]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "action profile id %d is not in the p4info", id)
	}
	return p, nil
}

func writeProfileMember(objs *pipeline.Objects, typ p4.Update_Type, m *p4.ActionProfileMember) error {
	p, err := profileOf(objs, m.GetActionProfileId())
	if err != nil {
		return err
	}
	if typ == p4.Update_DELETE {
		return p.DeleteMember(m.GetMemberId())
	}
	if m.GetAction() == nil {
		return invalid("action profile %s member %d: no action", p.Name, m.GetMemberId())
	}
	a, err := toActionCall(objs, m.GetAction(), nil)
	if err != nil {
		return err
	}
	if typ == p4.Update_INSERT {
		return p.InsertMember(m.GetMemberId(), a)
	}
	return p.ModifyMember(m.GetMemberId(), a)
}

func writeProfileGroup(objs *pipeline.Objects, typ p4.Update_Type, g *p4.ActionProfileGroup) error {
	p, err := profileOf(objs, g.GetActionProfileId())
	if err != nil {
		return err
	}
	if typ == p4.Update_DELETE {
		return p.DeleteGroup(g.GetGroupId())
	}
	members := make([]pipeline.GroupMember, 0, len(g.GetMembers()))
	for _, m := range g.GetMembers() {
		if m.GetWatchKind() != nil {
			return status.Errorf(codes.Unimplemented, "action profile %s group %d: watch ports are not supported", p.Name, g.GetGroupId())
		}
		members = append(members, pipeline.GroupMember{ID: m.GetMemberId(), Weight: m.GetWeight()})
	}
	if typ == p4.Update_INSERT {
		return p.InsertGroup(g.GetGroupId(), g.GetMaxSize(), members)
	}
	return p.ModifyGroup(g.GetGroupId(), g.GetMaxSize(), members)
}
