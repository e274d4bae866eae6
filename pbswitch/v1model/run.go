// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// maxResubmits bounds a packet's resubmissions (BMv2 has no bound; a
// program that resubmits forever would wedge the switch).
const maxResubmits = 8

// Ingress parses pk.Frame (behind its packet_out header when it comes from
// the controller), verifies checksums and runs the ingress control. Its
// verdict is left in pk.Meta (EgressSpec, McastGrp, CloneSession,
// Priority) and its headers and metadata in pk.State for egress.
func (p *Program) Ingress(pk *pipeline.Packet) {
	s, ok := pk.State.(*phv)
	var saved []uint64
	recircList := -1
	switch {
	case ok && s.prog == p:
		if pk.Meta.InstanceType == instanceRecirc && s.recircList >= 0 {
			// A recirculated packet keeps its field list's values.
			recircList = s.recircList
			saved = saveList(s, p.fieldLists[recircList], s.savedForClone)
		}
		s.reset() // a packet object reused by its owner keeps its PHV
	default:
		if pk.State != nil {
			pk.State.Release()
		}
		s = p.getPHV()
		pk.State = s
	}
	if pk.PacketOut != nil && p.packetOut != nil {
		pk.Frame = p.packetOut.prepend(pk.Frame, pk.PacketOut)
	}
	instance := uint64(pk.Meta.InstanceType)
	restoreFrom := recircList
	for round := 0; ; round++ {
		s.data, s.pos, s.pktLen, s.ingressLen = pk.Frame, 0, len(pk.Frame), len(pk.Frame)
		s.setStd(p.std.ingressPort, uint64(pk.Meta.IngressPort))
		s.setStd(p.std.instanceType, instance)
		s.setStd(p.std.packetLength, uint64(len(pk.Frame)))
		if round == 0 {
			// BMv2 resets a resubmitted packet's metadata, this timestamp
			// included (a field list may carry it).
			s.setStd(p.std.ingressTS, pk.Meta.IngressUs&p.std.ingressTSMask)
		}
		p.parse(s)
		p.verifyChecksums(s)
		if saved != nil {
			restoreList(s, p.fieldLists[restoreFrom], saved)
			s.resubmitList = -1
		}
		p.runIngress(s)
		if s.resubmitList < 0 || round == maxResubmits {
			break
		}
		restoreFrom = s.resubmitList
		saved = saveList(s, p.fieldLists[restoreFrom], s.savedForClone)
		s.reset()
		instance = instanceResubmit
	}
	if s.digestList >= 0 {
		if b := p.learn[s.digestList]; b != nil {
			b.emit(s)
		}
	}
	m := &pk.Meta
	m.EgressSpec = uint32(s.slots[p.std.egressSpec])
	m.McastGrp = uint16(s.getStd(p.std.mcastGrp))
	m.Priority = uint8(s.getStd(p.std.priority))
	m.CloneSession = 0
	if s.cloneSpec&cloneValid != 0 {
		m.CloneSession = s.cloneSpec &^ cloneValid
		m.CloneIngressPort = m.IngressPort
	}
	if s.truncateTo > 0 {
		m.TruncateTo = s.truncateTo
	}
	if s.assertFailed {
		m.EgressSpec, m.McastGrp, m.CloneSession = pipeline.DropPort, 0, 0
	}
}

// Replicate prepares dst, a copy of src's frame and metadata made by the
// traffic manager: a multicast replica carries src's headers and metadata;
// an ingress-to-egress clone carries the packet as it arrived, parsed
// again, with only the clone's field list of src's metadata (BMv2's
// semantics).
func (p *Program) Replicate(dst, src *pipeline.Packet, kind pipeline.CopyKind) {
	ss, ok := src.State.(*phv)
	if !ok {
		return
	}
	if ss.prog != p {
		// src went through ingress before a push swapped programs: its own
		// program finishes it, so no packet sees half of each.
		ss.prog.Replicate(dst, src, kind)
		return
	}
	d := p.getPHV()
	dst.State = d
	switch kind {
	case pipeline.CopyReplica:
		d.copyFrom(ss)
		d.data = dst.Frame
		return
	case pipeline.CopyEgressClone:
		// The headers as egress left them; metadata reset.
		d.copyFrom(ss)
		d.data = dst.Frame
		p.resetMetadata(d)
	default:
		d.data, d.pos, d.pktLen, d.ingressLen = dst.Frame, 0, len(dst.Frame), len(dst.Frame)
		p.parse(d)
		p.verifyChecksums(d)
	}
	if list := p.fieldLists[ss.cloneList]; list != nil {
		d.savedForClone = saveList(ss, list, d.savedForClone)
		restoreList(d, list, d.savedForClone)
	}
}

// resetMetadata zeroes every metadata field (standard metadata included).
func (p *Program) resetMetadata(s *phv) {
	clear(s.slots)
	for i := range p.layout.headers {
		if h := &p.layout.headers[i]; h.metadata && h.vlOff >= 0 {
			clear(s.hdr[h.vlOff : h.vlOff+p.layout.types[h.typ].vlMax])
			s.vlLen[i] = 0
		}
	}
}

// Egress runs the egress control for one copy of a packet leaving on
// pk.Meta.EgressPort, then deparses it into pk.Frame; false means it is
// dropped. On the CPU port the packet_in header becomes pk.PacketIn.
func (p *Program) Egress(pk *pipeline.Packet) bool {
	s, ok := pk.State.(*phv)
	if !ok {
		return false
	}
	if s.prog != p {
		return s.prog.Egress(pk) // ingress ran on the program before a push
	}
	m := &pk.Meta
	s.setStd(p.std.egressPort, uint64(m.EgressPort))
	s.slots[p.std.egressSpec] = 0
	s.setStd(p.std.instanceType, uint64(m.InstanceType))
	s.setStd(p.std.egressRid, uint64(m.EgressRid))
	// The traffic manager's figures, cut to the program's field widths as
	// BMv2's Field::set cuts them (v1model: 32-bit times, 19-bit depths,
	// 48-bit global timestamps).
	s.setStd(p.std.enqTimestamp, uint64(m.EnqTimestampUs)&p.std.enqTimestampMask)
	s.setStd(p.std.enqQdepth, uint64(m.EnqQdepth)&p.std.enqQdepthMask)
	s.setStd(p.std.deqTimedelta, uint64(m.DeqTimedeltaUs)&p.std.deqTimedeltaMask)
	s.setStd(p.std.deqQdepth, uint64(m.DeqQdepth)&p.std.deqQdepthMask)
	s.setStd(p.std.egressTS, m.EgressUs&p.std.egressTSMask)
	s.setStd(p.std.packetLength, uint64(s.pktLen))
	s.cloneSpec = 0 // ingress's clone was made; egress may ask for its own
	m.EgressClone, m.Recirculate = 0, false
	p.runEgress(s)
	if s.cloneSpec&cloneValid != 0 {
		m.EgressClone = s.cloneSpec &^ cloneValid // cloned even when this copy is dropped, as BMv2 does
	}
	if s.slots[p.std.egressSpec] == pipeline.DropPort || s.assertFailed {
		return false
	}
	m.Recirculate = s.recircList >= 0
	p.updateChecksums(s)
	pk.Frame = p.deparse(s, pk.Frame)
	if t := max(m.TruncateTo, s.truncateTo); t > 0 && t < len(pk.Frame) {
		pk.Frame = pk.Frame[:t]
	}
	if m.EgressPort == p.opts.CPUPort && p.packetIn != nil && s.valid[p.packetIn.hdr] {
		pk.Frame, pk.PacketIn = p.packetIn.split(pk.Frame, pk.PacketIn[:0])
	}
	return true
}

// deparse emits the valid headers in the deparser's order, then the
// payload. When the headers take the bytes the parser consumed, they are
// written over them in place; otherwise into a new frame.
func (p *Program) deparse(s *phv, frame []byte) []byte {
	if p.genDeparse != nil {
		return p.genDeparse(s, frame)
	}
	if p.emitFixed {
		return p.deparseFixed(s, frame)
	}
	return p.deparseAny(s, frame)
}

// deparseFixed is deparse for a deparser of at most 64 headers none of
// which has a varbit field (FlowBuf's, the UPF's): one tight pass finds the
// valid headers and their size, the second copies them.
func (p *Program) deparseFixed(s *phv, frame []byte) []byte {
	var valid [64]uint8
	emit, isValid := p.emit, s.valid
	n, size := 0, 0
	for i := range emit {
		if isValid[emit[i].hdr] {
			valid[n&63] = uint8(i)
			n++
			size += emit[i].bytes
		}
	}
	out, replaced := frame, false
	if size != s.pos {
		out, replaced = p.outFrame(frame, s.pos, size)
	}
	at, hdr := 0, s.hdr
	for _, i := range valid[:n] {
		e := &emit[i]
		at += copy(out[at:], hdr[e.off:e.off+e.bytes])
	}
	if size != s.pos {
		if replaced {
			p.opts.Frames.Put(frame)
		}
		s.data, s.pos = out, size
	}
	return out
}

// outFrame is the frame a deparser whose headers take size bytes, where
// the parser consumed pos (size != pos), writes into: the payload
// (frame[pos:]) moved to start at size within frame itself when the
// program owns its frames and frame's capacity holds the result, else a
// new frame from the allocator with the payload copied, replaced true
// (the caller puts frame back once it has written the headers).
func (p *Program) outFrame(frame []byte, pos, size int) (out []byte, replaced bool) {
	n := size + len(frame) - pos
	if p.ownsFrames && n <= cap(frame) {
		out = frame[:n]
		copy(out[size:], frame[pos:len(frame)]) // copy moves overlapping bytes as memmove does
		return out, false
	}
	out = p.opts.Frames.Get(n)[:n]
	copy(out[size:], frame[pos:])
	return out, true
}

// deparseAny is deparse for any deparser (varbit headers, long orders):
// the reference deparseFixed is tested against.
func (p *Program) deparseAny(s *phv, frame []byte) []byte {
	// The valid headers of the deparser's order, remembered (up to 64) so
	// the emitting pass visits only them.
	var valid [64]uint8
	nValid, size := 0, 0
	for i := range p.emit {
		e := &p.emit[i]
		if !s.valid[e.hdr] {
			continue
		}
		size += e.bytes
		if e.vl != nil {
			size += s.vlLen[e.hdr]
		}
		if nValid < len(valid) && i < 256 {
			valid[nValid] = uint8(i)
		}
		nValid++
	}
	out, replaced := frame, false
	if size != s.pos {
		out, replaced = p.outFrame(frame, s.pos, size)
	}
	if nValid <= len(valid) && len(p.emit) <= 256 {
		at := 0
		for _, i := range valid[:nValid] {
			at = p.emitOne(s, &p.emit[i], out, at)
		}
	} else {
		at := 0
		for i := range p.emit {
			if s.valid[p.emit[i].hdr] {
				at = p.emitOne(s, &p.emit[i], out, at)
			}
		}
	}
	if size != s.pos {
		if replaced {
			p.opts.Frames.Put(frame)
		}
		s.data, s.pos = out, size
	}
	return out
}

// emitOne writes valid header e at byte at of out and returns where the
// next one goes.
func (p *Program) emitOne(s *phv, e *emitHeader, out []byte, at int) int {
	if e.vl != nil {
		e.vl.toWire(s, out, 8*at)
		return at + e.vl.size(s)
	}
	return at + copy(out[at:], s.hdr[e.off:e.off+e.bytes])
}
