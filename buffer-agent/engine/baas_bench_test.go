// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"encoding/binary"
	"fmt"
	"sync"
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// The buffer-as-a-service's hot path as bench-agent feeds it (the figures
// of record come from `make bench-agent`; this is for profiles): per cell a
// PDCP ARQ buffer taking 128-byte data clones in batches of 56 with one
// range status per 8 of them, acknowledging the group sent a batch before.
const (
	baasBenchFrame    = 128
	baasBenchAckEvery = 8
	baasBenchData     = 56
)

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

// baasBenchFeeder builds one cell's batches: data clones with running SNs
// and, per 8 of them, a status acknowledging the 8 sent a batch earlier.
type baasBenchFeeder struct {
	teid  uint32
	sent  uint64 // data PDUs so far; the SN is this modulo the SN space
	data  []byte
	batch [][]byte
}

func newBaasBenchFeeder(teid uint32) *baasBenchFeeder {
	return &baasBenchFeeder{teid: teid, data: engine.PDCPDataFrame(teid, 0, make([]byte, baasBenchFrame-24)),
		batch: make([][]byte, 0, baasBenchData+baasBenchData/baasBenchAckEvery)}
}

func (fd *baasBenchFeeder) next() [][]byte {
	fd.batch = fd.batch[:cap(fd.batch)]
	engine.GetFrames(fd.batch, baasBenchFrame) // the statuses are shorter: cut below
	k := 0
	for i := 0; i < baasBenchData; i++ {
		f := fd.batch[k]
		copy(f, fd.data)
		binary.BigEndian.PutUint32(f[20:], 1<<31|uint32(fd.sent%engine.PDCPSNSpace)) // PDCP word: D/C = data, SN
		k++
		fd.sent++
		if fd.sent%baasBenchAckEvery == 0 && fd.sent >= baasBenchData+baasBenchAckEvery {
			// Acknowledge the group sent one batch earlier.
			first := uint32((fd.sent - baasBenchData - baasBenchAckEvery) % engine.PDCPSNSpace)
			st := engine.PDCPStatusFrame(engine.PDCPStatus{TEID: fd.teid, First: first, Last: first + baasBenchAckEvery - 1})
			fd.batch[k] = fd.batch[k][:copy(fd.batch[k], st)]
			k++
		}
	}
	engine.PutFrames(fd.batch[k:]) // the first batches, whose statuses have not begun
	fd.batch = fd.batch[:k]
	return fd.batch
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
					fd := newBaasBenchFeeder(uint32(0x1000 + c))
					for i := 0; i < b.N; i++ {
						batch := fd.next()
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
