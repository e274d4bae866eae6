// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

func arqFixture(t *testing.T, maxResends uint32) (*fixture, *capture, *capture) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 100, Queue: engine.QueueARQ,
		Arq: engine.ArqConfig{Buckets: 4, BucketUs: 1000, MaxResends: maxResends}})
	in := fx.mustVport(t, "in", engine.ModeRX)
	out := fx.mustVport(t, "out", engine.ModeTX)
	fx.mustBind(t, "b", "in")
	fx.mustBind(t, "b", "out")
	return fx, in, out
}

func TestArqResendsEveryWheelTurnUntilAcked(t *testing.T) {
	fx, in, out := arqFixture(t, 0)
	in.in.Receive(seqFrames(1, 3))
	out.waitSent(t, 3)
	if st := fx.query(t, "b").Stats; st.OccupancyPackets != 3 || st.PacketsOut != 3 {
		t.Fatalf("after send %+v", st)
	}
	fx.clk.Advance(3 * time.Millisecond) // three ticks: not yet back to the bucket
	time.Sleep(20 * time.Millisecond)
	if n := len(out.frames()); n != 3 {
		t.Fatalf("resent before a full turn: %d frames", n)
	}
	fx.clk.Advance(time.Millisecond) // fourth tick: the wheel is back
	sent := out.waitSent(t, 6)
	if got := seqs(sent[3:]); got[0] != 1 || got[2] != 3 {
		t.Fatalf("resent %v", got)
	}
	n, err := fx.e.Ack(app, "b", []engine.PacketID{{IPv4ID: 2, L4Checksum: 14}, {IPv4ID: 77, L4Checksum: 1}})
	if err != nil || n != 1 {
		t.Fatalf("ack = %d, %v", n, err)
	}
	fx.clk.Advance(4 * time.Millisecond)
	sent = out.waitSent(t, 8)
	if got := seqs(sent[6:]); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Fatalf("second resend %v (2 was acked)", got)
	}
	st := fx.query(t, "b").Stats
	if st.ArqResent != 5 || st.ArqAcked != 1 || st.OccupancyPackets != 2 {
		t.Fatalf("stats %+v", st)
	}
	fx.e.Ack(app, "b", []engine.PacketID{{IPv4ID: 1, L4Checksum: 7}, {IPv4ID: 3, L4Checksum: 21}})
	fx.clk.Advance(4 * time.Millisecond)
	if fx.clk.Pending() != 0 {
		t.Fatalf("wheel still ticking with nothing kept: %d timers", fx.clk.Pending())
	}
	if fx.e.PoolUsedBytes() != 0 {
		t.Fatalf("acked packets still hold %d bytes", fx.e.PoolUsedBytes())
	}
}

func TestArqExpiresAfterMaxResends(t *testing.T) {
	fx, in, out := arqFixture(t, 2)
	in.in.Receive(seqFrames(1, 2))
	out.waitSent(t, 2)
	fx.clk.Advance(4 * time.Millisecond)
	out.waitSent(t, 4)
	fx.clk.Advance(4 * time.Millisecond)
	out.waitSent(t, 6)
	fx.clk.Advance(4 * time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	st := fx.query(t, "b").Stats
	if len(out.frames()) != 6 || dropsOf(st.Drops, engine.DropArqExpired) != 2 || st.OccupancyPackets != 0 {
		t.Fatalf("sent %d, stats %+v", len(out.frames()), st)
	}
}

func TestPacingFollowsTheRate(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	out := pacedBacklog(t, fx)
	out.waitSent(t, 9)
	for ms := 1; ms <= 40 && len(out.frames()) < 20; ms++ {
		fx.clk.Advance(time.Millisecond)
		time.Sleep(2 * time.Millisecond)
		if n := len(out.frames()); n > 9+ms {
			t.Fatalf("after %d ms sent %d frames, the rate allows %d", ms, n, 9+ms)
		}
	}
	if got := seqs(out.waitSent(t, 20)); got[19] != 19 {
		t.Fatalf("paced order %v", got)
	}
}

func TestArqStatusFrameAcks(t *testing.T) {
	fx, in, out := arqFixture(t, 0)
	in.in.Receive(seqFrames(1, 3))
	out.waitSent(t, 3)
	status := engine.ArqStatusFrame([]engine.PacketID{{IPv4ID: 1, L4Checksum: 7}, {IPv4ID: 3, L4Checksum: 21}})
	in.in.Receive([][]byte{status, seqFrames(4, 1)[0]})
	out.waitSent(t, 4)
	st := fx.query(t, "b").Stats
	if st.ArqAcked != 2 || st.OccupancyPackets != 2 || st.PacketsIn != 4 {
		t.Fatalf("stats %+v", st)
	}
	truncated := status[:len(status)-1] // not a status frame: stored as data
	in.in.Receive([][]byte{truncated})
	out.waitSent(t, 5)
	if st := fx.query(t, "b").Stats; st.ArqAcked != 2 || st.PacketsIn != 5 {
		t.Fatalf("truncated status frame: %+v", st)
	}
}
