// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"encoding/binary"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/engine/fakeclock"
)

const app = "org.flowbuf.test"

// capture is an in-memory backend: it records transmitted frames and lets
// the test inject received ones through its Ingress.
type capture struct {
	mu     sync.Mutex
	in     engine.Ingress
	sent   [][]byte
	closed bool
	fail   bool
}

func (c *capture) Transmit(frames [][]byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail {
		return errors.New("link down")
	}
	c.sent = append(c.sent, frames...)
	return nil
}

func (c *capture) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return nil
}

func (c *capture) frames() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.sent...)
}

// waitSent waits until the backend transmitted n frames.
func (c *capture) waitSent(t *testing.T, n int) [][]byte {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if f := c.frames(); len(f) >= n {
			return f
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("backend sent %d frames, want %d", len(c.frames()), n)
	return nil
}

// factory opens capture backends and remembers them by vport id.
type factory struct {
	mu      sync.Mutex
	ports   map[string]*capture
	failFor string
}

func (f *factory) Open(id string, _ engine.BackendSpec, in engine.Ingress) (engine.Backend, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id == f.failFor {
		return nil, errors.New("injected backend failure")
	}
	c := &capture{in: in}
	f.ports[id] = c
	return c, nil
}

func (f *factory) port(id string) *capture {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ports[id]
}

type fixture struct {
	e   *engine.Engine
	f   *factory
	clk *fakeclock.Clock
}

func newFixture(t *testing.T, opts engine.Options) *fixture {
	t.Helper()
	f := &factory{ports: map[string]*capture{}}
	clk := fakeclock.New(time.Unix(1_700_000_000, 0))
	opts.Clock = clk
	opts.Backends = map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: f}
	e := engine.New(opts)
	t.Cleanup(func() { _ = e.Close() })
	return &fixture{e: e, f: f, clk: clk}
}

var nextPort uint32

func inproc(mode engine.VportMode) engine.VportConfig {
	nextPort++
	return engine.VportConfig{Mode: mode, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: nextPort}}
}

func (fx *fixture) mustBuffer(t *testing.T, id string, cfg engine.BufferConfig) {
	t.Helper()
	if _, err := fx.e.CreateBuffer(app, id, cfg); err != nil {
		t.Fatalf("create buffer %s: %v", id, err)
	}
}

func (fx *fixture) mustVport(t *testing.T, id string, mode engine.VportMode) *capture {
	t.Helper()
	if _, err := fx.e.CreateVport(app, id, inproc(mode)); err != nil {
		t.Fatalf("create vport %s: %v", id, err)
	}
	return fx.f.port(id)
}

func (fx *fixture) mustBind(t *testing.T, buf, vp string) {
	t.Helper()
	if _, err := fx.e.Bind(app, buf, vp); err != nil {
		t.Fatalf("bind %s %s: %v", buf, vp, err)
	}
}

func (fx *fixture) mustMode(t *testing.T, vp string, m engine.VportMode) {
	t.Helper()
	if _, err := fx.e.SetVportMode(app, vp, m, nil); err != nil {
		t.Fatalf("set mode %s: %v", vp, err)
	}
}

func (fx *fixture) query(t *testing.T, id string) engine.BufferInfo {
	t.Helper()
	b, err := fx.e.QueryBuffer(app, id)
	if err != nil {
		t.Fatalf("query %s: %v", id, err)
	}
	return b
}

func wantCode(t *testing.T, err error, want engine.Code) {
	t.Helper()
	got, ok := engine.CodeOf(err)
	if !ok || got != want {
		t.Fatalf("error = %v, want code %v", err, want)
	}
}

// udpFrame builds an Ethernet/IPv4/UDP frame carrying seq in its payload,
// with the given IPv4 id, UDP checksum field and DSCP.
func udpFrame(seq uint32, ipID, l4ck uint16, dscp byte) []byte {
	f := make([]byte, 14+20+8+8)
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	ip := f[14:]
	ip[0] = 0x45
	ip[1] = dscp << 2
	binary.BigEndian.PutUint16(ip[2:], 20+8+8)
	binary.BigEndian.PutUint16(ip[4:], ipID)
	ip[8], ip[9] = 64, 17
	udp := ip[20:]
	binary.BigEndian.PutUint16(udp[4:], 16)
	binary.BigEndian.PutUint16(udp[6:], l4ck)
	binary.BigEndian.PutUint32(udp[8:], seq)
	return f
}

func seqOf(f []byte) uint32 { return binary.BigEndian.Uint32(f[14+20+8:]) }

func seqFrames(from, n uint32) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		s := from + uint32(i)
		out[i] = udpFrame(s, uint16(s), uint16(s*7), 0)
	}
	return out
}

func seqs(frames [][]byte) []uint32 {
	out := make([]uint32, len(frames))
	for i, f := range frames {
		out[i] = seqOf(f)
	}
	return out
}

func dropsOf(d []engine.DropCounter, c engine.DropCause) uint64 {
	for _, x := range d {
		if x.Cause == c {
			return x.Packets
		}
	}
	return 0
}

// pacedBacklog holds 20 frames of 1000 bytes (sequence 0-19) in buffer "b"
// and binds a TX vport paced at 8 Mbit/s to it: 1000 bytes per ms, and a
// burst of one 9216-byte max frame, so 9 frames go at once. Returns what
// the TX vport sends.
func pacedBacklog(t *testing.T, fx *fixture) *capture {
	t.Helper()
	fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 100})
	in := fx.mustVport(t, "in", engine.ModeRX)
	fx.mustBind(t, "b", "in")
	frames := seqFrames(0, 20)
	for i, f := range frames {
		frames[i] = append(f, make([]byte, 1000-len(f))...)
	}
	in.in.Receive(frames)
	cfg := inproc(engine.ModeTX)
	cfg.TxRateBps = 8_000_000
	if _, err := fx.e.CreateVport(app, "out", cfg); err != nil {
		t.Fatal(err)
	}
	out := fx.f.port("out")
	fx.mustBind(t, "b", "out")
	return out
}
