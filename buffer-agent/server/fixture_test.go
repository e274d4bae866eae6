// SPDX-License-Identifier: Apache-2.0

package server_test

import (
	"context"
	"encoding/binary"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/engine/fakeclock"
	"github.com/flowbuf/flowbuf/buffer-agent/server"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

const (
	appA = "org.flowbuf.a"
	appB = "org.flowbuf.b"
)

// memPort is an in-process backend that keeps what it is sent.
type memPort struct {
	in   engine.Ingress
	mu   sync.Mutex
	sent int
}

func (p *memPort) Transmit(f [][]byte) error {
	p.mu.Lock()
	p.sent += len(f)
	p.mu.Unlock()
	return nil
}

func (p *memPort) Close() error { return nil }

type memFactory struct {
	mu    sync.Mutex
	ports map[string]*memPort
}

func (f *memFactory) Open(id string, _ engine.BackendSpec, in engine.Ingress) (engine.Backend, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := &memPort{in: in}
	f.ports[id] = p
	return p, nil
}

type env struct {
	eng    *engine.Engine
	srv    *server.Server
	client pb.BufferAgentClient
	conn   *grpc.ClientConn
	ports  *memFactory
}

// newEnv serves an engine (fake clock, in-process backends only) over
// bufconn and populates it:
//
//	appA: buffer "held" (3 packets, unbound: STORING), buffer "bound" with
//	      vport "vb" (RX) bound, vport "vfree" (unbound), buffer "arq" (ARQ)
//	appB: buffer "theirs", vport "vtheirs"
func newEnv(t testing.TB) *env {
	t.Helper()
	e, stop := startEnv(t)
	t.Cleanup(stop)
	return e
}

// startEnv is newEnv with the teardown returned rather than registered
// (a fuzz target replaces its env after a call that changed it).
func startEnv(t testing.TB) (*env, func()) {
	t.Helper()
	f := &memFactory{ports: map[string]*memPort{}}
	eng := engine.New(engine.Options{
		Limits:       engine.Limits{PoolBytes: 64 << 20, MaxBufferBytes: 16 << 20, MaxBufferPackets: 100000},
		DefaultQuota: engine.Quota{MaxBytes: 8 << 20, MaxBuffers: 10, MaxVports: 10},
		Clock:        fakeclock.New(time.Unix(1_700_000_000, 0)),
		Backends:     server.Backends(nil, f),
	})
	srv := server.New(eng, server.Options{AgentVersion: "buffer-agent test"})
	lis := bufconn.Listen(1 << 20)
	g := grpc.NewServer()
	srv.Register(g)
	go func() { _ = g.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) { return lis.Dial() }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	stop := func() {
		conn.Close()
		g.Stop()
		eng.Close()
	}
	if err != nil {
		stop()
		t.Fatal(err)
	}
	e := &env{eng: eng, srv: srv, client: pb.NewBufferAgentClient(conn), conn: conn, ports: f}
	e.populate(t)
	return e, stop
}

func (e *env) populate(t testing.TB) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	fifo := engine.BufferConfig{CapacityPackets: 100}
	for _, id := range []string{"held", "bound"} {
		_, err := e.eng.CreateBuffer(appA, id, fifo)
		must(err)
	}
	_, err := e.eng.CreateBuffer(appA, "arq", engine.BufferConfig{CapacityPackets: 10, Queue: engine.QueueARQ})
	must(err)
	_, err = e.eng.CreateBuffer(appB, "theirs", fifo)
	must(err)
	for i, v := range []struct{ app, id string }{{appA, "vb"}, {appA, "vfree"}, {appA, "vfill"}, {appB, "vtheirs"}} {
		_, err := e.eng.CreateVport(v.app, v.id, engine.VportConfig{Mode: engine.ModeRX,
			Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: uint32(10 + i)}})
		must(err)
	}
	_, err = e.eng.Bind(appA, "held", "vfill")
	must(err)
	e.ports.ports["vfill"].in.Receive([][]byte{frame(1), frame(2), frame(3)})
	_, err = e.eng.Unbind(appA, "held", "vfill")
	must(err)
	_, err = e.eng.Bind(appA, "bound", "vb")
	must(err)
}

// frame is a minimal Ethernet/IPv4/UDP frame with IPv4 id and UDP checksum n.
func frame(n uint16) []byte {
	f := make([]byte, 60)
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	f[14], f[23] = 0x45, 17
	binary.BigEndian.PutUint16(f[18:], n)
	binary.BigEndian.PutUint16(f[40:], n)
	return f
}

// snapshot is everything both apps can see, for "nothing changed" checks.
func (e *env) snapshot(t testing.TB) []proto.Message {
	t.Helper()
	var out []proto.Message
	for _, a := range []string{appA, appB} {
		b, err := e.srv.ListBuffers(context.Background(), &pb.ListBuffersRequest{AppId: a})
		if err != nil {
			t.Fatal(err)
		}
		v, err := e.srv.ListVports(context.Background(), &pb.ListVportsRequest{AppId: a})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b, v)
	}
	return out
}

func sameSnapshot(a, b []proto.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !proto.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
