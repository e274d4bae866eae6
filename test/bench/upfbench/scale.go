// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
	"github.com/flowbuf/flowbuf/pbswitch/v1model"
)

// slowProfile and fastProfile are the hybrid UPF's builds (tools/p4-build.sh).
const (
	slowProfile   = "upf-slow"
	fastProfile   = "upf-fast"
	fastSessions  = 4096
	scaleSessions = 1000000
	// scaleFrames downlink frames, to UEs drawn at random among those
	// installed, are cycled: at 1M sessions most lookups miss the caches.
	scaleFrames = 65536
)

// scaleUE is UE i of the scale runs: 10.64.0.0 + i, in the core pool
// 10.64.0.0/12 (1M UEs fit below 10.80.0.0).
func scaleUE(i int) [4]byte {
	var a [4]byte
	binary.BigEndian.PutUint32(a[:], 0x0a400000+uint32(i))
	return a
}

// scaleProgram loads pl (a profile) into the engine with n UEs' downlink
// session and termination over tunnelPeers peers, the tables on the slab
// or the generic store, and returns it with scaleFrames downlink frames.
func scaleProgram(pl ctl.Pipeline, n int, generic bool) (*v1model.Program, path, error) {
	prog, err := v1model.Load(pl.JSON, pl.Info, v1model.Options{CPUPort: 255, Frames: framePool{}, GenericTables: generic})
	if err != nil {
		return nil, path{}, err
	}
	in := &installer{info: pl.Info, tables: map[string]*pipeline.Table{}}
	for _, t := range prog.Objects().Tables {
		in.tables[t.Name] = t
	}
	in.add(ctl.TableUpfInterfaces, ctl.ActionIfaceCore, nil, prefix([4]byte{10, 64, 0, 0}, 12))
	in.add(ctl.TableRoutingV4, ctl.ActionRoute, [][]byte{b16(portGNB), mac, mac}, prefix(gnbAddr, 32))
	for p := 0; p < tunnelPeers; p++ {
		in.add(ctl.TableTunnelPeers, ctl.ActionSetTunnelPeer, [][]byte{n3Addr[:], gnbAddr[:], b16(41000 + uint16(p))}, exact(b16(uint16(p))))
	}
	for i := 0; i < n && in.err == nil; i++ {
		ue := scaleUE(i)
		in.add(ctl.TableDownlinkSessions, ctl.ActionSetDownlinkSession,
			[][]byte{b16(uint16(i)), b16(0), b16(uint16(i % tunnelPeers))}, exact(ue[:]))
		in.add(ctl.TableDownlinkTerminations, ctl.ActionDownlinkTermFwd,
			[][]byte{b16(uint16(i)), b16(0), b32(teidDown(i)), {qfi}}, exact(ue[:]), exact([]byte{0}))
	}
	if in.err != nil {
		return nil, path{}, in.err
	}
	rng := rand.New(rand.NewSource(int64(n)))
	p := path{name: fmt.Sprintf("downlink %d", n), in: portDN, out: portGNB, inLen: 14 + 28 + payloadLen, outLen: 14 + 28 + payloadLen + 44}
	for range scaleFrames {
		p.frames = append(p.frames, ether(ipv4UDP(dnAddr, scaleUE(rng.Intn(n)), 80, 4000, make([]byte, payloadLen))))
	}
	return prog, p, run(prog, p, len(p.frames), nil)
}

// lookupScale measures the downlink's engine time per packet at 4,096
// sessions (the fast profile) and at 1M (the slow profile), each with the
// tables in slabs and on the generic store (the baseline), the four
// interleaved run by run.
func (b *bench) lookupScale() error {
	fast, err := ctl.LoadPipeline(buildDir() + "/" + fastProfile)
	if err != nil {
		return err
	}
	slow, err := ctl.LoadPipeline(buildDir() + "/" + slowProfile)
	if err != nil {
		return err
	}
	big := scaleSessions
	if b.quick {
		big = 100000
	}
	type config struct {
		metric  string
		pl      ctl.Pipeline
		n       int
		generic bool
	}
	configs := []config{
		{"upf_downlink_ns_4096_sessions", fast, fastSessions, false},
		{"upf_downlink_ns_1m_sessions", slow, big, false},
		{"upf_downlink_ns_4096_sessions_generic", fast, fastSessions, true},
		{"upf_downlink_ns_1m_sessions_generic", slow, big, true},
	}
	progs := make([]*v1model.Program, len(configs))
	ps := make([]path, len(configs))
	for i, c := range configs {
		if progs[i], ps[i], err = scaleProgram(c.pl, c.n, c.generic); err != nil {
			return fmt.Errorf("%s: %w", c.metric, err)
		}
	}
	// Timed by hand, not by testing.Benchmark, which collects garbage
	// before every round: with the generic store's 1M entries on the heap
	// that alone took minutes on a loaded machine.
	runs, packets := 5, 200000
	if b.quick {
		runs, packets = 3, 50000
	}
	ns := make([][]float64, len(configs))
	for r := 0; r < runs; r++ {
		for i := range configs {
			t0 := time.Now()
			if err := run(progs[i], ps[i], packets, nil); err != nil {
				return err
			}
			ns[i] = append(ns[i], float64(time.Since(t0).Nanoseconds())/float64(packets))
		}
	}
	med := make([]float64, len(configs))
	for i, c := range configs {
		med[i] = median(ns[i])
		store := map[bool]string{false: "slab (pbswitch's default)", true: "generic (--table-store generic, the baseline before slabs)"}[c.generic]
		b.Emit(c.metric, med[i], "ns", map[string]any{
			"where":    "in process: v1model engine Ingress+Egress, one core, frames from pbswitch's pool; no ports, no queues",
			"path":     "GTP-U encapsulation with PSC, routed to the gNodeB (downlink_sessions, downlink_terminations, tunnel_peers hits)",
			"profile":  map[bool]string{true: fastProfile, false: slowProfile}[c.n == fastSessions],
			"sessions": c.n, "tables": store, "frames_cycled": scaleFrames, "ue_choice": "uniform at random among the sessions",
			"runs": runs, "packets_per_run": packets, "statistic": "median of runs (wall time / packets), the four configurations interleaved"})
	}
	cond := map[string]any{"sessions": []int{fastSessions, big}, "runs": runs}
	b.Emit("upf_downlink_1m_vs_4096_sessions", med[1]/med[0], "ratio", merge(cond, map[string]any{
		"measures": "downlink ns/packet at 1M sessions over at 4,096, slab tables (cache misses of a table larger than the caches)"}))
	b.Emit("upf_slab_vs_generic_downlink_1m", med[3]/med[1], "ratio", merge(cond, map[string]any{
		"measures": "downlink packets/s with slab tables over generic tables at 1M sessions (>= 1: slabs do not slow the lookup)"}))
	b.Emit("upf_slab_vs_generic_downlink_4096", med[2]/med[0], "ratio", merge(cond, map[string]any{
		"measures": "the same at 4,096 sessions"}))
	clear(progs)
	runtime.GC()
	return nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
