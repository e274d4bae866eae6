// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"slices"
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

func TestDeriveStateTable(t *testing.T) {
	cases := []struct {
		rx, tx bool
		occ    uint64
		want   engine.State
	}{
		{false, false, 0, engine.StateFree},
		{false, false, 3, engine.StateStoring},
		{true, false, 0, engine.StateBuffering},
		{true, false, 3, engine.StateBuffering},
		{false, true, 0, engine.StateServing},
		{false, true, 3, engine.StateServing},
		{true, true, 0, engine.StateForwarding},
		{true, true, 3, engine.StateForwarding},
	}
	for _, c := range cases {
		if got := engine.DeriveState(c.rx, c.tx, c.occ); got != c.want {
			t.Errorf("DeriveState(%v,%v,%d) = %v, want %v", c.rx, c.tx, c.occ, got, c.want)
		}
	}
}

// TestEveryStateTransition walks a buffer through the pause/resume life
// cycle and checks the derived state and the packets at each step.
func TestEveryStateTransition(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 100})
	in := fx.mustVport(t, "in", engine.ModeRX)
	out := fx.mustVport(t, "out", engine.ModeNone)
	step := func(want engine.State) {
		t.Helper()
		if got := fx.query(t, "b").State; got != want {
			t.Fatalf("state = %v, want %v", got, want)
		}
	}
	step(engine.StateFree)
	fx.mustBind(t, "b", "in")
	step(engine.StateBuffering)
	in.in.Receive(seqFrames(0, 10))
	fx.mustBind(t, "b", "out")
	step(engine.StateBuffering) // out has mode NONE
	if _, err := fx.e.Unbind(app, "b", "in"); err != nil {
		t.Fatal(err)
	}
	step(engine.StateStoring)
	fx.mustMode(t, "out", engine.ModeTX)
	step(engine.StateServing)
	if got := seqs(out.waitSent(t, 10)); !slices.Equal(got, []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("served %v", got)
	}
	fx.mustMode(t, "out", engine.ModeRXTX)
	step(engine.StateForwarding)
	out.in.Receive(seqFrames(10, 5)) // RX_TX: the same vport feeds and serves
	out.waitSent(t, 15)
	fx.mustMode(t, "out", engine.ModeRX)
	step(engine.StateBuffering)
	out.in.Receive(seqFrames(15, 2))
	if _, err := fx.e.Unbind(app, "b", "out"); err != nil {
		t.Fatal(err)
	}
	step(engine.StateStoring)
	if _, err := fx.e.PurgeUpTo(app, "b", engine.PacketID{IPv4ID: 16, L4Checksum: 16 * 7}, true); err != nil {
		t.Fatal(err)
	}
	step(engine.StateFree)
	st := fx.query(t, "b").Stats
	if st.PacketsIn != 17 || st.PacketsOut != 15 || dropsOf(st.Drops, engine.DropPurged) != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestTxModeAndUnboundDropsAreCounted(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	tx := fx.mustVport(t, "tx", engine.ModeTX)
	rx := fx.mustVport(t, "rx", engine.ModeRX)
	tx.in.Receive(seqFrames(0, 4))
	rx.in.Receive(seqFrames(0, 3))
	v, _ := fx.e.QueryVport(app, "tx")
	if dropsOf(v.Stats.Drops, engine.DropTxMode) != 4 || v.Stats.RxPackets != 4 {
		t.Fatalf("tx vport stats %+v", v.Stats)
	}
	v, _ = fx.e.QueryVport(app, "rx")
	if dropsOf(v.Stats.Drops, engine.DropUnbound) != 3 {
		t.Fatalf("rx vport stats %+v", v.Stats)
	}
}

func TestPriorityServesHigherClassFirst(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 100, Queue: engine.QueuePriority})
	in := fx.mustVport(t, "in", engine.ModeRX)
	out := fx.mustVport(t, "out", engine.ModeNone)
	fx.mustBind(t, "b", "in")
	fx.mustBind(t, "b", "out")
	// DSCP 46 (EF) is class 5, DSCP 0 class 0, DSCP 10 class 1.
	in.in.Receive([][]byte{udpFrame(1, 1, 1, 0), udpFrame(2, 2, 2, 46), udpFrame(3, 3, 3, 10), udpFrame(4, 4, 4, 46)})
	fx.mustMode(t, "out", engine.ModeTX)
	if got := seqs(out.waitSent(t, 4)); !slices.Equal(got, []uint32{2, 4, 3, 1}) {
		t.Fatalf("priority order %v, want [2 4 3 1]", got)
	}
}

func TestReusedIDStartsEmptyForNewOwner(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 10})
	in := fx.mustVport(t, "in", engine.ModeRX)
	fx.mustBind(t, "b", "in")
	in.in.Receive(seqFrames(0, 5))
	if _, err := fx.e.Unbind(app, "b", "in"); err != nil {
		t.Fatal(err)
	}
	n, err := fx.e.RemoveBuffer(app, "b", true)
	if err != nil || n != 5 {
		t.Fatalf("remove = %d, %v", n, err)
	}
	b, err := fx.e.CreateBuffer("other.app", "b", engine.BufferConfig{CapacityPackets: 10})
	if err != nil {
		t.Fatal(err)
	}
	if b.Stats.OccupancyPackets != 0 || b.Stats.PacketsIn != 0 || b.Owner != "other.app" {
		t.Fatalf("reused buffer not fresh: %+v", b)
	}
	if fx.e.PoolUsedBytes() != 0 {
		t.Fatalf("pool still holds %d bytes", fx.e.PoolUsedBytes())
	}
}

func TestTransmitErrorsAreCounted(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 10})
	in := fx.mustVport(t, "in", engine.ModeRX)
	out := fx.mustVport(t, "out", engine.ModeTX)
	out.mu.Lock()
	out.fail = true
	out.mu.Unlock()
	fx.mustBind(t, "b", "in")
	fx.mustBind(t, "b", "out")
	in.in.Receive(seqFrames(0, 3))
	v, _ := fx.e.QueryVport(app, "out")
	if v.Stats.TxErrors != 3 || v.Stats.TxPackets != 0 {
		t.Fatalf("vport stats %+v", v.Stats)
	}
}

// vlanFrame tags a UDP frame with 802.1Q PCP pcp.
func vlanFrame(seq uint32, pcp byte) []byte {
	f := udpFrame(seq, uint16(seq), 1, 0)
	tagged := append(append([]byte{}, f[:12]...), 0x81, 0x00, pcp<<5, 10)
	return append(tagged, f[12:]...)
}

func TestPriorityByVLANPCPWithFourClasses(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 100, Queue: engine.QueuePriority,
		Priority: engine.PriorityConfig{Classes: 4, Field: engine.FieldVLANPCP}})
	in := fx.mustVport(t, "in", engine.ModeRX)
	out := fx.mustVport(t, "out", engine.ModeNone)
	fx.mustBind(t, "b", "in")
	fx.mustBind(t, "b", "out")
	// Four classes: PCP 0-1 -> 0, 2-3 -> 1, 4-5 -> 2, 6-7 -> 3; untagged is 0.
	in.in.Receive([][]byte{vlanFrame(1, 1), vlanFrame(2, 7), udpFrame(3, 3, 3, 46), vlanFrame(4, 4), vlanFrame(5, 6)})
	fx.mustMode(t, "out", engine.ModeTX)
	got := out.waitSent(t, 5)
	order := make([]uint32, len(got))
	for i, f := range got {
		if f[12] == 0x81 {
			f = f[4:] // skip the tag: the sequence sits 4 bytes later
		}
		order[i] = seqOf(f)
	}
	if !slices.Equal(order, []uint32{2, 5, 4, 1, 3}) {
		t.Fatalf("priority order %v, want [2 5 4 1 3]", order)
	}
}
