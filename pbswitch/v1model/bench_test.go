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
