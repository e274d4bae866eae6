// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// floodSource is a port under overload: a receive ring that is never
// empty. It hands out total frames, then reports the port closed.
type floodSource struct{ left int }

func (f *floodSource) Recv(dst [][]byte, max int) ([][]byte, error) {
	if f.left == 0 {
		return dst, netio.ErrClosed
	}
	n := min(max, f.left)
	f.left -= n
	return append(dst, burst(n)...), nil
}

// countingSink takes every frame at once.
type countingSink struct{ got atomic.Int64 }

func (c *countingSink) Send(frames [][]byte) error {
	c.got.Add(int64(len(frames)))
	engine.PutFrames(frames)
	return nil
}

// On one core, a port whose ring never empties must leave the egress
// worker its turn: the switch forwards what it receives instead of
// spending ingress on frames its egress queue then drops.
func TestOverloadedPortLeavesEgressItsTurnOnOneCore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	sw := New(Options{CPUPort: 255})
	defer sw.Close()
	sw.SetProgram(toPort{port: 2, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	sink := &countingSink{}
	if err := sw.AddPort(2, sink, 0, nil); err != nil {
		t.Fatal(err)
	}
	const total = 200_000 // dozens of the egress queue's 4,096 slots
	if err := sw.receiveFrom(1, &floodSource{left: total}); err != netio.ErrClosed {
		t.Fatalf("receiveFrom: %v, want netio.ErrClosed once the source is done", err)
	}
	drops := sw.Stats().Drops[DropQueueFull.String()]
	for deadline := time.Now().Add(10 * time.Second); sink.got.Load()+int64(drops) < total && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if got := sink.got.Load(); drops > total/100 || got+int64(drops) != total {
		t.Fatalf("flooded port on one core: %d of %d forwarded, %d dropped for a full egress queue (want < 1 %%)", got, total, drops)
	}
}
