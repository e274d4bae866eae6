// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"slices"
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// hold fills a buffer of the given config through an RX vport, then serves
// it and returns the sequence numbers that came out, plus its stats.
func hold(t *testing.T, cfg engine.BufferConfig, frames [][]byte) ([]uint32, engine.BufferStats) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", cfg)
	in := fx.mustVport(t, "in", engine.ModeRX)
	fx.mustBind(t, "b", "in")
	in.in.Receive(frames)
	st := fx.query(t, "b").Stats
	out := fx.mustVport(t, "out", engine.ModeTX)
	fx.mustBind(t, "b", "out")
	return seqs(out.waitSent(t, int(st.OccupancyPackets))), st
}

func TestDropTailKeepsTheOldest(t *testing.T) {
	got, st := hold(t, engine.BufferConfig{CapacityPackets: 4, Overflow: engine.DropTail}, seqFrames(0, 10))
	if !slices.Equal(got, []uint32{0, 1, 2, 3}) {
		t.Fatalf("kept %v", got)
	}
	if dropsOf(st.Drops, engine.DropOverflow) != 6 || st.HighWatermarkPackets != 4 {
		t.Fatalf("stats %+v", st)
	}
}

func TestDropHeadKeepsTheNewest(t *testing.T) {
	got, st := hold(t, engine.BufferConfig{CapacityPackets: 4, Overflow: engine.DropHead}, seqFrames(0, 10))
	if !slices.Equal(got, []uint32{6, 7, 8, 9}) {
		t.Fatalf("kept %v", got)
	}
	if dropsOf(st.Drops, engine.DropOverflow) != 6 {
		t.Fatalf("stats %+v", st)
	}
}

func TestByteCapacity(t *testing.T) {
	size := uint64(len(udpFrame(0, 0, 0, 0)))
	got, st := hold(t, engine.BufferConfig{CapacityBytes: 3*size + size/2}, seqFrames(0, 5))
	if !slices.Equal(got, []uint32{0, 1, 2}) || st.OccupancyBytes != 3*size {
		t.Fatalf("kept %v, stats %+v", got, st)
	}
}

func TestPoolIsAHardGlobalLimit(t *testing.T) {
	size := uint64(len(udpFrame(0, 0, 0, 0)))
	fx := newFixture(t, engine.Options{Limits: engine.Limits{PoolBytes: 10 * size}})
	for _, id := range []string{"a", "b"} {
		fx.mustBuffer(t, id, engine.BufferConfig{CapacityPackets: 8})
		v := fx.mustVport(t, "v"+id, engine.ModeRX)
		fx.mustBind(t, id, "v"+id)
		v.in.Receive(seqFrames(0, 8))
	}
	a, b := fx.query(t, "a").Stats, fx.query(t, "b").Stats
	if a.OccupancyPackets != 8 || b.OccupancyPackets != 2 || dropsOf(b.Drops, engine.DropPool) != 6 {
		t.Fatalf("a %+v b %+v", a, b)
	}
	if fx.e.PoolUsedBytes() != 10*size {
		t.Fatalf("pool used %d, want %d", fx.e.PoolUsedBytes(), 10*size)
	}
}

func TestAppByteQuotaDropsAsPool(t *testing.T) {
	size := uint64(len(udpFrame(0, 0, 0, 0)))
	fx := newFixture(t, engine.Options{DefaultQuota: engine.Quota{MaxBytes: 3 * size}})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 8})
	v := fx.mustVport(t, "v", engine.ModeRX)
	fx.mustBind(t, "b", "v")
	v.in.Receive(seqFrames(0, 5))
	st := fx.query(t, "b").Stats
	if st.OccupancyPackets != 3 || dropsOf(st.Drops, engine.DropPool) != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// Conservation: every packet that entered is out, held or counted dropped.
func TestCountersConserve(t *testing.T) {
	_, st := hold(t, engine.BufferConfig{CapacityPackets: 7, Overflow: engine.DropHead}, seqFrames(0, 50))
	var dropped uint64
	for _, d := range st.Drops {
		dropped += d.Packets
	}
	if st.PacketsIn != st.PacketsOut+dropped+st.OccupancyPackets {
		t.Fatalf("in %d != out %d + dropped %d + held %d", st.PacketsIn, st.PacketsOut, dropped, st.OccupancyPackets)
	}
}
