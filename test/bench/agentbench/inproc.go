// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"github.com/flowbuf/flowbuf/test/bench/benchreport"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

// countingPort is an in-process backend that counts what it is sent and
// recycles the frames, like a switch pipeline taking ownership would.
type countingPort struct{ sent *atomic.Uint64 }

func (p countingPort) Transmit(frames [][]byte) error {
	n := len(frames)
	engine.PutFrames(frames)
	p.sent.Add(uint64(n))
	return nil
}

func (countingPort) Close() error { return nil }

type countingFactory struct{ sent atomic.Uint64 }

func (f *countingFactory) Open(string, engine.BackendSpec, engine.Ingress) (engine.Backend, error) {
	return countingPort{sent: &f.sent}, nil
}

// forwardingEngine builds n FORWARDING buffers (RX and TX vport each) and
// returns the engine, the RX ingresses and the TX counter.
func forwardingEngine(n int) (*engine.Engine, []engine.Ingress, *countingFactory, error) {
	f := &countingFactory{}
	eng := newEngine(engine.Options{
		Limits:   engine.Limits{PoolBytes: 2 << 30, MaxBufferBytes: 1 << 30, MaxBuffers: uint32(n), MaxVports: uint32(2 * n)},
		Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f},
	})
	ins := make([]engine.Ingress, n)
	for i := 0; i < n; i++ {
		b, rx, tx := fmt.Sprintf("b%d", i), fmt.Sprintf("rx%d", i), fmt.Sprintf("tx%d", i)
		mk := func(mode engine.VportMode, port int) engine.VportConfig {
			return engine.VportConfig{Mode: mode, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: uint32(port)}}
		}
		_, err := eng.Batch(benchApp, []engine.Op{
			{CreateBuffer: &engine.CreateBufferOp{ID: b, Config: engine.BufferConfig{CapacityPackets: 4096}}},
			{CreateVport: &engine.CreateVportOp{ID: rx, Config: mk(engine.ModeRX, 2*i)}},
			{CreateVport: &engine.CreateVportOp{ID: tx, Config: mk(engine.ModeTX, 2*i+1)}},
			{Bind: &engine.BindOp{BufferID: b, VportID: rx}},
			{Bind: &engine.BindOp{BufferID: b, VportID: tx}},
		})
		if err != nil {
			eng.Close()
			return nil, nil, nil, err
		}
		if ins[i], err = eng.Ingress(benchApp, rx); err != nil {
			eng.Close()
			return nil, nil, nil, err
		}
	}
	return eng, ins, f, nil
}

// feedRate feeds 64-frame batches of 60-byte frames round-robin into the
// ingresses from `feeders` goroutines for dur and returns frames per
// second that left through the TX vports.
func feedRate(ins []engine.Ingress, f *countingFactory, feeders int, dur time.Duration) float64 {
	n := len(ins)
	var stop atomic.Bool
	var wg sync.WaitGroup
	for g := 0; g < feeders; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			batch := make([][]byte, batchSize)
			template := nslab.Frame(make([]byte, frame64), frame64, 0, 0)
			for i := g % n; !stop.Load(); i = (i + feeders) % n {
				for j := range batch {
					batch[j] = engine.GetFrame(frame64)
					copy(batch[j], template)
				}
				ins[i].Receive(batch)
			}
		}(g)
	}
	time.Sleep(100 * time.Millisecond)
	c0, t0 := f.sent.Load(), time.Now()
	time.Sleep(dur)
	c1, t1 := f.sent.Load(), time.Now()
	stop.Store(true)
	wg.Wait()
	return float64(c1-c0) / t1.Sub(t0).Seconds()
}

func (b *bench) inProcess() error {
	eng, ins, f, err := forwardingEngine(1)
	if err != nil {
		return err
	}
	one := feedRate(ins, f, 1, b.dur)
	eng.Close()
	b.Emit("engine_inproc_mpps", one/1e6, "Mpps", map[string]any{"frame_bytes": frame64, "buffers": 1,
		"feeders": 1, "batch": batchSize, "path": "Ingress.Receive -> FIFO -> Transmit, no sockets"})
	return b.scaling()
}

// scaling compares aggregate throughput with 2048 FORWARDING buffers and
// with 4, in alternating rounds (both engines exist throughout).
func (b *bench) scaling() error {
	const rounds, feeders = 3, 2
	engFew, insFew, fFew, err := forwardingEngine(4)
	if err != nil {
		return err
	}
	defer engFew.Close()
	engMany, insMany, fMany, err := forwardingEngine(2048)
	if err != nil {
		return err
	}
	defer engMany.Close()
	var few, many float64
	for r := 0; r < rounds; r++ {
		few += feedRate(insFew, fFew, feeders, b.dur/rounds) / rounds
		many += feedRate(insMany, fMany, feeders, b.dur/rounds) / rounds
	}
	b.Emit("buffers_2048_vs_4_throughput", many/few, "ratio", map[string]any{
		"mpps_2048": benchreport.Round(many / 1e6), "mpps_4": benchreport.Round(few / 1e6), "feeders": feeders, "rounds": rounds, "path": "in process"})
	return nil
}
