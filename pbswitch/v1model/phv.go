// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"sync"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// phv is one packet's headers and metadata, and what the program asked the
// target to do with it (clone, digest, resubmit...). It lives in
// pipeline.Packet.State between ingress and egress.
type phv struct {
	prog  *Program
	slots []uint64 // metadata fields
	hdr   []byte   // headers, packed as on the wire
	valid []bool
	// stackNext is each header stack's next index (its count of valid
	// entries pushed by the parser or push_front).
	stackNext []int
	// vlLen is each header's varbit field's width in bytes (0 for the
	// headers without one).
	vlLen []int

	// The frame being parsed and how far the parser got: the payload is
	// data[pos:].
	data []byte
	pos  int

	// params is the running action's runtime data, by word: the table
	// entry's decoded words (read only) or paramBuf.
	params   []uint64
	paramBuf []uint64
	// slabParams is a slab entry's parameter bytes, as generated code's
	// table lookups take them (pipeline.Table.LookupSlab).
	slabParams [pipeline.SlabParamBytes]byte
	exited     bool // exit() in the running control

	cloneSpec     uint32 // clone session | cloneValid; 0: none
	cloneList     int    // field list preserved by the clone
	resubmitList  int    // -1: none
	recircList    int    // -1: none
	digestList    int    // -1: none (the learn list of generate_digest)
	truncateTo    int    // truncate(): 0 none
	parserErr     bool
	assertFailed  bool
	pktLen        int    // the packet's length as headers are added and removed (egress's packet_length)
	ingressLen    int    // as it entered the pipeline (BMv2's ingress_length): what counters and meters count
	key           []byte // scratch lookup key
	calc          []byte // scratch calculation input
	wideA, wideB  []uint64
	savedForClone []uint64 // metadata saved for an I2E clone's field list
}

const cloneValid = 1 << 31

func (p *Program) newPHV() *phv {
	l := p.layout
	return &phv{prog: p, slots: make([]uint64, l.words), hdr: make([]byte, l.hdrBytes), valid: make([]bool, len(l.headers)), vlLen: make([]int, len(l.headers)),
		stackNext: make([]int, len(l.stacks)), key: make([]byte, p.maxKey), paramBuf: make([]uint64, p.paramWords), calc: make([]byte, 0, 256),
		resubmitList: -1, recircList: -1, digestList: -1}
}

// reset makes s a fresh PHV: every header invalid, every field zero, but
// metadata valid (BMv2 metadata is always valid).
func (s *phv) reset() {
	clear(s.slots)
	clear(s.hdr)
	copy(s.valid, s.prog.layout.initValid)
	clear(s.stackNext)
	clear(s.vlLen)
	s.data, s.pos, s.exited = nil, 0, false
	s.cloneSpec, s.cloneList, s.resubmitList, s.recircList, s.digestList = 0, 0, -1, -1, -1
	s.truncateTo, s.parserErr, s.assertFailed, s.pktLen, s.ingressLen = 0, false, false, 0, 0
}

// copyFrom makes s an exact copy of o (a multicast replica's PHV).
func (s *phv) copyFrom(o *phv) {
	copy(s.slots, o.slots)
	copy(s.hdr, o.hdr)
	copy(s.valid, o.valid)
	copy(s.stackNext, o.stackNext)
	copy(s.vlLen, o.vlLen)
	s.data, s.pos, s.exited = o.data, o.pos, false
	s.cloneSpec, s.cloneList, s.resubmitList, s.recircList, s.digestList = 0, 0, -1, o.recircList, -1
	s.truncateTo, s.parserErr, s.assertFailed, s.pktLen, s.ingressLen = o.truncateTo, o.parserErr, false, o.pktLen, o.ingressLen
}

// Release returns the PHV to its program's pool (pipeline.PacketState).
func (s *phv) Release() {
	s.data = nil
	s.prog.pool.Put(s)
}

var _ pipeline.PacketState = (*phv)(nil)

type phvPool = sync.Pool
