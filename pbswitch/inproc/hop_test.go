// SPDX-License-Identifier: Apache-2.0

package inproc_test

import (
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
	"github.com/flowbuf/flowbuf/pbswitch/node"
)

// hopLab is pbswitch with the FlowBuf program, two in-process ports (1 in,
// 2 out) and vport port 100 carrying a FORWARDING buffer: the lab of
// pbswitchbench's in-process buffer hop without the kernel.
type hopLab struct {
	n     *node.Node
	c     *ctl.Controller
	out   *outPort
	steer func(on bool) error
}

const hopVport = 100

var hopDst = [4]byte{10, 251, 0, 2}

// outPort collects what the switch sends out of port 2: the lab frames'
// sequence numbers in arrival order (when keep is set) and their count.
type outPort struct {
	mu    sync.Mutex
	keep  bool
	seqs  []uint32
	n     atomic.Uint64
	delay time.Duration // a slow link: each Send takes this long
}

func (o *outPort) Send(frames [][]byte) error {
	if o.delay > 0 {
		time.Sleep(o.delay)
	}
	if o.keep {
		o.mu.Lock()
		for _, f := range frames {
			o.seqs = append(o.seqs, nslab.Seq(f))
		}
		o.mu.Unlock()
	}
	o.n.Add(uint64(len(frames)))
	engine.PutFrames(frames)
	return nil
}

func newHopLab(tb testing.TB, queueLen int) *hopLab {
	tb.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	n, err := node.Start(node.Config{DeviceID: 1, CPUPort: 255, P4RTListen: "127.0.0.1:0",
		Vports: []uint32{hopVport}, QueueLen: queueLen, Logger: quiet})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { n.Close() })
	n.Engine = engine.New(engine.Options{Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: n.Vports}})
	tb.Cleanup(func() { n.Engine.Close() })
	l := &hopLab{n: n, out: &outPort{}}
	if err := n.Switch.AddPort(1, dataplane.SinkFunc(func(f [][]byte) error { engine.PutFrames(f); return nil }), 0, nil); err != nil {
		tb.Fatal(err)
	}
	if err := n.Switch.AddPort(2, l.out, 0, nil); err != nil {
		tb.Fatal(err)
	}
	pl, err := ctl.LoadPipeline(filepath.Join("..", "..", "pipeconf", "p4src", "build"))
	if err != nil {
		tb.Fatal(err)
	}
	if l.c, err = ctl.Connect(n.P4RTAddr(), 1); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { l.c.Close() })
	mac := []byte{2, 0xfb, 0, 0, 0, 2}
	if err := l.c.Push(pl); err != nil {
		tb.Fatal(err)
	}
	if err := l.c.Insert(l.c.Route(hopDst, 32, 2, mac, mac), l.c.VportPort(hopVport)); err != nil {
		tb.Fatal(err)
	}
	e := n.Engine
	if _, err := e.CreateBuffer("t", "fwd", engine.BufferConfig{CapacityPackets: 1 << 16}); err != nil {
		tb.Fatal(err)
	}
	if _, err := e.CreateVport("t", "v", engine.VportConfig{Mode: engine.ModeRXTX,
		Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: hopVport}}); err != nil {
		tb.Fatal(err)
	}
	if _, err := e.Bind("t", "fwd", "v"); err != nil {
		tb.Fatal(err)
	}
	steer := l.c.SteerDst(hopDst, hopVport, 10)
	l.steer = func(on bool) error {
		if on {
			return l.c.Insert(steer)
		}
		return l.c.Delete(steer)
	}
	return l
}

// feed sends frames seq0..seq0+n-1 into port 1 in batches of 64, keeping
// at most window frames between port 1 and port 2 (the queues never
// overflow), and waits until all have left port 2.
func (l *hopLab) feed(tb testing.TB, seq0 uint32, n int, window uint64) {
	tb.Helper()
	batch := make([][]byte, 0, 64)
	base := l.out.n.Load()
	sent := uint64(0)
	deadline := time.Now().Add(30 * time.Second)
	for sent < uint64(n) {
		for sent-(l.out.n.Load()-base) > window {
			if time.Now().After(deadline) {
				tb.Fatalf("stuck: %d sent, %d out", sent, l.out.n.Load()-base)
			}
			runtime.Gosched()
		}
		k := min(64, n-int(sent))
		for i := 0; i < k; i++ {
			f := engine.GetFrame(64)[:64]
			batch = append(batch, nslab.Frame(f, 64, seq0+uint32(sent)+uint32(i), 0))
		}
		l.n.Switch.Receive(1, batch)
		clear(batch)
		batch = batch[:0]
		sent += uint64(k)
	}
	for l.out.n.Load()-base < uint64(n) {
		if time.Now().After(deadline) {
			tb.Fatalf("lost: %d sent, %d out, drops %v", n, l.out.n.Load()-base, l.n.Switch.Stats().Drops)
		}
		runtime.Gosched()
	}
}

// BenchmarkHop is one frame through the switch routed directly, and
// steered through the in-process FORWARDING buffer and back (the
// pbswitchbench hop without the kernel's veths).
func BenchmarkHop(b *testing.B) {
	for _, tc := range []struct {
		name  string
		steer bool
	}{{"direct", false}, {"buffered", true}} {
		b.Run(tc.name, func(b *testing.B) {
			l := newHopLab(b, 0)
			if tc.steer {
				if err := l.steer(true); err != nil {
					b.Fatal(err)
				}
			}
			l.feed(b, 0, 10000, 1024) // warm the pools
			b.ReportAllocs()
			b.ResetTimer()
			l.feed(b, 0, b.N, 1024)
		})
	}
}

// send feeds frames seq0..seq0+n-1 into port 1 in batches of size, a
// batch every pace, without waiting for them to leave.
func (l *hopLab) send(seq0 uint32, n, size int, pace time.Duration) {
	batch := make([][]byte, 0, size)
	for sent := 0; sent < n; {
		k := min(size, n-sent)
		for i := 0; i < k; i++ {
			f := engine.GetFrame(64)[:64]
			batch = append(batch, nslab.Frame(f, 64, seq0+uint32(sent+i), 0))
		}
		l.n.Switch.Receive(1, batch)
		clear(batch)
		batch = batch[:0]
		sent += k
		time.Sleep(pace)
	}
}

func (l *hopLab) waitOut(tb testing.TB, n uint64) {
	tb.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for l.out.n.Load() < n {
		if time.Now().After(deadline) {
			tb.Fatalf("%d of %d frames left port 2; drops %v", l.out.n.Load(), n, l.n.Switch.Stats().Drops)
		}
		time.Sleep(time.Millisecond)
	}
}

// A flow through the in-process buffer is paused (the vport loses TX: the
// buffer holds) and resumed (TX again: the buffer replays what it held
// while new frames keep arriving, in odd-sized batches so that the
// pause, the replay's batches and the arrivals' batches do not line up):
// every frame leaves port 2, once, in the order it was sent. Port 2 is a
// slow link with a 256-packet queue: the paced arrivals fit, the replay's
// burst does not, and waits for room rather than dropping.
func TestPauseAndResumeThroughTheHopLoseAndReorderNothing(t *testing.T) {
	l := newHopLab(t, 256)
	l.out.keep = true
	l.out.delay = 100 * time.Microsecond
	const pace = 300 * time.Microsecond
	if err := l.steer(true); err != nil {
		t.Fatal(err)
	}
	e := l.n.Engine
	l.send(0, 3000, 37, pace) // FORWARDING: pass-through
	l.waitOut(t, 3000)
	if _, err := e.SetVportMode("t", "v", engine.ModeRX, nil); err != nil {
		t.Fatal(err)
	}
	l.send(3000, 3000, 53, pace) // paused: held
	deadline := time.Now().Add(10 * time.Second)
	for {
		info, err := e.QueryBuffer("t", "fwd")
		if err != nil {
			t.Fatal(err)
		}
		if info.Stats.OccupancyPackets == 3000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the paused buffer holds %d of 3000", info.Stats.OccupancyPackets)
		}
		time.Sleep(time.Millisecond)
	}
	if got := l.out.n.Load(); got != 3000 {
		t.Fatalf("%d frames left while paused, want 3000", got)
	}
	done := make(chan struct{})
	go func() { defer close(done); l.send(6000, 4000, 61, pace) }() // arrivals during the replay
	if _, err := e.SetVportMode("t", "v", engine.ModeRXTX, nil); err != nil {
		t.Fatal(err)
	}
	<-done
	l.waitOut(t, 10000)
	l.out.mu.Lock()
	defer l.out.mu.Unlock()
	for i, s := range l.out.seqs {
		if s != uint32(i) {
			t.Fatalf("frame %d left in place %d (lost or reordered around the pause)", s, i)
		}
	}
	if len(l.out.seqs) != 10000 {
		t.Fatalf("%d frames left, want 10000", len(l.out.seqs))
	}
}
