// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"encoding/binary"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

const bearerA, bearerB = 0x100, 0x200

// baasFixture: a PDCP ARQ buffer "b" with a 4-bucket wheel of 1 ms, fed
// through "in" (the switch's clones and status messages), resending
// through "out".
func baasFixture(t *testing.T, capPackets uint64, maxResends uint32) (*fixture, *capture, *capture) {
	t.Helper()
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: capPackets, Queue: engine.QueueARQ,
		Arq: engine.ArqConfig{Buckets: 4, BucketUs: 1000, MaxResends: maxResends, Protocol: engine.ArqPDCP}})
	in := fx.mustVport(t, "in", engine.ModeRX)
	out := fx.mustVport(t, "out", engine.ModeTX)
	fx.mustBind(t, "b", "in")
	fx.mustBind(t, "b", "out")
	return fx, in, out
}

func pdus(teid uint32, sns ...uint32) [][]byte {
	out := make([][]byte, len(sns))
	for i, sn := range sns {
		out[i] = engine.PDCPDataFrame(teid, sn, make([]byte, 100))
	}
	return out
}

func status(teid, first, last uint32) []byte {
	return engine.PDCPStatusFrame(engine.PDCPStatus{TEID: teid, First: first, Last: last})
}

// idsOf reads (TEID, SN) back from radio frames.
func idsOf(frames [][]byte) []engine.PDCPID {
	out := make([]engine.PDCPID, len(frames))
	for i, f := range frames {
		out[i] = engine.PDCPID{TEID: binary.BigEndian.Uint32(f[16:]), SN: binary.BigEndian.Uint32(f[20:]) & (engine.PDCPSNSpace - 1)}
	}
	return out
}

// turn advances the wheel one full turn (4 ticks).
func turn(fx *fixture) { fx.clk.Advance(4 * time.Millisecond) }

// settled gives the engine's goroutines a moment, for checks that nothing
// more was sent.
func settled() { time.Sleep(20 * time.Millisecond) }

func TestBaasKeepsClonesAndResendsEachTurnUntilAcked(t *testing.T) {
	fx, in, out := baasFixture(t, 100, 0)
	in.in.Receive(pdus(bearerA, 1, 2, 3))
	settled()
	if n := len(out.frames()); n != 0 {
		t.Fatalf("a clone was sent on arrival (the radio has it): %d frames", n)
	}
	if st := fx.query(t, "b").Stats; st.OccupancyPackets != 3 || st.PacketsIn != 3 {
		t.Fatalf("after clones %+v", st)
	}
	fx.clk.Advance(3 * time.Millisecond)
	settled()
	if n := len(out.frames()); n != 0 {
		t.Fatalf("resent before a full turn: %d", n)
	}
	fx.clk.Advance(time.Millisecond)
	if got := idsOf(out.waitSent(t, 3)); got[0].SN != 1 || got[2].SN != 3 || got[0].TEID != bearerA {
		t.Fatalf("first resend %v", got)
	}
	in.in.Receive([][]byte{status(bearerA, 2, 2)})
	turn(fx)
	sent := out.waitSent(t, 5)
	if got := idsOf(sent[3:]); len(got) != 2 || got[0].SN != 1 || got[1].SN != 3 {
		t.Fatalf("second resend %v (2 was acknowledged)", got)
	}
	st := fx.query(t, "b").Stats
	if st.ArqResent != 5 || st.ArqAcked != 1 || st.ArqAckedAfterResend != 1 || st.OccupancyPackets != 2 {
		t.Fatalf("stats %+v", st)
	}
	in.in.Receive([][]byte{status(bearerA, 1, 3)})
	turn(fx)
	settled()
	if fx.clk.Pending() != 0 {
		t.Fatalf("wheel still ticking with nothing kept: %d timers", fx.clk.Pending())
	}
	if n := len(out.frames()); n != 5 || fx.e.PoolUsedBytes() != 0 {
		t.Fatalf("after the last ack: sent %d, pool %d bytes", n, fx.e.PoolUsedBytes())
	}
}

func TestBaasRangeAckReleasesOnlyItsBearersRange(t *testing.T) {
	fx, in, out := baasFixture(t, 100, 0)
	in.in.Receive(pdus(bearerA, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
	in.in.Receive(pdus(bearerB, 3, 4, 5))
	n, err := fx.e.AckPDCP(app, "b", engine.PDCPStatus{TEID: bearerA, First: 3, Last: 7})
	if err != nil || n != 5 {
		t.Fatalf("ack 3..7 = %d, %v", n, err)
	}
	in.in.Receive([][]byte{status(bearerB, 5, 100)}) // a range longer than what is kept
	turn(fx)
	got := idsOf(out.waitSent(t, 7))
	settled()
	want := []engine.PDCPID{{bearerA, 1}, {bearerA, 2}, {bearerA, 8}, {bearerA, 9}, {bearerA, 10}, {bearerB, 3}, {bearerB, 4}}
	if len(out.frames()) != len(want) {
		t.Fatalf("resent %v, want %v", idsOf(out.frames()), want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("resent %v, want %v", got, want)
		}
	}
	if st := fx.query(t, "b").Stats; st.ArqAcked != 6 || st.OccupancyPackets != 7 {
		t.Fatalf("stats %+v", st)
	}
}

func TestBaasGivesUpAfterMaxResends(t *testing.T) {
	fx, in, out := baasFixture(t, 100, 2)
	in.in.Receive(pdus(bearerA, 7, 8))
	turn(fx)
	out.waitSent(t, 2)
	turn(fx)
	out.waitSent(t, 4)
	turn(fx)
	settled()
	st := fx.query(t, "b").Stats
	if len(out.frames()) != 4 || dropsOf(st.Drops, engine.DropArqExpired) != 2 || st.OccupancyPackets != 0 || st.ArqResent != 4 {
		t.Fatalf("sent %d, stats %+v", len(out.frames()), st)
	}
	if fx.e.PoolUsedBytes() != 0 || fx.clk.Pending() != 0 {
		t.Fatalf("given up packets still hold %d bytes, %d timers", fx.e.PoolUsedBytes(), fx.clk.Pending())
	}
}

func TestBaasMemoryBoundedByCapacity(t *testing.T) {
	fx, in, _ := baasFixture(t, 5, 0)
	in.in.Receive(pdus(bearerA, 1, 2, 3, 4, 5, 6, 7, 8))
	st := fx.query(t, "b").Stats
	if st.OccupancyPackets != 5 || dropsOf(st.Drops, engine.DropOverflow) != 3 || st.HighWatermarkPackets != 5 {
		t.Fatalf("over capacity %+v", st)
	}
	held := fx.e.PoolUsedBytes()
	if held != st.OccupancyBytes {
		t.Fatalf("pool %d bytes, buffer %d", held, st.OccupancyBytes)
	}
	in.in.Receive([][]byte{status(bearerA, 1, 2)})
	in.in.Receive(pdus(bearerA, 9, 10, 11))
	st = fx.query(t, "b").Stats
	if st.OccupancyPackets != 5 || dropsOf(st.Drops, engine.DropOverflow) != 4 || fx.e.PoolUsedBytes() != held {
		t.Fatalf("after ack and 3 more %+v, pool %d", st, fx.e.PoolUsedBytes())
	}
}

func TestBaasSequenceNumbersWrapAround(t *testing.T) {
	fx, in, out := baasFixture(t, 100, 0)
	top := uint32(engine.PDCPSNSpace - 1)
	in.in.Receive(pdus(bearerA, top-1, top, 0, 1))
	if n, err := fx.e.AckPDCP(app, "b", engine.PDCPStatus{TEID: bearerA, First: top, Last: 0}); err != nil || n != 2 {
		t.Fatalf("ack across the wrap = %d, %v", n, err)
	}
	turn(fx)
	got := idsOf(out.waitSent(t, 2))
	if got[0].SN != top-1 || got[1].SN != 1 {
		t.Fatalf("resent %v", got)
	}
	// The SN comes round again while its old PDU is still kept: the new
	// one replaces it (the old one is given up on, counted).
	in.in.Receive(pdus(bearerA, 1))
	st := fx.query(t, "b").Stats
	if st.OccupancyPackets != 2 || st.ArqSuperseded != 1 || dropsOf(st.Drops, engine.DropArqExpired) != 1 {
		t.Fatalf("reused SN %+v", st)
	}
	// A range from the top of the space down to a low SN is the long way
	// round: refused.
	if _, err := fx.e.AckPDCP(app, "b", engine.PDCPStatus{TEID: bearerA, First: 1, Last: top - 1}); err == nil {
		t.Fatalf("a range of 2^18 - 1 SNs was taken")
	}
}

func TestBaasBadStatusMessagesChangeNothing(t *testing.T) {
	fx, in, _ := baasFixture(t, 100, 0)
	in.in.Receive(pdus(bearerA, 1, 2, 3))
	good := status(bearerA, 1, 3)
	mod := func(f func(b []byte)) []byte { c := append([]byte(nil), good...); f(c); return c }
	cases := map[string]struct {
		frame []byte
		want  string
	}{
		"truncated":        {good[:len(good)-1], "status of 27 bytes"},
		"wrong version":    {mod(func(b []byte) { b[15] = 2 }), "RLC version 2"},
		"unknown PDU type": {mod(func(b []byte) { b[20] |= 0x30 }), "control PDU type 3"},
		"reserved bits":    {mod(func(b []byte) { b[24] = 0x80 }), "reserved bits"},
		"TEID 0":           {status(0, 1, 3), "bearer TEID 0"},
		"range too long":   {status(bearerA, 10, 9), "more than 131072"},
	}
	for name, c := range cases {
		_, err := engine.ParsePDCPStatus(c.frame)
		wantCode(t, err, engine.InvalidArgument)
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want it to say %q", name, err, c.want)
		}
		in.in.Receive([][]byte{c.frame})
	}
	in.in.Receive([][]byte{{1, 2, 3}, seqFrames(1, 1)[0]}) // no radio frames
	st := fx.query(t, "b").Stats
	if st.ArqBadStatus != uint64(len(cases)) || st.ArqNotRadio != 2 || st.ArqAcked != 0 || st.OccupancyPackets != 3 || st.PacketsIn != 3 {
		t.Fatalf("after bad frames %+v", st)
	}
	bad := map[string]struct {
		buffer string
		s      engine.PDCPStatus
		code   engine.Code
	}{
		"SN over 18 bits": {"b", engine.PDCPStatus{TEID: bearerA, First: 1, Last: engine.PDCPSNSpace}, engine.InvalidArgument},
		"TEID 0":          {"b", engine.PDCPStatus{First: 1, Last: 3}, engine.InvalidArgument},
		"range too long":  {"b", engine.PDCPStatus{TEID: bearerA, First: 3, Last: 1}, engine.InvalidArgument},
		"unknown buffer":  {"nope", engine.PDCPStatus{TEID: bearerA, First: 1, Last: 3}, engine.NotFound},
	}
	for name, c := range bad {
		_, err := fx.e.AckPDCP(app, c.buffer, c.s)
		if code, _ := engine.CodeOf(err); code != c.code {
			t.Errorf("%s: %v, want %v", name, err, c.code)
		}
	}
	_, err := fx.e.Ack(app, "b", []engine.PacketID{{IPv4ID: 1}})
	wantCode(t, err, engine.FailedPrecondition)
	fx.mustBuffer(t, "fifo", engine.BufferConfig{CapacityPackets: 1})
	_, err = fx.e.AckPDCP(app, "fifo", engine.PDCPStatus{TEID: bearerA, First: 1, Last: 1})
	wantCode(t, err, engine.FailedPrecondition)
	if st := fx.query(t, "b").Stats; st.ArqAcked != 0 || st.OccupancyPackets != 3 {
		t.Fatalf("bad acks changed the buffer %+v", st)
	}
}

func TestBaasConfigValidation(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	for name, cfg := range map[string]engine.BufferConfig{
		"drop head": {CapacityPackets: 1, Queue: engine.QueueARQ, Overflow: engine.DropHead,
			Arq: engine.ArqConfig{Protocol: engine.ArqPDCP}},
		"unknown protocol": {CapacityPackets: 1, Queue: engine.QueueARQ, Arq: engine.ArqConfig{Protocol: 9}},
	} {
		_, err := fx.e.CreateBuffer(app, "x", cfg)
		if code, _ := engine.CodeOf(err); code != engine.InvalidArgument {
			t.Errorf("%s: %v", name, err)
		}
	}
	info, err := fx.e.CreateBuffer(app, "ipv4", engine.BufferConfig{CapacityPackets: 1, Queue: engine.QueueARQ})
	if err != nil || info.Config.Arq.Protocol != engine.ArqIPv4 {
		t.Fatalf("default protocol %v, %v", info.Config.Arq.Protocol, err)
	}
}

func TestBaasRemovalFreesEverything(t *testing.T) {
	fx, in, _ := baasFixture(t, 100, 0)
	in.in.Receive(pdus(bearerA, 1, 2, 3))
	for _, vp := range []string{"in", "out"} {
		if _, err := fx.e.Unbind(app, "b", vp); err != nil {
			t.Fatal(err)
		}
	}
	if st := fx.query(t, "b"); st.State != engine.StateStoring {
		t.Fatalf("unbound with clones kept: %v", st.State)
	}
	if _, err := fx.e.RemoveBuffer(app, "b", true); err != nil {
		t.Fatal(err)
	}
	if fx.e.PoolUsedBytes() != 0 {
		t.Fatalf("removed buffer holds %d bytes", fx.e.PoolUsedBytes())
	}
}

// Many bearers with the same SNs are told apart: each status releases its
// own bearer's PDUs and no other's, also once the id table has grown and
// entries left it from the middle of probe chains.
func TestBaasManyBearersWithTheSameSNs(t *testing.T) {
	fx, in, _ := baasFixture(t, 10000, 0)
	const bearers, sns = 300, 16
	for teid := uint32(1); teid <= bearers; teid++ {
		in.in.Receive(pdus(teid, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
	}
	if st := fx.query(t, "b").Stats; st.OccupancyPackets != bearers*sns {
		t.Fatalf("kept %d of %d", st.OccupancyPackets, bearers*sns)
	}
	for teid := uint32(1); teid <= bearers; teid += 2 { // odd bearers: SNs 4..11
		in.in.Receive([][]byte{status(teid, 4, 11)})
	}
	if st := fx.query(t, "b").Stats; st.ArqAcked != bearers/2*8 || st.OccupancyPackets != bearers*sns-bearers/2*8 {
		t.Fatalf("after acking half: %+v", st)
	}
	for teid := uint32(1); teid <= bearers; teid++ {
		n, err := fx.e.AckPDCP(app, "b", engine.PDCPStatus{TEID: teid, First: 0, Last: sns - 1})
		want := uint32(sns)
		if teid%2 == 1 {
			want = sns - 8
		}
		if err != nil || n != want {
			t.Fatalf("bearer %d: ack of all released %d, want %d (%v)", teid, n, want, err)
		}
	}
	if st := fx.query(t, "b").Stats; st.OccupancyPackets != 0 || fx.e.PoolUsedBytes() != 0 {
		t.Fatalf("left %d packets, %d bytes", st.OccupancyPackets, fx.e.PoolUsedBytes())
	}
}

// A batch that does not fit the pool as a whole is taken PDU by PDU: what
// fits is kept, the rest dropped (POOL), and the pool holds exactly what
// is kept; a batch that fits holds no more than its kept PDUs afterwards.
func TestBaasPoolBoundPerPDU(t *testing.T) {
	const pdu = 124 // radio header + 100 bytes
	fx := newFixture(t, engine.Options{Limits: engine.Limits{PoolBytes: 5 * pdu}})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 100, Queue: engine.QueueARQ,
		Arq: engine.ArqConfig{Buckets: 4, BucketUs: 1000, Protocol: engine.ArqPDCP}})
	in := fx.mustVport(t, "in", engine.ModeRX)
	fx.mustBind(t, "b", "in")
	in.in.Receive(pdus(bearerA, 1, 2, 3, 4, 5, 6, 7, 8))
	st := fx.query(t, "b").Stats
	if st.OccupancyPackets != 5 || poolDrops(st, engine.PoolFull) != 3 || fx.e.PoolUsedBytes() != 5*pdu {
		t.Fatalf("over the pool: %+v, pool %d", st, fx.e.PoolUsedBytes())
	}
	in.in.Receive([][]byte{status(bearerA, 1, 3)})
	in.in.Receive(append(pdus(bearerA, 9), status(bearerA, 4, 4)))
	st = fx.query(t, "b").Stats
	if st.OccupancyPackets != 2 || fx.e.PoolUsedBytes() != 2*pdu || poolDrops(st, engine.PoolFull) != 3 {
		t.Fatalf("after acks and a batch that fits: %+v, pool %d", st, fx.e.PoolUsedBytes())
	}
}

// lateClock is a clock whose timers fire only when the test says: a core
// kept busy by packets runs a Go timer's goroutine late.
type lateClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []func()
}

func (c *lateClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *lateClock) AfterFunc(_ time.Duration, f func()) engine.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timers = append(c.timers, f)
	return lateTimer{}
}

func (c *lateClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// fire runs the timers armed so far, late.
func (c *lateClock) fire() {
	c.mu.Lock()
	due := c.timers
	c.timers = nil
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

type lateTimer struct{}

func (lateTimer) Stop() bool { return true }

func TestBaasTurnsOnThePacketPathWhenItsTimerIsLate(t *testing.T) {
	clk := &lateClock{now: time.Unix(1_700_000_000, 0)}
	f := &factory{ports: map[string]*capture{}}
	e := engine.New(engine.Options{Clock: clk, Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f}})
	t.Cleanup(func() { _ = e.Close() })
	fx := &fixture{e: e, f: f}
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 100, Queue: engine.QueueARQ,
		Arq: engine.ArqConfig{Buckets: 4, BucketUs: 1000, Protocol: engine.ArqPDCP}})
	in, out := fx.mustVport(t, "in", engine.ModeRX), fx.mustVport(t, "out", engine.ModeTX)
	fx.mustBind(t, "b", "in")
	fx.mustBind(t, "b", "out")

	in.in.Receive(pdus(bearerA, 1, 2))
	// A bucket's time passes before each batch; no timer fires.
	for i := uint32(0); i < 3; i++ {
		clk.advance(time.Millisecond)
		in.in.Receive(pdus(bearerA, 10+i))
	}
	settled()
	if n := len(out.frames()); n != 0 {
		t.Fatalf("resent before a full turn: %d", n)
	}
	clk.advance(time.Millisecond)
	in.in.Receive([][]byte{status(bearerA, 10, 10)})
	if got := idsOf(out.waitSent(t, 2)); got[0].SN != 1 || got[1].SN != 2 {
		t.Fatalf("resent on the packet path %v, want SNs 1 and 2", got)
	}
	// The late timer finds its turn done: no second turn.
	clk.fire()
	settled()
	if st := fx.query(t, "b").Stats; len(out.frames()) != 2 || st.ArqResent != 2 || st.ArqAcked != 1 {
		t.Fatalf("after the late timer: sent %d, %+v", len(out.frames()), st)
	}
	// Without packets the timer turns the wheel again: SN 10 was acked,
	// SN 11 (a bucket later) is resent.
	clk.advance(time.Millisecond)
	clk.fire()
	clk.advance(time.Millisecond)
	clk.fire()
	if got := idsOf(out.waitSent(t, 3)); len(got) != 3 || got[2].SN != 11 {
		t.Fatalf("timer turns: %v, want SN 11 third", got)
	}
}
