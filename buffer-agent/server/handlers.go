// SPDX-License-Identifier: Apache-2.0

package server

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

// GetCapabilities reports the engine's limits and the caller's quota.
func (s *Server) GetCapabilities(_ context.Context, r *pb.GetCapabilitiesRequest) (*pb.Capabilities, error) {
	c, err := s.eng.Capabilities(r.GetAppId())
	if err != nil {
		return nil, s.toStatus("GetCapabilities", err)
	}
	out := &pb.Capabilities{
		ApiVersion:        APIVersion,
		AgentVersion:      s.opts.AgentVersion,
		PoolBytes:         c.Limits.PoolBytes,
		MaxBufferBytes:    c.Limits.MaxBufferBytes,
		MaxBufferPackets:  c.Limits.MaxBufferPackets,
		MaxBuffers:        c.Limits.MaxBuffers,
		MaxVports:         c.Limits.MaxVports,
		MaxFrameBytes:     c.Limits.MaxFrameBytes,
		MaxTagsPerBackend: c.Limits.MaxTagsPerBackend,
		Quota:             &pb.Quota{MaxBytes: c.Quota.MaxBytes, MaxBuffers: c.Quota.MaxBuffers, MaxVports: c.Quota.MaxVports},
		Mtls:              s.opts.MTLS,
	}
	for _, q := range c.Queues {
		out.QueueTypes = append(out.QueueTypes, pb.QueueType(q))
	}
	for _, k := range c.Backends {
		out.VportBackends = append(out.VportBackends, pb.VportBackendKind(k))
	}
	return out, nil
}

// CreateBuffer creates (or idempotently re-creates) a buffer.
func (s *Server) CreateBuffer(_ context.Context, r *pb.CreateBufferRequest) (*pb.Buffer, error) {
	b, err := s.eng.CreateBuffer(r.GetAppId(), r.GetBufferId(), bufferConfigIn(r.GetConfig()))
	if err != nil {
		return nil, s.toStatus("CreateBuffer", err)
	}
	return bufferOut(b), nil
}

// RemoveBuffer removes an unbound buffer.
func (s *Server) RemoveBuffer(_ context.Context, r *pb.RemoveBufferRequest) (*pb.RemoveBufferResponse, error) {
	n, err := s.eng.RemoveBuffer(r.GetAppId(), r.GetBufferId(), r.GetDiscard())
	if err != nil {
		return nil, s.toStatus("RemoveBuffer", err)
	}
	return &pb.RemoveBufferResponse{DiscardedPackets: n}, nil
}

// QueryBuffer returns one buffer.
func (s *Server) QueryBuffer(_ context.Context, r *pb.QueryBufferRequest) (*pb.Buffer, error) {
	b, err := s.eng.QueryBuffer(r.GetAppId(), r.GetBufferId())
	if err != nil {
		return nil, s.toStatus("QueryBuffer", err)
	}
	return bufferOut(b), nil
}

// ListBuffers returns the caller's buffers.
func (s *Server) ListBuffers(_ context.Context, r *pb.ListBuffersRequest) (*pb.ListBuffersResponse, error) {
	l, err := s.eng.ListBuffers(r.GetAppId())
	if err != nil {
		return nil, s.toStatus("ListBuffers", err)
	}
	out := &pb.ListBuffersResponse{Buffers: make([]*pb.Buffer, len(l))}
	for i, b := range l {
		out.Buffers[i] = bufferOut(b)
	}
	return out, nil
}

// CreateVport creates a vport and opens its backend.
func (s *Server) CreateVport(_ context.Context, r *pb.CreateVportRequest) (*pb.Vport, error) {
	v, err := s.eng.CreateVport(r.GetAppId(), r.GetVportId(), vportConfigIn(r.GetConfig()))
	if err != nil {
		return nil, s.toStatus("CreateVport", err)
	}
	return vportOut(v), nil
}

// RemoveVport removes an unbound vport.
func (s *Server) RemoveVport(_ context.Context, r *pb.RemoveVportRequest) (*pb.RemoveVportResponse, error) {
	if err := s.eng.RemoveVport(r.GetAppId(), r.GetVportId()); err != nil {
		return nil, s.toStatus("RemoveVport", err)
	}
	return &pb.RemoveVportResponse{}, nil
}

// SetVportMode changes a vport's mode and optionally its TX rate.
func (s *Server) SetVportMode(_ context.Context, r *pb.SetVportModeRequest) (*pb.Vport, error) {
	op := setModeIn(r)
	v, err := s.eng.SetVportMode(r.GetAppId(), op.ID, op.Mode, op.TxRateBps)
	if err != nil {
		return nil, s.toStatus("SetVportMode", err)
	}
	return vportOut(v), nil
}

// QueryVport returns one vport.
func (s *Server) QueryVport(_ context.Context, r *pb.QueryVportRequest) (*pb.Vport, error) {
	v, err := s.eng.QueryVport(r.GetAppId(), r.GetVportId())
	if err != nil {
		return nil, s.toStatus("QueryVport", err)
	}
	return vportOut(v), nil
}

// ListVports returns the caller's vports.
func (s *Server) ListVports(_ context.Context, r *pb.ListVportsRequest) (*pb.ListVportsResponse, error) {
	l, err := s.eng.ListVports(r.GetAppId())
	if err != nil {
		return nil, s.toStatus("ListVports", err)
	}
	out := &pb.ListVportsResponse{Vports: make([]*pb.Vport, len(l))}
	for i, v := range l {
		out.Vports[i] = vportOut(v)
	}
	return out, nil
}

// Bind binds a vport to a buffer.
func (s *Server) Bind(_ context.Context, r *pb.BindRequest) (*pb.BindResponse, error) {
	b, err := s.eng.Bind(r.GetAppId(), r.GetBufferId(), r.GetVportId())
	if err != nil {
		return nil, s.toStatus("Bind", err)
	}
	return &pb.BindResponse{Buffer: bufferOut(b)}, nil
}

// Unbind unbinds a vport from a buffer.
func (s *Server) Unbind(_ context.Context, r *pb.UnbindRequest) (*pb.UnbindResponse, error) {
	b, err := s.eng.Unbind(r.GetAppId(), r.GetBufferId(), r.GetVportId())
	if err != nil {
		return nil, s.toStatus("Unbind", err)
	}
	return &pb.UnbindResponse{Buffer: bufferOut(b)}, nil
}

// Batch applies operations atomically.
func (s *Server) Batch(_ context.Context, r *pb.BatchRequest) (*pb.BatchResponse, error) {
	ops := make([]engine.Op, len(r.GetOperations()))
	for i, o := range r.GetOperations() {
		ops[i] = opIn(o)
	}
	res, err := s.eng.Batch(r.GetAppId(), ops)
	if err != nil {
		return nil, s.toStatus("Batch", err)
	}
	out := &pb.BatchResponse{Results: make([]*pb.OperationResult, len(res))}
	for i, x := range res {
		out.Results[i] = opResultOut(x, ops[i])
	}
	return out, nil
}

// PurgeUpTo drops held packets up to a packet id.
func (s *Server) PurgeUpTo(_ context.Context, r *pb.PurgeUpToRequest) (*pb.PurgeUpToResponse, error) {
	id, err := packetIDIn(r.GetPacketId())
	if err != nil {
		return nil, s.toStatus("PurgeUpTo", err)
	}
	purge := s.eng.PurgeUpTo
	if r.GetAwaitArrival() {
		purge = s.eng.PurgeToSyncPoint
	}
	res, err := purge(r.GetAppId(), r.GetBufferId(), id, r.GetInclusive())
	if err != nil {
		return nil, s.toStatus("PurgeUpTo", err)
	}
	return &pb.PurgeUpToResponse{Found: res.Found, PurgedPackets: res.PurgedPackets, PurgedBytes: res.PurgedBytes,
		Awaiting: res.Awaiting}, nil
}

// Ack acknowledges ARQ packets.
func (s *Server) Ack(_ context.Context, r *pb.AckRequest) (*pb.AckResponse, error) {
	ids := make([]engine.PacketID, len(r.GetPacketIds()))
	for i, p := range r.GetPacketIds() {
		id, err := packetIDIn(p)
		if err != nil {
			return nil, s.toStatus("Ack", err)
		}
		ids[i] = id
	}
	n, err := s.eng.Ack(r.GetAppId(), r.GetBufferId(), ids)
	if err != nil {
		return nil, s.toStatus("Ack", err)
	}
	return &pb.AckResponse{Acked: n}, nil
}

// ArmTrigger arms (or, with no modes, disarms) a buffer's one-shot
// trigger, and reports its newest fire.
func (s *Server) ArmTrigger(_ context.Context, r *pb.ArmTriggerRequest) (*pb.ArmTriggerResponse, error) {
	res, err := s.eng.ArmTrigger(r.GetAppId(), r.GetBufferId(), setModesIn(r.GetSetVportModes()),
		r.GetPurgeToReport())
	if err != nil {
		return nil, s.toStatus("ArmTrigger", err)
	}
	return &pb.ArmTriggerResponse{WasArmed: res.WasArmed, LastFire: triggerFireOut(res.LastFire)}, nil
}

// Subscribe streams events until the client cancels or the engine closes.
func (s *Server) Subscribe(r *pb.SubscribeRequest, stream grpc.ServerStreamingServer[pb.Event]) error {
	rules := make([]engine.EventRule, len(r.GetRules()))
	for i, x := range r.GetRules() {
		rules[i] = ruleIn(x)
	}
	sub, err := s.eng.Subscribe(r.GetAppId(), rules)
	if err != nil {
		return s.toStatus("Subscribe", err)
	}
	defer sub.Close()
	// Headers tell the client that its rules are live: events of changes
	// made after stream.Header() returns are not missed.
	if err := stream.SendHeader(metadata.MD{}); err != nil {
		return err
	}
	ctx := stream.Context()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-sub.Events():
			if !ok {
				return nil
			}
			if err := stream.Send(eventOut(ev)); err != nil {
				return err
			}
		}
	}
}
