// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
)

// A tagged vport is a logical vport: several of them share one backend
// (one Linux interface, one pbswitch port), each with its own non-zero tag.
// The switch pipeline pushes the buffer tag header on what it sends into a
// shared backend (steer_to_buffer in pipeconf/p4src/include/steering.p4):
//
//	dst MAC, src MAC, 0x88b5, tag (4 bytes), original ethertype, payload
//
// The shared backend hands each frame, with the tag stripped, to the vport
// of its tag; a frame without the header or with a tag no vport has is
// dropped and counted on the backend. Replays leave untagged.
const (
	// EtherTypeBufferTag is ETHERTYPE_BUFFER_TAG of include/defines.p4.
	EtherTypeBufferTag = 0x88b5
	bufferTagBytes     = 6  // the tag and the original ethertype
	taggedHeaderBytes  = 20 // Ethernet + the buffer tag header
	// MaxTag is the largest tag a vport may have. Tags keep their high
	// byte 0: 0x88b5 is also the ARQ status frames' ethertype (the other
	// IEEE local experimental one is congestion notification's), and their
	// magic "FBAK" where a tag would be is then never a tag.
	MaxTag = 1<<24 - 1
)

// sharedKey names a backend target that tagged vports share.
type sharedKey struct {
	kind  BackendKind
	iface string
	port  uint32
}

func sharedKeyOf(spec BackendSpec) sharedKey {
	if spec.Kind == BackendInProcess {
		return sharedKey{kind: spec.Kind, port: spec.Port}
	}
	return sharedKey{kind: spec.Kind, iface: spec.Interface}
}

func (k sharedKey) String() string {
	if k.kind == BackendInProcess {
		return fmt.Sprintf("in-process port %d", k.port)
	}
	return fmt.Sprintf("interface %s", k.iface)
}

// sharedBackend is one backend and the tagged vports it carries. It is the
// backend's Ingress: it demultiplexes by tag.
type sharedBackend struct {
	e    *Engine
	key  sharedKey
	spec BackendSpec // of the first vport; every other one must equal it
	be   Backend

	// mu guards tags; Receive holds it shared while it delivers, so a
	// removed vport gets no frame once its Close returns.
	mu   sync.RWMutex
	tags map[uint32]*vport

	untagged, unknownTag struct{ packets, bytes atomic.Uint64 }
}

// SharedBackendInfo is a snapshot of a backend shared by tagged vports.
type SharedBackendInfo struct {
	Target string // "interface fbv1", "in-process port 10"
	Vports int
	// UntaggedPackets came without a buffer tag header (or too short to
	// carry one), UnknownTagPackets with a tag no vport has: both dropped.
	UntaggedPackets, UntaggedBytes     uint64
	UnknownTagPackets, UnknownTagBytes uint64
}

// Receive implements Ingress: each frame goes, stripped of its tag, to the
// vport of its tag; consecutive frames of one vport go in one call, so each
// vport (each buffer) sees its frames in their order. The caller's outer
// slice is reused in place as the batch of each run.
func (s *sharedBackend) Receive(frames [][]byte) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var cur *vport
	start, w := 0, 0
	for _, f := range frames {
		v := s.route(f)
		if v == nil {
			continue
		}
		if v != cur {
			if w > start {
				cur.Receive(frames[start:w])
			}
			cur, start = v, w
		}
		frames[w] = stripTag(f)
		w++
	}
	if w > start {
		cur.Receive(frames[start:w])
	}
}

// route finds the vport of a tagged frame, or drops and counts the frame.
func (s *sharedBackend) route(f []byte) *vport {
	n := uint64(len(f))
	if len(f) < taggedHeaderBytes || binary.BigEndian.Uint16(f[12:14]) != EtherTypeBufferTag {
		s.untagged.packets.Add(1)
		s.untagged.bytes.Add(n)
		PutFrame(f)
		return nil
	}
	tag := binary.BigEndian.Uint32(f[14:18])
	if tag == 0 || tag > MaxTag {
		s.untagged.packets.Add(1) // e.g. an ARQ status frame forwarded here
		s.untagged.bytes.Add(n)
		PutFrame(f)
		return nil
	}
	v := s.tags[tag]
	if v == nil {
		s.unknownTag.packets.Add(1)
		s.unknownTag.bytes.Add(n)
		PutFrame(f)
		return nil
	}
	return v
}

// stripTag removes the buffer tag header in place: the original ethertype
// takes the place of 0x88b5 and the payload moves up. The slice keeps its
// capacity, so the frame goes back to its pool class later.
func stripTag(f []byte) []byte {
	copy(f[12:], f[12+bufferTagBytes:])
	return f[:len(f)-bufferTagBytes]
}

func (s *sharedBackend) add(tag uint32, v *vport) {
	s.mu.Lock()
	s.tags[tag] = v
	s.mu.Unlock()
}

// remove forgets tag and reports how many vports are left.
func (s *sharedBackend) remove(tag uint32) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tags, tag)
	return len(s.tags)
}

func (s *sharedBackend) info() SharedBackendInfo {
	s.mu.RLock()
	n := len(s.tags)
	s.mu.RUnlock()
	return SharedBackendInfo{
		Target: s.key.String(), Vports: n,
		UntaggedPackets: s.untagged.packets.Load(), UntaggedBytes: s.untagged.bytes.Load(),
		UnknownTagPackets: s.unknownTag.packets.Load(), UnknownTagBytes: s.unknownTag.bytes.Load(),
	}
}

// tagHandle is a tagged vport's Backend: its replays go out of the shared
// backend as they are (untagged); Close removes the tag and closes the
// shared backend with its last vport.
type tagHandle struct {
	s   *sharedBackend
	tag uint32
}

// Transmit is called by several buffers at once (one per tagged vport);
// both backend kinds take concurrent calls (the socket and the switch
// ingress serialise what they must).
func (h *tagHandle) Transmit(frames [][]byte) error {
	return h.s.be.Transmit(frames)
}

// Close runs under Engine.mu (a commit or an undo of a plan).
func (h *tagHandle) Close() error {
	if h.s.remove(h.tag) > 0 {
		return nil
	}
	if h.s.e.shared[h.s.key] == h.s {
		delete(h.s.e.shared, h.s.key)
	}
	return h.s.be.Close()
}

// openTagged gives v a handle on the shared backend of its target, opening
// that backend with open when no vport has it yet. The caller holds
// Engine.mu.
func (e *Engine) openTagged(v *vport, open func(string, BackendSpec, Ingress) (Backend, error)) (Backend, error) {
	key := sharedKeyOf(v.cfg.Backend)
	s := e.shared[key]
	if s == nil {
		s = &sharedBackend{e: e, key: key, spec: v.cfg.Backend, tags: map[uint32]*vport{}}
		be, err := open("shared:"+key.String(), v.cfg.Backend, s)
		if err != nil {
			return nil, err
		}
		s.be = be
		e.shared[key] = s
	}
	s.add(v.cfg.Tag, v)
	return &tagHandle{s: s, tag: v.cfg.Tag}, nil
}

// SharedBackends lists the backends that tagged vports share.
func (e *Engine) SharedBackends() []SharedBackendInfo {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]SharedBackendInfo, 0, len(e.shared))
	for _, s := range e.shared {
		out = append(out, s.info())
	}
	return out
}
