// SPDX-License-Identifier: Apache-2.0

package node_test

import (
	"context"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/vishvananda/netlink"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

// gnmiClient dials the node's gNMI server: the P4Runtime address.
func (l *lab) gnmiClient() gpb.GNMIClient {
	conn, err := grpc.NewClient(l.node.P4RTAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		l.t.Fatal(err)
	}
	l.t.Cleanup(func() { conn.Close() })
	return gpb.NewGNMIClient(conn)
}

func ifacePath(name string, elems ...string) *gpb.Path {
	p := &gpb.Path{Elem: []*gpb.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": name}}}}
	for _, e := range elems {
		p.Elem = append(p.Elem, &gpb.PathElem{Name: e})
	}
	return p
}

// counters reads an interface's counters by name.
func counters(t *testing.T, c gpb.GNMIClient, iface string) map[string]uint64 {
	t.Helper()
	resp, err := c.Get(context.Background(), &gpb.GetRequest{Encoding: gpb.Encoding_PROTO,
		Path: []*gpb.Path{ifacePath(iface, "state", "counters")}})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, u := range resp.GetNotification()[0].GetUpdate() {
		el := u.GetPath().GetElem()
		out[el[len(el)-1].GetName()] = u.GetVal().GetUintVal()
	}
	return out
}

func TestGNMICountersMoveWithTraffic(t *testing.T) {
	l := newLab(t)
	c := l.gnmiClient()
	mac := []byte{2, 0xfb, 0, 0, 0, 2}
	if err := l.ctl.Insert(l.ctl.Route(labDst, 32, 2, labSrcMAC, mac)); err != nil {
		t.Fatal(err)
	}
	in0, out0 := counters(t, c, "p1"), counters(t, c, "p2")
	const n, size = 200, 100
	l.send(0, n)
	if got := l.receive(n, 3*time.Second); len(got) != n {
		t.Fatalf("%d of %d frames forwarded", len(got), n)
	}
	// The egress counts land after the frames left: wait for them.
	deadline := time.Now().Add(5 * time.Second)
	for counters(t, c, "p2")["out-unicast-pkts"]-out0["out-unicast-pkts"] < n && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	in1, out1 := counters(t, c, "p1"), counters(t, c, "p2")
	for _, chk := range []struct {
		what      string
		got, want uint64
	}{
		{"p1 in-unicast-pkts", in1["in-unicast-pkts"] - in0["in-unicast-pkts"], n},
		{"p1 in-octets", in1["in-octets"] - in0["in-octets"], n * size},
		{"p2 out-unicast-pkts", out1["out-unicast-pkts"] - out0["out-unicast-pkts"], n},
		{"p2 out-octets", out1["out-octets"] - out0["out-octets"], n * size},
		{"p2 out-discards", out1["out-discards"] - out0["out-discards"], 0},
	} {
		if chk.got != chk.want {
			t.Errorf("%s moved by %d, want %d (p1 %v, p2 %v)", chk.what, chk.got, chk.want, in1, out1)
		}
	}
}

func TestGNMIStreamsOperStatusOfAVeth(t *testing.T) {
	l := newLab(t)
	c := l.gnmiClient()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sub, err := c.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// As ONOS 2.7 subscribes: the state container of each port, ON_CHANGE,
	// updates only.
	list := &gpb.SubscriptionList{Mode: gpb.SubscriptionList_STREAM, UpdatesOnly: true,
		Subscription: []*gpb.Subscription{{Path: ifacePath("p1", "state"), Mode: gpb.SubscriptionMode_ON_CHANGE}}}
	if err := sub.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: list}}); err != nil {
		t.Fatal(err)
	}
	if r, err := sub.Recv(); err != nil || !r.GetSyncResponse() {
		t.Fatalf("first message %v (%v), want sync_response", r, err)
	}
	// Pull the cable: h1's end of p1's veth goes down (the kernel reports
	// p1 DOWN, no carrier; LOWER_LAYER_DOWN on some kernels: ONOS takes
	// anything but UP as disabled).
	seen := make(chan dataplane.PortStatus, 16)
	stop := l.node.Switch.WatchPorts(func(ps dataplane.PortStatus) { seen <- ps })
	defer stop()
	setLink(t, l, "h1", "eth0", false)
	// The kernel's link message reaches the switch by itself, unasked.
	select {
	case ps := <-seen:
		if ps.ID != 1 || ps.Oper == dataplane.OperUp || !ps.AdminUp {
			t.Fatalf("the switch saw %+v", ps)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no port change seen after the peer went down")
	}
	waitOper(t, sub, func(s string) bool { return s == "DOWN" || s == "LOWER_LAYER_DOWN" })
	setLink(t, l, "h1", "eth0", true)
	waitOper(t, sub, func(s string) bool { return s == "UP" })

	// ONOS disables the port through Set: the switch's end goes down.
	_, err = c.Set(ctx, &gpb.SetRequest{Update: []*gpb.Update{{Path: ifacePath("p1", "config", "enabled"),
		Val: &gpb.TypedValue{Value: &gpb.TypedValue_BoolVal{BoolVal: false}}}}})
	if err != nil {
		t.Fatal(err)
	}
	waitOper(t, sub, func(s string) bool { return s == "DOWN" })
	resp, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{ifacePath("p1", "state", "admin-status")}})
	if err != nil || resp.GetNotification()[0].GetUpdate()[0].GetVal().GetStringVal() != "DOWN" {
		t.Fatalf("admin-status after Set: %v (%v)", resp, err)
	}
}

// setLink brings interface name of namespace ns of the lab up or down.
func setLink(t *testing.T, l *lab, ns, name string, up bool) {
	t.Helper()
	err := l.ns[ns].Do(func() error {
		lk, err := netlink.LinkByName(name)
		if err != nil {
			return err
		}
		if up {
			return netlink.LinkSetUp(lk)
		}
		return netlink.LinkSetDown(lk)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// waitOper reads the stream until p1's oper-status is one want takes,
// checking that last-change comes in the same notification (as ONOS reads
// it) and is recent.
func waitOper(t *testing.T, sub gpb.GNMI_SubscribeClient, want func(string) bool) {
	t.Helper()
	for {
		r, err := sub.Recv()
		if err != nil {
			t.Fatalf("waiting for an oper-status change: %v", err)
		}
		var oper string
		var lastChange uint64
		for _, u := range r.GetUpdate().GetUpdate() {
			el := u.GetPath().GetElem()
			switch el[len(el)-1].GetName() {
			case "oper-status":
				oper = u.GetVal().GetStringVal()
			case "last-change":
				lastChange = u.GetVal().GetUintVal()
			}
		}
		if oper != "" && want(oper) {
			if age := time.Since(time.Unix(0, int64(lastChange))); age < 0 || age > 10*time.Second {
				t.Fatalf("oper-status %s came with last-change %d (%v ago)", oper, lastChange, age)
			}
			return
		}
	}
}
