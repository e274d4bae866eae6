// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"context"
	"strings"
	"testing"
	"time"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
)

func wantCode(t *testing.T, err error, c codes.Code) {
	t.Helper()
	if status.Code(err) != c {
		t.Fatalf("got %v, want %v", err, c)
	}
}

func TestPipelinePushAcceptAndReject(t *testing.T) {
	r := newRig(t)
	_, err := r.client.GetForwardingPipelineConfig(context.Background(), &p4.GetForwardingPipelineConfigRequest{DeviceId: deviceID})
	wantCode(t, err, codes.FailedPrecondition)
	wantCode(t, r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT), codes.PermissionDenied)
	r.stream(1)

	// A p4info that does not fit the JSON: a key of another width.
	other := proto.Clone(r.info).(*p4info.P4Info)
	for _, tb := range other.Tables {
		if tb.Preamble.Name == ctl.TableRoutingV4 {
			tb.MatchFields[0].Bitwidth = 24
		}
	}
	err = r.push(1, other, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT)
	wantCode(t, err, codes.InvalidArgument)
	if !strings.Contains(err.Error(), "table "+ctl.TableRoutingV4+" key ipv4_dst is 32 bits in the JSON and 24 in the p4info") {
		t.Fatalf("rejection does not name the table and key: %v", err)
	}
	// Without the bmv2 JSON there is no program to run.
	dc := r.deviceConfig
	r.deviceConfig = nil
	err = r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT)
	wantCode(t, err, codes.InvalidArgument)
	if !strings.Contains(err.Error(), "no p4_device_config") {
		t.Fatalf("rejection does not say the device config is missing: %v", err)
	}
	// A program using what the engine lacks is refused, naming it.
	r.deviceConfig = []byte(strings.Replace(string(dc), `"op" : "mark_to_drop"`, `"op" : "recirculate_preserving"`, 1))
	err = r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT)
	wantCode(t, err, codes.Unimplemented)
	if !strings.Contains(err.Error(), "recirculate_preserving") || !strings.Contains(err.Error(), ".p4:") {
		t.Fatalf("refusal does not name the construct and its source line: %v", err)
	}
	r.deviceConfig = dc
	// VERIFY checks without installing.
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY); err != nil {
		t.Fatal(err)
	}
	_, err = r.client.GetForwardingPipelineConfig(context.Background(), &p4.GetForwardingPipelineConfigRequest{DeviceId: deviceID})
	wantCode(t, err, codes.FailedPrecondition)
	// COMMIT with nothing saved, then VERIFY_AND_SAVE + COMMIT.
	_, err = r.client.SetForwardingPipelineConfig(context.Background(), &p4.SetForwardingPipelineConfigRequest{
		DeviceId: deviceID, ElectionId: &p4.Uint128{Low: 1}, Action: p4.SetForwardingPipelineConfigRequest_COMMIT})
	wantCode(t, err, codes.FailedPrecondition)
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_SAVE); err != nil {
		t.Fatal(err)
	}
	_, err = r.client.SetForwardingPipelineConfig(context.Background(), &p4.SetForwardingPipelineConfigRequest{
		DeviceId: deviceID, ElectionId: &p4.Uint128{Low: 1}, Action: p4.SetForwardingPipelineConfigRequest_COMMIT})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.client.GetForwardingPipelineConfig(context.Background(), &p4.GetForwardingPipelineConfigRequest{DeviceId: deviceID})
	if err != nil || !proto.Equal(got.GetConfig().GetP4Info(), r.info) || got.GetConfig().GetCookie().GetCookie() != 7 {
		t.Fatalf("get config: %v %v", got, err)
	}
	// RECONCILE_AND_COMMIT with the running p4info keeps the entries.
	te := &p4.TableEntry{TableId: r.id(ctl.TableL2Exact), Match: []*p4.FieldMatch{exact(1, []byte{2, 0, 0, 0, 0, 1})},
		Action: action(r.id(ctl.ActionSetEgressPort), b16(1))}
	if err := r.write(1, update(p4.Update_INSERT, te)); err != nil {
		t.Fatal(err)
	}
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_RECONCILE_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	if n := len(r.read(tableEntity(&p4.TableEntry{}))); n != 1 {
		t.Fatalf("reconcile lost entries: %d left", n)
	}
	// VERIFY_AND_COMMIT starts from empty tables.
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	if n := len(r.read(tableEntity(&p4.TableEntry{}))); n != 0 {
		t.Fatalf("a new pipeline kept %d entries", n)
	}
}

func TestWriteReadAndPerUpdateErrors(t *testing.T) {
	r := newRig(t)
	r.stream(1)
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	routing, route := r.id(ctl.TableRoutingV4), r.id(ctl.ActionRoute)
	mac := []byte{2, 0, 0, 0, 0, 9}
	good := &p4.TableEntry{TableId: routing, Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 2, 0}, 24)},
		Action: action(route, b16(2), mac, mac)}
	other := proto.Clone(good).(*p4.TableEntry)
	other.Match = []*p4.FieldMatch{lpm(1, []byte{10, 0, 3, 0}, 24)}
	badTable := proto.Clone(good).(*p4.TableEntry)
	badTable.TableId = 0x02000001
	badAction := proto.Clone(other).(*p4.TableEntry)
	badAction.Action = action(0x01000001)
	tooWide := proto.Clone(other).(*p4.TableEntry)
	tooWide.Action = action(route, []byte{2, 0}, mac, mac) // 512 does not fit bit<9>
	err := r.write(1,
		update(p4.Update_INSERT, good),
		update(p4.Update_INSERT, good),
		update(p4.Update_MODIFY, other),
		update(p4.Update_INSERT, badTable),
		update(p4.Update_INSERT, badAction),
		update(p4.Update_INSERT, tooWide),
		update(p4.Update_DELETE, other),
	)
	st := status.Convert(err)
	if st.Code() != codes.Unknown {
		t.Fatalf("batch with failures: %v, want UNKNOWN", err)
	}
	want := []codes.Code{codes.OK, codes.AlreadyExists, codes.NotFound, codes.NotFound, codes.NotFound, codes.InvalidArgument, codes.NotFound}
	if len(st.Details()) != len(want) {
		t.Fatalf("%d per-update errors, want %d", len(st.Details()), len(want))
	}
	for i, d := range st.Details() {
		pe, ok := d.(*p4.Error)
		if !ok || codes.Code(pe.GetCanonicalCode()) != want[i] {
			t.Errorf("update %d: %v, want %v", i, d, want[i])
		}
	}
	// Read: wildcard over all tables, one table, one entry.
	all := r.read(tableEntity(&p4.TableEntry{}))
	if len(all) != 1 || !proto.Equal(all[0].GetTableEntry().GetMatch()[0], good.Match[0]) {
		t.Fatalf("read all: %v", all)
	}
	if got := all[0].GetTableEntry().GetAction().GetAction().GetParams()[0].GetValue(); string(got) != "\x02" {
		t.Fatalf("param not canonical: %x", got)
	}
	one := r.read(tableEntity(&p4.TableEntry{TableId: routing, Match: good.Match}))
	if len(one) != 1 {
		t.Fatalf("read one: %v", one)
	}
	if n := len(r.read(tableEntity(&p4.TableEntry{TableId: r.id(ctl.TableL2Exact)}))); n != 0 {
		t.Fatalf("l2 table read %d entries", n)
	}
	// PRE: multicast group and clone session.
	grp := groupUpdate(5, &p4.Replica{PortKind: &p4.Replica_Port{Port: []byte{1}}, Instance: 1},
		&p4.Replica{PortKind: &p4.Replica_EgressPort{EgressPort: 3}, Instance: 1})
	if err := r.write(1, grp); err != nil {
		t.Fatal(err)
	}
	wantCode(t, r.write(1, grp), codes.Unknown)
	groups := r.read(&p4.Entity{Entity: &p4.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4.PacketReplicationEngineEntry{
		Type: &p4.PacketReplicationEngineEntry_MulticastGroupEntry{MulticastGroupEntry: &p4.MulticastGroupEntry{}}}}})
	if len(groups) != 1 || len(groups[0].GetPacketReplicationEngineEntry().GetMulticastGroupEntry().GetReplicas()) != 2 {
		t.Fatalf("read groups: %v", groups)
	}
}

func TestDataPathCountsAndMulticast(t *testing.T) {
	r := newRig(t)
	r.stream(1)
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	routing := r.id(ctl.TableRoutingV4)
	mac := []byte{2, 0, 0, 0, 0, 9}
	route := &p4.TableEntry{TableId: routing, Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 2, 0}, 24)},
		Action: action(r.id(ctl.ActionRoute), b16(2), mac, mac)}
	mcast := &p4.TableEntry{TableId: routing, Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 9, 0}, 24)},
		Action: action(r.id(ctl.ActionSetMcastGroup), b16(5))}
	grp := groupUpdate(5, &p4.Replica{PortKind: &p4.Replica_EgressPort{EgressPort: 1}},
		&p4.Replica{PortKind: &p4.Replica_EgressPort{EgressPort: 2}}, &p4.Replica{PortKind: &p4.Replica_EgressPort{EgressPort: 3}})
	if err := r.write(1, update(p4.Update_INSERT, route), update(p4.Update_INSERT, mcast), grp); err != nil {
		t.Fatal(err)
	}
	r.sw.Receive(1, [][]byte{udpFrame([4]byte{10, 0, 2, 7}, 80)})
	if f := r.ports[2].wait(t); f[22] != 63 || string(f[0:6]) != string(mac) {
		t.Fatalf("routed frame not rewritten: %x", f[:34])
	}
	r.sw.Receive(1, [][]byte{udpFrame([4]byte{10, 0, 9, 7}, 80)})
	r.ports[2].wait(t)
	r.ports[3].wait(t)
	select {
	case <-r.ports[1].got:
		t.Fatal("a replica went back out of its ingress port")
	case <-time.After(50 * time.Millisecond):
	}
	dc := r.read(&p4.Entity{Entity: &p4.Entity_DirectCounterEntry{DirectCounterEntry: &p4.DirectCounterEntry{
		TableEntry: &p4.TableEntry{TableId: routing, Match: route.Match}}}})
	if len(dc) != 1 || dc[0].GetDirectCounterEntry().GetData().GetPacketCount() != 1 {
		t.Fatalf("direct counter: %v", dc)
	}
}

func TestArbitrationPrimaryAndBackup(t *testing.T) {
	r := newRig(t)
	s1, a1 := r.stream(1)
	if a1.GetStatus().GetCode() != int32(codes.OK) {
		t.Fatalf("first client not primary: %v", a1)
	}
	s2, a2 := r.stream(2)
	if a2.GetStatus().GetCode() != int32(codes.OK) {
		t.Fatalf("higher election id not primary: %v", a2)
	}
	if a := r.nextArbitration(s1); a.GetStatus().GetCode() != int32(codes.AlreadyExists) || a.GetElectionId().GetLow() != 2 {
		t.Fatalf("old primary not told it is a backup: %v", a)
	}
	wantCode(t, r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT), codes.PermissionDenied)
	if err := r.push(2, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	te := &p4.TableEntry{TableId: r.id(ctl.TableL2Exact), Match: []*p4.FieldMatch{exact(1, []byte{2, 0, 0, 0, 0, 1})},
		Action: action(r.id(ctl.ActionSetEgressPort), b16(1))}
	wantCode(t, r.write(1, update(p4.Update_INSERT, te)), codes.PermissionDenied)
	// A duplicate election id is refused.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dup, _ := r.client.StreamChannel(ctx)
	dup.Send(&p4.StreamMessageRequest{Update: &p4.StreamMessageRequest_Arbitration{Arbitration: &p4.MasterArbitrationUpdate{
		DeviceId: deviceID, ElectionId: &p4.Uint128{Low: 2}}}})
	if _, err := dup.Recv(); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("duplicate election id: %v", err)
	}
	// The primary leaves: the backup is promoted.
	s2.CloseSend()
	if a := r.nextArbitration(s1); a.GetStatus().GetCode() != int32(codes.OK) {
		t.Fatalf("backup not promoted: %v", a)
	}
	if err := r.write(1, update(p4.Update_INSERT, te)); err != nil {
		t.Fatal(err)
	}
}

func TestPacketOutAndPacketIn(t *testing.T) {
	r := newRig(t)
	st, _ := r.stream(1)
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	frame := udpFrame([4]byte{10, 0, 0, 2}, 9)
	err := st.Send(&p4.StreamMessageRequest{Update: &p4.StreamMessageRequest_Packet{Packet: &p4.PacketOut{
		Payload: frame, Metadata: []*p4.PacketMetadata{{MetadataId: 1, Value: []byte{3}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.ports[3].wait(t); string(got) != string(frame) {
		t.Fatalf("packet-out arrived changed: %x", got)
	}
	// ACL punt of UDP dport 9 -> packet-in with ingress_port.
	acl := &p4.TableEntry{TableId: r.id(ctl.TableACL), Priority: 10,
		Match:  []*p4.FieldMatch{ternary(9, b16(9), b16(0xffff))},
		Action: action(r.id(ctl.ActionPuntToCPU))}
	if err := r.write(1, update(p4.Update_INSERT, acl)); err != nil {
		t.Fatal(err)
	}
	r.sw.Receive(2, [][]byte{udpFrame([4]byte{10, 0, 0, 2}, 9)})
	for {
		m, err := st.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if pi := m.GetPacket(); pi != nil {
			if len(pi.Metadata) == 0 || pi.Metadata[0].MetadataId != 1 || string(pi.Metadata[0].Value) != "\x02" {
				t.Fatalf("packet-in metadata %v", pi.Metadata)
			}
			if len(pi.Payload) != 64 {
				t.Fatalf("packet-in payload %d bytes", len(pi.Payload))
			}
			return
		}
	}
}

func groupUpdate(id uint32, replicas ...*p4.Replica) *p4.Update {
	g := &p4.MulticastGroupEntry{MulticastGroupId: id, Replicas: replicas}
	pre := &p4.PacketReplicationEngineEntry{Type: &p4.PacketReplicationEngineEntry_MulticastGroupEntry{MulticastGroupEntry: g}}
	return &p4.Update{Type: p4.Update_INSERT, Entity: &p4.Entity{Entity: &p4.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: pre}}}
}

func TestCopyToCPUCloneAndBackupPacketOut(t *testing.T) {
	r := newRig(t)
	primary, _ := r.stream(2)
	backup, _ := r.stream(1)
	if err := r.push(2, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	clone := &p4.Update{Type: p4.Update_INSERT, Entity: &p4.Entity{Entity: &p4.Entity_PacketReplicationEngineEntry{
		PacketReplicationEngineEntry: &p4.PacketReplicationEngineEntry{Type: &p4.PacketReplicationEngineEntry_CloneSessionEntry{
			CloneSessionEntry: &p4.CloneSessionEntry{SessionId: ctl.CPUCloneSession,
				Replicas: []*p4.Replica{{PortKind: &p4.Replica_EgressPort{EgressPort: cpuPort}}}}}}}}}
	acl := &p4.TableEntry{TableId: r.id(ctl.TableACL), Priority: 10,
		Match:  []*p4.FieldMatch{ternary(9, b16(9), b16(0xffff))},
		Action: action(r.id(ctl.ActionCopyToCPU))}
	l2 := &p4.TableEntry{TableId: r.id(ctl.TableL2Exact), Match: []*p4.FieldMatch{exact(1, []byte{2, 0, 0, 0, 0, 0xbb})},
		Action: action(r.id(ctl.ActionSetEgressPort), b16(3))}
	if err := r.write(2, clone, update(p4.Update_INSERT, acl), update(p4.Update_INSERT, l2)); err != nil {
		t.Fatal(err)
	}
	r.sw.Receive(1, [][]byte{udpFrame([4]byte{10, 0, 0, 2}, 9)})
	r.ports[3].wait(t) // the original still goes on
	for {
		m, err := primary.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if pi := m.GetPacket(); pi != nil {
			if string(pi.Metadata[0].Value) != "\x01" {
				t.Fatalf("clone's packet-in ingress_port %x, want 1", pi.Metadata[0].Value)
			}
			break
		}
	}
	// A backup may not send packets.
	err := backup.Send(&p4.StreamMessageRequest{Update: &p4.StreamMessageRequest_Packet{Packet: &p4.PacketOut{
		Payload: udpFrame([4]byte{10, 0, 0, 2}, 9), Metadata: []*p4.PacketMetadata{{MetadataId: 1, Value: []byte{3}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for {
		m, err := backup.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if e := m.GetError(); e != nil {
			if codes.Code(e.GetCanonicalCode()) != codes.PermissionDenied || e.GetPacketOut() == nil {
				t.Fatalf("backup packet-out error %v", e)
			}
			return
		}
	}
}
