// SPDX-License-Identifier: Apache-2.0

package server_test

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

func TestHappyPathOverGRPC(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := e.client

	caps, err := c.GetCapabilities(ctx, &pb.GetCapabilitiesRequest{AppId: appA})
	if err != nil || caps.GetApiVersion() != "v1" || caps.GetQuota().GetMaxBuffers() != 10 ||
		len(caps.GetVportBackends()) != 1 || caps.GetVportBackends()[0] != pb.VportBackendKind_VPORT_BACKEND_KIND_IN_PROCESS {
		t.Fatalf("capabilities %v %v", caps, err)
	}
	stream, err := c.Subscribe(ctx, &pb.SubscribeRequest{AppId: appA, Rules: []*pb.EventRule{
		{RuleId: "s", BufferId: "*", Kind: pb.EventKind_EVENT_KIND_STATE_CHANGED}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Header(); err != nil {
		t.Fatal(err)
	}
	res, err := c.Batch(ctx, &pb.BatchRequest{AppId: appA, Operations: []*pb.Operation{
		opCreateBuffer("p", fifo(10)),
		{Op: &pb.Operation_SetVportMode{SetVportMode: &pb.SetVportModeRequest{VportId: "vfree", Mode: pb.VportMode_VPORT_MODE_TX}}},
		opBind("p", "vfree"),
	}})
	if err != nil || len(res.GetResults()) != 3 {
		t.Fatalf("batch %v %v", res, err)
	}
	if got := res.GetResults()[2].GetBuffer().GetState(); got != pb.BufferState_BUFFER_STATE_SERVING {
		t.Fatalf("state after batch %v", got)
	}
	// The stream may first carry state events of buffers that existed; wait for p.
	for {
		ev, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if ev.GetBufferId() == "p" {
			if ev.GetState() != pb.BufferState_BUFFER_STATE_SERVING {
				t.Fatalf("event %v", ev)
			}
			break
		}
	}
	// Idempotent create: the same request again succeeds.
	if _, err := c.CreateBuffer(ctx, &pb.CreateBufferRequest{AppId: appA, BufferId: "p", Config: fifo(10)}); err != nil {
		t.Fatalf("idempotent create: %v", err)
	}
	if _, err := c.Unbind(ctx, &pb.UnbindRequest{AppId: appA, BufferId: "p", VportId: "vfree"}); err != nil {
		t.Fatal(err)
	}
	if r, err := c.RemoveBuffer(ctx, &pb.RemoveBufferRequest{AppId: appA, BufferId: "held", Discard: true}); err != nil || r.GetDiscardedPackets() != 3 {
		t.Fatalf("remove held: %v %v", r, err)
	}
	if _, err := c.QueryBuffer(ctx, &pb.QueryBufferRequest{AppId: appA, BufferId: "held"}); status.Code(err) != codes.NotFound {
		t.Fatalf("removed buffer still answers: %v", err)
	}
	h, err := healthpb.NewHealthClient(e.conn).Check(ctx, &healthpb.HealthCheckRequest{Service: pb.BufferAgent_ServiceDesc.ServiceName})
	if err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health %v %v", h, err)
	}
}

func TestPurgeAndAckOverGRPC(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	r, err := e.client.PurgeUpTo(ctx, &pb.PurgeUpToRequest{AppId: appA, BufferId: "held",
		PacketId: &pb.PacketId{Ipv4Id: 3, L4Checksum: 3}})
	if err != nil || !r.GetFound() || r.GetPurgedPackets() != 2 {
		t.Fatalf("purge %v %v", r, err)
	}
	// A sync point not received yet: what is held is purged, the rest awaited.
	r, err = e.client.PurgeUpTo(ctx, &pb.PurgeUpToRequest{AppId: appA, BufferId: "held",
		PacketId: &pb.PacketId{Ipv4Id: 9, L4Checksum: 9}, Inclusive: true, AwaitArrival: true})
	if err != nil || r.GetFound() || !r.GetAwaiting() || r.GetPurgedPackets() != 1 {
		t.Fatalf("purge awaiting the sync point %v %v", r, err)
	}
	q, err := e.client.QueryBuffer(ctx, &pb.QueryBufferRequest{AppId: appA, BufferId: "held"})
	if err != nil || q.GetStats().GetSyncAwaits() != 1 || q.GetStats().GetSyncAwaitsArrived() != 0 {
		t.Fatalf("stats after the awaiting purge %v %v", q.GetStats(), err)
	}
	a, err := e.client.Ack(ctx, &pb.AckRequest{AppId: appA, BufferId: "arq", PacketIds: []*pb.PacketId{{Ipv4Id: 1}}})
	if err != nil || a.GetAcked() != 0 {
		t.Fatalf("ack of unknown id %v %v", a, err)
	}
}

// TestStatsCarryLastOutPacketID: the id of the last packet a buffer
// transmitted reaches the RPC's stats; it is unset before the first one.
func TestStatsCarryLastOutPacketID(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := e.client
	q, err := c.QueryBuffer(ctx, &pb.QueryBufferRequest{AppId: appA, BufferId: "held"})
	if err != nil || q.GetStats().GetOccupancyPackets() != 3 {
		t.Fatalf("held before serving: %v %v", q, err)
	}
	if id := q.GetStats().GetLastOutPacketId(); id != nil {
		t.Fatalf("nothing transmitted yet, last_out_packet_id = %v", id)
	}
	if _, err := c.SetVportMode(ctx, &pb.SetVportModeRequest{AppId: appA, VportId: "vfree", Mode: pb.VportMode_VPORT_MODE_TX}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Bind(ctx, &pb.BindRequest{AppId: appA, BufferId: "held", VportId: "vfree"}); err != nil {
		t.Fatal(err)
	}
	st := waitStats(ctx, t, c, "held", "held never drained", func(st *pb.BufferStats) bool {
		return st.GetPacketsOut() >= 3
	})
	want := &pb.PacketId{Ipv4Id: 3, L4Checksum: 3} // frame(3), the last held
	if got := st.GetLastOutPacketId(); !proto.Equal(got, want) {
		t.Fatalf("last_out_packet_id = %v, want %v", got, want)
	}
	l, err := c.ListBuffers(ctx, &pb.ListBuffersRequest{AppId: appA})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range l.GetBuffers() {
		got := b.GetStats().GetLastOutPacketId()
		if b.GetBufferId() == "held" && !proto.Equal(got, want) || b.GetBufferId() != "held" && got != nil {
			t.Fatalf("list: buffer %s last_out_packet_id = %v", b.GetBufferId(), got)
		}
	}
}

// TestArmTriggerOverGRPC: a frame into the armed buffer sets the armed
// mode, once, and the buffer's stats say so.
func TestArmTriggerOverGRPC(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := e.client
	arm := &pb.ArmTriggerRequest{AppId: appA, BufferId: "bound", SetVportModes: []*pb.SetVportModeRequest{
		{AppId: "ignored", VportId: "vfree", Mode: pb.VportMode_VPORT_MODE_TX, TxRate: &pb.TxRate{Bps: 1e6}}}}
	if r, err := c.ArmTrigger(ctx, arm); err != nil || r.GetWasArmed() {
		t.Fatalf("arm %v %v", r, err)
	}
	q, err := c.QueryBuffer(ctx, &pb.QueryBufferRequest{AppId: appA, BufferId: "bound"})
	if err != nil || !q.GetStats().GetTriggerArmed() {
		t.Fatalf("armed buffer %v %v", q, err)
	}
	e.ports.ports["vb"].in.Receive([][]byte{frame(9)})
	st := waitStats(ctx, t, c, "bound", "the trigger never fired", func(st *pb.BufferStats) bool {
		return st.GetTriggersFired()+st.GetTriggerFailures() > 0
	})
	if st.GetTriggerArmed() || st.GetTriggersFired() != 1 || st.GetTriggerFailures() != 0 {
		t.Fatalf("stats after the fire %v", st)
	}
	v, err := c.QueryVport(ctx, &pb.QueryVportRequest{AppId: appA, VportId: "vfree"})
	if err != nil || v.GetConfig().GetMode() != pb.VportMode_VPORT_MODE_TX || v.GetConfig().GetTxRateBps() != 1e6 {
		t.Fatalf("vfree after the fire %v %v", v, err)
	}
	if r, err := c.ArmTrigger(ctx, &pb.ArmTriggerRequest{AppId: appA, BufferId: "bound"}); err != nil || r.GetWasArmed() ||
		!proto.Equal(r.GetLastFire(), &pb.TriggerFire{ModesSet: true}) {
		t.Fatalf("disarm after the fire %v %v", r, err)
	}
}

// TestArmTriggerPurgeToReportOverGRPC: a trigger packet reporting held's
// second packet purges the first two before the modes are set, and the
// disarm reports the fire.
func TestArmTriggerPurgeToReportOverGRPC(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := e.client
	arm := &pb.ArmTriggerRequest{AppId: appA, BufferId: "bound", PurgeToReport: "held",
		SetVportModes: []*pb.SetVportModeRequest{{VportId: "vfree", Mode: pb.VportMode_VPORT_MODE_TX}}}
	if r, err := c.ArmTrigger(ctx, arm); err != nil || r.GetWasArmed() || r.GetLastFire() != nil {
		t.Fatalf("arm %v %v", r, err)
	}
	report := frame(0)
	binary.BigEndian.PutUint16(report[38:], 8+engine.ReportLen) // the UDP length
	copy(report[42:], engine.ReceiveReport(engine.PacketID{IPv4ID: 2, L4Checksum: 2}))
	e.ports.ports["vb"].in.Receive([][]byte{report})
	waitStats(ctx, t, c, "bound", "the trigger never fired", func(st *pb.BufferStats) bool {
		return st.GetTriggersFired() > 0
	})
	r, err := c.ArmTrigger(ctx, &pb.ArmTriggerRequest{AppId: appA, BufferId: "bound"})
	want := &pb.TriggerFire{ModesSet: true, ReportSync: pb.ReportSync_REPORT_SYNC_SYNCED, PurgedPackets: 2}
	if err != nil || r.GetWasArmed() || !proto.Equal(r.GetLastFire(), want) {
		t.Fatalf("disarm after the fire %v %v, want last fire %v", r, err, want)
	}
	q, err := c.QueryBuffer(ctx, &pb.QueryBufferRequest{AppId: appA, BufferId: "held"})
	if err != nil || q.GetStats().GetOccupancyPackets() != 1 {
		t.Fatalf("held after the purge %v %v", q, err)
	}
}

// waitStats polls appA's buffer id until done holds for its stats, which
// it returns; it fails the test with why when ctx ends first.
func waitStats(ctx context.Context, t *testing.T, c pb.BufferAgentClient, id, why string, done func(*pb.BufferStats) bool) *pb.BufferStats {
	t.Helper()
	for {
		q, err := c.QueryBuffer(ctx, &pb.QueryBufferRequest{AppId: appA, BufferId: id})
		if err != nil {
			t.Fatalf("%s: %v", why, err)
		}
		if done(q.GetStats()) {
			return q.GetStats()
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPDCPArqBufferOverTheAPI: a PDCP ARQ buffer created over gRPC reads
// back as one, and its status-message counters reach the RPC's stats.
func TestPDCPArqBufferOverTheAPI(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := e.client.CreateBuffer(ctx, &pb.CreateBufferRequest{AppId: appA, BufferId: "baas",
		Config: &pb.BufferConfig{CapacityPackets: 10, QueueType: pb.QueueType_QUEUE_TYPE_ARQ,
			Arq: &pb.ArqConfig{MaxResends: 3, Protocol: pb.ArqProtocol_ARQ_PROTOCOL_PDCP}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.eng.Bind(appA, "baas", "vfree"); err != nil {
		t.Fatal(err)
	}
	in := e.ports.ports["vfree"].in
	in.Receive([][]byte{engine.PDCPDataFrame(7, 1, frame(1)), engine.PDCPDataFrame(7, 2, frame(2))})
	in.Receive([][]byte{engine.PDCPStatusFrame(engine.PDCPStatus{TEID: 7, First: 2, Last: 2}),
		engine.PDCPStatusFrame(engine.PDCPStatus{TEID: 0, First: 1, Last: 1})})
	q, err := e.client.QueryBuffer(ctx, &pb.QueryBufferRequest{AppId: appA, BufferId: "baas"})
	if err != nil {
		t.Fatal(err)
	}
	if p := q.GetConfig().GetArq().GetProtocol(); p != pb.ArqProtocol_ARQ_PROTOCOL_PDCP {
		t.Fatalf("protocol %v", p)
	}
	if s := q.GetStats(); s.GetOccupancyPackets() != 1 || s.GetArqAcked() != 1 || s.GetArqBadStatus() != 1 {
		t.Fatalf("stats %v", s)
	}
}
