// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// inlineSink records each Send's frames (source port, sequence) and may
// take a while over each call, as the buffer engine's replay does.
type inlineSink struct {
	mu    sync.Mutex
	calls [][]uint64 // per Send: (source << 32 | seq) of each frame
	n     atomic.Int64
	pause time.Duration
}

func (s *inlineSink) SendsInline() {}

func (s *inlineSink) Send(frames [][]byte) error {
	got := make([]uint64, len(frames))
	for i, f := range frames {
		got[i] = binary.BigEndian.Uint64(f)
	}
	if s.pause > 0 {
		time.Sleep(s.pause)
	}
	s.mu.Lock()
	s.calls = append(s.calls, got)
	s.mu.Unlock()
	s.n.Add(int64(len(frames)))
	engine.PutFrames(frames)
	return nil
}

// tagged is n frames numbered seq0.. from source src.
func tagged(src uint32, seq0, n int) [][]byte {
	frames := make([][]byte, n)
	for i := range frames {
		f := engine.GetFrame(64)[:64]
		binary.BigEndian.PutUint64(f, uint64(src)<<32|uint64(seq0+i))
		frames[i] = f
	}
	return frames
}

func (s *inlineSink) wait(t *testing.T, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for s.n.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d frames reached the inline port", s.n.Load(), n)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

func TestInlinePortTakesABatchOnTheCallersGoroutineInOneSend(t *testing.T) {
	sw := New(Options{CPUPort: 255})
	defer sw.Close()
	sw.SetProgram(toPort{port: 100, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	sink := &inlineSink{}
	if err := sw.AddPort(100, sink, 0, nil); err != nil {
		t.Fatal(err)
	}
	sw.Receive(1, tagged(1, 0, 64))
	// No waiting: Receive returned after the port sent the batch.
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if len(sink.calls) != 1 || len(sink.calls[0]) != 64 {
		t.Fatalf("the batch reached the inline port in %d calls (want it all in one, before Receive returned): %v", len(sink.calls), sink.calls)
	}
	if st := sw.Stats().Ports[100]; st.TxFrames != 64 {
		t.Fatalf("port 100 counted %d frames sent, want 64", st.TxFrames)
	}
}

// Several goroutines feed one inline port at once (two front-panel ports'
// readers, a replay): whoever drains, and the worker when it serves
// instead, takes the queue in turn, so each source's frames leave in the
// order it sent them and none is lost.
func TestInlinePortKeepsEachSourcesOrderUnderConcurrentFeeders(t *testing.T) {
	sw := New(Options{CPUPort: 255, QueueLen: 1 << 16})
	defer sw.Close()
	sw.SetProgram(toPort{port: 100, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	sink := &inlineSink{pause: 20 * time.Microsecond}
	if err := sw.AddPort(100, sink, 0, nil); err != nil {
		t.Fatal(err)
	}
	const sources, batches, size = 4, 300, 16
	var wg sync.WaitGroup
	for src := uint32(1); src <= sources; src++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := 0; b < batches; b++ {
				switch {
				case src == sources:
					sw.ReceiveLossless(src, tagged(src, b*size, size)) // a buffer's replay
				case b%7 == 0:
					// A lone frame from another path (as a PacketOut's)
					// between batches.
					sw.Receive(src, tagged(src, b*size, 1))
					sw.Receive(src, tagged(src, b*size+1, size-1))
				default:
					sw.Receive(src, tagged(src, b*size, size))
				}
			}
		}()
	}
	wg.Wait()
	sink.wait(t, sources*batches*size)
	next := map[uint32]int{}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	for _, call := range sink.calls {
		for _, v := range call {
			src, seq := uint32(v>>32), int(uint32(v))
			if seq != next[src] {
				t.Fatalf("source %d: frame %d left after frame %d (reordered)", src, seq, next[src]-1)
			}
			next[src]++
		}
	}
	for src := uint32(1); src <= sources; src++ {
		if next[src] != batches*size {
			t.Fatalf("source %d: %d of %d frames left", src, next[src], batches*size)
		}
	}
	if d := sw.Stats().Drops; d[DropQueueFull.String()] != 0 {
		t.Fatalf("drops: %v", d)
	}
}

// Replays into a full inline queue wait for room and kick the worker, so
// the worker and the drainers take turns at the queue all along: each
// source's order holds, nothing is lost, and nothing is left behind when
// the feeders stop.
func TestInlinePortWorkerAndDrainersTakeTurns(t *testing.T) {
	for round := 0; round < 20; round++ {
		sw := New(Options{CPUPort: 255, QueueLen: 8})
		sw.SetProgram(toPort{port: 100, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
		sink := &inlineSink{pause: 5 * time.Microsecond}
		if err := sw.AddPort(100, sink, 0, nil); err != nil {
			t.Fatal(err)
		}
		const sources, batches, size = 3, 40, 8
		var wg sync.WaitGroup
		for src := uint32(1); src <= sources; src++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for b := 0; b < batches; b++ {
					sw.ReceiveLossless(src, tagged(src, b*size, size))
				}
			}()
		}
		wg.Wait()
		sink.wait(t, sources*batches*size)
		next := map[uint32]int{}
		sink.mu.Lock()
		for _, call := range sink.calls {
			for _, v := range call {
				src, seq := uint32(v>>32), int(uint32(v))
				if seq != next[src] {
					t.Fatalf("source %d: frame %d left after frame %d (reordered)", src, seq, next[src]-1)
				}
				next[src]++
			}
		}
		sink.mu.Unlock()
		if d := sw.Stats().Drops; d[DropQueueFull.String()] != 0 {
			t.Fatalf("drops: %v", d)
		}
		sw.Close()
	}
}

// A shaped inline port holds packets back; the drainer leaves them to the
// worker, which waits for the port rate, and none is lost.
func TestInlinePortLeavesWhatItsRateHoldsToTheWorker(t *testing.T) {
	sw := New(Options{CPUPort: 255})
	defer sw.Close()
	sw.SetProgram(toPort{port: 100, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	sink := &inlineSink{}
	// 1 Mb/s: a burst of 9,216 bytes (144 frames of 64), then 512 µs a frame.
	if err := sw.AddPort(100, sink, 1_000_000, nil); err != nil {
		t.Fatal(err)
	}
	sw.Receive(1, tagged(1, 0, 64))
	sw.Receive(1, tagged(1, 64, 200)) // past the burst: held for the rate
	if got := sink.n.Load(); got >= 264 {
		t.Fatalf("a 1 Mb/s port sent %d frames at once", got)
	}
	sink.wait(t, 264)
	next := 0
	for _, call := range sink.calls {
		for _, v := range call {
			if int(uint32(v)) != next {
				t.Fatalf("frame %d left after %d", uint32(v), next-1)
			}
			next++
		}
	}
}

// A packet an egress round recirculates towards an inline port reaches it
// (the round drains the inline ports after it).
func TestInlinePortGetsWhatAnotherPortsEgressRequeues(t *testing.T) {
	sw := New(Options{CPUPort: 255})
	defer sw.Close()
	sw.SetProgram(&recircOnce{objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	sink := &inlineSink{}
	if err := sw.AddPort(100, sink, 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := sw.AddPort(2, SinkFunc(func(f [][]byte) error { engine.PutFrames(f); return nil }), 0, nil); err != nil {
		t.Fatal(err)
	}
	sw.Receive(1, tagged(1, 0, 8))
	sink.wait(t, 8)
}

// recircOnce sends a packet to port 2, whose egress recirculates it; the
// recirculated packet goes to port 100.
type recircOnce struct{ objs *pipeline.Objects }

func (r *recircOnce) Ingress(pk *pipeline.Packet) {
	pk.Meta.EgressSpec = 2
	if pk.Meta.InstanceType == pipeline.InstanceRecirculate {
		pk.Meta.EgressSpec = 100
	}
}

func (r *recircOnce) Egress(pk *pipeline.Packet) bool {
	pk.Meta.Recirculate = pk.Meta.EgressPort == 2
	return true
}
func (r *recircOnce) Replicate(dst, src *pipeline.Packet, kind pipeline.CopyKind) {}
func (r *recircOnce) Objects() *pipeline.Objects                                  { return r.objs }
