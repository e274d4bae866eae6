// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

const batchSize = 64

// blast sends size-byte lab frames as fast as the socket takes them until
// ctx ends, in batches of 64 (one system call each).
func blast(ctx context.Context, s *netio.Socket, size int) {
	bufs := make([][]byte, batchSize)
	for i := range bufs {
		bufs[i] = nslab.Frame(make([]byte, size), size, 0, 0)
	}
	var seq uint32
	for ctx.Err() == nil {
		for i := range bufs {
			nslab.Frame(bufs[i], size, seq, 0)
			seq++
		}
		if err := s.Send(bufs); err != nil {
			return
		}
	}
}

// sink reads a socket for the whole run, counting lab frames and, when
// asked, recording one-way latencies or checking sequence order.
type sink struct {
	sock  *netio.Socket
	count atomic.Uint64
	done  chan struct{}

	mu      sync.Mutex
	latency []time.Duration // nil unless sampling
	bySeq   []time.Duration // nil unless sampling probes by sequence number
	order   *orderCheck     // nil unless checking
}

func startSink(s *netio.Socket) *sink {
	k := &sink{sock: s, done: make(chan struct{})}
	go k.run()
	return k
}

func (k *sink) run() {
	defer close(k.done)
	batch := make([][]byte, 0, batchSize)
	for {
		var err error
		batch, err = k.sock.Recv(batch[:0], batchSize)
		now := time.Now().UnixNano()
		n := 0
		k.mu.Lock()
		for _, f := range batch {
			if nslab.IsLabFrame(f) {
				n++
				if k.latency != nil {
					k.latency = append(k.latency, time.Duration(now-nslab.SentAt(f)))
				}
				if s := int(nslab.Seq(f)); s < len(k.bySeq) {
					k.bySeq[s] = time.Duration(now - nslab.SentAt(f))
				}
				if k.order != nil {
					k.order.see(nslab.Seq(f))
				}
			}
			engine.PutFrame(f)
		}
		k.mu.Unlock()
		k.count.Add(uint64(n))
		if err != nil {
			return
		}
	}
}

func (k *sink) stop() {
	k.sock.Wake()
	<-k.done
	k.sock.Close()
}

// rate measures frames per second reaching k while a blaster runs on tx.
func rate(tx *netio.Socket, k *sink, size int, dur time.Duration) float64 {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); blast(ctx, tx, size) }()
	time.Sleep(300 * time.Millisecond) // warm up: rings, caches, bridge learning
	c0, t0 := k.count.Load(), time.Now()
	time.Sleep(dur)
	c1, t1 := k.count.Load(), time.Now()
	cancel()
	wg.Wait()
	time.Sleep(100 * time.Millisecond)
	return float64(c1-c0) / t1.Sub(t0).Seconds()
}

// latencies sends one timestamped frame every gap (at least) for dur and
// returns the one-way latencies seen by k.
func latencies(tx *netio.Socket, k *sink, gap, dur time.Duration) []time.Duration {
	k.mu.Lock()
	k.latency = make([]time.Duration, 0, int(dur/gap)+16)
	k.mu.Unlock()
	buf := make([]byte, nslab.MinFrame)
	frames := [][]byte{nil}
	for end, seq := time.Now().Add(dur), uint32(0); time.Now().Before(end); seq++ {
		frames[0] = nslab.Frame(buf, nslab.MinFrame, seq, time.Now().UnixNano())
		_ = tx.Send(frames)
		time.Sleep(gap)
	}
	time.Sleep(50 * time.Millisecond)
	k.mu.Lock()
	out := k.latency
	k.latency = nil
	k.mu.Unlock()
	return out
}

// pairedLatencies sends probe i on path A (aTx, seen by aSink) and on path
// B pairSpacing apart (a short spin: a sleep that short lasts a millisecond
// here), alternating which goes first, then waits gap, for dur; it returns
// the one-way latency of probe i on each path at index i (0: the probe was
// lost) and the mean spacing of a pair's two sends. Probes sent so close in
// time meet the same load on the machine, so per-probe differences cancel
// most of it.
func pairedLatencies(aTx *netio.Socket, aSink *sink, bTx *netio.Socket, bSink *sink, gap, dur time.Duration) (a, b []time.Duration, spacing time.Duration) {
	n := int(dur / gap)
	for _, k := range []*sink{aSink, bSink} {
		k.mu.Lock()
		k.bySeq = make([]time.Duration, n)
		k.mu.Unlock()
	}
	bufA, bufB := make([]byte, nslab.MinFrame), make([]byte, nslab.MinFrame)
	send := func(tx *netio.Socket, buf []byte, seq int) time.Time {
		now := time.Now()
		_ = tx.Send([][]byte{nslab.Frame(buf, nslab.MinFrame, uint32(seq), now.UnixNano())})
		return now
	}
	var spaced time.Duration
	sent := 0
	for end := time.Now().Add(dur); sent < n && time.Now().Before(end); sent++ {
		first, second := aTx, bTx
		firstBuf, secondBuf := bufA, bufB
		if sent%2 == 1 {
			first, second, firstBuf, secondBuf = bTx, aTx, bufB, bufA
		}
		t0 := send(first, firstBuf, sent)
		for time.Since(t0) < pairSpacing {
		}
		spaced += send(second, secondBuf, sent).Sub(t0)
		time.Sleep(gap)
	}
	time.Sleep(50 * time.Millisecond)
	take := func(k *sink) []time.Duration {
		k.mu.Lock()
		defer k.mu.Unlock()
		out := k.bySeq[:sent]
		k.bySeq = nil
		return out
	}
	if sent > 0 {
		spacing = spaced / time.Duration(sent)
	}
	return take(aSink), take(bSink), spacing
}

// pairSpacing separates the two probes of a pair: apart enough that one
// does not queue behind the other, close enough to share the load.
const pairSpacing = 25 * time.Microsecond

func sortDurations(d []time.Duration) { sort.Slice(d, func(i, j int) bool { return d[i] < d[j] }) }

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}

// orderCheck counts, for a stream 0..n-1, frames seen, duplicates and
// arrivals below an earlier sequence number.
type orderCheck struct {
	seen      []bool
	high      uint32
	any       bool
	got, dup  int
	reordered int
}

func newOrderCheck(n int) *orderCheck { return &orderCheck{seen: make([]bool, n)} }

func (o *orderCheck) see(s uint32) {
	if int(s) >= len(o.seen) {
		return
	}
	if o.seen[s] {
		o.dup++
	}
	o.seen[s] = true
	o.got++
	if o.any && s < o.high {
		o.reordered++
	}
	o.any = true
	o.high = max(o.high, s)
}

func (o *orderCheck) lost() int {
	n := 0
	for _, s := range o.seen {
		if !s {
			n++
		}
	}
	return n
}
