// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

// TestDaemonEndToEnd drives the daemon over gRPC with vports on veths in a
// namespace (-netns): frames are held, an event reports them, a TX vport
// serves them in order, and shutdown removes the veth pair the agent made.
func TestDaemonEndToEnd(t *testing.T) {
	if !nslab.IsRoot() {
		t.Skip("needs root to create network namespaces and veth pairs")
	}
	lab := nslab.New("fbag-e2e-")
	t.Cleanup(func() { _ = lab.Close() })
	ag, err := lab.NS("ag")
	must(t, err)
	h1, err := lab.NS("h1")
	must(t, err)
	h2, err := lab.NS("h2")
	must(t, err)
	must(t, lab.Veth(h1, "h1-eth", ag, "ag-in"))
	must(t, lab.Veth(h2, "h2-eth", ag, "ag-out"))
	tx, err := nslab.Socket(h1, "h1-eth", 1500, 256)
	must(t, err)
	defer tx.Close()
	rx, err := nslab.Socket(h2, "h2-eth", 1500, 4096)
	must(t, err)
	defer rx.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-metrics-listen", "", "-netns", ag.Path, "-log-level", "warn"},
			func(g, _ string) { addrs <- g })
	}()
	conn, err := grpc.NewClient(<-addrs, grpc.WithTransportCredentials(insecure.NewCredentials()))
	must(t, err)
	defer conn.Close()
	c := pb.NewBufferAgentClient(conn)
	cctx, ccancel := context.WithTimeout(ctx, 20*time.Second)
	defer ccancel()

	linux := func(iface, peer string, mode pb.VportMode) *pb.VportConfig {
		return &pb.VportConfig{Mode: mode, Backend: &pb.VportConfig_LinuxInterface{
			LinuxInterface: &pb.LinuxInterfaceBackend{Interface: iface, CreateVethPeer: peer}}}
	}
	op := func(o any) *pb.Operation {
		switch x := o.(type) {
		case *pb.CreateBufferRequest:
			return &pb.Operation{Op: &pb.Operation_CreateBuffer{CreateBuffer: x}}
		case *pb.CreateVportRequest:
			return &pb.Operation{Op: &pb.Operation_CreateVport{CreateVport: x}}
		default:
			return &pb.Operation{Op: &pb.Operation_Bind{Bind: x.(*pb.BindRequest)}}
		}
	}
	_, err = c.Batch(cctx, &pb.BatchRequest{AppId: "e2e", Operations: []*pb.Operation{
		op(&pb.CreateBufferRequest{BufferId: "b", Config: &pb.BufferConfig{CapacityPackets: 1000}}),
		op(&pb.CreateVportRequest{VportId: "in", Config: linux("ag-in", "", pb.VportMode_VPORT_MODE_RX)}),
		op(&pb.CreateVportRequest{VportId: "out", Config: linux("ag-out", "", pb.VportMode_VPORT_MODE_NONE)}),
		op(&pb.CreateVportRequest{VportId: "made", Config: linux("fbe-a", "fbe-sw", pb.VportMode_VPORT_MODE_RX)}),
		op(&pb.BindRequest{BufferId: "b", VportId: "in"}),
		op(&pb.BindRequest{BufferId: "b", VportId: "out"}),
	}})
	must(t, err)
	events, err := c.Subscribe(cctx, &pb.SubscribeRequest{AppId: "e2e", Rules: []*pb.EventRule{
		{RuleId: "full", BufferId: "b", Kind: pb.EventKind_EVENT_KIND_OCCUPANCY_ABOVE, ThresholdPackets: 100}}})
	must(t, err)
	_, err = events.Header()
	must(t, err)

	frames := make([][]byte, 100)
	for i := range frames {
		frames[i] = nslab.Frame(make([]byte, nslab.MinFrame), nslab.MinFrame, uint32(i), 0)
	}
	must(t, tx.Send(frames))
	ev, err := events.Recv()
	must(t, err)
	if ev.GetRuleId() != "full" || ev.GetOccupancyPackets() != 100 {
		t.Fatalf("event %v", ev)
	}
	_, err = c.SetVportMode(cctx, &pb.SetVportModeRequest{AppId: "e2e", VportId: "out", Mode: pb.VportMode_VPORT_MODE_TX})
	must(t, err)
	var got []uint32
	batch := make([][]byte, 0, 64)
	stuck := time.AfterFunc(10*time.Second, rx.Wake) // Recv then fails instead of hanging
	defer stuck.Stop()
	for len(got) < 100 {
		batch, err = rx.Recv(batch[:0], 64)
		must(t, err)
		for _, f := range batch {
			if nslab.IsLabFrame(f) {
				got = append(got, nslab.Seq(f))
			}
			engine.PutFrame(f)
		}
	}
	for i, s := range got {
		if s != uint32(i) {
			t.Fatalf("frame %d carries seq %d", i, s)
		}
	}
	must(t, ag.Do(func() error { return netio.SetUp("fbe-sw") })) // the agent made it
	cancel()
	must(t, <-done)
	if err := ag.Do(func() error { return netio.SetUp("fbe-sw") }); err == nil {
		t.Fatal("veth pair made by the agent survived its shutdown")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
