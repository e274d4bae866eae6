// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/engine/fakeclock"
)

// openFixture is newFixture on a state directory; the engine is closed at
// the end of the test unless the test crashed it.
func openFixture(t *testing.T, dir string) (*fixture, engine.RestoreReport) {
	t.Helper()
	f := &factory{ports: map[string]*capture{}}
	clk := fakeclock.New(time.Unix(1_700_000_000, 0))
	e, rep, err := engine.Open(engine.Options{
		Clock: clk, StateDir: dir,
		Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f},
	})
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return &fixture{e: e, f: f, clk: clk}, rep
}

func ringPath(dir, id string) string {
	return filepath.Join(dir, "buffer-"+hex.EncodeToString([]byte(id))+".ring")
}

func feed(in *capture, frames [][]byte) {
	for len(frames) > 0 {
		n := min(64, len(frames))
		in.in.Receive(frames[:n])
		frames = frames[n:]
	}
}

func TestCrashedEngineReattachesItsPacketsInOrder(t *testing.T) {
	dir := t.TempDir()
	fx, rep := openFixture(t, dir)
	if len(rep.Buffers) != 0 || len(rep.Notes) != 0 {
		t.Fatalf("fresh dir: report %+v", rep)
	}
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 5000})
	in := fx.mustVport(t, "in", engine.ModeRX)
	fx.mustBind(t, "b", "in")
	feed(in, seqFrames(0, 100))
	// Served before the crash: these must not come back.
	fx.mustVport(t, "out", engine.ModeTX)
	fx.mustBind(t, "b", "out")
	fx.f.port("out").waitSent(t, 100)
	if _, err := fx.e.Unbind(app, "b", "out"); err != nil {
		t.Fatal(err)
	}
	feed(in, seqFrames(100, 3000))
	engine.Crash(fx.e)

	fx2, rep := openFixture(t, dir)
	if want := []engine.RestoredBuffer{{ID: "b", Packets: 3000}}; !reflect.DeepEqual(rep.Buffers, want) {
		t.Fatalf("report %+v, want %+v", rep.Buffers, want)
	}
	b := fx2.query(t, "b")
	if b.State != engine.StateBuffering || !reflect.DeepEqual(b.VportIDs, []string{"in"}) ||
		b.Stats.OccupancyPackets != 3000 || !b.Stats.Reattached || b.Stats.ReattachedPackets != 3000 {
		t.Fatalf("re-attached buffer %+v", b)
	}
	if v, err := fx2.e.QueryVport(app, "out"); err != nil || v.Config.Mode != engine.ModeTX || v.BufferID != "" {
		t.Fatalf("vport out %+v, %v", v, err)
	}
	// The RX vport takes in again, after what was held.
	feed(fx2.f.port("in"), seqFrames(3100, 10))
	fx2.mustBind(t, "b", "out")
	got := seqs(fx2.f.port("out").waitSent(t, 3010))
	for i, s := range got {
		if s != uint32(100+i) {
			t.Fatalf("frame %d has seq %d, want %d", i, s, 100+i)
		}
	}
}

func TestReattachedPriorityBufferKeepsClassOrderAndForgetsWhatLeft(t *testing.T) {
	dir := t.TempDir()
	fx, _ := openFixture(t, dir)
	fx.mustBuffer(t, "p", engine.BufferConfig{CapacityPackets: 100, Queue: engine.QueuePriority,
		Priority: engine.PriorityConfig{Classes: 2, Field: engine.FieldIPDSCP}})
	in := fx.mustVport(t, "in", engine.ModeRX)
	fx.mustBind(t, "p", "in")
	var frames [][]byte
	for i := uint32(0); i < 20; i++ {
		dscp := byte(0)
		if i >= 10 {
			dscp = 56 // class 1: served first
		}
		f := udpFrame(i, uint16(i), 1, dscp)
		frames = append(frames, append(f, make([]byte, 1000-len(f))...))
	}
	in.in.Receive(frames)
	// Paced at 1000 bytes/ms with a 9216-byte burst: 9 of the high class
	// leave, out of arrival order.
	cfg := inproc(engine.ModeTX)
	cfg.TxRateBps = 8_000_000
	if _, err := fx.e.CreateVport(app, "out", cfg); err != nil {
		t.Fatal(err)
	}
	fx.mustBind(t, "p", "out")
	fx.f.port("out").waitSent(t, 9)
	time.Sleep(20 * time.Millisecond) // the fake clock stands still: nothing more leaves
	if n := len(fx.f.port("out").frames()); n != 9 {
		t.Fatalf("sent %d before the crash, want 9", n)
	}
	engine.Crash(fx.e)

	fx2, rep := openFixture(t, dir)
	if want := []engine.RestoredBuffer{{ID: "p", Packets: 11}}; !reflect.DeepEqual(rep.Buffers, want) {
		t.Fatalf("report %+v, want %+v", rep.Buffers, want)
	}
	if b := fx2.query(t, "p"); b.State != engine.StateForwarding || !reflect.DeepEqual(b.VportIDs, []string{"in", "out"}) {
		t.Fatalf("re-attached %+v", b)
	}
	zero := uint64(0)
	if _, err := fx2.e.SetVportMode(app, "out", engine.ModeTX, &zero); err != nil {
		t.Fatal(err)
	}
	got := seqs(fx2.f.port("out").waitSent(t, 11))
	if want := []uint32{19, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; !reflect.DeepEqual(got, want) {
		t.Fatalf("sent %v, want %v", got, want)
	}
}

func TestTornAppendAtTheTailIsIgnored(t *testing.T) {
	dir := t.TempDir()
	fx, _ := openFixture(t, dir)
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 1000})
	in := fx.mustVport(t, "in", engine.ModeRX)
	fx.mustBind(t, "b", "in")
	feed(in, seqFrames(0, 10))
	engine.Crash(fx.e)

	// An append cut by the kill: a header and half a frame written, the
	// tail not yet published.
	path := ringPath(dir, "b")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tail := binary.LittleEndian.Uint64(raw[32:])
	size := binary.LittleEndian.Uint64(raw[16:])
	at := 4096 + tail%size
	binary.LittleEndian.PutUint32(raw[at:], 50)
	binary.LittleEndian.PutUint32(raw[at+4:], 0xFB000000)
	binary.LittleEndian.PutUint64(raw[at+8:], 11)
	copy(raw[at+24:], "torn frame, never publi")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	fx2, _ := openFixture(t, dir)
	if b := fx2.query(t, "b"); b.Stats.OccupancyPackets != 10 {
		t.Fatalf("occupancy %d, want 10", b.Stats.OccupancyPackets)
	}
	fx2.mustVport(t, "out", engine.ModeTX)
	fx2.mustBind(t, "b", "out")
	got := seqs(fx2.f.port("out").waitSent(t, 10))
	if want := seqs(seqFrames(0, 10)); !reflect.DeepEqual(got, want) {
		t.Fatalf("sent %v, want %v", got, want)
	}
}

func TestCleanCloseRemovesTheStateDir(t *testing.T) {
	dir := t.TempDir()
	fx, _ := openFixture(t, dir)
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 1000})
	fx.mustBind(t, "b", fxVport(t, fx, "in"))
	feed(fx.f.port("in"), seqFrames(0, 5))
	if err := fx.e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("after Close the state dir is still there (%v): %v", err, dirNames(t, dir))
	}
}

func TestRemovedBufferAndVportLeaveNoFile(t *testing.T) {
	dir := t.TempDir()
	fx, _ := openFixture(t, dir)
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 1000})
	fx.mustVport(t, "in", engine.ModeRX)
	if _, err := fx.e.RemoveBuffer(app, "b", true); err != nil {
		t.Fatal(err)
	}
	if err := fx.e.RemoveVport(app, "in"); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, dir); !reflect.DeepEqual(names, []string{"LOCK", "engine.json"}) {
		t.Fatalf("state dir holds %v", names)
	}
}

func fxVport(t *testing.T, fx *fixture, id string) string {
	fx.mustVport(t, id, engine.ModeRX)
	return id
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// crashedDir is a state directory left by a crash, holding buffer "b"
// with 3 packets.
func crashedDir(t *testing.T) string {
	dir := t.TempDir()
	fx, _ := openFixture(t, dir)
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 1000})
	fx.mustBind(t, "b", fxVport(t, fx, "in"))
	feed(fx.f.port("in"), seqFrames(0, 3))
	engine.Crash(fx.e)
	return dir
}

func TestBadStateDirsAreRefusedAndNothingIsDeleted(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		dir     func(t *testing.T) string
		wantErr string
	}{
		{"a file, not a directory", func(*testing.T) string { return file }, "not a directory"},
		{"a foreign file", func(t *testing.T) string {
			dir := crashedDir(t)
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o600)
			return dir
		}, `holds "notes.txt", which is not an agent state file`},
		{"a subdirectory", func(t *testing.T) string {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, "sub"), 0o700)
			return dir
		}, `holds "sub"`},
		{"a foreign engine.json", func(t *testing.T) string {
			dir := crashedDir(t)
			os.WriteFile(filepath.Join(dir, "engine.json"), []byte(`{"format":"other","version":1}`), 0o600)
			return dir
		}, `has format "other"`},
		{"engine.json not JSON", func(t *testing.T) string {
			dir := crashedDir(t)
			os.WriteFile(filepath.Join(dir, "engine.json"), []byte("not json"), 0o600)
			return dir
		}, "engine.json is not an agent state"},
		{"a journal with a bad magic", func(t *testing.T) string {
			dir := crashedDir(t)
			f, _ := os.OpenFile(ringPath(dir, "b"), os.O_RDWR, 0)
			f.WriteAt([]byte("NOTARING"), 0)
			f.Close()
			return dir
		}, "is not a FlowBuf buffer journal"},
		{"a journal of another buffer", func(t *testing.T) string {
			dir := crashedDir(t)
			os.Rename(ringPath(dir, "b"), ringPath(dir, "c"))
			return dir
		}, `belongs to buffer "b", not "c"`},
		{"a corrupt record", func(t *testing.T) string {
			dir := crashedDir(t)
			f, _ := os.OpenFile(ringPath(dir, "b"), os.O_RDWR, 0)
			f.WriteAt([]byte{0, 0, 0, 0}, 4096+4) // the first record's magic
			f.Close()
			return dir
		}, "is corrupt: no record at position 0"},
		{"an orphan journal holding packets", func(t *testing.T) string {
			dir := crashedDir(t)
			os.WriteFile(filepath.Join(dir, "engine.json"), []byte(`{"format":"flowbuf-agent-state","version":1}`), 0o600)
			return dir
		}, `holds 3 packets of buffer "b", which engine.json does not list`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			before := snapshot(t, dir)
			_, _, err := engine.Open(engine.Options{StateDir: dir})
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("Open(%s) = %v, want an error containing %q", dir, err, c.wantErr)
			}
			after := snapshot(t, dir)
			delete(after, "LOCK") // the lock file may be made before the state is read
			delete(before, "LOCK")
			if !reflect.DeepEqual(before, after) {
				t.Fatalf("Open changed the state dir: before %v, after %v", keys(before), keys(after))
			}
		})
	}
}

func TestAStateDirInUseIsRefused(t *testing.T) {
	dir := t.TempDir()
	openFixture(t, dir)
	_, _, err := engine.Open(engine.Options{StateDir: dir})
	if err == nil || !strings.Contains(err.Error(), "in use by another agent") {
		t.Fatalf("second Open = %v", err)
	}
}

// snapshot maps each file of dir (or dir itself, when a file) to its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsDir() {
		raw, _ := os.ReadFile(dir)
		out[""] = string(raw)
		return out
	}
	for _, name := range dirNames(t, dir) {
		raw, _ := os.ReadFile(filepath.Join(dir, name))
		out[name] = string(raw)
	}
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// ifaceCapture is a capture whose port counts received frames itself, as a
// Linux interface does (and goes on counting while the agent is down).
type ifaceCapture struct {
	*capture
	rx *atomic.Uint64
}

func (c ifaceCapture) InterfaceRxPackets() (uint64, error) { return c.rx.Load(), nil }

func TestFramesMissedWhileDownAreCounted(t *testing.T) {
	dir := t.TempDir()
	counters := map[string]*atomic.Uint64{"in": {}, "idle": {}}
	open := func() (*engine.Engine, engine.RestoreReport, map[string]*capture) {
		ports := map[string]*capture{}
		f := engine.BackendFactoryFunc(func(id string, _ engine.BackendSpec, in engine.Ingress) (engine.Backend, error) {
			c := &capture{in: in}
			ports[id] = c
			return ifaceCapture{c, counters[id]}, nil
		})
		e, rep, err := engine.Open(engine.Options{StateDir: dir,
			Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f}})
		if err != nil {
			t.Fatal(err)
		}
		return e, rep, ports
	}
	counters["in"].Store(1000) // the interface counted before the vport existed
	e, _, ports := open()
	if _, err := e.Batch(app, []engine.Op{
		{CreateBuffer: &engine.CreateBufferOp{ID: "b", Config: engine.BufferConfig{CapacityPackets: 100}}},
		{CreateVport: &engine.CreateVportOp{ID: "in", Config: inproc(engine.ModeRX)}},
		{CreateVport: &engine.CreateVportOp{ID: "idle", Config: inproc(engine.ModeRX)}},
		{Bind: &engine.BindOp{BufferID: "b", VportID: "in"}},
	}); err != nil {
		t.Fatal(err)
	}
	feed(ports["in"], seqFrames(0, 10))
	counters["in"].Add(10)
	engine.Crash(e)
	counters["in"].Add(7)   // sent to the buffer while the agent was down
	counters["idle"].Add(3) // to an unbound vport: dropped anyway

	e2, rep, _ := open()
	defer e2.Close()
	if want := []engine.RestoredBuffer{{ID: "b", Packets: 10, Missed: 7}}; !reflect.DeepEqual(rep.Buffers, want) {
		t.Fatalf("report %+v, want %+v", rep.Buffers, want)
	}
	b, _ := e2.QueryBuffer(app, "b")
	if b.Stats.MissedWhileDown != 7 || b.Stats.ReattachedPackets != 10 {
		t.Fatalf("stats %+v", b.Stats)
	}
	if v, _ := e2.QueryVport(app, "idle"); dropsOf(v.Stats.Drops, engine.DropUnbound) != 3 {
		t.Fatalf("idle vport drops %+v, want 3 UNBOUND", v.Stats.Drops)
	}
}

// TestJournalWrapsAndDropHeadSurviveACrash runs frames of varied sizes
// through a small buffer that never empties (drop-head discards the
// oldest) until its journal has wrapped several times (records that do not
// fit at the end of the ring are put at its start), then crashes holding a
// window that straddles a wrap.
func TestJournalWrapsAndDropHeadSurviveACrash(t *testing.T) {
	dir := t.TempDir()
	fx, _ := openFixture(t, dir)
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 10, Overflow: engine.DropHead})
	in := fx.mustVport(t, "in", engine.ModeRX)
	fx.mustBind(t, "b", "in")
	fx.mustVport(t, "out", engine.ModeNone)
	fx.mustBind(t, "b", "out")
	sized := func(seq uint32) []byte {
		f := udpFrame(seq, uint16(seq), 1, 0)
		return append(f, make([]byte, int(seq*7919%1400))...)
	}
	var seq uint32
	for ; seq < 1000; seq++ { // about 750 KB through a ring of 112 KiB
		in.in.Receive([][]byte{sized(seq)})
	}
	engine.Crash(fx.e)

	fx2, rep := openFixture(t, dir)
	if want := []engine.RestoredBuffer{{ID: "b", Packets: 10}}; !reflect.DeepEqual(rep.Buffers, want) {
		t.Fatalf("report %+v, want %+v", rep.Buffers, want)
	}
	fx2.mustMode(t, "out", engine.ModeTX)
	got := fx2.f.port("out").waitSent(t, 10)
	for i, f := range got {
		want := sized(seq - 10 + uint32(i))
		if !reflect.DeepEqual(f, want) {
			t.Fatalf("frame %d: seq %d, %d bytes; want seq %d, %d bytes", i, seqOf(f), len(f), seqOf(want), len(want))
		}
	}
}

func TestAStateThatNoAgentWroteIsRefused(t *testing.T) {
	for name, state := range map[string]string{
		"bad buffer id":       `{"format":"flowbuf-agent-state","version":1,"buffers":[{"id":"a/b","owner":"o","config":{"CapacityPackets":1}}]}`,
		"priority, 9 classes": `{"format":"flowbuf-agent-state","version":1,"buffers":[{"id":"b","owner":"o","config":{"CapacityPackets":1,"Queue":2,"Priority":{"Classes":9}}}]}`,
		"unknown vport bound": `{"format":"flowbuf-agent-state","version":1,"buffers":[{"id":"b","owner":"o","config":{"CapacityPackets":1},"vports":["v"]}]}`,
		"vport without owner": `{"format":"flowbuf-agent-state","version":1,"vports":[{"id":"v","owner":"","config":{"Mode":2,"Backend":{"Kind":2}}}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "engine.json"), []byte(state), 0o600)
			_, _, err := engine.Open(engine.Options{StateDir: dir})
			if err == nil || !strings.Contains(err.Error(), "refusing to use it") {
				t.Fatalf("Open = %v", err)
			}
			if _, err := os.Stat(filepath.Join(dir, "engine.json")); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// stuckPort blocks in Transmit until closed, as a port whose send is under
// way when the agent is killed.
type stuckPort struct {
	entered chan int
	release chan struct{}
}

func (p *stuckPort) Transmit(frames [][]byte) error {
	p.entered <- len(frames)
	<-p.release
	return nil
}

func (p *stuckPort) Close() error { close(p.release); return nil }

// TestABatchInFlightAtTheCrashIsHeldAgain: packets leave the journal only
// once Transmit returned, so a kill during a replay sends the batch in
// flight again after the restart (a duplicate at worst, never a loss).
func TestABatchInFlightAtTheCrashIsHeldAgain(t *testing.T) {
	dir := t.TempDir()
	stuck := &stuckPort{entered: make(chan int, 1), release: make(chan struct{})}
	var ports map[string]*capture
	f := engine.BackendFactoryFunc(func(id string, _ engine.BackendSpec, in engine.Ingress) (engine.Backend, error) {
		if id == "out" && stuck != nil {
			return stuck, nil
		}
		c := &capture{in: in}
		ports[id] = c
		return c, nil
	})
	open := func() (*engine.Engine, engine.RestoreReport) {
		ports = map[string]*capture{}
		e, rep, err := engine.Open(engine.Options{StateDir: dir,
			Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f}})
		if err != nil {
			t.Fatal(err)
		}
		return e, rep
	}
	e, _ := open()
	if _, err := e.Batch(app, []engine.Op{
		{CreateBuffer: &engine.CreateBufferOp{ID: "b", Config: engine.BufferConfig{CapacityPackets: 1000}}},
		{CreateVport: &engine.CreateVportOp{ID: "in", Config: inproc(engine.ModeRX)}},
		{CreateVport: &engine.CreateVportOp{ID: "out", Config: inproc(engine.ModeNone)}},
		{Bind: &engine.BindOp{BufferID: "b", VportID: "in"}},
		{Bind: &engine.BindOp{BufferID: "b", VportID: "out"}},
	}); err != nil {
		t.Fatal(err)
	}
	feed(ports["in"], seqFrames(0, 200))
	if _, err := e.SetVportMode(app, "out", engine.ModeTX, nil); err != nil {
		t.Fatal(err)
	}
	if n := <-stuck.entered; n != 64 {
		t.Fatalf("first batch of %d frames, want 64", n)
	}
	engine.Crash(e) // the batch is still in Transmit
	stuck = nil

	e2, rep := open()
	defer e2.Close()
	if want := []engine.RestoredBuffer{{ID: "b", Packets: 200}}; !reflect.DeepEqual(rep.Buffers, want) {
		t.Fatalf("report %+v, want %+v (the batch in flight held again)", rep.Buffers, want)
	}
	got := seqs(ports["out"].waitSent(t, 200))
	if want := seqs(seqFrames(0, 200)); !reflect.DeepEqual(got, want) {
		t.Fatalf("sent after the restart %v, want %v", got, want)
	}
}
