// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"testing"

	names "github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// BenchmarkFlowBufRoute is the per-packet cost of the FlowBuf program's
// routed path on the engine: ingress (five table applies) and egress
// (deparse with the checksum update).
func BenchmarkFlowBufRoute(b *testing.B) {
	f := loadFlowBuf(b)
	f.insert(names.TableRoutingV4, &pipeline.Entry{
		Match:  []pipeline.FieldMatch{{Value: []byte{10, 0, 2, 0}, PrefixLen: 24, Mask: []byte{255, 255, 255, 0}}},
		Action: pipeline.Action{ID: f.ids[names.ActionRoute], Params: [][]byte{b16(2), make([]byte, 6), make([]byte, 6)}},
	})
	frame := udpFrame([4]byte{10, 0, 2, 9}, 64)
	pk := &pipeline.Packet{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		frame[22] = 64
		pk.Frame, pk.Meta = frame, pipeline.StdMeta{IngressPort: 1}
		f.prog.Ingress(pk)
		pk.Meta.EgressPort = pk.Meta.EgressSpec
		f.prog.Egress(pk)
	}
}

// BenchmarkUpf is the per-packet cost of the UPF's GTP-U decapsulation
// (uplink) and encapsulation (downlink), each routed, on the engine.
func BenchmarkUpf(b *testing.B) {
	inner := ipv4UDP(upfUE, upfDN, 4000, 80, 64, make([]byte, 64))
	for _, c := range []struct {
		name  string
		frame []byte
		port  uint32
	}{
		{"uplink", ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp, inner))), 1},
		{"downlink", ether(ipv4UDP(upfDN, upfUE, 80, 4000, 64, make([]byte, 64))), 2},
	} {
		b.Run(c.name, func(b *testing.B) {
			f := upfFixture(b)
			pool := &framePool{free: make([][]byte, 0, 16)}
			f.prog.opts.Frames = pool
			pk := &pipeline.Packet{}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				fr := pool.Get(len(c.frame))
				copy(fr, c.frame)
				pk.Frame, pk.Meta = fr, pipeline.StdMeta{IngressPort: c.port}
				f.prog.Ingress(pk)
				pk.Meta.EgressPort = pk.Meta.EgressSpec
				f.prog.Egress(pk)
				pool.Put(pk.Frame)
			}
		})
	}
}
