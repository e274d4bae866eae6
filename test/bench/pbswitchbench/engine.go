// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/binary"
	"sort"
	"strconv"
	"testing"
	"time"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/node"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
	"github.com/flowbuf/flowbuf/pbswitch/v1model"
)

// engine measures the v1model engine on the FlowBuf program's routed path
// (a routing_v4 hit among empty steering and ACL tables: five applies, a
// MAC rewrite, a TTL decrement, the IPv4 checksum) in this process, and
// how long a pipeline push of the FlowBuf program takes over P4Runtime.
func (b *bench) engine() error {
	pl, err := ctl.LoadPipeline(buildDir())
	if err != nil {
		return err
	}
	prog, err := v1model.Load(pl.JSON, pl.Info, v1model.Options{CPUPort: 255})
	if err != nil {
		return err
	}
	// The baseline: the same program with every table on the generic
	// store (a Go object per entry), as before exact tables had slabs.
	generic, err := v1model.Load(pl.JSON, pl.Info, v1model.Options{CPUPort: 255, GenericTables: true})
	if err != nil {
		return err
	}
	route := func(objs *pipeline.Objects) error {
		for _, t := range objs.Tables {
			if t.Name != ctl.TableRoutingV4 {
				continue
			}
			var id uint32
			for _, a := range objs.Info.GetActions() {
				if a.GetPreamble().GetName() == ctl.ActionRoute {
					id = a.GetPreamble().GetId()
				}
			}
			mac := []byte{2, 0, 0, 0, 0, 1}
			return t.Insert(&pipeline.Entry{
				Match:  []pipeline.FieldMatch{{Value: []byte{10, 0, 2, 0}, PrefixLen: 24, Mask: []byte{255, 255, 255, 0}}},
				Action: pipeline.Action{ID: id, Params: [][]byte{{0, 2}, mac, mac}}})
		}
		return nil
	}
	if err := route(prog.Objects()); err != nil {
		return err
	}
	if err := route(generic.Objects()); err != nil {
		return err
	}
	cond := map[string]any{"path": "FlowBuf routed IPv4/UDP 64 B: 5 table applies, rewrite, TTL, checksum", "runs": 5,
		"statistic": "median of runs, slab and generic tables interleaved", "tables": "exact-match tables in slabs (pbswitch's default)"}
	ns := interleavedMedians(5,
		func(bn *testing.B) { runPackets(bn, prog, false) },
		func(bn *testing.B) { runPackets(bn, prog, true) },
		func(bn *testing.B) { runPackets(bn, generic, true) })
	ingress, enginePipe, genericPipe := ns[0], ns[1], ns[2]
	b.Emit("engine_ingress_ns_per_packet", ingress, "ns", merge(cond, map[string]any{
		"measures": "Ingress alone: parse, verify checksum, the ingress tables (the rewrite is written out by egress's deparser)"}))
	b.Emit("engine_pipeline_ns_per_packet", enginePipe, "ns", merge(cond, map[string]any{"measures": "Ingress + Egress (deparse, checksum update)"}))
	b.Emit("engine_pipeline_ns_per_packet_generic_tables", genericPipe, "ns", merge(cond, map[string]any{
		"measures": "Ingress + Egress, every table on the generic store (--table-store generic: the baseline before slabs)", "tables": "generic"}))
	b.Emit("engine_slab_vs_generic_tables", genericPipe/enginePipe, "ratio", merge(cond, map[string]any{
		"measures": "packets/s with slab tables over packets/s with generic tables (>= 1: slabs do not slow the lookup)"}))
	return b.pushTime(pl)
}

func runPackets(bn *testing.B, p *v1model.Program, egress bool) {
	frame := benchFrame()
	pk := &pipeline.Packet{}
	bn.ResetTimer()
	for i := 0; i < bn.N; i++ {
		frame[22] = 64
		pk.Frame, pk.Meta = frame, pipeline.StdMeta{IngressPort: 1}
		p.Ingress(pk)
		if egress {
			pk.Meta.EgressPort = pk.Meta.EgressSpec
			p.Egress(pk)
		}
	}
	if pk.Meta.EgressSpec != 2 {
		bn.Fatalf("the routed packet went to %d", pk.Meta.EgressSpec)
	}
	if pk.State != nil {
		pk.State.Release()
		pk.State = nil
	}
}

// benchFrame is Ethernet/IPv4/UDP 10.0.0.1:1000 -> 10.0.2.9:2000, 64 bytes.
func benchFrame() []byte {
	f := make([]byte, 64)
	copy(f[0:], []byte{2, 0, 0, 0, 0, 0xbb})
	copy(f[6:], []byte{2, 0, 0, 0, 0, 0xaa})
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	ip := f[14:]
	ip[0], ip[8], ip[9] = 0x45, 64, 17
	binary.BigEndian.PutUint16(ip[2:], 50)
	copy(ip[12:], []byte{10, 0, 0, 1})
	copy(ip[16:], []byte{10, 0, 2, 9})
	binary.BigEndian.PutUint16(f[34:], 1000)
	binary.BigEndian.PutUint16(f[36:], 2000)
	return f
}

// interleavedMedians is medianNs of each f, run by run in turn, so that
// the machine's load falls on all alike.
func interleavedMedians(runs int, fs ...func(*testing.B)) []float64 {
	ns := make([][]float64, len(fs))
	for i := 0; i < runs; i++ {
		for j, f := range fs {
			r := testing.Benchmark(f)
			ns[j] = append(ns[j], float64(r.T.Nanoseconds())/float64(r.N))
		}
	}
	out := make([]float64, len(fs))
	for j := range ns {
		sort.Float64s(ns[j])
		out[j] = ns[j][len(ns[j])/2]
	}
	return out
}

// pushTime is a VERIFY_AND_COMMIT of the FlowBuf program over gRPC on
// loopback, from request to answer (the JSON parsed and compiled, the
// tables built, the program swapped in).
func (b *bench) pushTime(pl ctl.Pipeline) error {
	n, err := node.Start(writesNode())
	if err != nil {
		return err
	}
	defer n.Close()
	c, err := ctl.Connect(n.P4RTAddr(), 1)
	if err != nil {
		return err
	}
	defer c.Close()
	var ms []float64
	for i := 0; i < 11; i++ {
		t0 := time.Now()
		_, err := c.Client.SetForwardingPipelineConfig(context.Background(), &p4.SetForwardingPipelineConfigRequest{
			DeviceId: 1, ElectionId: &p4.Uint128{Low: 1}, Action: p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT,
			Config: &p4.ForwardingPipelineConfig{P4Info: pl.Info, P4DeviceConfig: pl.JSON}})
		if err != nil {
			return err
		}
		ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
	}
	sort.Float64s(ms)
	b.Emit("pipeline_push_ms", ms[len(ms)/2], "ms", map[string]any{"program": "FlowBuf (bmv2.json " + kb(len(pl.JSON)) + ")",
		"pushes": len(ms), "statistic": "median", "max_ms": ms[len(ms)-1], "transport": "gRPC over loopback TCP"})
	return nil
}

func kb(n int) string { return strconv.Itoa(n/1024) + " KiB" }

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
