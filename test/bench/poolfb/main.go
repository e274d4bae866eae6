// SPDX-License-Identifier: Apache-2.0

// Command poolfb measures the buffer-agent's pool admission (issue 24's
// FlowBuf pool scenario): one long pause keeps receiving into a buffer
// that never drains, filling the agent's pool, while short pauses arrive
// one after the other, each a burst into a new buffer that is released
// (drained) 20 ms later. For static quotas (one owner holding every
// buffer, as FlowBuf's controller app does; and two owners splitting the
// pool in halves), DT and FB, with the same pool, it reports the share of
// burst packets lost (pool_fb_burst_loss_pct), what the long pause kept
// and lost. The engine runs in process on a fake clock with synthetic
// frames, so the figures are exact and do not depend on the machine's
// load. It prints one JSON object per metric, then a one-line summary;
// QUICK=1 gives a shorter run (a smaller pool, half the time).
package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/engine/fakeclock"
	"github.com/flowbuf/flowbuf/test/bench/benchreport"
)

// scenario is one run's shape.
type scenario struct {
	pool        uint64        // B
	frame       int           // bytes per frame
	duration    time.Duration // of the long pause, fake time
	step        time.Duration // the long pause receives a batch every step
	longPerSec  float64       // long pause's offered load, pools per second
	burstEvery  time.Duration // a short pause starts every burstEvery
	burstOfPool float64       // burst size, share of the pool
	pauseFor    time.Duration // a short pause lasts this long, then drains
}

// variant is one admission setting.
type variant struct {
	name string
	adm  engine.AdmissionConfig
	// split: the long pause and the short pauses have different owners,
	// each with a quota of half the pool (otherwise one owner, its quota
	// the pool).
	split bool
}

const (
	longOwner  = "org.flowbuf.app"
	shortSplit = "org.flowbuf.handover"
)

type result struct {
	burstOffered, burstLost uint64 // frames
	longOffered, longLost   uint64 // frames
	longHeldBytes           uint64 // at the end
	reasons                 map[engine.PoolDropReason]uint64
}

// sink takes the frames a buffer sends and recycles them.
type sink struct{ sent atomic.Uint64 }

func (s *sink) Transmit(frames [][]byte) error {
	s.sent.Add(uint64(len(frames)))
	engine.PutFrames(frames)
	return nil
}

func (s *sink) Close() error { return nil }

func run(sc scenario, v variant) (result, error) {
	clk := fakeclock.New(time.Unix(1_700_000_000, 0))
	out := &sink{}
	f := engine.BackendFactoryFunc(func(string, engine.BackendSpec, engine.Ingress) (engine.Backend, error) { return out, nil })
	opts := engine.Options{
		Limits:    engine.Limits{PoolBytes: sc.pool},
		Clock:     clk,
		Backends:  map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f},
		Admission: &v.adm,
	}
	shortOwner := longOwner
	if v.split {
		shortOwner = shortSplit
		opts.Quotas = map[string]engine.Quota{longOwner: {MaxBytes: sc.pool / 2}, shortSplit: {MaxBytes: sc.pool / 2}}
	}
	eng := engine.New(opts)
	defer eng.Close()
	port := uint32(0)
	pause := func(owner, id string, capacity uint64) (engine.Ingress, error) {
		port += 2
		_, err := eng.Batch(owner, []engine.Op{
			{CreateBuffer: &engine.CreateBufferOp{ID: id, Config: engine.BufferConfig{CapacityBytes: capacity}}},
			{CreateVport: &engine.CreateVportOp{ID: id + "-rx", Config: engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: port}}}},
			{CreateVport: &engine.CreateVportOp{ID: id + "-tx", Config: engine.VportConfig{Mode: engine.ModeNone, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: port + 1}}}},
			{Bind: &engine.BindOp{BufferID: id, VportID: id + "-rx"}},
			{Bind: &engine.BindOp{BufferID: id, VportID: id + "-tx"}},
		})
		if err != nil {
			return nil, fmt.Errorf("pause %s: %w", id, err)
		}
		return eng.Ingress(owner, id+"-rx")
	}
	frames := func(n int) [][]byte {
		b := make([][]byte, n)
		for i := range b {
			b[i] = engine.GetFrame(sc.frame)
		}
		return b
	}
	// send offers n frames in batches of 64.
	send := func(in engine.Ingress, n int) {
		for n > 0 {
			k := min(n, 64)
			in.Receive(frames(k))
			n -= k
		}
	}
	capacity := func(owner string) uint64 {
		if v.split {
			return sc.pool / 2
		}
		return sc.pool
	}
	long, err := pause(longOwner, "long", capacity(longOwner))
	if err != nil {
		return result{}, err
	}
	var res result
	res.reasons = map[engine.PoolDropReason]uint64{}
	perStep := sc.longPerSec * float64(sc.pool) / float64(sc.frame) * sc.step.Seconds()
	var owed float64
	type short struct {
		id    string
		until time.Duration
	}
	var open []short
	burstFrames := int(sc.burstOfPool * float64(sc.pool) / float64(sc.frame))
	n := 0
	for t := time.Duration(0); t < sc.duration; t += sc.step {
		owed += perStep
		k := int(owed)
		owed -= float64(k)
		send(long, k)
		res.longOffered += uint64(k)
		if t > 0 && t%sc.burstEvery == 0 {
			n++
			id := fmt.Sprint("short", n)
			in, err := pause(shortOwner, id, capacity(shortOwner))
			if err != nil {
				return res, err
			}
			send(in, burstFrames)
			res.burstOffered += uint64(burstFrames)
			open = append(open, short{id, t + sc.pauseFor})
		}
		for len(open) > 0 && open[0].until <= t {
			if err := release(eng, shortOwner, open[0].id, &res); err != nil {
				return res, err
			}
			open = open[1:]
		}
		clk.Advance(sc.step)
	}
	for _, s := range open {
		if err := release(eng, shortOwner, s.id, &res); err != nil {
			return res, err
		}
	}
	info, err := eng.QueryBuffer(longOwner, "long")
	if err != nil {
		return res, err
	}
	res.longHeldBytes = info.Stats.OccupancyBytes
	for _, d := range info.Stats.Drops {
		res.longLost += d.Packets
	}
	return res, nil
}

// release ends a short pause: its TX vport turns on, it drains, and its
// drops are counted; then it is removed.
func release(eng *engine.Engine, owner, id string, res *result) error {
	if _, err := eng.SetVportMode(owner, id+"-tx", engine.ModeTX, nil); err != nil {
		return err
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		info, err := eng.QueryBuffer(owner, id)
		if err != nil {
			return err
		}
		if info.Stats.OccupancyPackets == 0 {
			for _, d := range info.Stats.Drops {
				res.burstLost += d.Packets
			}
			for _, d := range info.Stats.PoolDrops {
				res.reasons[d.Reason] += d.Packets
			}
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not drain", id)
		}
		runtime.Gosched()
	}
	_, err := eng.Batch(owner, []engine.Op{
		{Unbind: &engine.BindOp{BufferID: id, VportID: id + "-rx"}},
		{Unbind: &engine.BindOp{BufferID: id, VportID: id + "-tx"}},
		{RemoveVport: &engine.RemoveVportOp{ID: id + "-rx"}},
		{RemoveVport: &engine.RemoveVportOp{ID: id + "-tx"}},
		{RemoveBuffer: &engine.RemoveBufferOp{ID: id}},
	})
	return err
}

func pct(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// shape is the scenario of a full or QUICK run.
func shape(quick bool) scenario {
	sc := scenario{
		pool: 32 << 20, frame: 1500, duration: 4 * time.Second, step: time.Millisecond,
		longPerSec: 1, burstEvery: 250 * time.Millisecond, burstOfPool: 0.3, pauseFor: 20 * time.Millisecond,
	}
	if quick {
		sc.pool, sc.duration = 8<<20, 2*time.Second
	}
	return sc
}

func main() {
	quick := os.Getenv("QUICK") == "1"
	sc := shape(quick)
	fb := engine.AdmissionConfig{Algorithm: engine.AdmitFB}
	variants := []variant{
		{name: "quota", adm: engine.AdmissionConfig{Algorithm: engine.AdmitQuota}},
		{name: "quota_split", adm: engine.AdmissionConfig{Algorithm: engine.AdmitQuota}, split: true},
		{name: "dt", adm: engine.AdmissionConfig{Algorithm: engine.AdmitDT}},
		{name: "fb", adm: fb},
		// A larger gamma of long pauses lets the long pause keep more:
		// L = gamma B / (1 + gamma) = B/3, leaving a burst up to
		// (B − L)/2 = B/3, still above the 30 % bursts.
		{name: "fb_gamma_0.5", adm: engine.AdmissionConfig{Algorithm: engine.AdmitFB, Default: engine.ClassConfig{Alpha: 1, PausedGamma: 0.5}}},
	}
	rep := benchreport.New(os.Stdout)
	start := time.Now()
	loss := map[string]float64{}
	kept := map[string]float64{}
	for _, v := range variants {
		res, err := run(sc, v)
		if err != nil {
			fmt.Fprintln(os.Stderr, "poolfb:", v.name+":", err)
			os.Exit(1)
		}
		owners := 1
		if v.split {
			owners = 2
		}
		cond := map[string]any{
			"algorithm": v.adm.Algorithm.String(), "variant": v.name, "owners": owners,
			"pool_bytes": sc.pool, "frame_bytes": sc.frame, "seconds": sc.duration.Seconds(),
			"long_offered_pools_per_s": sc.longPerSec, "bursts": res.burstOffered / uint64(int(sc.burstOfPool*float64(sc.pool)/float64(sc.frame))),
			"burst_pct_of_pool": 100 * sc.burstOfPool, "burst_every_ms": sc.burstEvery.Milliseconds(), "pause_ms": sc.pauseFor.Milliseconds(),
			"alpha": 1,
		}
		if v.adm.Algorithm == engine.AdmitFB {
			cond["paused_gamma"] = engine.DefaultPausedGamma
			if g := v.adm.Default.PausedGamma; g != 0 {
				cond["paused_gamma"] = g
			}
			cond["long_pause_ms"] = engine.DefaultLongPause.Milliseconds()
		}
		if v.split {
			cond["quota_bytes_each"] = sc.pool / 2
		}
		var why []string
		for r, n := range res.reasons {
			why = append(why, fmt.Sprintf("%v:%d", r, n))
		}
		sort.Strings(why)
		if len(why) == 0 {
			why = []string{"none"}
		}
		cond["burst_drop_reasons"] = strings.Join(why, ",")
		loss[v.name] = pct(res.burstLost, res.burstOffered)
		kept[v.name] = pct(res.longHeldBytes, sc.pool)
		rep.Emit("pool_fb_burst_loss_pct", loss[v.name], "%", cond)
		rep.Emit("pool_fb_long_kept_pct_of_pool", kept[v.name], "%", cond)
		rep.Emit("pool_fb_long_loss_pct", pct(res.longLost, res.longOffered), "%", cond)
	}
	goal := "met"
	if loss["fb"] > 0 || (loss["quota"] == 0 && loss["dt"] == 0) {
		goal = "missed"
	}
	fmt.Printf("poolfb (%s, %.1fs): burst loss quota %.1f%% (split %.1f%%), dt %.1f%%, fb %.1f%% (gamma 0.5: %.1f%%); long pause kept %.0f%% / %.0f%% / %.0f%% / %.0f%% / %.0f%% of the pool; goal (fb loses no burst packet where quota or dt do): %s\n",
		map[bool]string{true: "QUICK", false: "full"}[quick], time.Since(start).Seconds(),
		loss["quota"], loss["quota_split"], loss["dt"], loss["fb"], loss["fb_gamma_0.5"],
		kept["quota"], kept["quota_split"], kept["dt"], kept["fb"], kept["fb_gamma_0.5"], goal)
}
