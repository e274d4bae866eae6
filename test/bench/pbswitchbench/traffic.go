// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

const (
	batchSize = 64
	frame64   = 64
)

// blast sends 64-byte lab frames as fast as the socket takes them until
// ctx ends, 64 per system call.
func blast(ctx context.Context, s *netio.Socket) {
	bufs := make([][]byte, batchSize)
	for i := range bufs {
		bufs[i] = make([]byte, frame64)
	}
	var seq uint32
	for ctx.Err() == nil {
		for i := range bufs {
			nslab.Frame(bufs[i], frame64, seq, 0)
			seq++
		}
		if err := s.Send(bufs); err != nil {
			return
		}
	}
}

// sink counts the lab frames a socket receives for the whole run.
type sink struct {
	sock  *netio.Socket
	count atomic.Uint64
	done  chan struct{}
}

func startSink(s *netio.Socket) *sink {
	k := &sink{sock: s, done: make(chan struct{})}
	go func() {
		defer close(k.done)
		batch := make([][]byte, 0, batchSize)
		for {
			var err error
			batch, err = k.sock.Recv(batch[:0], batchSize)
			n := 0
			for _, f := range batch {
				if nslab.IsLabFrame(f) {
					n++
				}
				engine.PutFrame(f)
			}
			k.count.Add(uint64(n))
			if err != nil {
				return
			}
		}
	}()
	return k
}

func (k *sink) stop() {
	k.sock.Wake()
	<-k.done
	k.sock.Close()
}

// rate's warm-up before it counts and its pause after, for the queues to
// drain.
const (
	rateWarmUp = 300 * time.Millisecond
	rateDrain  = 100 * time.Millisecond
)

// rate is frames per second reaching k while tx blasts, after a warm-up.
func rate(tx *netio.Socket, k *sink, dur time.Duration) float64 {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); blast(ctx, tx) }()
	time.Sleep(rateWarmUp)
	c0, t0 := k.count.Load(), time.Now()
	time.Sleep(dur)
	c1, t1 := k.count.Load(), time.Now()
	cancel()
	wg.Wait()
	time.Sleep(rateDrain) // let queues drain before the next round
	return float64(c1-c0) / t1.Sub(t0).Seconds()
}
