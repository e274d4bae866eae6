// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

const sharedPort = 900

func tagged(tag uint32, mode engine.VportMode) engine.VportConfig {
	return engine.VportConfig{Mode: mode, Tag: tag,
		Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: sharedPort}}
}

// tagFrame is f as the switch sends it into a shared vport (steer_to_buffer).
func tagFrame(f []byte, tag uint32) []byte {
	out := make([]byte, 0, len(f)+6)
	out = append(out, f[:12]...)
	out = binary.BigEndian.AppendUint16(out, engine.EtherTypeBufferTag)
	out = binary.BigEndian.AppendUint32(out, tag)
	return append(out, f[12:]...)
}

// sharedFixture makes n RX vports with tags 1..n on sharedPort, each bound
// to buffer "b<tag>", and returns the one backend they share.
func sharedFixture(t *testing.T, n int) (*fixture, *capture) {
	t.Helper()
	fx := newFixture(t, engine.Options{})
	for tag := 1; tag <= n; tag++ {
		id := "v" + itoa(tag)
		fx.mustBuffer(t, "b"+itoa(tag), engine.BufferConfig{CapacityPackets: 1000})
		if _, err := fx.e.CreateVport(app, id, tagged(uint32(tag), engine.ModeRX)); err != nil {
			t.Fatalf("create %s: %v", id, err)
		}
		fx.mustBind(t, "b"+itoa(tag), id)
	}
	fx.f.mu.Lock()
	defer fx.f.mu.Unlock()
	if len(fx.f.ports) != 1 {
		t.Fatalf("%d backends opened for %d tagged vports on one port, want 1", len(fx.f.ports), n)
	}
	for _, c := range fx.f.ports {
		return fx, c
	}
	return nil, nil
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestSharedBackendDemuxesByTagAndStrips(t *testing.T) {
	fx, be := sharedFixture(t, 3)
	plain := seqFrames(0, 6)
	var in [][]byte
	for i, f := range plain {
		in = append(in, tagFrame(f, uint32(i%3+1))) // interleaved: 1 2 3 1 2 3
	}
	be.in.Receive(in)
	for tag := 1; tag <= 3; tag++ {
		b := fx.query(t, "b"+itoa(tag))
		if b.Stats.OccupancyPackets != 2 {
			t.Fatalf("buffer b%d holds %d packets, want 2", tag, b.Stats.OccupancyPackets)
		}
	}
	// Served through a TX vport of the same shared port: stripped, in order.
	if _, err := fx.e.CreateVport(app, "t2", tagged(100, engine.ModeTX)); err != nil {
		t.Fatal(err)
	}
	fx.mustBind(t, "b2", "t2")
	out := be.waitSent(t, 2)
	if !bytes.Equal(out[0], plain[1]) || !bytes.Equal(out[1], plain[4]) {
		t.Fatalf("buffer b2 sent %x %x, want the untagged frames 1 and 4", out[0], out[1])
	}
}

func TestSharedBackendKeepsEachBuffersOrder(t *testing.T) {
	fx, be := sharedFixture(t, 2)
	frames := seqFrames(0, 200)
	for i := 0; i < len(frames); i += 10 {
		var batch [][]byte
		for j, f := range frames[i : i+10] {
			batch = append(batch, tagFrame(f, uint32((i+j)%2+1)))
		}
		be.in.Receive(batch)
	}
	for tag := 1; tag <= 2; tag++ {
		if _, err := fx.e.CreateVport(app, "t"+itoa(tag), tagged(uint32(100+tag), engine.ModeTX)); err != nil {
			t.Fatal(err)
		}
	}
	fx.mustBind(t, "b1", "t1")
	got := be.waitSent(t, 100)
	fx.mustBind(t, "b2", "t2")
	got = be.waitSent(t, 200)
	var odd, even []uint32
	for _, s := range seqs(got) {
		if s%2 == 0 {
			even = append(even, s)
		} else {
			odd = append(odd, s)
		}
	}
	if len(even) != 100 || len(odd) != 100 || !slices.IsSorted(even) || !slices.IsSorted(odd) {
		t.Fatalf("replays lost or reordered: even %v odd %v", even, odd)
	}
}

func TestSharedBackendCountsUnknownAndMissingTags(t *testing.T) {
	fx, be := sharedFixture(t, 1)
	f := seqFrames(0, 3)
	// Untagged, an unknown tag, tag 1, a runt, and an ARQ status frame (its
	// ethertype is 0x88b5 too, its magic where a tag would be).
	arq := engine.ArqStatusFrame([]engine.PacketID{{IPv4ID: 1}})
	be.in.Receive([][]byte{f[0], tagFrame(f[1], 7), tagFrame(f[2], 1), {1, 2, 3}, arq})
	if got := fx.query(t, "b1").Stats.OccupancyPackets; got != 1 {
		t.Fatalf("buffer holds %d, want 1", got)
	}
	infos := fx.e.SharedBackends()
	if len(infos) != 1 {
		t.Fatalf("%d shared backends, want 1", len(infos))
	}
	i := infos[0]
	if i.UntaggedPackets != 3 || i.UnknownTagPackets != 1 || i.Vports != 1 {
		t.Fatalf("shared backend counted %+v, want 3 untagged, 1 unknown tag, 1 vport", i)
	}
	if i.UntaggedBytes != uint64(len(f[0])+3+len(arq)) || i.UnknownTagBytes != uint64(len(f[1])+6) {
		t.Fatalf("shared backend bytes %+v", i)
	}
}

func TestSharedBackendClosesWithItsLastVport(t *testing.T) {
	fx, be := sharedFixture(t, 2)
	for tag := 1; tag <= 2; tag++ {
		if _, err := fx.e.Unbind(app, "b"+itoa(tag), "v"+itoa(tag)); err != nil {
			t.Fatal(err)
		}
	}
	if err := fx.e.RemoveVport(app, "v1"); err != nil {
		t.Fatal(err)
	}
	if be.closed {
		t.Fatal("backend closed while vport v2 still uses it")
	}
	if err := fx.e.RemoveVport(app, "v2"); err != nil {
		t.Fatal(err)
	}
	if !be.closed || len(fx.e.SharedBackends()) != 0 {
		t.Fatal("backend still open after its last tagged vport went")
	}
	// The port is free again, for an untagged vport too.
	if _, err := fx.e.CreateVport(app, "plain", tagged(0, engine.ModeRX)); err != nil {
		t.Fatal(err)
	}
}

func TestTaggedVportBadConfigsChangeNothing(t *testing.T) {
	fx, _ := sharedFixture(t, 1)
	plain := tagged(0, engine.ModeRX)
	plain.Backend.Port = sharedPort + 1
	if _, err := fx.e.CreateVport(app, "plain", plain); err != nil {
		t.Fatal(err)
	}
	onPlain := tagged(5, engine.ModeRX)
	onPlain.Backend.Port = sharedPort + 1
	cases := []struct {
		name string
		cfg  engine.VportConfig
		code engine.Code
	}{
		{"tag collision", tagged(1, engine.ModeRX), engine.FailedPrecondition},
		{"untagged on a shared port", tagged(0, engine.ModeRX), engine.FailedPrecondition},
		{"tagged on an untagged port", onPlain, engine.FailedPrecondition},
		{"tag out of range", tagged(engine.MaxTag+1, engine.ModeRX), engine.InvalidArgument},
	}
	for _, c := range cases {
		_, err := fx.e.CreateVport(app, "bad", c.cfg)
		wantCode(t, err, c.code)
	}
	// A batch whose second vport collides with its first makes neither.
	free := tagged(3, engine.ModeRX)
	free.Backend.Port = sharedPort + 2
	_, err := fx.e.Batch(app, []engine.Op{
		{CreateVport: &engine.CreateVportOp{ID: "x1", Config: free}},
		{CreateVport: &engine.CreateVportOp{ID: "x2", Config: free}},
	})
	wantCode(t, err, engine.FailedPrecondition)
	vps, _ := fx.e.ListVports(app)
	if len(vps) != 2 || len(fx.e.SharedBackends()) != 1 || len(fx.f.ports) != 2 {
		t.Fatalf("a refused vport changed the engine: %d vports, %d shared, %d backends",
			len(vps), len(fx.e.SharedBackends()), len(fx.f.ports))
	}
}

func TestTaggedVportsOfOneInterfaceNeedOneConfig(t *testing.T) {
	f := &factory{ports: map[string]*capture{}}
	e := engine.New(engine.Options{Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendLinuxInterface: f}})
	t.Cleanup(func() { _ = e.Close() })
	cfg := engine.VportConfig{Mode: engine.ModeRX, Tag: 1,
		Backend: engine.BackendSpec{Kind: engine.BackendLinuxInterface, Interface: "fbv1"}}
	if _, err := e.CreateVport(app, "a", cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Tag = 2
	cfg.Backend.KeepOffloads = true
	_, err := e.CreateVport(app, "b", cfg)
	wantCode(t, err, engine.InvalidArgument)
	cfg.Backend.KeepOffloads = false
	if _, err := e.CreateVport(app, "b", cfg); err != nil {
		t.Fatal(err)
	}
}

func TestTagsPerBackendAreBounded(t *testing.T) {
	fx := newFixture(t, engine.Options{Limits: engine.Limits{MaxTagsPerBackend: 2}})
	for tag := uint32(1); tag <= 2; tag++ {
		if _, err := fx.e.CreateVport(app, "v"+strconv.Itoa(int(tag)), tagged(tag, engine.ModeRX)); err != nil {
			t.Fatal(err)
		}
	}
	_, err := fx.e.CreateVport(app, "v3", tagged(3, engine.ModeRX))
	wantCode(t, err, engine.ResourceExhausted)
	// Also within one batch on a port no vport uses yet.
	fresh := func(tag uint32) engine.VportConfig {
		c := tagged(tag, engine.ModeRX)
		c.Backend.Port = sharedPort + 9
		return c
	}
	_, err = fx.e.Batch(app, []engine.Op{
		{CreateVport: &engine.CreateVportOp{ID: "f1", Config: fresh(1)}},
		{CreateVport: &engine.CreateVportOp{ID: "f2", Config: fresh(2)}},
		{CreateVport: &engine.CreateVportOp{ID: "f3", Config: fresh(3)}},
	})
	wantCode(t, err, engine.ResourceExhausted)
	if _, err := fx.e.QueryVport(app, "f1"); err == nil {
		t.Fatal("a refused batch made vport f1")
	}
}

// A crashed engine re-attaches its tagged vports to one shared backend
// again, each to its buffer with what it held, and demultiplexes anew.
func TestTaggedVportsAreReattachedToOneSharedBackend(t *testing.T) {
	dir := t.TempDir()
	fx, _ := openFixture(t, dir)
	for tag := 1; tag <= 2; tag++ {
		fx.mustBuffer(t, "b"+itoa(tag), engine.BufferConfig{CapacityPackets: 100})
		if _, err := fx.e.CreateVport(app, "v"+itoa(tag), tagged(uint32(tag), engine.ModeRX)); err != nil {
			t.Fatal(err)
		}
		fx.mustBind(t, "b"+itoa(tag), "v"+itoa(tag))
	}
	be := fx.f.port("shared:in-process port 900")
	if be == nil {
		t.Fatalf("no shared backend among %v", fx.f.ports)
	}
	frames := seqFrames(0, 4)
	be.in.Receive([][]byte{tagFrame(frames[0], 1), tagFrame(frames[1], 2), tagFrame(frames[2], 1)})
	for _, name := range dirEntries(t, dir) {
		// Tagged vports keep no receive count: only the buffers' journals.
		if strings.HasPrefix(name, "vport-") {
			t.Fatalf("state dir holds %s: %v", name, dirEntries(t, dir))
		}
	}
	engine.Crash(fx.e)

	fx2, rep := openFixture(t, dir)
	if len(rep.Notes) != 0 {
		t.Fatalf("restore notes %v", rep.Notes)
	}
	if len(fx2.f.ports) != 1 {
		t.Fatalf("%d backends re-opened, want the one shared", len(fx2.f.ports))
	}
	if a, b := fx2.query(t, "b1").Stats.OccupancyPackets, fx2.query(t, "b2").Stats.OccupancyPackets; a != 2 || b != 1 {
		t.Fatalf("re-attached buffers hold %d and %d, want 2 and 1", a, b)
	}
	fx2.f.port("shared:in-process port 900").in.Receive([][]byte{tagFrame(frames[3], 2)})
	if got := fx2.query(t, "b2").Stats.OccupancyPackets; got != 2 {
		t.Fatalf("buffer b2 holds %d after the restart, want 2", got)
	}
}

func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
