// SPDX-License-Identifier: Apache-2.0

package node_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/node"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

// The lab: h1:eth0 <-> sw:p1 (port 1), h2:eth0 <-> sw:p2 (port 2), vport
// port 100 in-process. nslab frames go 10.251.0.1 -> 10.251.0.2 over UDP.
const vportPort = 100

var labDst = [4]byte{10, 251, 0, 2}

// labSrcMAC is the source MAC nslab frames carry (IsLabFrame checks it), so
// routed frames keep it.
var labSrcMAC = []byte{2, 0xfb, 0, 0, 0, 1}

type lab struct {
	t      *testing.T
	node   *node.Node
	ctl    *ctl.Controller
	h1, h2 *netio.Socket
	rx     chan []byte
	ns     map[string]netio.NS // the lab's namespaces, by name
}

func newLab(t *testing.T) *lab {
	if !nslab.IsRoot() {
		t.Skip("needs root for network namespaces and veth pairs")
	}
	l := nslab.New("pbswt-")
	t.Cleanup(func() { l.Close() })
	var nss [3]netio.NS
	for i, name := range []string{"h1", "h2", "sw"} {
		ns, err := l.NS(name)
		if err != nil {
			t.Fatal(err)
		}
		nss[i] = ns
	}
	if err := l.Veth(nss[0], "eth0", nss[2], "p1"); err != nil {
		t.Fatal(err)
	}
	if err := l.Veth(nss[1], "eth0", nss[2], "p2"); err != nil {
		t.Fatal(err)
	}
	n, err := node.Start(node.Config{DeviceID: 1, CPUPort: 255, P4RTListen: "127.0.0.1:0", BufferListen: "127.0.0.1:0",
		Netns: nss[2].Path, Ports: []node.PortSpec{{ID: 1, Interface: "p1"}, {ID: 2, Interface: "p2"}}, Vports: []uint32{vportPort}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	c, err := ctl.Connect(n.P4RTAddr(), 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	info, err := ctl.LoadPipeline("../../pipeconf/p4src/build")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Push(info); err != nil {
		t.Fatal(err)
	}
	lb := &lab{t: t, node: n, ctl: c, ns: map[string]netio.NS{"h1": nss[0], "h2": nss[1], "sw": nss[2]}}
	for i, ns := range nss[:2] {
		s, err := nslab.Socket(ns, "eth0", 2048, 4096)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			t.Cleanup(func() { s.Wake(); s.Close() })
			lb.h1 = s
		} else {
			lb.h2 = s
		}
	}
	lb.startReader()
	return lb
}

func (l *lab) send(from, to uint32) {
	l.t.Helper()
	var frames [][]byte
	for seq := from; seq < to; seq++ {
		frames = append(frames, nslab.Frame(make([]byte, 128), 100, seq, 0))
	}
	if err := l.h1.Send(frames); err != nil {
		l.t.Fatal(err)
	}
}

// startReader copies every lab frame h2 receives into l.rx until the
// socket is woken at cleanup.
func (l *lab) startReader() {
	l.rx = make(chan []byte, 1<<16)
	done := make(chan struct{})
	l.t.Cleanup(func() {
		l.h2.Wake()
		<-done
		l.h2.Close()
	})
	go func() {
		defer close(done)
		buf := make([][]byte, 0, 64)
		for {
			var err error
			buf, err = l.h2.Recv(buf[:0], 64)
			for _, f := range buf {
				if nslab.IsLabFrame(f) {
					l.rx <- f
				}
			}
			if err != nil {
				return
			}
		}
	}()
}

// receive waits for n lab frames on h2, for at most wait.
func (l *lab) receive(n int, wait time.Duration) [][]byte {
	var out [][]byte
	timeout := time.After(wait)
	for len(out) < n {
		select {
		case f := <-l.rx:
			out = append(out, f)
		case <-timeout:
			return out
		}
	}
	return out
}

func checkInOrder(t *testing.T, frames [][]byte, from uint32) {
	t.Helper()
	for i, f := range frames {
		if nslab.Seq(f) != from+uint32(i) {
			t.Fatalf("frame %d has seq %d, want %d (lost or reordered)", i, nslab.Seq(f), from+uint32(i))
		}
		if f[22] != 63 {
			t.Fatalf("frame %d: TTL %d, want 63 (routed once)", i, f[22])
		}
	}
}

func TestL3ForwardingBetweenVeths(t *testing.T) {
	l := newLab(t)
	mac := []byte{2, 0xfb, 0, 0, 0, 2}
	if err := l.ctl.Insert(l.ctl.Route(labDst, 32, 2, labSrcMAC, mac)); err != nil {
		t.Fatal(err)
	}
	l.send(0, 200)
	got := l.receive(200, 3*time.Second)
	if len(got) != 200 {
		t.Fatalf("%d of 200 frames forwarded; switch stats %+v", len(got), l.node.Switch.Stats())
	}
	checkInOrder(t, got, 0)
	if string(got[0][0:6]) != string(mac) {
		t.Fatalf("dst MAC not rewritten: %x", got[0][0:6])
	}
}

func TestSteeringThroughInProcessBuffer(t *testing.T) {
	l := newLab(t)
	mac := []byte{2, 0xfb, 0, 0, 0, 2}
	err := l.ctl.Insert(l.ctl.Route(labDst, 32, 2, labSrcMAC, mac),
		l.ctl.VportPort(vportPort), l.ctl.SteerDst(labDst, vportPort, 10))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(l.node.BufferAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	api := pb.NewBufferAgentClient(conn)
	ctx := context.Background()
	const app = "pbswitch-test"
	if _, err := api.CreateBuffer(ctx, &pb.CreateBufferRequest{AppId: app, BufferId: "b1",
		Config: &pb.BufferConfig{CapacityPackets: 10000}}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.CreateVport(ctx, &pb.CreateVportRequest{AppId: app, VportId: "v1", Config: &pb.VportConfig{
		Mode: pb.VportMode_VPORT_MODE_RX, Backend: &pb.VportConfig_InProcess{InProcess: &pb.InProcessBackend{Port: vportPort}}}}); err != nil {
		t.Fatal(err)
	}
	// A port that is not a vport port is refused.
	_, err = api.CreateVport(ctx, &pb.CreateVportRequest{AppId: app, VportId: "v2", Config: &pb.VportConfig{
		Mode: pb.VportMode_VPORT_MODE_RX, Backend: &pb.VportConfig_InProcess{InProcess: &pb.InProcessBackend{Port: 7}}}})
	if err == nil {
		t.Fatal("an in-process vport on a non-vport port was accepted")
	}
	if _, err := api.Bind(ctx, &pb.BindRequest{AppId: app, BufferId: "b1", VportId: "v1"}); err != nil {
		t.Fatal(err)
	}
	// The in-process agent serves the whole API, ArmTrigger included.
	if r, err := api.ArmTrigger(ctx, &pb.ArmTriggerRequest{AppId: app, BufferId: "b1"}); err != nil || r.GetWasArmed() {
		t.Fatalf("ArmTrigger %v %v", r, err)
	}
	// Paused: the flow is held in the buffer.
	l.send(0, 100)
	deadline := time.Now().Add(3 * time.Second)
	for {
		b, err := api.QueryBuffer(ctx, &pb.QueryBufferRequest{AppId: app, BufferId: "b1"})
		if err != nil {
			t.Fatal(err)
		}
		if b.GetStats().GetOccupancyPackets() == 100 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("buffer holds %d of 100 packets; switch %+v", b.GetStats().GetOccupancyPackets(), l.node.Switch.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if leaked := l.receive(1, 200*time.Millisecond); len(leaked) != 0 {
		t.Fatalf("a paused packet reached h2 (seq %d)", nslab.Seq(leaked[0]))
	}
	// Resumed through the buffer (Forwarding: RX and TX): the held packets
	// come out first, in order, then the live ones pass through.
	if _, err := api.SetVportMode(ctx, &pb.SetVportModeRequest{AppId: app, VportId: "v1", Mode: pb.VportMode_VPORT_MODE_RX_TX}); err != nil {
		t.Fatal(err)
	}
	l.send(100, 150)
	got := l.receive(150, 3*time.Second)
	if len(got) != 150 {
		t.Fatalf("%d of 150 frames came out; switch %+v", len(got), l.node.Switch.Stats())
	}
	checkInOrder(t, got, 0)
}
