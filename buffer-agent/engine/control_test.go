// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

func TestOwnership(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 10})
	fx.mustVport(t, "v", engine.ModeRX)
	const other = "intruder"
	_, err := fx.e.QueryBuffer(other, "b")
	wantCode(t, err, engine.PermissionDenied)
	_, err = fx.e.RemoveBuffer(other, "b", true)
	wantCode(t, err, engine.PermissionDenied)
	_, err = fx.e.Bind(other, "b", "v")
	wantCode(t, err, engine.PermissionDenied)
	_, err = fx.e.SetVportMode(other, "v", engine.ModeTX, nil)
	wantCode(t, err, engine.PermissionDenied)
	err = fx.e.RemoveVport(other, "v")
	wantCode(t, err, engine.PermissionDenied)
	_, err = fx.e.PurgeUpTo(other, "b", engine.PacketID{}, false)
	wantCode(t, err, engine.PermissionDenied)
	if l, _ := fx.e.ListBuffers(other); len(l) != 0 {
		t.Fatalf("other app sees %d buffers", len(l))
	}
	if l, _ := fx.e.ListBuffers(app); len(l) != 1 || fx.query(t, "b").State != engine.StateFree {
		t.Fatalf("owner's view changed: %+v", l)
	}
}

func TestQuotasAndLimits(t *testing.T) {
	fx := newFixture(t, engine.Options{
		Limits:       engine.Limits{MaxBuffers: 3},
		DefaultQuota: engine.Quota{MaxBuffers: 2, MaxVports: 1, MaxBytes: 1000},
	})
	fx.mustBuffer(t, "b1", engine.BufferConfig{CapacityPackets: 1})
	fx.mustBuffer(t, "b2", engine.BufferConfig{CapacityPackets: 1})
	_, err := fx.e.CreateBuffer(app, "b3", engine.BufferConfig{CapacityPackets: 1})
	wantCode(t, err, engine.ResourceExhausted)
	_, err = fx.e.CreateBuffer("app2", "c1", engine.BufferConfig{CapacityBytes: 1001})
	wantCode(t, err, engine.ResourceExhausted)
	if _, err := fx.e.CreateBuffer("app2", "c1", engine.BufferConfig{CapacityPackets: 1}); err != nil {
		t.Fatal(err)
	}
	_, err = fx.e.CreateBuffer("app2", "c2", engine.BufferConfig{CapacityPackets: 1})
	wantCode(t, err, engine.ResourceExhausted) // agent-wide limit of 3
	fx.mustVport(t, "v1", engine.ModeRX)
	_, err = fx.e.CreateVport(app, "v2", inproc(engine.ModeRX))
	wantCode(t, err, engine.ResourceExhausted)
}

func TestIdempotentCreateAndConflicts(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	cfg := engine.BufferConfig{CapacityPackets: 10}
	fx.mustBuffer(t, "b", cfg)
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 10, Queue: engine.QueueFIFO, Overflow: engine.DropTail})
	_, err := fx.e.CreateBuffer(app, "b", engine.BufferConfig{CapacityPackets: 11})
	wantCode(t, err, engine.AlreadyExists)
	_, err = fx.e.CreateBuffer("other", "b", cfg)
	wantCode(t, err, engine.AlreadyExists)
	vc := inproc(engine.ModeRX)
	if _, err := fx.e.CreateVport(app, "v", vc); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.e.CreateVport(app, "v", vc); err != nil {
		t.Fatalf("idempotent vport create: %v", err)
	}
	_, err = fx.e.CreateVport(app, "v2", vc) // same in-process port
	wantCode(t, err, engine.FailedPrecondition)
}

func TestPreconditions(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 10})
	fx.mustBuffer(t, "b2", engine.BufferConfig{CapacityPackets: 10})
	in := fx.mustVport(t, "v", engine.ModeRX)
	fx.mustBind(t, "b", "v")
	_, err := fx.e.Bind(app, "b", "v")
	wantCode(t, err, engine.FailedPrecondition)
	_, err = fx.e.Bind(app, "b2", "v")
	wantCode(t, err, engine.FailedPrecondition)
	_, err = fx.e.Unbind(app, "b2", "v")
	wantCode(t, err, engine.FailedPrecondition)
	_, err = fx.e.RemoveBuffer(app, "b", true)
	wantCode(t, err, engine.FailedPrecondition)
	wantCode(t, fx.e.RemoveVport(app, "v"), engine.FailedPrecondition)
	in.in.Receive(seqFrames(0, 3))
	if _, err := fx.e.Unbind(app, "b", "v"); err != nil {
		t.Fatal(err)
	}
	_, err = fx.e.RemoveBuffer(app, "b", false)
	wantCode(t, err, engine.FailedPrecondition)
	if fx.query(t, "b").Stats.OccupancyPackets != 3 {
		t.Fatal("failed remove changed the buffer")
	}
	_, err = fx.e.Ack(app, "b", nil)
	wantCode(t, err, engine.FailedPrecondition)
}

func TestBadConfigs(t *testing.T) {
	fx := newFixture(t, engine.Options{Limits: engine.Limits{MaxBufferBytes: 1 << 20, MaxBufferPackets: 1000}})
	cases := map[string]engine.BufferConfig{
		"no capacity":    {},
		"too many bytes": {CapacityBytes: 1<<20 + 1},
		"too many pkts":  {CapacityPackets: 1001},
		"bad queue":      {CapacityPackets: 1, Queue: 9},
		"bad overflow":   {CapacityPackets: 1, Overflow: 9},
		"9 classes":      {CapacityPackets: 1, Queue: engine.QueuePriority, Priority: engine.PriorityConfig{Classes: 9}},
		"bad field":      {CapacityPackets: 1, Queue: engine.QueuePriority, Priority: engine.PriorityConfig{Field: 7}},
		"1001 buckets":   {CapacityPackets: 1, Queue: engine.QueueARQ, Arq: engine.ArqConfig{Buckets: 1001}},
	}
	for name, cfg := range cases {
		_, err := fx.e.CreateBuffer(app, "b", cfg)
		if code, _ := engine.CodeOf(err); code != engine.InvalidArgument {
			t.Errorf("%s: %v, want INVALID_ARGUMENT", name, err)
		}
	}
	for _, id := range []string{"", "has space", "slash/no", string(make([]byte, 65))} {
		_, err := fx.e.CreateBuffer(app, id, engine.BufferConfig{CapacityPackets: 1})
		wantCode(t, err, engine.InvalidArgument)
	}
	_, err := fx.e.CreateBuffer("", "b", engine.BufferConfig{CapacityPackets: 1})
	wantCode(t, err, engine.InvalidArgument)
	_, err = fx.e.CreateVport(app, "v", engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{Kind: engine.BackendLinuxInterface, Interface: "eth0"}})
	wantCode(t, err, engine.Unimplemented)
	_, err = fx.e.CreateVport(app, "v", engine.VportConfig{Mode: 0, Backend: engine.BackendSpec{Kind: engine.BackendInProcess}})
	wantCode(t, err, engine.InvalidArgument)
	if l, _ := fx.e.ListBuffers(app); len(l) != 0 {
		t.Fatalf("bad creates left %d buffers", len(l))
	}
}

func TestBatchIsAllOrNothing(t *testing.T) {
	fx := newFixture(t, engine.Options{})
	fx.mustBuffer(t, "keep", engine.BufferConfig{CapacityPackets: 5})
	ops := []engine.Op{
		{CreateBuffer: &engine.CreateBufferOp{ID: "nb", Config: engine.BufferConfig{CapacityPackets: 5}}},
		{CreateVport: &engine.CreateVportOp{ID: "nv", Config: inproc(engine.ModeRX)}},
		{Bind: &engine.BindOp{BufferID: "nb", VportID: "nv"}},
		{RemoveBuffer: &engine.RemoveBufferOp{ID: "keep"}},
		{Bind: &engine.BindOp{BufferID: "nb", VportID: "nv"}}, // binding twice fails
	}
	_, err := fx.e.Batch(app, ops)
	wantCode(t, err, engine.FailedPrecondition)
	if err.Error() != `FAILED_PRECONDITION: operation 4: vport "nv" is already bound to buffer "nb"` {
		t.Fatalf("message %q", err)
	}
	bl, _ := fx.e.ListBuffers(app)
	vl, _ := fx.e.ListVports(app)
	if len(bl) != 1 || bl[0].ID != "keep" || len(vl) != 0 {
		t.Fatalf("batch left %v %v", bl, vl)
	}
	// A backend failure after validation also changes nothing.
	fx.f.failFor = "nv"
	_, err = fx.e.Batch(app, ops[:3])
	if err == nil {
		t.Fatal("batch with failing backend succeeded")
	}
	if bl, _ := fx.e.ListBuffers(app); len(bl) != 1 {
		t.Fatalf("failed batch left buffers %v", bl)
	}
	fx.f.failFor = ""
	res, err := fx.e.Batch(app, ops[:4])
	if err != nil || len(res) != 4 || res[2].Buffer.State != engine.StateBuffering {
		t.Fatalf("good batch: %v %+v", err, res)
	}
	if _, err := fx.e.QueryBuffer(app, "keep"); err == nil {
		t.Fatal("batch did not remove keep")
	}
}

func TestPurgeUpTo(t *testing.T) {
	for _, inclusive := range []bool{false, true} {
		fx := newFixture(t, engine.Options{})
		fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 100})
		in := fx.mustVport(t, "in", engine.ModeRX)
		fx.mustBind(t, "b", "in")
		in.in.Receive(seqFrames(0, 10))
		r, err := fx.e.PurgeUpTo(app, "b", engine.PacketID{IPv4ID: 99, L4Checksum: 1}, false)
		if err != nil || r.Found || fx.query(t, "b").Stats.OccupancyPackets != 10 {
			t.Fatalf("unknown id purged: %+v %v", r, err)
		}
		r, err = fx.e.PurgeUpTo(app, "b", engine.PacketID{IPv4ID: 4, L4Checksum: 28}, inclusive)
		want := uint64(4)
		if inclusive {
			want = 5
		}
		if err != nil || !r.Found || r.PurgedPackets != want {
			t.Fatalf("inclusive=%v: %+v %v", inclusive, r, err)
		}
		st := fx.query(t, "b").Stats
		if st.OccupancyPackets != 10-want || dropsOf(st.Drops, engine.DropPurged) != want {
			t.Fatalf("stats %+v", st)
		}
	}
}
