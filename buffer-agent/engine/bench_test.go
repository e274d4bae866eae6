// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

type recyclePort struct{ sent atomic.Uint64 }

func (p *recyclePort) Transmit(frames [][]byte) error {
	p.sent.Add(uint64(len(frames)))
	engine.PutFrames(frames)
	return nil
}

func (p *recyclePort) Close() error { return nil }

func forwardingBuffers(b *testing.B, n int) (*engine.Engine, []engine.Ingress) {
	out := &recyclePort{}
	f := engine.BackendFactoryFunc(func(id string, _ engine.BackendSpec, _ engine.Ingress) (engine.Backend, error) {
		return out, nil
	})
	eng := engine.New(engine.Options{
		Limits:   engine.Limits{MaxBuffers: uint32(n), MaxVports: uint32(2 * n)},
		Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f},
	})
	ins := make([]engine.Ingress, n)
	for i := range ins {
		bid, rx, tx := fmt.Sprint("b", i), fmt.Sprint("rx", i), fmt.Sprint("tx", i)
		_, err := eng.Batch(app, []engine.Op{
			{CreateBuffer: &engine.CreateBufferOp{ID: bid, Config: engine.BufferConfig{CapacityPackets: 4096}}},
			{CreateVport: &engine.CreateVportOp{ID: rx, Config: engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: uint32(2 * i)}}}},
			{CreateVport: &engine.CreateVportOp{ID: tx, Config: engine.VportConfig{Mode: engine.ModeTX, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: uint32(2*i + 1)}}}},
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

// BenchmarkForwardingBuffers spreads 64-frame batches round-robin over
// many FORWARDING buffers.
func BenchmarkForwardingBuffers(b *testing.B) {
	for _, n := range []int{4, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			eng, ins := forwardingBuffers(b, n)
			defer eng.Close()
			template := udpFrame(1, 1, 1, 0)
			batch := make([][]byte, 64)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := range batch {
					batch[j] = engine.GetFrame(len(template))
					copy(batch[j], template)
				}
				ins[i%n].Receive(batch)
			}
			b.ReportMetric(float64(b.N*64)/b.Elapsed().Seconds()/1e6, "Mpps")
		})
	}
}

// BenchmarkForwarding64 measures the FORWARDING hot path in process: a
// batch of 64 60-byte frames in through an RX vport, out through a TX vport.
func BenchmarkForwarding64(b *testing.B) {
	out := &recyclePort{}
	f := engine.BackendFactoryFunc(func(id string, _ engine.BackendSpec, _ engine.Ingress) (engine.Backend, error) {
		return out, nil
	})
	eng := engine.New(engine.Options{Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f}})
	defer eng.Close()
	if _, err := eng.CreateBuffer(app, "b", engine.BufferConfig{CapacityPackets: 4096}); err != nil {
		b.Fatal(err)
	}
	for i, m := range []engine.VportMode{engine.ModeRX, engine.ModeTX} {
		id := []string{"rx", "tx"}[i]
		cfg := engine.VportConfig{Mode: m, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: uint32(i)}}
		if _, err := eng.CreateVport(app, id, cfg); err != nil {
			b.Fatal(err)
		}
		if _, err := eng.Bind(app, "b", id); err != nil {
			b.Fatal(err)
		}
	}
	in, _ := eng.Ingress(app, "rx")
	template := udpFrame(1, 1, 1, 0)
	batch := make([][]byte, 64)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range batch {
			batch[j] = engine.GetFrame(len(template))
			copy(batch[j], template)
		}
		in.Receive(batch)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N*64)/b.Elapsed().Seconds()/1e6, "Mpps")
}

// BenchmarkHoldAndReplay measures the path a paused flow takes: batches of
// 64 60-byte frames held by a BUFFERING buffer, replayed every 64Ki
// packets by turning its TX vport on until it is empty, in memory and with
// a state dir (the journal on tmpfs where there is one), so that the
// journal's cost is measured against the same run without it.
func BenchmarkHoldAndReplay(b *testing.B) {
	for _, withState := range []bool{false, true} {
		name := map[bool]string{false: "memory", true: "statedir"}[withState]
		b.Run(name, func(b *testing.B) {
			out := &recyclePort{}
			f := engine.BackendFactoryFunc(func(string, engine.BackendSpec, engine.Ingress) (engine.Backend, error) {
				return out, nil
			})
			opts := engine.Options{Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f}}
			if withState {
				root := ""
				if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
					root = "/dev/shm"
				}
				dir, err := os.MkdirTemp(root, "flowbuf-enginebench-")
				if err != nil {
					b.Fatal(err)
				}
				defer os.RemoveAll(dir)
				opts.StateDir = dir
			}
			eng, _, err := engine.Open(opts)
			if err != nil {
				b.Fatal(err)
			}
			defer eng.Close()
			const cycle = 1024 // batches held between replays
			_, err = eng.Batch(app, []engine.Op{
				{CreateBuffer: &engine.CreateBufferOp{ID: "b", Config: engine.BufferConfig{CapacityPackets: cycle * 64}}},
				{CreateVport: &engine.CreateVportOp{ID: "rx", Config: engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: 0}}}},
				{CreateVport: &engine.CreateVportOp{ID: "tx", Config: engine.VportConfig{Mode: engine.ModeNone, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: 1}}}},
				{Bind: &engine.BindOp{BufferID: "b", VportID: "rx"}},
				{Bind: &engine.BindOp{BufferID: "b", VportID: "tx"}},
			})
			if err != nil {
				b.Fatal(err)
			}
			in, _ := eng.Ingress(app, "rx")
			template := udpFrame(1, 1, 1, 0)
			batch := make([][]byte, 64)
			held := 0 // packets received, all to be replayed
			replay := func() {
				if _, err := eng.SetVportMode(app, "tx", engine.ModeTX, nil); err != nil {
					b.Fatal(err)
				}
				for out.sent.Load() < uint64(held) {
					runtime.Gosched()
				}
				if _, err := eng.SetVportMode(app, "tx", engine.ModeNone, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := range batch {
					batch[j] = engine.GetFrame(len(template))
					copy(batch[j], template)
				}
				in.Receive(batch)
				held += 64
				if (i+1)%cycle == 0 {
					replay()
				}
			}
			replay()
			b.StopTimer()
			if q, _ := eng.QueryBuffer(app, "b"); q.Stats.PacketsIn != uint64(b.N*64) || dropsOf(q.Stats.Drops, engine.DropOverflow) != 0 {
				b.Fatalf("held %d packets, want %d: %+v", q.Stats.PacketsIn, b.N*64, q.Stats)
			}
			b.ReportMetric(float64(b.N*64)/b.Elapsed().Seconds()/1e6, "Mpps")
		})
	}
}
