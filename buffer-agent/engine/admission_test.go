// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// poolLab is a pool of 100 frames of 1000 bytes (the quota is the pool).
const (
	labFrame = 1000
	labPool  = 100 * labFrame
)

func labFrames(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = make([]byte, labFrame)
	}
	return out
}

func newPoolLab(t *testing.T, adm *engine.AdmissionConfig) *fixture {
	return newFixture(t, engine.Options{Limits: engine.Limits{PoolBytes: labPool}, Admission: adm})
}

// pause makes a paused buffer: created and bound to an RX vport only
// (BUFFERING); it returns the vport.
func (fx *fixture) pause(t *testing.T, id string) *capture {
	t.Helper()
	fx.mustBuffer(t, id, engine.BufferConfig{CapacityBytes: labPool})
	in := fx.mustVport(t, id+"-rx", engine.ModeRX)
	fx.mustBind(t, id, id+"-rx")
	return in
}

func poolDrops(st engine.BufferStats, r engine.PoolDropReason) uint64 {
	for _, d := range st.PoolDrops {
		if d.Reason == r {
			return d.Packets
		}
	}
	return 0
}

// TestLongPauseDoesNotStarveABurst is the starvation case, worked out by
// hand (thresholds in TestThresholds). A long pause receives a frame
// every 10 ms for 1 s (100 frames, the whole pool), then a burst of 30
// frames hits a new pause, as one batch.
//
//   - quota: the long pause takes all 100 frames (then overflows its
//     capacity, the pool); the burst finds the pool full: 30 lost
//     (pool_full).
//   - dt, alpha 1: the long pause stops at L = 100 000 − L = 50 frames;
//     the burst at S = 50 000 − S = 25 frames: 5 lost (dt_threshold).
//   - fb, alpha 1, gamma 0.25 after 100 ms: the long pause takes its
//     first 10 frames young (gamma 1), then is a long pause and stops at
//     L = 0.25 x (100 000 − L) = 20 frames; the burst, high priority and
//     alone there, may grow to S = 80 000 − S = 40 frames: none lost.
func TestLongPauseDoesNotStarveABurst(t *testing.T) {
	for _, c := range []struct {
		alg                  engine.Algorithm
		longKept, burstKept  uint64
		longReason, burstWhy engine.PoolDropReason
	}{
		{engine.AdmitQuota, 100, 0, engine.PoolFull, engine.PoolFull},
		{engine.AdmitDT, 50, 25, engine.PoolDTThreshold, engine.PoolDTThreshold},
		{engine.AdmitFB, 20, 30, engine.PoolFBThreshold, engine.PoolFBThreshold},
	} {
		t.Run(c.alg.String(), func(t *testing.T) {
			fx := newPoolLab(t, &engine.AdmissionConfig{Algorithm: c.alg})
			long := fx.pause(t, "long")
			for range 100 {
				long.in.Receive(labFrames(1))
				fx.clk.Advance(10 * time.Millisecond)
			}
			long.in.Receive(labFrames(5)) // more keeps being refused
			burst := fx.pause(t, "burst")
			burst.in.Receive(labFrames(30))

			l, b := fx.query(t, "long").Stats, fx.query(t, "burst").Stats
			if l.OccupancyPackets != c.longKept || b.OccupancyPackets != c.burstKept {
				t.Fatalf("long kept %d, burst kept %d; want %d and %d", l.OccupancyPackets, b.OccupancyPackets, c.longKept, c.burstKept)
			}
			if c.alg == engine.AdmitQuota {
				// The long pause's capacity is the pool: its last 5 overflow.
				if got := dropsOf(l.Drops, engine.DropOverflow); got != 5 {
					t.Errorf("long: %d OVERFLOW drops, want 5", got)
				}
			} else if got := poolDrops(l, c.longReason); got != 105-c.longKept {
				t.Errorf("long: %d %v drops, want %d (%+v)", got, c.longReason, 105-c.longKept, l.PoolDrops)
			}
			if got := poolDrops(b, c.burstWhy); got != 30-c.burstKept {
				t.Errorf("burst: %d %v drops, want %d (%+v)", got, c.burstWhy, 30-c.burstKept, b.PoolDrops)
			}
			// The API's POOL cause is the sum of the reasons.
			if got := dropsOf(b.Drops, engine.DropPool); got != 30-c.burstKept {
				t.Errorf("burst: %d POOL drops, want %d", got, 30-c.burstKept)
			}
		})
	}
}

// TestFBLongPausesShareTheirThreshold: under FB, N_p divides the long
// pauses' threshold among them, and unbinding RX (STORING) takes a buffer
// out of N_p. Two long pauses alternate frames: each stops where
// L = 1/2 x 0.25 x (100 000 − 2L), at 100 000/10 = 10 000 bytes, 10
// frames each (the first ten frames of each are young, gamma 1: 5 each
// at 10 ms per pair, so both are long from the sixth pair on).
func TestFBLongPausesShareTheirThreshold(t *testing.T) {
	fx := newPoolLab(t, &engine.AdmissionConfig{Algorithm: engine.AdmitFB})
	a, b := fx.pause(t, "a"), fx.pause(t, "b")
	for range 50 {
		a.in.Receive(labFrames(1))
		b.in.Receive(labFrames(1))
		fx.clk.Advance(20 * time.Millisecond)
	}
	for _, id := range []string{"a", "b"} {
		if got := fx.query(t, id).Stats.OccupancyPackets; got != 10 {
			t.Errorf("%s holds %d frames, want 10", id, got)
		}
	}
	if low, high := fx.e.PoolCongested(); low != 2 || high != 0 {
		t.Fatalf("N_p low %d high %d, want 2 and 0", low, high)
	}
	// b stops receiving (STORING): a alone may grow to
	// L = 0.25 x (100 000 − 10 000 − L) = 18 000.
	fx.mustMode(t, "b-rx", engine.ModeNone)
	if low, high := fx.e.PoolCongested(); low != 1 || high != 0 {
		t.Fatalf("after b's RX went: N_p low %d high %d, want 1 and 0", low, high)
	}
	a.in.Receive(labFrames(20))
	if got := fx.query(t, "a").Stats.OccupancyPackets; got != 18 {
		t.Errorf("a holds %d frames alone, want 18", got)
	}
	// Draining empties a buffer out of N_p.
	fx.mustMode(t, "a-rx", engine.ModeTX)
	a.waitSent(t, 18)
	waitFor(t, func() bool { low, _ := fx.e.PoolCongested(); return low == 0 })
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("condition not met within 5 s")
}

// TestFBClassesByOwner: an owner's class gives alpha; a class marked Low
// is a long pause's priority from its first packet, not its gamma.
func TestFBClassesByOwner(t *testing.T) {
	fx := newPoolLab(t, &engine.AdmissionConfig{
		Algorithm: engine.AdmitFB,
		Owners:    map[string]engine.ClassConfig{app: {Alpha: 0.5, Low: true}},
	})
	in := fx.pause(t, "b")
	// Young (gamma 1), alpha 0.5: B = 0.5 x (100 000 − B): 33 334 bytes,
	// i.e. frames taken while held < 0.5 x (100 000 − held): 34 frames
	// (held 33 000 < 33 500).
	in.in.Receive(labFrames(50))
	if got := fx.query(t, "b").Stats.OccupancyPackets; got != 34 {
		t.Fatalf("holds %d frames, want 34", got)
	}
	if low, high := fx.e.PoolCongested(); low != 1 || high != 0 {
		t.Fatalf("N_p low %d high %d, want 1 and 0 (class Low)", low, high)
	}
}

// TestSetAdmissionAtRunTime: a new algorithm applies from the next batch;
// a bad one changes nothing.
func TestSetAdmissionAtRunTime(t *testing.T) {
	fx := newPoolLab(t, nil)
	if got := fx.e.Admission(); got.Algorithm != engine.AdmitQuota {
		t.Fatalf("default algorithm %v, want quota", got.Algorithm)
	}
	in := fx.pause(t, "b")
	in.in.Receive(labFrames(10))
	if err := fx.e.SetAdmission(engine.AdmissionConfig{Algorithm: engine.AdmitDT, Default: engine.ClassConfig{Alpha: 0.25}}); err != nil {
		t.Fatal(err)
	}
	// DT alpha 0.25 with 10 frames held: 10 000 < 0.25 x 90 000 = 22 500,
	// it stops at B = 0.25 x (100 000 − B) = 20 000: 10 more frames.
	in.in.Receive(labFrames(30))
	if got := fx.query(t, "b").Stats.OccupancyPackets; got != 20 {
		t.Fatalf("holds %d frames, want 20", got)
	}
	err := fx.e.SetAdmission(engine.AdmissionConfig{Algorithm: engine.AdmitFB, Default: engine.ClassConfig{Alpha: -1}})
	wantCode(t, err, engine.InvalidArgument)
	if got := fx.e.Admission(); got.Algorithm != engine.AdmitDT || got.Default.Alpha != 0.25 {
		t.Fatalf("a refused config changed the admission: %+v", got)
	}
}

// TestBadAdmissionRefused: each bad setting is refused with an error
// naming it, by Validate, SetAdmission and Open.
func TestBadAdmissionRefused(t *testing.T) {
	ok := engine.ClassConfig{Alpha: 1}
	for _, c := range []struct {
		name string
		cfg  engine.AdmissionConfig
		pool uint64
		want string
	}{
		{"unknown algorithm", engine.AdmissionConfig{Algorithm: 9}, labPool, "unknown pool admission algorithm"},
		{"B = 0", engine.AdmissionConfig{Algorithm: engine.AdmitFB}, 0, "B = 0"},
		{"alpha 0 of an owner", engine.AdmissionConfig{Algorithm: engine.AdmitDT, Owners: map[string]engine.ClassConfig{"x": {}}}, labPool, `class of owner "x": alpha 0 must be`},
		{"alpha < 0", engine.AdmissionConfig{Algorithm: engine.AdmitFB, Default: engine.ClassConfig{Alpha: -0.5}}, labPool, "default class: alpha -0.5 must be"},
		{"alpha NaN", engine.AdmissionConfig{Algorithm: engine.AdmitFB, Owners: map[string]engine.ClassConfig{"x": {Alpha: math.NaN()}}}, labPool, "alpha NaN"},
		{"alpha Inf", engine.AdmissionConfig{Algorithm: engine.AdmitFB, Owners: map[string]engine.ClassConfig{"x": {Alpha: math.Inf(1)}}}, labPool, "alpha +Inf"},
		{"gamma > 1", engine.AdmissionConfig{Algorithm: engine.AdmitFB, Default: engine.ClassConfig{Alpha: 1, PausedGamma: 1.5}}, labPool, "paused_gamma 1.5"},
		{"gamma < 0", engine.AdmissionConfig{Algorithm: engine.AdmitFB, Owners: map[string]engine.ClassConfig{"x": {Alpha: 1, PausedGamma: -1}}}, labPool, "paused_gamma -1"},
		{"long pause < 0", engine.AdmissionConfig{Algorithm: engine.AdmitFB, LongPause: -time.Second}, labPool, "long_pause -1s"},
		{"empty owner", engine.AdmissionConfig{Algorithm: engine.AdmitFB, Owners: map[string]engine.ClassConfig{"": ok}}, labPool, "owner (application id) is empty"},
	} {
		err := c.cfg.Validate(c.pool)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate = %v, want %q", c.name, err, c.want)
		}
		if c.pool == 0 {
			continue // an engine always has a pool
		}
		fx := newPoolLab(t, nil)
		if err := fx.e.SetAdmission(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: SetAdmission = %v, want %q", c.name, err, c.want)
		}
		cfg := c.cfg
		if _, _, err := engine.Open(engine.Options{Limits: engine.Limits{PoolBytes: labPool}, Admission: &cfg}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Open = %v, want %q", c.name, err, c.want)
		}
	}
	for _, s := range []string{"cs", "", "FB", "dynamic"} {
		if _, err := engine.ParseAlgorithm(s); err == nil || !strings.Contains(err.Error(), "want quota") {
			t.Errorf("ParseAlgorithm(%q) = %v, want an error listing the algorithms", s, err)
		}
	}
	for _, s := range []string{"quota", "dt", "fb"} {
		if a, err := engine.ParseAlgorithm(s); err != nil || a.String() != s {
			t.Errorf("ParseAlgorithm(%q) = %v, %v", s, a, err)
		}
	}
}

// TestQuotaDropsCountedAsQuota: the owner's quota refusing a frame counts
// as the quota reason (the API's POOL cause), the pool's hard limit as
// pool_full.
func TestQuotaDropsCountedAsQuota(t *testing.T) {
	fx := newFixture(t, engine.Options{Limits: engine.Limits{PoolBytes: labPool}, DefaultQuota: engine.Quota{MaxBytes: 10 * labFrame}})
	for _, id := range []string{"a", "b"} {
		fx.mustBuffer(t, id, engine.BufferConfig{CapacityBytes: 8 * labFrame})
		fx.mustVport(t, id+"-rx", engine.ModeRX)
		fx.mustBind(t, id, id+"-rx")
	}
	a, _ := fx.e.Ingress(app, "a-rx")
	b, _ := fx.e.Ingress(app, "b-rx")
	a.Receive(labFrames(8))
	b.Receive(labFrames(4))
	st := fx.query(t, "b").Stats
	if st.OccupancyPackets != 2 || poolDrops(st, engine.PoolQuota) != 2 || dropsOf(st.Drops, engine.DropPool) != 2 {
		t.Fatalf("held %d, quota drops %+v, drops %+v; want 2 held, 2 quota", st.OccupancyPackets, st.PoolDrops, st.Drops)
	}
}

// TestDropHeadAtItsThreshold: a drop-head buffer at its threshold keeps
// its newest packets. DT alpha 1 alone: it stops at 50 frames (held
// 49 000 < 51 000); 10 more push out the 10 oldest (each frees 1000
// bytes: held 49 000 < 51 000 again), counted as dt_threshold.
func TestDropHeadAtItsThreshold(t *testing.T) {
	fx := newPoolLab(t, &engine.AdmissionConfig{Algorithm: engine.AdmitDT})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityBytes: labPool, Overflow: engine.DropHead})
	in := fx.mustVport(t, "in", engine.ModeRX)
	fx.mustBind(t, "b", "in")
	batch := make([][]byte, 60)
	for i := range batch {
		batch[i] = make([]byte, labFrame)
		batch[i][0] = byte(i)
	}
	in.in.Receive(batch)
	st := fx.query(t, "b").Stats
	if st.OccupancyPackets != 50 || poolDrops(st, engine.PoolDTThreshold) != 10 {
		t.Fatalf("held %d, drops %+v; want 50 held, 10 dt_threshold", st.OccupancyPackets, st.PoolDrops)
	}
	fx.mustMode(t, "in", engine.ModeTX)
	out := in.waitSent(t, 50)
	if out[0][0] != 10 || out[49][0] != 59 {
		t.Fatalf("kept frames %d..%d, want the newest 10..59", out[0][0], out[49][0])
	}
}
