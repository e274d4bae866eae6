// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

// sendWindow is how far the paused/resumed stream's sender may run ahead
// of the frames the agent has taken in: the stream goes as fast as the
// agent takes it, without overrunning the agent's RX ring when this shared
// machine stalls a thread.
const sendWindow = 2048

// pauseResume streams n frames: the first half is paused (BUFFERING) and
// held (STORING); then the buffer serves (SERVING) and is resumed
// (FORWARDING) while the second half flows. It reports lost and reordered
// frames at the receiver.
func (b *bench) pauseResume(eng *engine.Engine, l *netLab) error {
	n := 1_000_000
	if b.quick {
		n = 200_000
	}
	half := uint32(n / 2)
	_, err := eng.Batch(benchApp, []engine.Op{
		{Unbind: &engine.BindOp{BufferID: "fwd", VportID: "in"}},
		{Unbind: &engine.BindOp{BufferID: "fwd", VportID: "out"}},
		{CreateBuffer: &engine.CreateBufferOp{ID: "pr", Config: engine.BufferConfig{CapacityPackets: uint64(n)}}},
		{Bind: &engine.BindOp{BufferID: "pr", VportID: "in"}},
	})
	if err != nil {
		return err
	}
	check := newOrderCheck(n)
	l.h2Sink.mu.Lock()
	l.h2Sink.order = check
	l.h2Sink.mu.Unlock()
	start := time.Now()
	steps := []func() error{
		func() error { return expectState(eng, engine.StateBuffering) },
		func() error { return sendWindowed(eng, l.h1Tx, 0, half) },
		func() error { return waitHeld(eng, uint64(half)) },
		func() error { _, err := eng.Unbind(benchApp, "pr", "in"); return err },
		func() error { return expectState(eng, engine.StateStoring) },
		func() error { _, err := eng.Bind(benchApp, "pr", "out"); return err },
		func() error { return expectState(eng, engine.StateServing) },
		func() error { _, err := eng.Bind(benchApp, "pr", "in"); return err },
		func() error { return expectState(eng, engine.StateForwarding) },
		func() error { return sendWindowed(eng, l.h1Tx, half, uint32(n)-half) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	waitCount(l.h2Sink, check, n, 3*time.Second)
	l.h2Sink.mu.Lock()
	lost, reordered, dup := check.lost(), check.reordered, check.dup
	l.h2Sink.order = nil
	l.h2Sink.mu.Unlock()
	cond := map[string]any{"frames": n, "paused": half, "frame_bytes": frame64, "duplicates": dup,
		"seconds": time.Since(start).Seconds(), "sender_window": sendWindow,
		"states": "BUFFERING -> STORING -> SERVING -> FORWARDING"}
	b.Emit("pause_resume_lost", float64(lost), "packets", cond)
	b.Emit("pause_resume_reordered", float64(reordered), "packets", cond)
	return nil
}

func expectState(eng *engine.Engine, want engine.State) error {
	buf, err := eng.QueryBuffer(benchApp, "pr")
	if err != nil {
		return err
	}
	if buf.State != want {
		return fmt.Errorf("buffer pr is %v, want %v", buf.State, want)
	}
	return nil
}

func vportRx(eng *engine.Engine) uint64 {
	v, err := eng.QueryVport(benchApp, "in")
	if err != nil {
		return 0
	}
	return v.Stats.RxPackets
}

func sendWindowed(eng *engine.Engine, tx *netio.Socket, from, n uint32) error {
	bufs := make([][]byte, batchSize)
	for i := range bufs {
		bufs[i] = make([]byte, frame64)
	}
	frames := make([][]byte, 0, batchSize)
	base := vportRx(eng)
	for sent := uint32(0); sent < n; {
		for deadline := time.Now().Add(5 * time.Second); uint64(sent) > vportRx(eng)-base+sendWindow; time.Sleep(20 * time.Microsecond) {
			if time.Now().After(deadline) {
				return fmt.Errorf("agent stopped taking frames after %d of %d", vportRx(eng)-base, sent)
			}
		}
		frames = frames[:0]
		for i := 0; i < batchSize && sent < n; i++ {
			frames = append(frames, nslab.Frame(bufs[i], frame64, from+sent, 0))
			sent++
		}
		if err := tx.Send(frames); err != nil {
			return err
		}
	}
	return nil
}

func waitHeld(eng *engine.Engine, n uint64) error {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		b, err := eng.QueryBuffer(benchApp, "pr")
		if err != nil {
			return err
		}
		if b.Stats.OccupancyPackets+b.Stats.PacketsOut >= n {
			return nil
		}
	}
	return fmt.Errorf("buffer pr did not take %d frames", n)
}

// waitCount waits until the stream is complete or nothing arrived for quiet.
func waitCount(k *sink, o *orderCheck, n int, quiet time.Duration) {
	last, since := -1, time.Now()
	for time.Since(since) < quiet {
		k.mu.Lock()
		got := o.got
		k.mu.Unlock()
		if got >= n {
			return
		}
		if got != last {
			last, since = got, time.Now()
		}
		time.Sleep(2 * time.Millisecond)
	}
}
