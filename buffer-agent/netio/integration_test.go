// SPDX-License-Identifier: Apache-2.0

package netio_test

import (
	"slices"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
)

func wantState(t *testing.T, r *rig, want engine.State) engine.BufferInfo {
	t.Helper()
	b, err := r.eng.QueryBuffer(app, "b")
	if err != nil {
		t.Fatal(err)
	}
	if b.State != want {
		t.Fatalf("state %v, want %v", b.State, want)
	}
	return b
}

func waitOccupancy(t *testing.T, r *rig, n uint64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := r.eng.QueryBuffer(app, "b")
		if b.Stats.OccupancyPackets == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("occupancy %d, want %d (stats %+v)", b.Stats.OccupancyPackets, n, b.Stats)
		}
		time.Sleep(time.Millisecond)
	}
}

func waitRx(t *testing.T, r *rig, vport string, n uint64) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); r.rxCount(t, vport) < n; {
		if time.Now().After(deadline) {
			t.Fatalf("vport %s received %d frames, want %d", vport, r.rxCount(t, vport), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPauseStoreResume100k: a 100k-frame stream is paused (BUFFERING),
// held (STORING), served (SERVING) and resumed (FORWARDING) while the rest
// of the stream flows; every frame arrives once and in order.
func TestPauseStoreResume100k(t *testing.T) {
	const total, paused = 100_000, 40_000
	r := newRig(t, "pr")
	if _, err := r.eng.CreateBuffer(app, "b", engine.BufferConfig{CapacityPackets: total}); err != nil {
		t.Fatal(err)
	}
	r.vport(t, "in", "ag-in", engine.ModeRX)
	r.vport(t, "out", "ag-out", engine.ModeNone)
	for _, v := range []string{"in", "out"} {
		if _, err := r.eng.Bind(app, "b", v); err != nil {
			t.Fatal(err)
		}
	}
	wantState(t, r, engine.StateBuffering)
	r.send(t, 0, paused)
	waitOccupancy(t, r, paused)
	if n := r.rx.count(); n != 0 {
		t.Fatalf("%d frames leaked out while paused", n)
	}
	if _, err := r.eng.Unbind(app, "b", "in"); err != nil {
		t.Fatal(err)
	}
	wantState(t, r, engine.StateStoring)
	if _, err := r.eng.SetVportMode(app, "out", engine.ModeTX, nil); err != nil {
		t.Fatal(err)
	}
	wantState(t, r, engine.StateServing)
	if _, err := r.eng.Bind(app, "b", "in"); err != nil {
		t.Fatal(err)
	}
	wantState(t, r, engine.StateForwarding) // resumed while the backlog drains
	r.send(t, paused, total-paused)
	got := r.rx.waitFor(total, 5*time.Second)
	lost, reordered, dup := lostAndReordered(got, 0, total)
	b := wantState(t, r, engine.StateForwarding)
	t.Logf("received %d, lost %d, reordered %d, duplicated %d; buffer %+v", len(got), lost, reordered, dup, b.Stats)
	if lost != 0 || reordered != 0 || dup != 0 || len(got) != total {
		t.Fatalf("lost %d reordered %d duplicated %d of %d", lost, reordered, dup, total)
	}
}

func TestTxModeVportDropsAndCounts(t *testing.T) {
	r := newRig(t, "txm")
	if _, err := r.eng.CreateBuffer(app, "b", engine.BufferConfig{CapacityPackets: 100}); err != nil {
		t.Fatal(err)
	}
	r.vport(t, "in", "ag-in", engine.ModeTX)
	r.vport(t, "out", "ag-out", engine.ModeTX)
	for _, v := range []string{"in", "out"} {
		if _, err := r.eng.Bind(app, "b", v); err != nil {
			t.Fatal(err)
		}
	}
	r.send(t, 0, 1000)
	waitRx(t, r, "in", 1000)
	v, _ := r.eng.QueryVport(app, "in")
	var txMode uint64
	for _, d := range v.Stats.Drops {
		if d.Cause == engine.DropTxMode {
			txMode = d.Packets
		}
	}
	b := wantState(t, r, engine.StateServing)
	if txMode != 1000 || v.Stats.RxPackets != 1000 || b.Stats.PacketsIn != 0 {
		t.Fatalf("vport %+v buffer %+v", v.Stats, b.Stats)
	}
	if got := r.rx.waitFor(1, 200*time.Millisecond); len(got) != 0 {
		t.Fatalf("%d frames went through a TX-mode vport", len(got))
	}
}

func TestOverflowPoliciesOnRealPackets(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy engine.OverflowPolicy
		first  uint32
	}{{"tail", engine.DropTail, 0}, {"head", engine.DropHead, 900}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "of"+tc.name[:1])
			cfg := engine.BufferConfig{CapacityPackets: 100, Overflow: tc.policy}
			if _, err := r.eng.CreateBuffer(app, "b", cfg); err != nil {
				t.Fatal(err)
			}
			r.vport(t, "in", "ag-in", engine.ModeRX)
			r.vport(t, "out", "ag-out", engine.ModeTX)
			if _, err := r.eng.Bind(app, "b", "in"); err != nil {
				t.Fatal(err)
			}
			r.send(t, 0, 1000)
			waitRx(t, r, "in", 1000)
			waitOccupancy(t, r, 100)
			if _, err := r.eng.Bind(app, "b", "out"); err != nil {
				t.Fatal(err)
			}
			got := r.rx.waitFor(100, time.Second)
			want := make([]uint32, 100)
			for i := range want {
				want[i] = tc.first + uint32(i)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("kept %d frames %v..., want %d..%d", len(got), got[:min(5, len(got))], want[0], want[99])
			}
		})
	}
}

// TestVethCreatedAndRemovedWithVport checks create_veth_peer and that
// offloads are off on the agent's end.
func TestVethCreatedAndRemovedWithVport(t *testing.T) {
	r := newRig(t, "veth")
	cfg := engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{
		Kind: engine.BackendLinuxInterface, Interface: "fbv-a", CreateVethPeer: "fbv-sw"}}
	if _, err := r.eng.CreateVport(app, "v", cfg); err != nil {
		t.Fatal(err)
	}
	err := r.ag.Do(func() error {
		on, err := netio.OffloadsOn("fbv-a")
		if err != nil {
			return err
		}
		if len(on) != 0 {
			t.Errorf("offloads still on: %v", on)
		}
		return netio.SetUp("fbv-sw")
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.eng.CreateVport(app, "v2", engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{
		Kind: engine.BackendLinuxInterface, Interface: "nosuch0"}})
	if code, _ := engine.CodeOf(err); code != engine.InvalidArgument {
		t.Fatalf("unknown interface: %v", err)
	}
	if err := r.eng.RemoveVport(app, "v"); err != nil {
		t.Fatal(err)
	}
	err = r.ag.Do(func() error { return netio.SetUp("fbv-sw") })
	if err == nil {
		t.Fatal("veth peer still exists after the vport was removed")
	}
}

type discardIngress struct{}

func (discardIngress) Receive(frames [][]byte) { engine.PutFrames(frames) }

// TestReopenTakesOverTheVethOfACrashedAgent: a vport that created its veth
// pair, left behind by an agent killed with -9, is opened again by the
// restarted agent (Open would refuse: the pair exists) and its removal
// removes the pair as if the new agent had made it.
func TestReopenTakesOverTheVethOfACrashedAgent(t *testing.T) {
	r := newRig(t, "reopen")
	spec := engine.BackendSpec{Kind: engine.BackendLinuxInterface, Interface: "fbv-a", CreateVethPeer: "fbv-sw"}
	if _, err := (&netio.Factory{NS: r.ag}).Open("v", spec, discardIngress{}); err != nil {
		t.Fatal(err) // the crashed agent's: never closed
	}
	if _, err := (&netio.Factory{NS: r.ag}).Open("v", spec, discardIngress{}); err == nil {
		t.Fatal("Open took a veth pair that exists")
	}
	be, err := (&netio.Factory{NS: r.ag}).Reopen("v", spec, discardIngress{})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := be.(engine.InterfaceCounter).InterfaceRxPackets(); err != nil {
		t.Fatalf("rx counter %d: %v", n, err)
	}
	if err := be.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.ag.Do(func() error { return netio.SetUp("fbv-sw") }); err == nil {
		t.Fatal("veth peer still exists after the re-opened vport was closed")
	}
}
