// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// toPort sends every packet to one port.
type toPort struct {
	port uint32
	objs *pipeline.Objects
}

func (t toPort) Ingress(pk *pipeline.Packet)                                 { pk.Meta.EgressSpec = t.port }
func (t toPort) Egress(pk *pipeline.Packet) bool                             { return true }
func (t toPort) Replicate(dst, src *pipeline.Packet, kind pipeline.CopyKind) {}
func (t toPort) Objects() *pipeline.Objects                                  { return t.objs }

// slowSink takes frames at a bounded pace, like a busy veth.
type slowSink struct{ got atomic.Int64 }

func (s *slowSink) Send(frames [][]byte) error {
	time.Sleep(200 * time.Microsecond)
	s.got.Add(int64(len(frames)))
	engine.PutFrames(frames)
	return nil
}

func burst(n int) [][]byte {
	frames := make([][]byte, n)
	for i := range frames {
		// Zeroed: a pool frame keeps what it last carried, and the
		// recorder program takes frame[0] as the packet's priority (left
		// as it was, a burst's packets went to different priority queues
		// and left out of order).
		frames[i] = engine.GetFrame(64)[:64]
		clear(frames[i])
	}
	return frames
}

func TestReplayBurstWaitsForQueueRoomInsteadOfDropping(t *testing.T) {
	sw := New(Options{CPUPort: 255, QueueLen: 8})
	defer sw.Close()
	sw.SetProgram(toPort{port: 1, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	sink := &slowSink{}
	if err := sw.AddPort(1, sink, 0, nil); err != nil {
		t.Fatal(err)
	}
	sw.ReceiveLossless(100, burst(2000))
	deadline := time.Now().Add(5 * time.Second)
	for sink.got.Load() < 2000 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got, drops := sink.got.Load(), sw.Stats().Drops[DropQueueFull.String()]; got != 2000 || drops != 0 {
		t.Fatalf("lossless replay: %d of 2000 delivered, %d queue-full drops", got, drops)
	}
	// The same burst from a front-panel port overflows the 8-packet queue.
	sw.Receive(2, burst(2000))
	if drops := sw.Stats().Drops[DropQueueFull.String()]; drops == 0 {
		t.Fatal("a front-panel burst into an 8-packet queue dropped nothing; the test proves nothing")
	}
}
