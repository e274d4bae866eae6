// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/engine/baasfeed"
)

// The buffer-as-a-service's hot path as bench-agent feeds it (the figures
// of record come from `make bench-agent`; this is for profiles): per cell a
// PDCP ARQ buffer taking 128-byte data clones in batches of 56 with one
// range status per 8 of them, acknowledging the group sent a batch before.
func baasBenchEngine(b *testing.B, cells int) (*engine.Engine, []engine.Ingress) {
	f := engine.BackendFactoryFunc(func(string, engine.BackendSpec, engine.Ingress) (engine.Backend, error) {
		return &recyclePort{}, nil
	})
	eng := engine.New(engine.Options{
		Limits:   engine.Limits{PoolBytes: 1 << 30, MaxBufferBytes: 1 << 28, MaxBuffers: uint32(cells), MaxVports: uint32(2 * cells)},
		Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f},
	})
	ins := make([]engine.Ingress, cells)
	for i := range ins {
		bid, rx, tx := fmt.Sprint("baas", i), fmt.Sprint("rx", i), fmt.Sprint("tx", i)
		_, err := eng.Batch(app, []engine.Op{
			{CreateBuffer: &engine.CreateBufferOp{ID: bid, Config: engine.BufferConfig{CapacityPackets: 65536, Queue: engine.QueueARQ,
				Arq: engine.ArqConfig{Buckets: 10, BucketUs: 1000, MaxResends: 3, Protocol: engine.ArqPDCP}}}},
			{CreateVport: &engine.CreateVportOp{ID: rx, Config: inproc(engine.ModeRX)}},
			{CreateVport: &engine.CreateVportOp{ID: tx, Config: inproc(engine.ModeTX)}},
			{Bind: &engine.BindOp{BufferID: bid, VportID: rx}},
			{Bind: &engine.BindOp{BufferID: bid, VportID: tx}},
		})
		if err != nil {
			b.Fatal(err)
		}
		ins[i], _ = eng.Ingress(app, rx)
	}
	return eng, ins
}

// BenchmarkBaaS runs b.N batches on each of 1 and 2 cells, one feeding
// goroutine per cell (run it with -cpu 1,2 to set the cores).
func BenchmarkBaaS(b *testing.B) {
	for _, cells := range []int{1, 2} {
		b.Run(fmt.Sprint("cells=", cells), func(b *testing.B) {
			eng, ins := baasBenchEngine(b, cells)
			defer eng.Close()
			b.ReportAllocs()
			b.ResetTimer()
			var wg sync.WaitGroup
			frames := make([]int, cells)
			for c, in := range ins {
				wg.Add(1)
				go func() {
					defer wg.Done()
					fd := baasfeed.New(uint32(0x1000 + c))
					for i := 0; i < b.N; i++ {
						batch := fd.Next()
						frames[c] += len(batch)
						in.Receive(batch)
					}
				}()
			}
			wg.Wait()
			var total int
			for _, n := range frames {
				total += n
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds()/1e6, "Mpps")
		})
	}
}
