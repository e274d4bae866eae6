// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"errors"
	"io"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// streamQueue is how many messages may wait for a slow controller before
// packet-ins are dropped (and counted).
const streamQueue = 4096

// StreamChannel implements P4Runtime: arbitration, packet-out from the
// primary, digest acks; packet-ins and digest lists go to the primary.
func (s *Server) StreamChannel(stream p4.P4Runtime_StreamChannelServer) error {
	c := &client{out: make(chan *p4.StreamMessageResponse, streamQueue)}
	done := make(chan struct{})
	sendErr := make(chan error, 1)
	go func() {
		for {
			select {
			case m := <-c.out:
				if err := stream.Send(m); err != nil {
					sendErr <- err
					return
				}
			case <-done:
				return
			}
		}
	}()
	defer close(done)
	defer s.arb.leave(c, s.deviceID)
	joined := false
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		select {
		case err := <-sendErr:
			return err
		default:
		}
		switch m := req.GetUpdate().(type) {
		case *p4.StreamMessageRequest_Arbitration:
			a := m.Arbitration
			if err := s.checkDevice(a.GetDeviceId()); err != nil {
				return err
			}
			if err := s.arb.update(c, s.deviceID, a.GetRole().GetName(), a.GetElectionId()); err != nil {
				return err
			}
			joined = true
		case *p4.StreamMessageRequest_Packet:
			if !joined {
				return status.Error(codes.FailedPrecondition, "the first stream message must be an arbitration update")
			}
			s.packetOut(c, m.Packet)
		case *p4.StreamMessageRequest_DigestAck:
			s.digestAck(m.DigestAck)
		default:
			s.streamError(c, codes.Unimplemented, "unsupported stream message", nil)
		}
	}
}

func (s *Server) packetOut(c *client, pkt *p4.PacketOut) {
	if !s.arb.isPrimary(c) {
		s.streamError(c, codes.PermissionDenied, "packet-out from a client that is not primary", pkt)
		return
	}
	meta := make([]pipeline.CtrlMeta, 0, len(pkt.GetMetadata()))
	for _, m := range pkt.GetMetadata() {
		meta = append(meta, pipeline.CtrlMeta{ID: m.GetMetadataId(), Value: m.GetValue()})
	}
	objs, err := s.objects()
	if err != nil {
		s.streamError(c, codes.FailedPrecondition, err.Error(), pkt)
		return
	}
	if err := checkPacketOut(objs.Info, pkt); err != nil {
		s.streamError(c, codes.InvalidArgument, err.Error(), pkt)
		return
	}
	if err := s.dev.PacketOut(pkt.GetPayload(), meta); err != nil {
		s.streamError(c, status.Code(err), err.Error(), pkt)
	}
}

func (s *Server) streamError(c *client, code codes.Code, msg string, pkt *p4.PacketOut) {
	e := &p4.StreamError{CanonicalCode: int32(code), Message: msg}
	if pkt != nil {
		e.Details = &p4.StreamError_PacketOut{PacketOut: &p4.PacketOutError{PacketOut: pkt}}
	}
	s.arb.mu.Lock()
	s.arb.sendLocked(c, &p4.StreamMessageResponse{Update: &p4.StreamMessageResponse_Error{Error: e}})
	s.arb.mu.Unlock()
}

// PacketIn sends a frame that left on the CPU port to the primary client.
func (s *Server) PacketIn(frame []byte, meta []pipeline.CtrlMeta) {
	pi := &p4.PacketIn{Payload: frame}
	for _, m := range meta {
		pi.Metadata = append(pi.Metadata, &p4.PacketMetadata{MetadataId: m.ID, Value: pipeline.Canonical(m.Value)})
	}
	s.arb.toPrimaries(&p4.StreamMessageResponse{Update: &p4.StreamMessageResponse_Packet{Packet: pi}})
}

func (s *Server) sendDigest(l pipeline.DigestList) {
	// The timestamp lets the controller time a report from its making.
	dl := &p4.DigestList{DigestId: l.DigestID, ListId: l.ListID, Timestamp: l.Made.UnixNano()}
	var members []int
	if objs, err := s.objects(); err == nil {
		members = digestMembers(objs.Info, l.DigestID)
	}
	for _, d := range l.Data {
		dl.Data = append(dl.Data, digestData(d, members))
	}
	s.arb.toPrimaries(&p4.StreamMessageResponse{Update: &p4.StreamMessageResponse_Digest{Digest: dl}})
}

// digestMembers gives the bit widths of a digest's struct members, as the
// p4info declares its type (nil when the type is not a struct of bit<W>).
func digestMembers(info *p4info.P4Info, id uint32) []int {
	for _, d := range info.GetDigests() {
		if d.GetPreamble().GetId() != id {
			continue
		}
		st := info.GetTypeInfo().GetStructs()[d.GetTypeSpec().GetStruct().GetName()]
		var widths []int
		for _, m := range st.GetMembers() {
			w := m.GetTypeSpec().GetBitstring().GetBit().GetBitwidth()
			if w == 0 {
				return nil
			}
			widths = append(widths, int(w))
		}
		return widths
	}
	return nil
}

// digestData is one digest message as P4Data: a struct of bitstrings when
// the p4info declares the members (the message holds each member's value
// full-width, one after another), else one bitstring.
func digestData(d []byte, members []int) *p4.P4Data {
	total := 0
	for _, w := range members {
		total += pipeline.Width(w)
	}
	if len(members) == 0 || total != len(d) {
		return &p4.P4Data{Data: &p4.P4Data_Bitstring{Bitstring: d}}
	}
	st := &p4.P4StructLike{}
	for _, w := range members {
		n := pipeline.Width(w)
		st.Members = append(st.Members, &p4.P4Data{Data: &p4.P4Data_Bitstring{Bitstring: pipeline.Canonical(d[:n])}})
		d = d[n:]
	}
	return &p4.P4Data{Data: &p4.P4Data_Struct{Struct: st}}
}

func (s *Server) digestAck(a *p4.DigestListAck) {
	objs, err := s.objects()
	if err != nil {
		return
	}
	if d, ok := objs.Digests[a.GetDigestId()]; ok {
		d.Ack(a.GetListId())
	}
}
