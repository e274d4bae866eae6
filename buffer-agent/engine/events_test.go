// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

func nextEvent(t *testing.T, s *engine.Subscription) engine.Event {
	t.Helper()
	select {
	case ev := <-s.Events():
		return ev
	case <-time.After(3 * time.Second):
		t.Fatal("no event")
	}
	return engine.Event{}
}

func noEvent(t *testing.T, s *engine.Subscription) {
	t.Helper()
	select {
	case ev := <-s.Events():
		t.Fatalf("unexpected event %+v", ev)
	case <-time.After(20 * time.Millisecond):
	}
}

func TestEvents(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 4})
	in := fx.mustVport(t, "in", engine.ModeRX)
	rules := []engine.EventRule{
		{RuleID: "state", BufferID: "b", Kind: engine.EventStateChanged},
		{RuleID: "first", BufferID: "*", Kind: engine.EventFirstPacket},
		{RuleID: "above", BufferID: "b", Kind: engine.EventOccupancyAbove, ThresholdPackets: 3},
		{RuleID: "marker", BufferID: "b", Kind: engine.EventMarkerSeen,
			Marker: engine.MarkerMatch{Offset: 18, Value: []byte{0, 2}}}, // IPv4 id 2
		{RuleID: "drop", BufferID: "b", Kind: engine.EventDropped},
		{RuleID: "below", BufferID: "b", Kind: engine.EventOccupancyBelow, ThresholdPackets: 1},
		{RuleID: "drained", BufferID: "b", Kind: engine.EventDrained},
	}
	s, err := fx.e.Subscribe(app, rules)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	expect := func(rule string, kind engine.EventKind) engine.Event {
		t.Helper()
		ev := nextEvent(t, s)
		if ev.RuleID != rule || ev.Kind != kind || ev.BufferID != "b" {
			t.Fatalf("event %+v, want rule %s kind %d", ev, rule, kind)
		}
		return ev
	}
	fx.mustBind(t, "b", "in")
	if ev := expect("state", engine.EventStateChanged); ev.State != engine.StateBuffering {
		t.Fatalf("state %v", ev.State)
	}
	in.in.Receive(seqFrames(1, 5)) // capacity 4: one drop
	expect("marker", engine.EventMarkerSeen)
	expect("first", engine.EventFirstPacket)
	expect("above", engine.EventOccupancyAbove)
	if ev := expect("drop", engine.EventDropped); ev.Dropped.Packets != 1 || ev.Dropped.Cause != engine.DropOverflow {
		t.Fatalf("dropped %+v", ev.Dropped)
	}
	in.in.Receive(seqFrames(6, 2)) // within 10 ms: coalesced
	noEvent(t, s)
	fx.clk.Advance(10 * time.Millisecond)
	if ev := expect("drop", engine.EventDropped); ev.Dropped.Packets != 2 {
		t.Fatalf("coalesced drops %+v", ev.Dropped)
	}
	out := fx.mustVport(t, "out", engine.ModeTX)
	fx.mustBind(t, "b", "out")
	expect("state", engine.EventStateChanged)
	out.waitSent(t, 4)
	expect("below", engine.EventOccupancyBelow)
	expect("drained", engine.EventDrained)
	noEvent(t, s)
}

func TestSubscribeValidation(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 4})
	bad := map[string][]engine.EventRule{
		"no rules":       nil,
		"unknown buffer": {{BufferID: "zz", Kind: engine.EventDrained}},
		"no threshold":   {{BufferID: "b", Kind: engine.EventOccupancyAbove}},
		"two thresholds": {{BufferID: "b", Kind: engine.EventOccupancyAbove, ThresholdPackets: 1, ThresholdBytes: 1}},
		"empty marker":   {{BufferID: "b", Kind: engine.EventMarkerSeen}},
		"mask length":    {{BufferID: "b", Kind: engine.EventMarkerSeen, Marker: engine.MarkerMatch{Value: []byte{1}, Mask: []byte{1, 2}}}},
		"bad kind":       {{BufferID: "b", Kind: 42}},
	}
	for name, rules := range bad {
		if _, err := fx.e.Subscribe(app, rules); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	_, err := fx.e.Subscribe("other", []engine.EventRule{{BufferID: "b", Kind: engine.EventDrained}})
	wantCode(t, err, engine.PermissionDenied)
}
