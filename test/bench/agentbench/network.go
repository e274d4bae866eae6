// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"
	"github.com/flowbuf/flowbuf/test/bench/benchreport"
	"runtime"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

const (
	benchApp   = "org.flowbuf.bench"
	frame64    = 60   // 64 bytes on the wire with the FCS
	frame1500  = 1514 // a 1500-byte IP packet in an Ethernet frame
	latencyGap = 100 * time.Microsecond
)

// netLab: gen -- sink (generator ceiling), h1 -- [sw: ag-in, ag-out] -- h2,
// where sw holds a Linux bridge or the agent's vports in turn, and h3 --
// [sw: br-in, br-out] -- h4, a bridge beside the agent for paired latency
// probes.
type netLab struct {
	lab                     *nslab.Lab
	sw                      netio.NS
	genTx, h1Tx, h3Tx       *netio.Socket
	genSink, h2Sink, h4Sink *sink
}

func (b *bench) network() (err error) {
	l := &netLab{lab: nslab.New("fbagb-")}
	defer func() { err = errors.Join(err, l.close()) }()
	if err := l.build(); err != nil {
		return err
	}
	gen := rate(l.genTx, l.genSink, frame64, b.dur)
	b.Emit("generator_max_mpps_64b", gen/1e6, "Mpps", map[string]any{"frame_bytes": frame64, "seconds": b.dur.Seconds(), "path": "veth pair, AF_PACKET sender and sink"})
	eng := newAgentEngine(l.sw)
	defer eng.Close()
	if err := b.latency(l, eng); err != nil {
		return err
	}
	bridge, agent, err := b.forwardingRates(l, eng)
	if err != nil {
		return err
	}
	b.Emit("baseline_fwd_mpps_64b", bridge/1e6, "Mpps", map[string]any{"frame_bytes": frame64, "seconds": b.dur.Seconds(),
		"path": "veth -> Linux bridge -> veth", "rounds": throughputRounds})
	b.Emit("agent_fwd_mpps_64b", agent/1e6, "Mpps", map[string]any{"frame_bytes": frame64, "seconds": b.dur.Seconds(),
		"path": "veth -> agent (FORWARDING) -> veth", "rounds": throughputRounds, "cores": runtime.NumCPU()})
	if err := agentUp(eng); err != nil {
		return err
	}
	b.Emit("agent_vs_bridge_64b", agent/bridge, "ratio", map[string]any{"baseline": "baseline_fwd_mpps_64b"})
	if err := waitDrained(eng, "fwd"); err != nil {
		return err
	}
	big := rate(l.h1Tx, l.h2Sink, frame1500, b.dur)
	b.Emit("agent_fwd_gbps_1500b", big*frame1500*8/1e9, "Gbps", map[string]any{"frame_bytes": frame1500, "seconds": b.dur.Seconds(), "mpps": benchreport.Round(big / 1e6)})
	if err := waitDrained(eng, "fwd"); err != nil {
		return err
	}
	return b.pauseResume(eng, l)
}

// throughputRounds alternate bridge and agent so that a burst of load
// from elsewhere on the machine does not land on one side only.
const throughputRounds = 3

// forwardingRates measures 64-byte forwarding through the bridge and
// through the agent, in alternating rounds on the same veths.
func (b *bench) forwardingRates(l *netLab, eng *engine.Engine) (bridge, agent float64, err error) {
	per := b.dur / throughputRounds
	for r := 0; r < throughputRounds; r++ {
		if err := l.bridgeUp(); err != nil {
			return 0, 0, err
		}
		bridge += rate(l.h1Tx, l.h2Sink, frame64, per) / throughputRounds
		if err := l.bridgeDown(); err != nil {
			return 0, 0, err
		}
		if err := agentUp(eng); err != nil {
			return 0, 0, err
		}
		agent += rate(l.h1Tx, l.h2Sink, frame64, per) / throughputRounds
		if err := waitDrained(eng, "fwd"); err != nil {
			return 0, 0, err
		}
		if err := agentDown(eng); err != nil {
			return 0, 0, err
		}
	}
	return bridge, agent, nil
}

// latency sends paired probes: every latencyGap (at least) one frame
// through the agent (h1 -> h2) and one through a Linux bridge beside it
// (h3 -> h4), pairSpacing apart, so that both meet the same load. The
// added latency is taken from the per-probe differences, never as a
// difference of two percentiles (from different moments, that difference
// is mostly noise and came out at -9.9 us).
func (b *bench) latency(l *netLab, eng *engine.Engine) error {
	if err := l.lab.Bridge(l.sw, "br1", "br-in", "br-out"); err != nil {
		return err
	}
	if err := agentUp(eng); err != nil {
		return err
	}
	start := time.Now()
	agent, bridge, spacing := pairedLatencies(l.h1Tx, l.h2Sink, l.h3Tx, l.h4Sink, latencyGap, b.dur)
	pps := float64(len(agent)) / time.Since(start).Seconds()
	if err := agentDown(eng); err != nil {
		return err
	}
	if err := l.sw.Do(func() error { return netio.DeleteLink("br1") }); err != nil {
		return err
	}
	b.emitLatency(agent, bridge, pps, spacing)
	return nil
}

func (b *bench) emitLatency(agent, bridge []time.Duration, pps float64, spacing time.Duration) {
	diffs, lost := pairedDifferences(agent, bridge)
	arrived := func(d []time.Duration) []time.Duration {
		var out []time.Duration
		for _, x := range d {
			if x > 0 {
				out = append(out, x)
			}
		}
		sortDurations(out)
		return out
	}
	a, br := arrived(agent), arrived(bridge)
	conditions := map[string]any{"probes": len(agent), "pairs_per_s": int(pps), "one_way": true,
		"frame_bytes": nslab.MinFrame, "pair_spacing_us": benchreport.Round(micros(spacing))}
	for _, p := range []struct {
		q    float64
		name string
	}{{0.5, "p50"}, {0.99, "p99"}} {
		b.Emit("agent_latency_us_"+p.name, micros(percentile(a, p.q)), "us",
			with(conditions, map[string]any{"path": "veth -> agent (FORWARDING) -> veth", "samples": len(a)}))
		b.Emit("bridge_latency_us_"+p.name, micros(percentile(br, p.q)), "us",
			with(conditions, map[string]any{"path": "veth -> Linux bridge -> veth", "samples": len(br)}))
		e := quantileOf(diffs, p.q)
		extra := map[string]any{
			"estimate":  p.name + " of per-probe differences agent - bridge, each probe sent on both paths pair_spacing_us apart",
			"ci95_us":   []float64{micros(e.low), micros(e.high)},
			"pairs":     e.pairs,
			"lost":      lost,
			"agent_us":  micros(percentile(a, p.q)),
			"bridge_us": micros(percentile(br, p.q)),
		}
		if why := e.why(); why != "" {
			extra["note"] = why
		}
		b.Emit("agent_added_latency_us_"+p.name, micros(e.value), "us", with(conditions, extra))
	}
}

// with is a copy of base with extra's keys added.
func with(base, extra map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(extra))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

func (l *netLab) build() error {
	var gen, sinkNS, h1, h2, h3, h4 netio.NS
	var err error
	steps := []func() error{
		func() error { gen, err = l.lab.NS("gen"); return err },
		func() error { sinkNS, err = l.lab.NS("sink"); return err },
		func() error { h1, err = l.lab.NS("h1"); return err },
		func() error { h2, err = l.lab.NS("h2"); return err },
		func() error { h3, err = l.lab.NS("h3"); return err },
		func() error { h4, err = l.lab.NS("h4"); return err },
		func() error { l.sw, err = l.lab.NS("sw"); return err },
		func() error { return l.lab.Veth(gen, "g-eth", sinkNS, "s-eth") },
		func() error { return l.lab.Veth(h1, "h1-eth", l.sw, "ag-in") },
		func() error { return l.lab.Veth(h2, "h2-eth", l.sw, "ag-out") },
		func() error { return l.lab.Veth(h3, "h3-eth", l.sw, "br-in") },
		func() error { return l.lab.Veth(h4, "h4-eth", l.sw, "br-out") },
		func() error { l.genTx, err = nslab.Socket(gen, "g-eth", 1600, 1024); return err },
		func() error { l.h1Tx, err = nslab.Socket(h1, "h1-eth", 1600, 1024); return err },
		func() error { l.h3Tx, err = nslab.Socket(h3, "h3-eth", 1600, 1024); return err },
		func() error {
			s, err := nslab.Socket(sinkNS, "s-eth", 1600, 1<<15)
			l.genSink = startSink(s)
			return err
		},
		func() error {
			s, err := nslab.Socket(h2, "h2-eth", 1600, 1<<16)
			l.h2Sink = startSink(s)
			return err
		},
		func() error {
			s, err := nslab.Socket(h4, "h4-eth", 1600, 1<<12)
			l.h4Sink = startSink(s)
			return err
		},
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

func (l *netLab) close() error {
	for _, k := range []*sink{l.genSink, l.h2Sink, l.h4Sink} {
		if k != nil && k.sock != nil {
			k.stop()
		}
	}
	for _, s := range []*netio.Socket{l.genTx, l.h1Tx, l.h3Tx} {
		if s != nil {
			s.Close()
		}
	}
	return l.lab.Close()
}

func newAgentEngine(sw netio.NS) *engine.Engine {
	return newEngine(engine.Options{
		Limits:   engine.Limits{PoolBytes: 1 << 30, MaxBufferBytes: 1 << 30, MaxBufferPackets: 4 << 20},
		Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendLinuxInterface: &netio.Factory{NS: sw, RxSlots: 16384}},
	})
}

// agentUp attaches vports to ag-in (RX) and ag-out (TX) and binds both to
// buffer "fwd": the FORWARDING state.
func agentUp(eng *engine.Engine) error {
	res, err := eng.Batch(benchApp, []engine.Op{
		{CreateBuffer: &engine.CreateBufferOp{ID: "fwd", Config: engine.BufferConfig{CapacityPackets: 65536}}},
		{CreateVport: &engine.CreateVportOp{ID: "in", Config: linuxVport("ag-in", engine.ModeRX)}},
		{CreateVport: &engine.CreateVportOp{ID: "out", Config: linuxVport("ag-out", engine.ModeTX)}},
		{Bind: &engine.BindOp{BufferID: "fwd", VportID: "in"}},
		{Bind: &engine.BindOp{BufferID: "fwd", VportID: "out"}},
	})
	if err != nil {
		return err
	}
	if s := res[4].Buffer.State; s != engine.StateForwarding {
		return fmt.Errorf("agent buffer is %v, not FORWARDING", s)
	}
	return nil
}

// agentDown detaches the agent from the veths (closing its sockets).
func agentDown(eng *engine.Engine) error {
	_, err := eng.Batch(benchApp, []engine.Op{
		{Unbind: &engine.BindOp{BufferID: "fwd", VportID: "in"}},
		{Unbind: &engine.BindOp{BufferID: "fwd", VportID: "out"}},
		{RemoveVport: &engine.RemoveVportOp{ID: "in"}},
		{RemoveVport: &engine.RemoveVportOp{ID: "out"}},
	})
	return err
}

func (l *netLab) bridgeUp() error { return l.lab.Bridge(l.sw, "br0", "ag-in", "ag-out") }

func (l *netLab) bridgeDown() error {
	return l.sw.Do(func() error { return netio.DeleteLink("br0") })
}

func linuxVport(iface string, mode engine.VportMode) engine.VportConfig {
	return engine.VportConfig{Mode: mode, Backend: engine.BackendSpec{Kind: engine.BackendLinuxInterface, Interface: iface}}
}

func waitDrained(eng *engine.Engine, id string) error {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, err := eng.QueryBuffer(benchApp, id)
		if err != nil {
			return err
		}
		if b.Stats.OccupancyPackets == 0 {
			return nil
		}
	}
	return fmt.Errorf("buffer %s did not drain", id)
}
