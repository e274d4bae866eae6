// SPDX-License-Identifier: Apache-2.0

// Package inproc hosts FlowBuf buffers inside pbswitch: some switch ports
// are vport ports whose far end is the buffer engine, in the same process.
// Frames move between the switch and the engine by ownership, never copied:
// the switch's egress hands the frames it sends out of a vport port to the
// engine (Ingress.Receive), and the engine's replay (Backend.Transmit)
// hands them to the switch's ingress on the same port.
//
// Vports implements engine.BackendFactory for IN_PROCESS vports, so that
// buffer-agent/server serves the usual southbound buffer API over it and a
// controller cannot tell pbswitch from a switch with an external agent.
package inproc

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

// Vports are the in-process vport ports of one switch.
type Vports struct {
	sw    *dataplane.Switch
	mu    sync.Mutex // serialises Open/Close
	slots map[uint32]*slot
}

// slot is one vport port: the engine ingress of the vport open on it.
type slot struct {
	port   uint32
	owner  string // vport id, "" when free
	in     atomic.Pointer[ingressBox]
	unused atomic.Uint64 // frames sent to the port while no vport was open
}

type ingressBox struct{ in engine.Ingress }

// New adds ports to sw as vport ports.
func New(sw *dataplane.Switch, ports []uint32) (*Vports, error) {
	v := &Vports{sw: sw, slots: map[uint32]*slot{}}
	for _, p := range ports {
		s := &slot{port: p}
		if err := sw.AddPort(p, s, 0, nil); err != nil {
			return nil, fmt.Errorf("vport port %d: %w", p, err)
		}
		v.slots[p] = s
	}
	return v, nil
}

// Ports lists the vport ports in order.
func (v *Vports) Ports() []uint32 {
	out := make([]uint32, 0, len(v.slots))
	for p := range v.slots {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Unused is the number of frames the switch sent to vport ports that had
// no vport open (dropped).
func (v *Vports) Unused() uint64 {
	var n uint64
	for _, s := range v.slots {
		n += s.unused.Load()
	}
	return n
}

// Send implements dataplane.Sink: the frames go to the open vport's
// buffer, or are dropped and counted when none is open.
func (s *slot) Send(frames [][]byte) error {
	box := s.in.Load()
	if box == nil {
		s.unused.Add(uint64(len(frames)))
		engine.PutFrames(frames)
		return nil
	}
	box.in.Receive(frames)
	return nil
}

// Open implements engine.BackendFactory for IN_PROCESS vports.
func (v *Vports) Open(vportID string, spec engine.BackendSpec, in engine.Ingress) (engine.Backend, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	s, ok := v.slots[spec.Port]
	if !ok {
		return nil, &engine.Error{Code: engine.InvalidArgument,
			Msg: fmt.Sprintf("port %d is not an in-process vport port of this switch (vport ports: %v)", spec.Port, v.Ports())}
	}
	if s.owner != "" {
		return nil, &engine.Error{Code: engine.InvalidArgument,
			Msg: fmt.Sprintf("vport port %d already carries vport %q", spec.Port, s.owner)}
	}
	s.owner = vportID
	s.in.Store(&ingressBox{in: in})
	return &backend{v: v, s: s}, nil
}

// backend is one open in-process vport.
type backend struct {
	v *Vports
	s *slot
}

// Transmit implements engine.Transmitter: the buffer's frames enter the
// switch's ingress on the vport port. A replay waits for room in the out
// port's queue rather than losing what the buffer held.
func (b *backend) Transmit(frames [][]byte) error {
	b.v.sw.ReceiveLossless(b.s.port, frames)
	return nil
}

// Close implements engine.Backend: the port stops delivering to the engine.
func (b *backend) Close() error {
	b.v.mu.Lock()
	defer b.v.mu.Unlock()
	b.s.in.Store(nil)
	b.s.owner = ""
	return nil
}
