// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// reportFrame is an IPv4 UDP frame whose payload is p (a receive report,
// or something that looks like one).
func reportFrame(p []byte) []byte {
	f := make([]byte, 14+20+8+len(p))
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	ip := f[14:]
	ip[0] = 0x45
	binary.BigEndian.PutUint16(ip[2:], uint16(20+8+len(p)))
	ip[8], ip[9] = 64, 17
	binary.BigEndian.PutUint16(ip[20+4:], uint16(8+len(p)))
	copy(ip[28:], p)
	return f
}

// armPurge arms t to purge b to the report, then release b.
func (r *triggerRig) armPurge(t *testing.T) {
	t.Helper()
	if res, err := r.e.ArmTrigger(app, "t", releaseB(), "b"); err != nil || res.WasArmed {
		t.Fatalf("arm: %+v, %v", res, err)
	}
}

// disarmFired disarms t and returns the fire the disarm reports.
func (r *triggerRig) disarmFired(t *testing.T) engine.TriggerFire {
	t.Helper()
	res, err := r.e.ArmTrigger(app, "t", nil, "")
	if err != nil || res.WasArmed || res.LastFire == nil {
		t.Fatalf("disarm after the fire: %+v, %v", res, err)
	}
	return *res.LastFire
}

func wantFire(t *testing.T, got engine.TriggerFire, want engine.TriggerFire) {
	t.Helper()
	if got != want {
		t.Fatalf("fire %+v, want %+v", got, want)
	}
}

// waitHandled waits until t's fire has been handled: applied (counted) or
// waiting for its report's packet (its timer set), so that what the test
// does next comes after the fire looked at b.
func (r *triggerRig) waitHandled(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); r.clk.Pending() == 0; runtime.Gosched() {
		st := r.query(t, "t").Stats
		if st.TriggersFired+st.TriggerFailures > 0 {
			t.Fatalf("the fire was applied at once, without waiting: %+v", st)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fire was neither applied nor waiting: %+v", st)
		}
	}
}

// TestTriggerPurgesToTheReport: b holds packets 0, 1, 2; a trigger packet
// reporting 1 purges 0 and 1 and releases 2 alone.
func TestTriggerPurgesToTheReport(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	r.armPurge(t)
	r.tin.in.Receive([][]byte{reportFrame(engine.ReceiveReport(idOf(1)))})
	r.waitFires(t, 1)
	if got := seqs(r.bv.waitSent(t, 1)); len(got) != 1 || got[0] != 2 {
		t.Fatalf("b released %v, want [2]", got)
	}
	wantFire(t, r.disarmFired(t), engine.TriggerFire{ModesSet: true, Report: engine.ReportSynced, PurgedPackets: 2})
	if st := r.query(t, "b").Stats; dropsOf(st.Drops, engine.DropPurged) != 2 {
		t.Fatalf("purged drops %+v, want 2", st.Drops)
	}
}

// TestTriggerReportOfTheNewestSent: a report of the packet b sent last
// needs no purge: b releases everything it holds, synced.
func TestTriggerReportOfTheNewestSent(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	r.mustMode(t, "bv", engine.ModeRXTX)
	r.bv.waitSent(t, 3)
	r.mustMode(t, "bv", engine.ModeRX)
	r.bv.in.Receive(seqFrames(3, 2))
	r.armPurge(t)
	r.tin.in.Receive([][]byte{reportFrame(engine.ReceiveReport(idOf(2)))})
	r.waitFires(t, 1)
	if got := seqs(r.bv.waitSent(t, 5)); got[3] != 3 || got[4] != 4 {
		t.Fatalf("b sent %v, want 0..4", got)
	}
	wantFire(t, r.disarmFired(t), engine.TriggerFire{ModesSet: true, Report: engine.ReportSynced})
}

// TestTriggerWithoutAUsableReport: a trigger packet with no report purges
// nothing; b is still released (the far end gets duplicates rather than a
// gap) and the fire says unsynced.
func TestTriggerWithoutAUsableReport(t *testing.T) {
	good := engine.ReceiveReport(idOf(1))
	version2 := append([]byte{}, good...)
	version2[4] = 2
	magic := append([]byte{}, good...)
	magic[0] = 'X'
	flag2 := append([]byte{}, good...)
	flag2[5] = 2
	tcp := reportFrame(good)
	tcp[14+9] = 6
	cases := map[string][]byte{
		"no report":    seqFrames(100, 1)[0],
		"truncated":    reportFrame(good[:engine.ReportLen-1]),
		"version 2":    reportFrame(version2),
		"bad magic":    reportFrame(magic),
		"unknown flag": reportFrame(flag2),
		"not UDP":      tcp,
		"past the UDP length": func() []byte {
			f := reportFrame(good)
			binary.BigEndian.PutUint16(f[14+24:], 8+engine.ReportLen-1)
			return f
		}(),
	}
	for name, frame := range cases {
		t.Run(name, func(t *testing.T) {
			r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
			r.armPurge(t)
			r.tin.in.Receive([][]byte{frame})
			r.waitFires(t, 1)
			if got := seqs(r.bv.waitSent(t, 3)); got[0] != 0 || got[2] != 2 {
				t.Fatalf("b released %v, want [0 1 2]", got)
			}
			wantFire(t, r.disarmFired(t), engine.TriggerFire{ModesSet: true, Report: engine.ReportUnsynced})
		})
	}
}

// TestTriggerReportOfNothingReceived: the race of issue 26. The UE's
// datagram as it joins the target came before any packet of the downlink
// had reached the UE (the flow started during the handoff: the source held
// before the first packet got to it), so it could report no packet. A
// report of nothing received is a sync point: the UE has nothing a release
// could give it twice, so b releases all it holds and the fire is synced,
// with nothing purged (it was counted unsynced, the whole window released
// as if the UE might have some of it).
func TestTriggerReportOfNothingReceived(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	r.armPurge(t)
	r.tin.in.Receive([][]byte{reportFrame(engine.NothingReceivedReport())})
	wantFire(t, r.disarmFired(t), engine.TriggerFire{ModesSet: true, Report: engine.ReportSynced})
	if got := seqs(r.bv.waitSent(t, 3)); len(got) != 3 || got[0] != 0 || got[2] != 2 {
		t.Fatalf("b released %v, want [0 1 2]", got)
	}
	if st := r.query(t, "b").Stats; dropsOf(st.Drops, engine.DropPurged) != 0 {
		t.Fatalf("purged drops %+v, want none", st.Drops)
	}
}

// TestTriggerWaitsForTheReportedPacket: the UE's report overtook the
// multicast copy to the target: it names packet 5, and b holds 0..2 (all
// of which came before it, so the UE has them). The fire waits for 5: b
// stays held, and when 3..6 arrive it purges through 5 and releases 6
// alone, synced. Without the wait b released 0..2, which the UE had,
// unsynced. The copies come once the fire's goroutine has handled the
// report (it waits: its timer is set); the disarm returns once the fire
// is applied, with no clock advance.
func TestTriggerWaitsForTheReportedPacket(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	r.armPurge(t)
	r.tin.in.Receive([][]byte{reportFrame(engine.ReceiveReport(idOf(5)))})
	r.waitHandled(t)
	if m := r.mode(t, "bv"); m != engine.ModeRX {
		t.Fatalf("b released (bv %v) before the reported packet arrived", m)
	}
	r.bv.in.Receive(seqFrames(3, 4))
	wantFire(t, r.disarmFired(t), engine.TriggerFire{ModesSet: true, Report: engine.ReportSynced, PurgedPackets: 6})
	if got := seqs(r.bv.waitSent(t, 1)); len(got) != 1 || got[0] != 6 {
		t.Fatalf("b released %v, want [6]", got)
	}
	if n := r.clk.Pending(); n != 0 {
		t.Fatalf("%d timers left pending after the wait ended", n)
	}
}

// TestTriggerReportOfAPacketThatNeverComes: a report of a packet b neither
// holds nor sent last, and that does not arrive (b delivered it earlier,
// or its copy was lost): after SyncWaitBound b releases all it holds,
// unsynced (the UE may get a packet twice, never miss one); not before.
func TestTriggerReportOfAPacketThatNeverComes(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	r.armPurge(t)
	r.tin.in.Receive([][]byte{reportFrame(engine.ReceiveReport(idOf(40)))})
	r.waitHandled(t)
	fired := make(chan engine.TriggerFire, 1)
	go func() { fired <- r.disarmFired(t) }()
	// Time moves to just before the bound.
	r.clk.Advance(engine.SyncWaitBound - time.Microsecond)
	r.bv.in.Receive(seqFrames(3, 1))
	select {
	case f := <-fired:
		t.Fatalf("the fire was applied before the bound: %+v", f)
	default:
	}
	if m := r.mode(t, "bv"); m != engine.ModeRX {
		t.Fatalf("b released (bv %v) before the bound", m)
	}
	r.clk.Advance(time.Microsecond)
	wantFire(t, <-fired, engine.TriggerFire{ModesSet: true, Report: engine.ReportUnsynced})
	if got := seqs(r.bv.waitSent(t, 4)); got[0] != 0 || got[3] != 3 {
		t.Fatalf("b released %v, want [0 1 2 3]", got)
	}
}

// sentThenHeld is a rig whose b, named as one to purge (so it remembers
// what leaves it), sent packets 0, 1 and 2 and then held `held` more from 3.
func sentThenHeld(t *testing.T, held uint32) *triggerRig {
	t.Helper()
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	r.armPurge(t)
	if _, err := r.e.ArmTrigger(app, "t", nil, ""); err != nil {
		t.Fatal(err)
	}
	r.mustMode(t, "bv", engine.ModeRXTX)
	r.bv.waitSent(t, 3)
	r.mustMode(t, "bv", engine.ModeRX)
	r.bv.in.Receive(seqFrames(3, held))
	return r
}

// TestTriggerReportOfAPacketSentEarlier: the UE comes back to b having
// taken packet 1 last, while b had sent 0, 1 and 2 before it held (2 was
// in flight on the radio that was cut). Arrivals are in order, so the UE
// has nothing after 1: b sends 2 again, first, then what it holds, synced,
// without waiting for 1 to come.
func TestTriggerReportOfAPacketSentEarlier(t *testing.T) {
	r := sentThenHeld(t, 2)
	r.armPurge(t)
	r.tin.in.Receive([][]byte{reportFrame(engine.ReceiveReport(idOf(1)))})
	r.waitFires(t, 1)
	wantFire(t, r.disarmFired(t), engine.TriggerFire{ModesSet: true, Report: engine.ReportSynced})
	got := seqs(r.bv.waitSent(t, 6))
	if want := []uint32{0, 1, 2, 2, 3, 4}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("b sent %v, want %v", got, want)
	}
	if st := r.query(t, "b").Stats; st.Rewound != 1 || st.PacketsOut != 6 {
		t.Fatalf("rewound %d, out %d: want 1 and 6", st.Rewound, st.PacketsOut)
	}
}

// TestTriggerReportOfTheLastSentRewindsNothing: a report of the packet b
// sent last needs nothing sent again, however much b sent before it.
func TestTriggerReportOfTheLastSentRewindsNothing(t *testing.T) {
	r := sentThenHeld(t, 1)
	r.armPurge(t)
	r.tin.in.Receive([][]byte{reportFrame(engine.ReceiveReport(idOf(2)))})
	r.waitFires(t, 1)
	if got := seqs(r.bv.waitSent(t, 4)); fmt.Sprint(got) != "[0 1 2 3]" {
		t.Fatalf("b sent %v, want [0 1 2 3]", got)
	}
	if st := r.query(t, "b").Stats; st.Rewound != 0 {
		t.Fatalf("rewound %d, want 0", st.Rewound)
	}
}

// TestRewoundFramesGoWithALaterPurge: frames b is to send again are older
// than anything it holds, so a purge to a held packet drops them too.
func TestRewoundFramesGoWithALaterPurge(t *testing.T) {
	r := sentThenHeld(t, 2)
	// Armed to purge only (b stays held): 2 is queued to go again.
	hold := []engine.SetVportModeOp{{ID: "bv", Mode: engine.ModeRX}}
	if _, err := r.e.ArmTrigger(app, "t", hold, "b"); err != nil {
		t.Fatal(err)
	}
	r.tin.in.Receive([][]byte{reportFrame(engine.ReceiveReport(idOf(1)))})
	r.waitFires(t, 1)
	if st := r.query(t, "b").Stats; st.Rewound != 1 {
		t.Fatalf("rewound %d, want 1", st.Rewound)
	}
	res, err := r.e.PurgeUpTo(app, "b", idOf(3), true)
	if err != nil || !res.Found || res.PurgedPackets != 2 {
		t.Fatalf("purge to 3: %+v, %v; want found, 2 purged (2 again and 3)", res, err)
	}
	r.mustMode(t, "bv", engine.ModeRXTX)
	if got := seqs(r.bv.waitSent(t, 4)); fmt.Sprint(got) != "[0 1 2 4]" {
		t.Fatalf("b sent %v, want [0 1 2 4]", got)
	}
}

// TestTriggerPurgeOfARemovedBuffer: a fire whose buffer to purge is gone
// sets nothing and is counted as failed.
func TestTriggerPurgeOfARemovedBuffer(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	r.mustBuffer(t, "c", engine.BufferConfig{CapacityPackets: 10})
	if _, err := r.e.ArmTrigger(app, "t", releaseB(), "c"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.e.RemoveBuffer(app, "c", true); err != nil {
		t.Fatal(err)
	}
	r.tin.in.Receive([][]byte{reportFrame(engine.ReceiveReport(idOf(1)))})
	wantTriggerStats(t, r.waitFires(t, 1), false, 0, 1)
	if m := r.mode(t, "bv"); m != engine.ModeRX {
		t.Fatalf("a failed fire set bv to %v", m)
	}
	wantFire(t, r.disarmFired(t), engine.TriggerFire{Report: engine.ReportUnsynced})
}

// TestDisarmReportsAFireNotYetApplied: a disarm right after the trigger
// packet never reports the fire as missing or stale, whether or not the
// fire's goroutine has applied it yet.
func TestDisarmReportsAFireNotYetApplied(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 1000})
	for i := uint32(0); i < 200; i++ {
		r.mustMode(t, "bv", engine.ModeRX)
		r.bv.in.Receive(seqFrames(1000+2*i, 2))
		r.armPurge(t)
		r.tin.in.Receive([][]byte{reportFrame(engine.ReceiveReport(idOf(1000 + 2*i)))})
		// Packets 0..2 of the rig went out at the first release.
		purged := uint64(1)
		if i == 0 {
			purged = 4
		}
		wantFire(t, r.disarmFired(t), engine.TriggerFire{ModesSet: true, Report: engine.ReportSynced, PurgedPackets: purged})
		r.bv.waitSent(t, int(i)+1) // the released packet left: b is empty again
	}
}
