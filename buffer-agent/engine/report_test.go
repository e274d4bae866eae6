// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"encoding/binary"
	"testing"

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

// TestTriggerWithoutAUsableReport: a trigger packet with no report, or
// one of a packet b neither holds nor sent, purges nothing; b is still
// released (the far end gets duplicates rather than a gap) and the fire
// says unsynced.
func TestTriggerWithoutAUsableReport(t *testing.T) {
	good := engine.ReceiveReport(idOf(1))
	version2 := append([]byte{}, good...)
	version2[4] = 2
	magic := append([]byte{}, good...)
	magic[0] = 'X'
	tcp := reportFrame(good)
	tcp[14+9] = 6
	cases := map[string][]byte{
		"unknown packet": reportFrame(engine.ReceiveReport(idOf(40))),
		"no report":      seqFrames(100, 1)[0],
		"truncated":      reportFrame(good[:engine.ReportLen-1]),
		"version 2":      reportFrame(version2),
		"bad magic":      reportFrame(magic),
		"not UDP":        tcp,
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
