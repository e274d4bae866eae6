// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// idOf is the packet id seqFrames gives the frame carrying s.
func idOf(s uint32) engine.PacketID {
	return engine.PacketID{IPv4ID: uint16(s), L4Checksum: uint16(s * 7)}
}

// wantLastOut checks the buffer's last transmitted packet id; nil means unset.
func wantLastOut(t *testing.T, fx *fixture, buf string, want *engine.PacketID) {
	t.Helper()
	st := fx.query(t, buf).Stats
	switch {
	case want == nil && st.HasLastOutPacketID:
		t.Fatalf("last out packet id = %+v, want unset", st.LastOutPacketID)
	case want != nil && !st.HasLastOutPacketID:
		t.Fatalf("last out packet id unset, want %+v", *want)
	case want != nil && st.LastOutPacketID != *want:
		t.Fatalf("last out packet id = %+v, want %+v", st.LastOutPacketID, *want)
	}
}

func ptr(id engine.PacketID) *engine.PacketID { return &id }

// Frames that carry no packet id.
func arpFrame() []byte {
	f := make([]byte, 60)
	binary.BigEndian.PutUint16(f[12:], 0x0806)
	return f
}

func ipv6UDPFrame() []byte {
	f := make([]byte, 14+40+8)
	binary.BigEndian.PutUint16(f[12:], 0x86dd)
	f[14] = 0x60
	f[14+6] = 17
	return f
}

func ipv4GREFrame() []byte {
	f := udpFrame(0, 0x4242, 0x4343, 0)
	f[14+9] = 47
	return f
}

// forwarding is a buffer with an RX vport and a TX vport, both bound.
func forwarding(t *testing.T, opts engine.Options, cfg engine.BufferConfig) (*fixture, *capture, *capture) {
	t.Helper()
	fx := newFixture(t, opts)
	fx.mustBuffer(t, "b", cfg)
	in := fx.mustVport(t, "in", engine.ModeRX)
	out := fx.mustVport(t, "out", engine.ModeTX)
	fx.mustBind(t, "b", "in")
	fx.mustBind(t, "b", "out")
	return fx, in, out
}

// TestLastOutPacketIDForwarding: in FORWARDING the id is the last packet
// passed, through the cut-through path and through the TX worker alike.
func TestLastOutPacketIDForwarding(t *testing.T) {
	for _, noCut := range []bool{false, true} {
		fx, in, out := forwarding(t, engine.Options{NoCutThrough: noCut}, engine.BufferConfig{CapacityPackets: 1000})
		wantLastOut(t, fx, "b", nil)
		in.in.Receive(seqFrames(1, 10))
		out.waitSent(t, 10)
		wantLastOut(t, fx, "b", ptr(idOf(10)))
		for s := uint32(11); s <= 300; s += 10 {
			in.in.Receive(seqFrames(s, 10))
		}
		out.waitSent(t, 300)
		wantLastOut(t, fx, "b", ptr(idOf(300)))
	}
}

// TestLastOutPacketIDAfterResume: packets held in BUFFERING are not
// transmitted (the id stays unset); once FORWARDING drains them the id is
// the last held one.
func TestLastOutPacketIDAfterResume(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 1000})
	in := fx.mustVport(t, "in", engine.ModeRX)
	out := fx.mustVport(t, "out", engine.ModeNone)
	fx.mustBind(t, "b", "in")
	fx.mustBind(t, "b", "out")
	for s := uint32(0); s < 200; s += 20 {
		in.in.Receive(seqFrames(s, 20))
	}
	if st := fx.query(t, "b"); st.State != engine.StateBuffering || st.Stats.OccupancyPackets != 200 {
		t.Fatalf("state %v, holding %d", st.State, st.Stats.OccupancyPackets)
	}
	wantLastOut(t, fx, "b", nil)
	fx.mustMode(t, "out", engine.ModeTX)
	if got := seqs(out.waitSent(t, 200)); got[199] != 199 {
		t.Fatalf("last sent %d", got[199])
	}
	wantLastOut(t, fx, "b", ptr(idOf(199)))
}

// TestLastOutPacketIDIgnoresFramesWithoutID: frames without an id (not
// IPv4, or IPv4 but not TCP/UDP/ICMP) leave the id as it was, also when
// one ends a batch behind packets that have one.
func TestLastOutPacketIDIgnoresFramesWithoutID(t *testing.T) {
	for _, noCut := range []bool{false, true} {
		fx, in, out := forwarding(t, engine.Options{NoCutThrough: noCut}, engine.BufferConfig{CapacityPackets: 1000})
		in.in.Receive([][]byte{arpFrame(), ipv6UDPFrame()})
		out.waitSent(t, 2)
		wantLastOut(t, fx, "b", nil)
		in.in.Receive(seqFrames(1, 5))
		out.waitSent(t, 7)
		sent := 7
		for _, batch := range [][][]byte{
			{arpFrame()},
			{ipv6UDPFrame(), ipv4GREFrame()},
			{udpFrame(6, 6, 6*7, 0)[:14+20+4]}, // truncated: no L4 checksum
		} {
			in.in.Receive(batch)
			sent += len(batch)
			out.waitSent(t, sent)
			wantLastOut(t, fx, "b", ptr(idOf(5)))
		}
		in.in.Receive([][]byte{seqFrames(6, 1)[0], seqFrames(7, 1)[0], arpFrame()})
		out.waitSent(t, 14)
		wantLastOut(t, fx, "b", ptr(idOf(7)))
	}
}

// TestLastOutPacketIDIsTransmitOrder: a PRIORITY buffer serves the higher
// class first, so the last packet out is not the last one in.
func TestLastOutPacketIDIsTransmitOrder(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 100, Queue: engine.QueuePriority,
		Priority: engine.PriorityConfig{Classes: 8, Field: engine.FieldIPDSCP}})
	in := fx.mustVport(t, "in", engine.ModeRX)
	out := fx.mustVport(t, "out", engine.ModeNone)
	fx.mustBind(t, "b", "in")
	fx.mustBind(t, "b", "out")
	in.in.Receive([][]byte{udpFrame(1, 1, 7, 0), udpFrame(2, 2, 14, 46)}) // 2 is EF
	fx.mustMode(t, "out", engine.ModeTX)
	if got := seqs(out.waitSent(t, 2)); got[0] != 2 || got[1] != 1 {
		t.Fatalf("served %v, want [2 1]", got)
	}
	wantLastOut(t, fx, "b", ptr(idOf(1)))
}

// TestLastOutPacketIDPaced: a paced buffer records each partial batch.
func TestLastOutPacketIDPaced(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	out := pacedBacklog(t, fx)
	out.waitSent(t, 9)
	time.Sleep(10 * time.Millisecond)
	if n := len(out.frames()); n != 9 {
		t.Fatalf("burst sent %d frames, want 9", n)
	}
	wantLastOut(t, fx, "b", ptr(idOf(8)))
	for ms := 0; ms < 40 && len(out.frames()) < 20; ms++ {
		fx.clk.Advance(time.Millisecond)
		time.Sleep(2 * time.Millisecond)
	}
	out.waitSent(t, 20)
	wantLastOut(t, fx, "b", ptr(idOf(19)))
}

// TestLastOutPacketIDIgnoresArqResends: a resend is not a new packet.
func TestLastOutPacketIDIgnoresArqResends(t *testing.T) {
	fx, in, out := arqFixture(t, 0)
	in.in.Receive(seqFrames(1, 3))
	out.waitSent(t, 3)
	wantLastOut(t, fx, "b", ptr(idOf(3)))
	if n, err := fx.e.Ack(app, "b", []engine.PacketID{idOf(3)}); err != nil || n != 1 {
		t.Fatalf("ack = %d, %v", n, err)
	}
	fx.clk.Advance(4 * time.Millisecond) // the wheel is back: 1 and 2 are resent
	if got := seqs(out.waitSent(t, 5)[3:]); got[0] != 1 || got[1] != 2 {
		t.Fatalf("resent %v", got)
	}
	wantLastOut(t, fx, "b", ptr(idOf(3)))
	in.in.Receive(seqFrames(4, 1))
	out.waitSent(t, 6)
	wantLastOut(t, fx, "b", ptr(idOf(4)))
}
