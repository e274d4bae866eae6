// SPDX-License-Identifier: Apache-2.0

package netio_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

const app = "org.flowbuf.itest"

// rig is h1 --veth-- [agent ns: ag-in  engine  ag-out] --veth-- h2, with a
// sender socket in h1 and a receiver socket in h2.
type rig struct {
	ag  netio.NS
	eng *engine.Engine
	tx  *netio.Socket
	rx  *receiver
}

func newRig(t *testing.T, name string) *rig {
	t.Helper()
	if !nslab.IsRoot() {
		t.Skip("needs root to create network namespaces and veth pairs")
	}
	lab := nslab.New("fbag-" + name + "-")
	t.Cleanup(func() {
		if err := lab.Close(); err != nil {
			t.Error(err)
		}
	})
	r := &rig{}
	var h1, h2 netio.NS
	var err error
	for _, step := range []func() error{
		func() error { r.ag, err = lab.NS("ag"); return err },
		func() error { h1, err = lab.NS("h1"); return err },
		func() error { h2, err = lab.NS("h2"); return err },
		func() error { return lab.Veth(h1, "h1-eth", r.ag, "ag-in") },
		func() error { return lab.Veth(h2, "h2-eth", r.ag, "ag-out") },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	r.eng = engine.New(engine.Options{
		Limits:   engine.Limits{PoolBytes: 256 << 20},
		Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendLinuxInterface: &netio.Factory{NS: r.ag}},
	})
	t.Cleanup(func() { _ = r.eng.Close() })
	if r.tx, err = nslab.Socket(h1, "h1-eth", 1500, 1024); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.tx.Close() })
	rxSock, err := nslab.Socket(h2, "h2-eth", 128, 1<<17) // holds the whole stream
	if err != nil {
		t.Fatal(err)
	}
	r.rx = startReceiver(rxSock)
	t.Cleanup(r.rx.stop)
	return r
}

func (r *rig) vport(t *testing.T, id, iface string, mode engine.VportMode) {
	t.Helper()
	cfg := engine.VportConfig{Mode: mode, Backend: engine.BackendSpec{Kind: engine.BackendLinuxInterface, Interface: iface}}
	if _, err := r.eng.CreateVport(app, id, cfg); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) rxCount(t *testing.T, vport string) uint64 {
	v, err := r.eng.QueryVport(app, vport)
	if err != nil {
		t.Fatal(err)
	}
	return v.Stats.RxPackets
}

// send transmits frames seq from..from+n-1 in batches of 64, staying at
// most window frames ahead of what vport "in" has counted, so that the
// agent's RX ring cannot overflow on a scheduling stall of this shared
// machine; the frames themselves go as fast as the agent takes them.
func (r *rig) send(t *testing.T, from, n uint32) {
	t.Helper()
	const batch, window = 64, 2048
	base := r.rxCount(t, "in")
	bufs := make([][]byte, batch)
	for i := range bufs {
		bufs[i] = make([]byte, nslab.MinFrame)
	}
	frames := make([][]byte, 0, batch)
	for sent := uint32(0); sent < n; {
		for deadline := time.Now().Add(5 * time.Second); uint64(sent) > r.rxCount(t, "in")-base+window; {
			if time.Now().After(deadline) {
				t.Fatalf("agent stopped receiving after %d of %d frames", r.rxCount(t, "in")-base, sent)
			}
			time.Sleep(50 * time.Microsecond)
		}
		frames = frames[:0]
		for i := 0; i < batch && sent < n; i++ {
			frames = append(frames, nslab.Frame(bufs[i], nslab.MinFrame, from+sent, time.Now().UnixNano()))
			sent++
		}
		if err := r.tx.Send(frames); err != nil {
			t.Fatal(err)
		}
	}
}

// receiver collects the sequence numbers of lab frames arriving in h2.
type receiver struct {
	sock *netio.Socket
	mu   sync.Mutex
	seqs []uint32
	done chan struct{}
}

func startReceiver(s *netio.Socket) *receiver {
	r := &receiver{sock: s, done: make(chan struct{})}
	go r.run()
	return r
}

func (r *receiver) run() {
	defer close(r.done)
	batch := make([][]byte, 0, 64)
	for {
		var err error
		batch, err = r.sock.Recv(batch[:0], 64)
		r.mu.Lock()
		for _, f := range batch {
			if nslab.IsLabFrame(f) {
				r.seqs = append(r.seqs, nslab.Seq(f))
			}
			engine.PutFrame(f)
		}
		r.mu.Unlock()
		if errors.Is(err, netio.ErrClosed) || err != nil {
			return
		}
	}
}

func (r *receiver) stop() {
	r.sock.Wake()
	<-r.done
	r.sock.Close()
}

func (r *receiver) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seqs)
}

// waitFor waits until n frames arrived, or until none arrived for quiet.
func (r *receiver) waitFor(n int, quiet time.Duration) []uint32 {
	last, lastChange := -1, time.Now()
	for r.count() < n && time.Since(lastChange) < quiet {
		if c := r.count(); c != last {
			last, lastChange = c, time.Now()
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // anything beyond n would show up now
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]uint32(nil), r.seqs...)
}

// lostAndReordered checks a stream expected to be want[0..n): lost counts
// the missing sequence numbers, reordered the arrivals below an earlier one.
func lostAndReordered(got []uint32, first, n uint32) (lost, reordered, dup int) {
	seen := make(map[uint32]bool, len(got))
	var high uint32
	for i, s := range got {
		if seen[s] {
			dup++
		}
		seen[s] = true
		if i > 0 && s < high {
			reordered++
		}
		high = max(high, s)
	}
	for s := first; s < first+n; s++ {
		if !seen[s] {
			lost++
		}
	}
	return lost, reordered, dup
}
