// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"testing"

	names "github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// benchFrames is every engine benchmark's per-packet loop, so that two
// benchmarks' figures differ only by the engine's work: each packet is a
// frame from pool with src copied in (as a port's receive hands the engine
// a frame it may rewrite or replace), run through Ingress and Egress, and
// the frame that comes out is put back. With prog nil the loop runs without
// the engine: BenchmarkFrameInput, the part of each figure that is the
// benchmark's own.
func benchFrames(b *testing.B, prog *Program, pool *framePool, src []byte, port uint32) {
	pk := &pipeline.Packet{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fr := pool.Get(len(src))
		copy(fr, src)
		pk.Frame, pk.Meta = fr, pipeline.StdMeta{IngressPort: port}
		if prog != nil {
			prog.Ingress(pk)
			pk.Meta.EgressPort = pk.Meta.EgressSpec
			prog.Egress(pk)
		}
		pool.Put(pk.Frame)
	}
}

// The benchmarks' input frames.
var (
	benchRouted   = udpFrame([4]byte{10, 0, 2, 9}, 64)
	benchUpfInner = ipv4UDP(upfUE, upfDN, 4000, 80, 64, make([]byte, 64))
	benchUplink   = ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp, benchUpfInner)))
	benchDownlink = ether(ipv4UDP(upfDN, upfUE, 80, 4000, 64, make([]byte, 64)))
)

// BenchmarkFlowBufRoute is the per-packet cost of the FlowBuf program's
// routed path on the engine: ingress (five table applies) and egress
// (deparse with the checksum update).
func BenchmarkFlowBufRoute(b *testing.B) {
	f := loadFlowBuf(b)
	pool := &framePool{free: make([][]byte, 0, 16)}
	f.prog.opts.Frames, f.prog.ownsFrames = pool, true // as Load with Options.Frames
	f.insert(names.TableRoutingV4, &pipeline.Entry{
		Match:  []pipeline.FieldMatch{{Value: []byte{10, 0, 2, 0}, PrefixLen: 24, Mask: []byte{255, 255, 255, 0}}},
		Action: pipeline.Action{ID: f.ids[names.ActionRoute], Params: [][]byte{b16(2), make([]byte, 6), make([]byte, 6)}},
	})
	benchFrames(b, f.prog, pool, benchRouted, 1)
}

// BenchmarkUpf is the per-packet cost of the UPF's GTP-U decapsulation
// (uplink) and encapsulation (downlink), each routed, on the engine.
func BenchmarkUpf(b *testing.B) {
	for _, c := range []struct {
		name  string
		frame []byte
		port  uint32
	}{
		{"uplink", benchUplink, 1},
		{"downlink", benchDownlink, 2},
	} {
		b.Run(c.name, func(b *testing.B) {
			f := upfFixture(b)
			pool := &framePool{free: make([][]byte, 0, 16)}
			f.prog.opts.Frames, f.prog.ownsFrames = pool, true // as Load with Options.Frames
			benchFrames(b, f.prog, pool, c.frame, c.port)
		})
	}
}

// BenchmarkFrameInput is benchFrames without the engine, for each of the
// benchmarks' input frames: what their figures include besides the engine.
func BenchmarkFrameInput(b *testing.B) {
	for _, c := range []struct {
		name  string
		frame []byte
	}{{"routed", benchRouted}, {"uplink", benchUplink}, {"downlink", benchDownlink}} {
		b.Run(c.name, func(b *testing.B) {
			benchFrames(b, nil, &framePool{free: make([][]byte, 0, 16)}, c.frame, 1)
		})
	}
}
