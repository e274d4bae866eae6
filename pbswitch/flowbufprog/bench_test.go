// SPDX-License-Identifier: Apache-2.0

package flowbufprog

import (
	"testing"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// BenchmarkIngressRoute is the per-packet cost of the routed path: five
// table applies (two misses on empty ternary tables), the rewrite and the
// checksum.
func BenchmarkIngressRoute(b *testing.B) {
	f := newFixture(b)
	mac := []byte{2, 0, 0, 0, 0, 1}
	if err := f.table(TableRoutingV4).Insert(&pipeline.Entry{
		Match:  []pipeline.FieldMatch{{Value: []byte{10, 0, 2, 0}, PrefixLen: 24}},
		Action: pipeline.Action{ID: f.ids[ActionRoute], Params: [][]byte{b16(2), mac, mac}},
	}); err != nil {
		b.Fatal(err)
	}
	frame := udpFrame([4]byte{10, 0, 2, 9}, 64)
	pk := &pipeline.Packet{Frame: frame}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		frame[22] = 64
		pk.Meta = pipeline.StdMeta{IngressPort: 1}
		f.prog.Ingress(pk)
	}
	if pk.Meta.EgressSpec != 2 {
		b.Fatalf("egress %d", pk.Meta.EgressSpec)
	}
}
