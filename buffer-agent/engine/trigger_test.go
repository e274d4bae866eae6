// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"sync"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// settle is how long a test waits to see that a fire did not happen.
const settle = 20 * time.Millisecond

// triggerRig has the trigger buffer "t" fed by RX vport "tin", and buffer
// "b" holding 3 packets that came in through its RX vport "bv": a trigger
// that sets bv to RX_TX releases them. Vport "bx" is unbound (NONE).
type triggerRig struct {
	*fixture
	tin, bv *capture
}

func newTriggerRig(t *testing.T, tcfg engine.BufferConfig) *triggerRig {
	t.Helper()
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "t", tcfg)
	tin := fx.mustVport(t, "tin", engine.ModeRX)
	fx.mustBind(t, "t", "tin")
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 100})
	bv := fx.mustVport(t, "bv", engine.ModeRX)
	fx.mustBind(t, "b", "bv")
	bv.in.Receive(seqFrames(0, 3))
	fx.mustVport(t, "bx", engine.ModeNone)
	return &triggerRig{fixture: fx, tin: tin, bv: bv}
}

func releaseB() []engine.SetVportModeOp {
	return []engine.SetVportModeOp{{ID: "bv", Mode: engine.ModeRXTX}}
}

func (r *triggerRig) mustArm(t *testing.T, modes []engine.SetVportModeOp, wasArmed bool) {
	t.Helper()
	res, err := r.e.ArmTrigger(app, "t", modes, "")
	if err != nil || res.WasArmed != wasArmed {
		t.Fatalf("arm: was_armed %v, %v; want %v", res.WasArmed, err, wasArmed)
	}
}

func (r *triggerRig) mode(t *testing.T, vp string) engine.VportMode {
	t.Helper()
	v, err := r.e.QueryVport(app, vp)
	if err != nil {
		t.Fatal(err)
	}
	return v.Config.Mode
}

// waitFires waits until n fires of t's trigger were applied or failed.
func (r *triggerRig) waitFires(t *testing.T, n uint64) engine.BufferStats {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		st := r.query(t, "t").Stats
		if st.TriggersFired+st.TriggerFailures >= n {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("trigger fired %d times, want %d: %+v", st.TriggersFired+st.TriggerFailures, n, st)
		}
		time.Sleep(time.Millisecond)
	}
}

func wantTriggerStats(t *testing.T, st engine.BufferStats, armed bool, fired, failed uint64) {
	t.Helper()
	if st.TriggerArmed != armed || st.TriggersFired != fired || st.TriggerFailures != failed {
		t.Fatalf("trigger armed %v fired %d failed %d; want %v %d %d",
			st.TriggerArmed, st.TriggersFired, st.TriggerFailures, armed, fired, failed)
	}
}

// TestArmTriggerRejects: a bad arm fails with the code SetVportMode would
// give, names the failing entry, and leaves the armed trigger in place.
func TestArmTriggerRejects(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	const other = "intruder"
	if _, err := r.e.CreateBuffer(other, "ob", engine.BufferConfig{CapacityPackets: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.e.CreateVport(other, "ov", inproc(engine.ModeRX)); err != nil {
		t.Fatal(err)
	}
	r.mustArm(t, releaseB(), false)
	mode := func(id string, m engine.VportMode) engine.SetVportModeOp {
		return engine.SetVportModeOp{ID: id, Mode: m}
	}
	ok := mode("bx", engine.ModeTX)
	cases := []struct {
		name, app, buffer string
		modes             []engine.SetVportModeOp
		purge             string
		code              engine.Code
		msg               string // exact, when set
	}{
		{"no app", "", "t", nil, "", engine.InvalidArgument, ""},
		{"bad buffer id", app, "a b", nil, "", engine.InvalidArgument, ""},
		{"unknown buffer", app, "nope", nil, "", engine.NotFound, ""},
		{"another app's buffer", app, "ob", nil, "", engine.PermissionDenied, ""},
		{"unknown vport", app, "t", []engine.SetVportModeOp{ok, mode("nope", engine.ModeTX)}, "", engine.NotFound,
			`NOT_FOUND: set_vport_modes 1: vport "nope" not found`},
		{"another app's vport", app, "t", []engine.SetVportModeOp{mode("ov", engine.ModeTX)}, "", engine.PermissionDenied, ""},
		{"no vport id", app, "t", []engine.SetVportModeOp{mode("", engine.ModeTX)}, "", engine.InvalidArgument, ""},
		{"unspecified mode", app, "t", []engine.SetVportModeOp{ok, ok, mode("bx", 0)}, "", engine.InvalidArgument,
			"INVALID_ARGUMENT: set_vport_modes 2: vport mode 0 is not NONE, RX, TX or RX_TX"},
		{"unknown mode", app, "t", []engine.SetVportModeOp{mode("bx", 9)}, "", engine.InvalidArgument, ""},
		{"257 modes", app, "t", make([]engine.SetVportModeOp, 257), "", engine.InvalidArgument, ""},
		{"a purge without modes", app, "t", nil, "b", engine.InvalidArgument,
			"INVALID_ARGUMENT: purge_to_report: a trigger that purges must set vport modes too"},
		{"a purge of the trigger", app, "t", releaseB(), "t", engine.InvalidArgument, ""},
		{"a purge of an unknown buffer", app, "t", releaseB(), "nope", engine.NotFound,
			`NOT_FOUND: purge_to_report: buffer "nope" not found`},
		{"a purge of another app's buffer", app, "t", releaseB(), "ob", engine.PermissionDenied, ""},
		{"a purge of a bad buffer id", app, "t", releaseB(), "a b", engine.InvalidArgument, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := r.e.ArmTrigger(c.app, c.buffer, c.modes, c.purge)
			wantCode(t, err, c.code)
			if c.msg != "" && err.Error() != c.msg {
				t.Fatalf("message %q, want %q", err, c.msg)
			}
			if res.WasArmed || res.LastFire != nil {
				t.Fatalf("a failed arm reports %+v", res)
			}
			wantTriggerStats(t, r.query(t, "t").Stats, true, 0, 0)
		})
	}
	// The trigger armed first is the one that fires.
	r.tin.in.Receive(seqFrames(100, 1))
	wantTriggerStats(t, r.waitFires(t, 1), false, 1, 0)
	if m := r.mode(t, "bv"); m != engine.ModeRXTX {
		t.Fatalf("bv mode %v after the fire, want RX_TX", m)
	}
}

// TestTriggerFiresOnceOnArrival: the first batch to enter the trigger
// buffer sets the armed modes, whether the buffer then holds it, forwards
// it or drops it; the next batch finds nothing armed.
func TestTriggerFiresOnceOnArrival(t *testing.T) {
	cases := []struct {
		name string
		cfg  engine.BufferConfig
		out  bool // bind a TX vport to t: FORWARDING, cut-through
		fill int  // packets held in t before arming
	}{
		{"held", engine.BufferConfig{CapacityPackets: 10}, false, 0},
		{"forwarded", engine.BufferConfig{CapacityPackets: 10}, true, 0},
		{"dropped by overflow", engine.BufferConfig{CapacityPackets: 1}, false, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newTriggerRig(t, c.cfg)
			if c.out {
				r.mustVport(t, "tout", engine.ModeTX)
				r.mustBind(t, "t", "tout")
			}
			r.tin.in.Receive(seqFrames(50, uint32(c.fill)))
			r.mustArm(t, releaseB(), false)
			r.tin.in.Receive(seqFrames(100, 1))
			wantTriggerStats(t, r.waitFires(t, 1), false, 1, 0)
			if got := seqs(r.bv.waitSent(t, 3)); len(got) != 3 || got[0] != 0 || got[2] != 2 {
				t.Fatalf("b released %v, want [0 1 2]", got)
			}
			// Set back by hand, the mode stays: nothing fires again.
			r.mustMode(t, "bv", engine.ModeRX)
			r.tin.in.Receive(seqFrames(101, 1))
			time.Sleep(settle)
			wantTriggerStats(t, r.query(t, "t").Stats, false, 1, 0)
			if m := r.mode(t, "bv"); m != engine.ModeRX {
				t.Fatalf("bv mode %v after a second packet, want RX", m)
			}
			if st := r.query(t, "t").Stats; st.PacketsIn != uint64(c.fill)+2 {
				t.Fatalf("t counted %d packets in, want %d", st.PacketsIn, c.fill+2)
			}
		})
	}
}

// TestArmTriggerReplacesAndDisarms: arming again replaces the armed modes,
// arming none disarms, and was_armed tells each time what was there.
func TestArmTriggerReplacesAndDisarms(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	r.mustArm(t, nil, false)
	r.mustArm(t, releaseB(), false)
	r.mustArm(t, []engine.SetVportModeOp{{ID: "bx", Mode: engine.ModeTX}}, true)
	r.tin.in.Receive(seqFrames(100, 1))
	wantTriggerStats(t, r.waitFires(t, 1), false, 1, 0)
	if bv, bx := r.mode(t, "bv"), r.mode(t, "bx"); bv != engine.ModeRX || bx != engine.ModeTX {
		t.Fatalf("modes bv %v bx %v, want RX TX (the replacement only)", bv, bx)
	}
	r.mustArm(t, releaseB(), false)
	r.mustArm(t, nil, true)
	wantTriggerStats(t, r.query(t, "t").Stats, false, 1, 0)
	r.tin.in.Receive(seqFrames(101, 1))
	time.Sleep(settle)
	wantTriggerStats(t, r.query(t, "t").Stats, false, 1, 0)
	if m := r.mode(t, "bv"); m != engine.ModeRX {
		t.Fatalf("a disarmed trigger set bv to %v", m)
	}
}

// TestTriggerOnRemovedVportFails: a vport removed after arming fails the
// whole fire, which is counted and changes nothing.
func TestTriggerOnRemovedVportFails(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	r.mustArm(t, append(releaseB(), engine.SetVportModeOp{ID: "bx", Mode: engine.ModeTX}), false)
	if err := r.e.RemoveVport(app, "bx"); err != nil {
		t.Fatal(err)
	}
	r.tin.in.Receive(seqFrames(100, 1))
	wantTriggerStats(t, r.waitFires(t, 1), false, 0, 1)
	if m := r.mode(t, "bv"); m != engine.ModeRX {
		t.Fatalf("a failed fire set bv to %v", m)
	}
	if st := r.query(t, "b").Stats; st.OccupancyPackets != 3 || len(r.bv.frames()) != 0 {
		t.Fatalf("a failed fire released b: %+v", st)
	}
}

// TestRemovingTheBufferDropsItsTrigger: a buffer created again under the
// same id has nothing armed.
func TestRemovingTheBufferDropsItsTrigger(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 10})
	r.mustArm(t, releaseB(), false)
	if _, err := r.e.Unbind(app, "t", "tin"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.e.RemoveBuffer(app, "t", true); err != nil {
		t.Fatal(err)
	}
	r.mustBuffer(t, "t", engine.BufferConfig{CapacityPackets: 10})
	r.mustArm(t, nil, false)
}

// TestTriggerFiresOnceUnderConcurrentArrivals: batches entering the armed
// buffer at once, from many goroutines, fire it once.
func TestTriggerFiresOnceUnderConcurrentArrivals(t *testing.T) {
	r := newTriggerRig(t, engine.BufferConfig{CapacityPackets: 1000})
	r.mustArm(t, releaseB(), false)
	const senders = 32
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r.tin.in.Receive(seqFrames(uint32(100+i), 1))
		}()
	}
	close(start)
	wg.Wait()
	r.waitFires(t, 1)
	time.Sleep(settle)
	st := r.query(t, "t").Stats
	wantTriggerStats(t, st, false, 1, 0)
	if st.PacketsIn != senders {
		t.Fatalf("t counted %d packets in, want %d", st.PacketsIn, senders)
	}
	r.bv.waitSent(t, 3)
}

// signalPort is a backend that signals each Transmit, for timing.
type signalPort struct{ sent chan struct{} }

func (p *signalPort) Transmit(frames [][]byte) error {
	engine.PutFrames(frames)
	select {
	case p.sent <- struct{}{}:
	default:
	}
	return nil
}

func (p *signalPort) Close() error { return nil }

// BenchmarkTriggerRelease measures a handoff's release without the
// controller: from a packet's Receive into the armed trigger buffer to the
// moment the other buffer's held frame reaches its backend (fire, apply of
// the mode, TX worker wake-up, Transmit). Reported as ns/release.
func BenchmarkTriggerRelease(b *testing.B) {
	ports := map[string]*signalPort{}
	f := engine.BackendFactoryFunc(func(id string, _ engine.BackendSpec, _ engine.Ingress) (engine.Backend, error) {
		p := &signalPort{sent: make(chan struct{}, 1)}
		ports[id] = p
		return p, nil
	})
	eng := engine.New(engine.Options{Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f}})
	defer eng.Close()
	_, err := eng.Batch(app, []engine.Op{
		{CreateBuffer: &engine.CreateBufferOp{ID: "t", Config: engine.BufferConfig{CapacityPackets: 1}}},
		{CreateBuffer: &engine.CreateBufferOp{ID: "b", Config: engine.BufferConfig{CapacityPackets: 1}}},
		{CreateVport: &engine.CreateVportOp{ID: "tin", Config: engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: 1}}}},
		{CreateVport: &engine.CreateVportOp{ID: "bv", Config: engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: 2}}}},
		{Bind: &engine.BindOp{BufferID: "t", VportID: "tin"}},
		{Bind: &engine.BindOp{BufferID: "b", VportID: "bv"}},
	})
	if err != nil {
		b.Fatal(err)
	}
	tin, _ := eng.Ingress(app, "tin")
	bv, _ := eng.Ingress(app, "bv")
	template := udpFrame(1, 1, 1, 0)
	frame := func() [][]byte {
		f := engine.GetFrame(len(template))
		copy(f, template)
		return [][]byte{f}
	}
	var total time.Duration
	for i := 0; i < b.N; i++ {
		if _, err := eng.SetVportMode(app, "bv", engine.ModeRX, nil); err != nil {
			b.Fatal(err)
		}
		bv.Receive(frame())
		if _, err := eng.ArmTrigger(app, "t", releaseB(), ""); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		tin.Receive(frame()) // t is full from the first round on: dropped, still fires
		<-ports["bv"].sent
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "ns/release")
}
