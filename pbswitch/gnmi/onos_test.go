// SPDX-License-Identifier: Apache-2.0

package gnmi_test

import (
	"testing"
	"time"

	pb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

// The requests below are the ones ONOS 2.7.0 sends, and the parsers read
// the answers as its classes do (same elements, same positions, same
// TypedValue getters: a value of another type reads as 0 or "").

// onosPort is what OpenConfigGnmiDeviceDescriptionDiscovery builds.
type onosPort struct {
	number     uint64
	enabled    bool
	lastChange uint64
	haveNumber bool
}

// onosDiscoveryRequest is OpenConfigGnmiDeviceDescriptionDiscovery's
// buildPortStateRequest.
func onosDiscoveryRequest() *pb.GetRequest {
	return &pb.GetRequest{Path: []*pb.Path{path("interfaces", "interface=...", "state")},
		Type: pb.GetRequest_ALL, Encoding: pb.Encoding_PROTO}
}

// onosDiscoverPorts is discoverPortDetails/parseInterfaceInfo.
func onosDiscoverPorts(resp *pb.GetResponse) map[string]*onosPort {
	ports := map[string]*onosPort{}
	for _, n := range resp.GetNotification() {
		for _, u := range n.GetUpdate() {
			name := u.GetPath().GetElem()[1].GetKey()["name"]
			p := ports[name]
			if p == nil {
				p = &onosPort{}
				ports[name] = p
			}
			elems := u.GetPath().GetElem()
			if len(elems) != 4 {
				continue
			}
			switch elems[3].GetName() {
			case "ifindex":
				p.number, p.haveNumber = u.GetVal().GetUintVal(), true
			case "oper-status":
				p.enabled = u.GetVal().GetStringVal() == "UP"
			case "last-change":
				p.lastChange = u.GetVal().GetUintVal()
			}
		}
	}
	return ports
}

// onosStatsRequest is OpenConfigGnmiPortStatisticsDiscovery's request.
func onosStatsRequest(names ...string) *pb.GetRequest {
	req := &pb.GetRequest{Encoding: pb.Encoding_PROTO}
	for _, n := range names {
		req.Path = append(req.Path, path("interfaces", "interface="+n, "state", "counters"))
	}
	return req
}

// onosStats is what discoverPortStatistics sums per interface.
type onosStats struct {
	inPkts, outPkts, inBytes, outBytes, inDropped, outDropped, inErrors, outErrors uint64
	unknown                                                                        []string
}

func onosPortStats(resp *pb.GetResponse) map[string]*onosStats {
	out := map[string]*onosStats{}
	for _, n := range resp.GetNotification() {
		for _, u := range n.GetUpdate() {
			p := u.GetPath()
			name := p.GetElem()[1].GetKey()["name"]
			s := out[name]
			if s == nil {
				s = &onosStats{}
				out[name] = s
			}
			v := u.GetVal().GetUintVal()
			switch c := p.GetElem()[len(p.GetElem())-1].GetName(); c {
			case "in-octets":
				s.inBytes = v
			case "out-octets":
				s.outBytes = v
			case "in-discards", "in-fcs-errors":
				s.inDropped += v
			case "out-discards":
				s.outDropped = v
			case "in-errors":
				s.inErrors = v
			case "out-errors":
				s.outErrors = v
			case "in-unicast-pkts", "in-broadcast-pkts", "in-multicast-pkts", "in-unknown-protos":
				s.inPkts += v
			case "out-unicast-pkts", "out-broadcast-pkts", "out-multicast-pkts":
				s.outPkts += v
			default:
				s.unknown = append(s.unknown, c)
			}
		}
	}
	return out
}

// onosSubscribeRequest is GnmiDeviceStateSubscriber's subscription.
func onosSubscribeRequest(names ...string) *pb.SubscribeRequest {
	list := &pb.SubscriptionList{Mode: pb.SubscriptionList_STREAM, UpdatesOnly: true}
	for _, n := range names {
		list.Subscription = append(list.Subscription, &pb.Subscription{
			Path: path("interfaces", "interface="+n, "state"), Mode: pb.SubscriptionMode_ON_CHANGE})
	}
	return &pb.SubscribeRequest{Request: &pb.SubscribeRequest_Subscribe{Subscribe: list}}
}

// onosOperUpdate is handleGnmiUpdate: an oper-status in the notification
// makes a port status change, with the last-change of the same
// notification.
func onosOperUpdate(n *pb.Notification) (name string, enabled bool, lastChange uint64, ok bool) {
	var status *pb.Update
	for _, u := range n.GetUpdate() {
		elems := u.GetPath().GetElem()
		switch elems[len(elems)-1].GetName() {
		case "oper-status":
			status = u
		case "last-change":
			lastChange = u.GetVal().GetUintVal()
		}
	}
	if status == nil {
		return "", false, 0, false
	}
	return status.GetPath().GetElem()[1].GetKey()["name"], status.GetVal().GetStringVal() == "UP", lastChange, true
}

func TestONOSDiscoversPorts(t *testing.T) {
	f := newFakePorts()
	f.update(2, func(ps *dataplane.PortStatus) { ps.Oper = dataplane.OperLowerLayerDown })
	c := serve(t, f)
	resp, err := c.Get(ctxT(t), onosDiscoveryRequest())
	if err != nil {
		t.Fatal(err)
	}
	ports := onosDiscoverPorts(resp)
	want := map[string]onosPort{
		"p1":       {number: 1, enabled: true, lastChange: uint64(time.Unix(1700000000, 0).UnixNano()), haveNumber: true},
		"p2":       {number: 2, enabled: false, lastChange: uint64(time.Unix(1700000001, 0).UnixNano()), haveNumber: true},
		"vport100": {number: 100, enabled: true, lastChange: uint64(time.Unix(1700000000, 0).UnixNano()), haveNumber: true},
	}
	if len(ports) != len(want) {
		t.Fatalf("ONOS would see %d ports, want %d", len(ports), len(want))
	}
	for name, w := range want {
		if got := ports[name]; got == nil || *got != w {
			t.Errorf("port %s: ONOS reads %+v, want %+v", name, got, w)
		}
	}
}

func TestONOSReadsPortStatistics(t *testing.T) {
	f := newFakePorts()
	f.update(1, func(ps *dataplane.PortStatus) {
		ps.Stats = dataplane.PortStats{RxFrames: 10, RxBytes: 1000, RxMulticast: 2, RxBroadcast: 1,
			TxFrames: 7, TxBytes: 700, TxBroadcast: 1, TxErrors: 3}
		ps.Stats.Queues[0].Drops = map[string]uint64{"queue_full": 4, "dt_threshold": 1}
		ps.Kernel = dataplane.LinkCounters{RxDropped: 5, RxCRCErrors: 6, RxErrors: 8, TxErrors: 9, TxDropped: 1,
			RxRingDrops: 2, RxTruncated: 1}
	})
	c := serve(t, f)
	resp, err := c.Get(ctxT(t), onosStatsRequest("p1", "vport100"))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetNotification()) != 2 {
		t.Fatalf("%d notifications for 2 paths", len(resp.GetNotification()))
	}
	st := onosPortStats(resp)
	want := onosStats{inPkts: 10, outPkts: 7, inBytes: 1000, outBytes: 700, inDropped: 5 + 2 + 6,
		outDropped: 5 + 1, inErrors: 8 + 1, outErrors: 3 + 9}
	if got := st["p1"]; got == nil || len(got.unknown) > 0 || got.inPkts != want.inPkts || got.outPkts != want.outPkts ||
		got.inBytes != want.inBytes || got.outBytes != want.outBytes || got.inDropped != want.inDropped ||
		got.outDropped != want.outDropped || got.inErrors != want.inErrors || got.outErrors != want.outErrors {
		t.Fatalf("ONOS reads p1 as %+v, want %+v", st["p1"], want)
	}
	if got := st["vport100"]; got == nil || len(got.unknown) > 0 || got.inPkts+got.outPkts+got.inBytes+got.outBytes != 0 {
		t.Fatalf("vport100 (no traffic) reads %+v", got)
	}
}

func TestONOSSeesOperStatusChange(t *testing.T) {
	f := newFakePorts()
	c := serve(t, f)
	ctx := ctxT(t)
	sub, err := c.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.Send(onosSubscribeRequest("p1", "p2", "vport100")); err != nil {
		t.Fatal(err)
	}
	// updates_only: the first message is sync_response, with no values.
	if r, err := sub.Recv(); err != nil || !r.GetSyncResponse() {
		t.Fatalf("first message %v (%v), want sync_response", r, err)
	}
	f.update(2, func(ps *dataplane.PortStatus) { ps.Oper = dataplane.OperLowerLayerDown })
	r, err := sub.Recv()
	if err != nil {
		t.Fatal(err)
	}
	name, enabled, lastChange, ok := onosOperUpdate(r.GetUpdate())
	if !ok || name != "p2" || enabled || lastChange != uint64(time.Unix(1700000001, 0).UnixNano()) {
		t.Fatalf("ONOS reads %q enabled=%v last-change=%d ok=%v from %v", name, enabled, lastChange, ok, r)
	}
	f.update(2, func(ps *dataplane.PortStatus) { ps.Oper = dataplane.OperUp })
	r, err = sub.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if name, enabled, _, ok := onosOperUpdate(r.GetUpdate()); !ok || name != "p2" || !enabled {
		t.Fatalf("after the link came back ONOS reads %q enabled=%v (%v)", name, enabled, r)
	}
}

func TestONOSDisablesPort(t *testing.T) {
	f := newFakePorts()
	c := serve(t, f)
	// OpenConfigGnmiPortAdminBehaviour.doEnable(p1, false).
	req := &pb.SetRequest{Update: []*pb.Update{{Path: path("interfaces", "interface=p1", "config", "enabled"),
		Val: &pb.TypedValue{Value: &pb.TypedValue_BoolVal{BoolVal: false}}}}}
	resp, err := c.Set(ctxT(t), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetResponse()) != 1 || resp.GetResponse()[0].GetOp() != pb.UpdateResult_UPDATE {
		t.Fatalf("response %v", resp)
	}
	ps := f.PortStatuses()[0]
	if ps.AdminUp || ps.Oper != dataplane.OperDown {
		t.Fatalf("p1 after Set: admin up %v, oper %s", ps.AdminUp, ps.Oper)
	}
}
