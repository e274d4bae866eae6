// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// newWindow is an FMM target's window: it holds the copies 0..held-1 of
// a stream through vport "w" (RX: held; RXTX: delivers back through w).
func newWindow(t *testing.T, held uint32) (*fixture, *capture) {
	t.Helper()
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "win", engine.BufferConfig{CapacityPackets: 1000})
	w := fx.mustVport(t, "w", engine.ModeRX)
	fx.mustBind(t, "win", "w")
	w.in.Receive(seqFrames(0, held))
	return fx, w
}

func (fx *fixture) syncTo(t *testing.T, s uint32, inclusive bool) engine.PurgeResult {
	t.Helper()
	r, err := fx.e.PurgeToSyncPoint(app, "win", idOf(s), inclusive)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The race of issue 26: the source delivered up to packet 14 while the
// target's copies of 10..14 were still on their way. The target purges
// what it holds (0..9, all before the sync point), then drops the late
// copies up to and including 14 as they come, in whatever batches, and
// delivers from 15 on: nothing twice, nothing missed.
func TestPurgeToSyncPointDropsLateCopiesUpToIt(t *testing.T) {
	fx, w := newWindow(t, 10)
	r := fx.syncTo(t, 14, true)
	if r.Found || !r.Awaiting || r.PurgedPackets != 10 {
		t.Fatalf("purge to a sync point not received yet: %+v", r)
	}
	fx.mustMode(t, "w", engine.ModeRXTX) // the attach releases the window at once
	w.in.Receive(seqFrames(10, 3))
	w.in.Receive(seqFrames(13, 7))
	if got := seqs(w.waitSent(t, 5)); !reflect.DeepEqual(got, []uint32{15, 16, 17, 18, 19}) {
		t.Fatalf("delivered %v, want 15..19", got)
	}
	st := fx.query(t, "win").Stats
	if dropsOf(st.Drops, engine.DropPurged) != 15 || st.PacketsIn != 20 {
		t.Fatalf("purged %d of %d in, want 15 of 20", dropsOf(st.Drops, engine.DropPurged), st.PacketsIn)
	}
	if st.SyncAwaits != 1 || st.SyncAwaitsArrived != 1 || st.SyncAwaitsExpired != 0 {
		t.Fatalf("awaits %+v", st)
	}
}

// Not inclusive, the sync point itself is kept.
func TestPurgeToSyncPointExclusiveKeepsIt(t *testing.T) {
	fx, w := newWindow(t, 2)
	fx.syncTo(t, 4, false)
	fx.mustMode(t, "w", engine.ModeRXTX)
	w.in.Receive(seqFrames(2, 4))
	if got := seqs(w.waitSent(t, 2)); !reflect.DeepEqual(got, []uint32{4, 5}) {
		t.Fatalf("delivered %v, want 4, 5", got)
	}
}

// A sync point the window holds is purged to as PurgeUpTo does; nothing
// is awaited, so what arrives next is kept.
func TestPurgeToSyncPointHeld(t *testing.T) {
	fx, w := newWindow(t, 10)
	if r := fx.syncTo(t, 4, true); !r.Found || r.Awaiting || r.PurgedPackets != 5 {
		t.Fatalf("%+v", r)
	}
	w.in.Receive(seqFrames(10, 2))
	if st := fx.query(t, "win").Stats; st.OccupancyPackets != 7 || st.SyncAwaits != 0 {
		t.Fatalf("held %d, awaits %d; want 7, 0", st.OccupancyPackets, st.SyncAwaits)
	}
}

// A sync point the window let go (it delivered it earlier: the UE came
// back) is behind everything held: found, nothing purged, nothing awaited.
func TestPurgeToSyncPointLetGo(t *testing.T) {
	fx, w := newWindow(t, 3)
	fx.syncTo(t, 0, true) // the window remembers what leaves it from now on
	fx.mustMode(t, "w", engine.ModeRXTX)
	w.waitSent(t, 2)
	fx.mustMode(t, "w", engine.ModeRX)
	w.in.Receive(seqFrames(3, 4))
	if r := fx.syncTo(t, 1, true); !r.Found || r.Awaiting || r.PurgedPackets != 0 {
		t.Fatalf("a sync point sent earlier: %+v", r)
	}
	if st := fx.query(t, "win").Stats; st.OccupancyPackets != 4 {
		t.Fatalf("held %d, want 4", st.OccupancyPackets)
	}
}

// A sync point that never comes (its copy was lost) stops the drops at
// the bound, counted; a later sync point replaces an awaited one.
func TestPurgeToSyncPointBoundAndReplace(t *testing.T) {
	fx, w := newWindow(t, 2)
	fx.syncTo(t, 50, true)
	w.in.Receive(seqFrames(2, 3))
	fx.clk.Advance(1100 * time.Millisecond)
	w.in.Receive(seqFrames(5, 3))
	st := fx.query(t, "win").Stats
	if st.OccupancyPackets != 3 || st.SyncAwaitsExpired != 1 || dropsOf(st.Drops, engine.DropPurged) != 5 {
		t.Fatalf("after the bound: held %d, expired %d, purged %d; want 3, 1, 5",
			st.OccupancyPackets, st.SyncAwaitsExpired, dropsOf(st.Drops, engine.DropPurged))
	}
	fx.syncTo(t, 60, true)
	fx.syncTo(t, 61, true)
	w.in.Receive(seqFrames(60, 3))
	if st := fx.query(t, "win").Stats; st.SyncAwaitsReplaced != 1 || st.SyncAwaitsArrived != 1 || st.OccupancyPackets != 1 {
		t.Fatalf("replaced %d, arrived %d, held %d; want 1, 1, 1", st.SyncAwaitsReplaced, st.SyncAwaitsArrived, st.OccupancyPackets)
	}
}

// A drop-head window that dropped packets for room since its last sync
// cannot tell a late sync point from one it dropped long ago (everything
// held then came after it: purging it would lose what the UE needs), so it
// purges nothing and awaits nothing, as PurgeUpTo; a sync point it finds
// clears that, as later sync points are newer than what it dropped.
func TestPurgeToSyncPointAfterOverflowIsNotAwaited(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "win", engine.BufferConfig{CapacityPackets: 4, Overflow: engine.DropHead})
	w := fx.mustVport(t, "w", engine.ModeRX)
	fx.mustBind(t, "win", "w")
	w.in.Receive(seqFrames(0, 6)) // 0 and 1 dropped for room: holds 2..5
	if r := fx.syncTo(t, 1, true); r.Found || r.Awaiting || r.PurgedPackets != 0 {
		t.Fatalf("a sync point dropped for room before the first sync: %+v", r)
	}
	if r := fx.syncTo(t, 3, true); !r.Found || r.PurgedPackets != 2 {
		t.Fatalf("a held sync point: %+v", r)
	}
	w.in.Receive(seqFrames(6, 2)) // holds 4..7
	if r := fx.syncTo(t, 9, true); !r.Awaiting || r.PurgedPackets != 4 {
		t.Fatalf("a late sync point after a sync: %+v", r)
	}
	w.in.Receive(seqFrames(8, 8)) // 8, 9 dropped as awaited; holds 12..15, 10 and 11 dropped for room
	if r := fx.syncTo(t, 30, true); r.Found || r.Awaiting {
		t.Fatalf("a sync point missing after drops for room: %+v", r)
	}
	if st := fx.query(t, "win").Stats; st.OccupancyPackets != 4 {
		t.Fatalf("held %d, want 4 (nothing purged)", st.OccupancyPackets)
	}
}
