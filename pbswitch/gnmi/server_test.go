// SPDX-License-Identifier: Apache-2.0

package gnmi_test

import (
	"io"
	"slices"
	"testing"
	"time"

	pb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
	"github.com/flowbuf/flowbuf/pbswitch/gnmi"
)

func TestCapabilities(t *testing.T) {
	c := serve(t, newFakePorts())
	resp, err := c.Capabilities(ctxT(t), &pb.CapabilityRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(resp.GetSupportedEncodings(), []pb.Encoding{pb.Encoding_PROTO}) || resp.GetGNMIVersion() == "" {
		t.Fatalf("capabilities %v", resp)
	}
	var models []string
	for _, m := range resp.GetSupportedModels() {
		models = append(models, m.GetName())
	}
	if !slices.Equal(models, []string{"openconfig-interfaces", "openconfig-if-ethernet"}) {
		t.Fatalf("models %v", models)
	}
}

// leaves flattens a response into path -> value.
func leaves(ns []*pb.Notification) map[string]*pb.TypedValue {
	out := map[string]*pb.TypedValue{}
	for _, n := range ns {
		for _, u := range n.GetUpdate() {
			out[pathString(u.GetPath())] = u.GetVal()
		}
	}
	return out
}

func pathString(p *pb.Path) string {
	s := ""
	for _, e := range p.GetElem() {
		s += "/" + e.GetName()
		if n, ok := e.GetKey()["name"]; ok {
			s += "[name=" + n + "]"
		}
	}
	return s
}

func TestGetLeavesAndTypes(t *testing.T) {
	c := serve(t, newFakePorts())
	ctx := ctxT(t)
	resp, err := c.Get(ctx, &pb.GetRequest{Encoding: pb.Encoding_PROTO, Path: []*pb.Path{
		path("interfaces", "interface=p2", "ethernet"), path("interfaces", "interface=p2", "state", "admin-status")}})
	if err != nil {
		t.Fatal(err)
	}
	got := leaves(resp.GetNotification())
	want := map[string]string{
		"/interfaces/interface[name=p2]/ethernet/state/mac-address":           "02:00:00:00:00:02",
		"/interfaces/interface[name=p2]/ethernet/state/port-speed":            "SPEED_100MB", // its shaped rate
		"/interfaces/interface[name=p2]/ethernet/state/negotiated-port-speed": "SPEED_10GB",
		"/interfaces/interface[name=p2]/state/admin-status":                   "UP",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d leaves, want %d: %v", len(got), len(want), got)
	}
	for p, v := range want {
		if got[p].GetStringVal() != v {
			t.Errorf("%s = %v, want %q", p, got[p], v)
		}
	}
	// The prefix joins the path; "*" is a wildcard element.
	resp, err = c.Get(ctx, &pb.GetRequest{Prefix: path("interfaces"), Type: pb.GetRequest_CONFIG,
		Path: []*pb.Path{path("interface=*", "*", "enabled")}})
	if err != nil {
		t.Fatal(err)
	}
	got = leaves(resp.GetNotification())
	if len(got) != 3 || !got["/interfaces/interface[name=vport100]/config/enabled"].GetBoolVal() {
		t.Fatalf("config/enabled of every interface: %v", got)
	}
	// A path in both forms, as the gnmi module's client sends it, is read by
	// its elements.
	both := path("interfaces", "interface=p1", "state", "name")
	both.Element = []string{"interfaces", "interface[name=p1]", "state", "name"}
	resp, err = c.Get(ctx, &pb.GetRequest{Path: []*pb.Path{both}})
	if err != nil || leaves(resp.GetNotification())["/interfaces/interface[name=p1]/state/name"].GetStringVal() != "p1" {
		t.Fatalf("path with elem and element: %v, %v", resp, err)
	}
	// CONFIG data of a state container is empty, not an error.
	resp, err = c.Get(ctx, &pb.GetRequest{Type: pb.GetRequest_CONFIG, Path: []*pb.Path{path("interfaces", "interface=p1", "state")}})
	if err != nil || len(resp.GetNotification()) != 1 || len(resp.GetNotification()[0].GetUpdate()) != 0 {
		t.Fatalf("CONFIG of state: %v, %v", resp, err)
	}
}

func TestGetBadRequests(t *testing.T) {
	c := serve(t, newFakePorts())
	ctx := ctxT(t)
	for _, tc := range []struct {
		name string
		req  *pb.GetRequest
		code codes.Code
	}{
		{"unknown interface", &pb.GetRequest{Path: []*pb.Path{path("interfaces", "interface=p9", "state")}}, codes.NotFound},
		{"leaf an in-process port lacks", &pb.GetRequest{Path: []*pb.Path{path("interfaces", "interface=vport100", "ethernet", "state", "mac-address")}}, codes.NotFound},
		// ONOS 2.7's GnmiClientImpl.probeService counts INVALID_ARGUMENT as a live server.
		{"ONOS's probe: a path in no model", &pb.GetRequest{Path: []*pb.Path{path("onos-gnmi-ping")}}, codes.InvalidArgument},
		{"an OpenConfig model not served", &pb.GetRequest{Path: []*pb.Path{path("system", "state")}}, codes.Unimplemented},
		{"unknown leaf", &pb.GetRequest{Path: []*pb.Path{path("interfaces", "interface=p1", "state", "mtu")}}, codes.Unimplemented},
		{"other origin", &pb.GetRequest{Path: []*pb.Path{{Origin: "cli", Elem: path("interfaces").Elem}}}, codes.Unimplemented},
		{"key on a container", &pb.GetRequest{Path: []*pb.Path{{Elem: []*pb.PathElem{{Name: "interfaces", Key: map[string]string{"name": "p1"}}}}}}, codes.InvalidArgument},
		{"wrong key", &pb.GetRequest{Path: []*pb.Path{{Elem: []*pb.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"id": "1"}}}}}}, codes.InvalidArgument},
		{"empty element", &pb.GetRequest{Path: []*pb.Path{{Elem: []*pb.PathElem{{Name: "interfaces"}, {}}}}}, codes.InvalidArgument},
		{"deprecated element field", &pb.GetRequest{Path: []*pb.Path{{Element: []string{"interfaces"}}}}, codes.InvalidArgument},
		{"no path", &pb.GetRequest{}, codes.InvalidArgument},
		{"ASCII encoding", &pb.GetRequest{Encoding: pb.Encoding_ASCII, Path: []*pb.Path{path("interfaces")}}, codes.Unimplemented},
		{"JSON_IETF encoding", &pb.GetRequest{Encoding: pb.Encoding_JSON_IETF, Path: []*pb.Path{path("interfaces")}}, codes.Unimplemented},
		{"use_models", &pb.GetRequest{UseModels: []*pb.ModelData{{Name: "openconfig-interfaces"}}, Path: []*pb.Path{path("interfaces")}}, codes.Unimplemented},
		{"unknown data type", &pb.GetRequest{Type: 9, Path: []*pb.Path{path("interfaces")}}, codes.InvalidArgument},
	} {
		_, err := c.Get(ctx, tc.req)
		if status.Code(err) != tc.code {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.code)
		}
	}
}

func subscribe(t *testing.T, c pb.GNMIClient, list *pb.SubscriptionList) pb.GNMI_SubscribeClient {
	t.Helper()
	sub, err := c.Subscribe(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.Send(&pb.SubscribeRequest{Request: &pb.SubscribeRequest_Subscribe{Subscribe: list}}); err != nil {
		t.Fatal(err)
	}
	return sub
}

// untilSync collects notifications up to sync_response.
func untilSync(t *testing.T, sub pb.GNMI_SubscribeClient) []*pb.Notification {
	t.Helper()
	var ns []*pb.Notification
	for {
		r, err := sub.Recv()
		if err != nil {
			t.Fatalf("before sync_response: %v", err)
		}
		if r.GetSyncResponse() {
			return ns
		}
		ns = append(ns, r.GetUpdate())
	}
}

func TestSubscribeOnce(t *testing.T) {
	c := serve(t, newFakePorts())
	sub := subscribe(t, c, &pb.SubscriptionList{Mode: pb.SubscriptionList_ONCE, Encoding: pb.Encoding_PROTO,
		Subscription: []*pb.Subscription{{Path: path("interfaces", "interface=*", "state", "oper-status")},
			{Path: path("interfaces", "interface=p9", "state")}}}) // no such interface: no value
	got := leaves(untilSync(t, sub))
	if len(got) != 3 || got["/interfaces/interface[name=p1]/state/oper-status"].GetStringVal() != "UP" {
		t.Fatalf("ONCE: %v", got)
	}
	if _, err := sub.Recv(); err != io.EOF {
		t.Fatalf("after ONCE the RPC should end: %v", err)
	}
}

func TestSubscribePoll(t *testing.T) {
	f := newFakePorts()
	c := serve(t, f)
	sub := subscribe(t, c, &pb.SubscriptionList{Mode: pb.SubscriptionList_POLL,
		Subscription: []*pb.Subscription{{Path: path("interfaces", "interface=p1", "state", "counters", "in-octets")}}})
	const leaf = "/interfaces/interface[name=p1]/state/counters/in-octets"
	if got := leaves(untilSync(t, sub)); got[leaf].GetUintVal() != 0 || len(got) != 1 {
		t.Fatalf("first poll: %v", got)
	}
	f.update(1, func(ps *dataplane.PortStatus) { ps.Stats.RxBytes = 4242 })
	if err := sub.Send(&pb.SubscribeRequest{Request: &pb.SubscribeRequest_Poll{Poll: &pb.Poll{}}}); err != nil {
		t.Fatal(err)
	}
	if got := leaves(untilSync(t, sub)); got[leaf].GetUintVal() != 4242 {
		t.Fatalf("second poll: %v", got)
	}
	// A second subscription list on the RPC is refused.
	sub.Send(&pb.SubscribeRequest{Request: &pb.SubscribeRequest_Subscribe{Subscribe: &pb.SubscriptionList{}}})
	if _, err := sub.Recv(); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("second list: %v", err)
	}
}

func TestSubscribeStreamSample(t *testing.T) {
	f := newFakePorts()
	c := serve(t, f)
	sub := subscribe(t, c, &pb.SubscriptionList{Mode: pb.SubscriptionList_STREAM, Subscription: []*pb.Subscription{{
		Path: path("interfaces", "interface=p1", "state", "counters", "out-octets"), Mode: pb.SubscriptionMode_SAMPLE,
		SampleInterval: uint64(gnmi.MinSample)}}})
	if got := leaves(untilSync(t, sub)); len(got) != 1 {
		t.Fatalf("initial values: %v", got)
	}
	f.update(1, func(ps *dataplane.PortStatus) { ps.Stats.TxBytes = 99 })
	// Every sample carries the value, changed or not; the new value shows.
	for i := 0; ; i++ {
		r, err := sub.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if leaves([]*pb.Notification{r.GetUpdate()})["/interfaces/interface[name=p1]/state/counters/out-octets"].GetUintVal() == 99 {
			break
		}
		if i > 20 {
			t.Fatal("the sampled counter never moved")
		}
	}
}

func TestSubscribeTargetDefinedStreamsStateOnChange(t *testing.T) {
	f := newFakePorts()
	c := serve(t, f)
	sub := subscribe(t, c, &pb.SubscriptionList{Mode: pb.SubscriptionList_STREAM, Subscription: []*pb.Subscription{{
		Path: path("interfaces", "interface=p1"), Mode: pb.SubscriptionMode_TARGET_DEFINED}}})
	if got := leaves(untilSync(t, sub)); len(got) != 25 {
		t.Fatalf("initial values: %d leaves, want all 25 of a Linux port", len(got))
	}
	start := time.Now()
	f.update(1, func(ps *dataplane.PortStatus) { ps.AdminUp, ps.Oper = false, dataplane.OperDown })
	r, err := sub.Recv()
	if err != nil {
		t.Fatal(err)
	}
	got := leaves([]*pb.Notification{r.GetUpdate()})
	if got["/interfaces/interface[name=p1]/state/oper-status"].GetStringVal() != "DOWN" ||
		got["/interfaces/interface[name=p1]/state/admin-status"].GetStringVal() != "DOWN" ||
		got["/interfaces/interface[name=p1]/config/enabled"] == nil || len(got) != 4 {
		t.Fatalf("the change sent %v", got)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the change took %v", d)
	}
}

func TestSubscribeBadRequests(t *testing.T) {
	c := serve(t, newFakePorts())
	p := path("interfaces", "interface=p1", "state")
	for _, tc := range []struct {
		name string
		req  *pb.SubscribeRequest
		code codes.Code
	}{
		{"poll first", &pb.SubscribeRequest{Request: &pb.SubscribeRequest_Poll{Poll: &pb.Poll{}}}, codes.InvalidArgument},
		{"empty list", sublist(&pb.SubscriptionList{}), codes.InvalidArgument},
		{"path outside the tree", sublist(&pb.SubscriptionList{Subscription: []*pb.Subscription{{Path: path("system")}}}), codes.Unimplemented},
		{"bad key", sublist(&pb.SubscriptionList{Subscription: []*pb.Subscription{{Path: &pb.Path{Elem: []*pb.PathElem{{Name: "interfaces", Key: map[string]string{"a": "b"}}}}}}}), codes.InvalidArgument},
		{"sample too fast", sublist(&pb.SubscriptionList{Subscription: []*pb.Subscription{{Path: p, Mode: pb.SubscriptionMode_SAMPLE, SampleInterval: uint64(time.Millisecond)}}}), codes.InvalidArgument},
		{"heartbeat too fast", sublist(&pb.SubscriptionList{Subscription: []*pb.Subscription{{Path: p, Mode: pb.SubscriptionMode_ON_CHANGE, HeartbeatInterval: 5}}}), codes.InvalidArgument},
		{"target defined with interval", sublist(&pb.SubscriptionList{Subscription: []*pb.Subscription{{Path: p, Mode: pb.SubscriptionMode_TARGET_DEFINED, SampleInterval: uint64(time.Second)}}}), codes.InvalidArgument},
		{"unknown mode", sublist(&pb.SubscriptionList{Subscription: []*pb.Subscription{{Path: p, Mode: 7}}}), codes.InvalidArgument},
		{"unknown list mode", sublist(&pb.SubscriptionList{Mode: 7, Subscription: []*pb.Subscription{{Path: p}}}), codes.InvalidArgument},
		{"bytes encoding", sublist(&pb.SubscriptionList{Encoding: pb.Encoding_BYTES, Subscription: []*pb.Subscription{{Path: p}}}), codes.Unimplemented},
	} {
		sub, err := c.Subscribe(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := sub.Send(tc.req); err != nil {
			t.Fatal(err)
		}
		if _, err := sub.Recv(); status.Code(err) != tc.code {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.code)
		}
	}
	// A poll on a STREAM subscription.
	sub := subscribe(t, c, &pb.SubscriptionList{Subscription: []*pb.Subscription{{Path: p, Mode: pb.SubscriptionMode_ON_CHANGE}}})
	untilSync(t, sub)
	sub.Send(&pb.SubscribeRequest{Request: &pb.SubscribeRequest_Poll{Poll: &pb.Poll{}}})
	for {
		_, err := sub.Recv()
		if err != nil {
			if status.Code(err) != codes.InvalidArgument {
				t.Fatalf("poll on STREAM: %v", err)
			}
			break
		}
	}
}

func sublist(l *pb.SubscriptionList) *pb.SubscribeRequest {
	return &pb.SubscribeRequest{Request: &pb.SubscribeRequest_Subscribe{Subscribe: l}}
}

func TestSetBadRequestsChangeNothing(t *testing.T) {
	f := newFakePorts()
	f.failSet[100] = true
	c := serve(t, f)
	enabled := func(name string, v *pb.TypedValue) *pb.Update {
		return &pb.Update{Path: path("interfaces", "interface="+name, "config", "enabled"), Val: v}
	}
	off := &pb.TypedValue{Value: &pb.TypedValue_BoolVal{BoolVal: false}}
	for _, tc := range []struct {
		name string
		req  *pb.SetRequest
		code codes.Code
	}{
		{"state leaf", &pb.SetRequest{Update: []*pb.Update{{Path: path("interfaces", "interface=p1", "state", "oper-status"), Val: off}}}, codes.InvalidArgument},
		{"wildcard", &pb.SetRequest{Update: []*pb.Update{enabled("*", off)}}, codes.InvalidArgument},
		{"not a bool", &pb.SetRequest{Update: []*pb.Update{enabled("p1", &pb.TypedValue{Value: &pb.TypedValue_StringVal{StringVal: "false"}})}}, codes.InvalidArgument},
		{"unknown interface", &pb.SetRequest{Update: []*pb.Update{enabled("p9", off)}}, codes.NotFound},
		{"outside the tree", &pb.SetRequest{Update: []*pb.Update{{Path: path("system", "config", "hostname"), Val: off}}}, codes.Unimplemented},
		{"delete", &pb.SetRequest{Delete: []*pb.Path{path("interfaces", "interface=p1", "config", "enabled")}}, codes.Unimplemented},
		{"nothing", &pb.SetRequest{}, codes.InvalidArgument},
		// p1 is applied first, then vport100 fails: p1 is put back.
		{"in-process port", &pb.SetRequest{Replace: []*pb.Update{enabled("p1", off)}, Update: []*pb.Update{enabled("vport100", off)}}, codes.FailedPrecondition},
	} {
		_, err := c.Set(ctxT(t), tc.req)
		if status.Code(err) != tc.code {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.code)
		}
		for _, ps := range f.PortStatuses() {
			if !ps.AdminUp {
				t.Fatalf("%s: port %s left down", tc.name, ps.Name)
			}
		}
	}
}
