// SPDX-License-Identifier: Apache-2.0

package server

import (
	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

// The engine's enums use the proto's numbers, so conversions are casts; an
// unknown proto value reaches the engine unchanged and is rejected there
// with INVALID_ARGUMENT.

func bufferConfigIn(c *pb.BufferConfig) engine.BufferConfig {
	return engine.BufferConfig{
		CapacityBytes:   c.GetCapacityBytes(),
		CapacityPackets: c.GetCapacityPackets(),
		Queue:           engine.QueueType(c.GetQueueType()),
		Overflow:        engine.OverflowPolicy(c.GetOverflow()),
		Priority: engine.PriorityConfig{
			Classes: c.GetPriority().GetClasses(),
			Field:   engine.PriorityField(c.GetPriority().GetField()),
		},
		Arq: engine.ArqConfig{
			Buckets:    c.GetArq().GetBuckets(),
			BucketUs:   c.GetArq().GetBucketUs(),
			MaxResends: c.GetArq().GetMaxResends(),
			Protocol:   engine.ArqProtocol(c.GetArq().GetProtocol()),
		},
	}
}

func bufferConfigOut(c engine.BufferConfig) *pb.BufferConfig {
	out := &pb.BufferConfig{
		CapacityBytes:   c.CapacityBytes,
		CapacityPackets: c.CapacityPackets,
		QueueType:       pb.QueueType(c.Queue),
		Overflow:        pb.OverflowPolicy(c.Overflow),
	}
	switch c.Queue {
	case engine.QueuePriority:
		out.Priority = &pb.PriorityConfig{Classes: c.Priority.Classes, Field: pb.PriorityField(c.Priority.Field)}
	case engine.QueueARQ:
		out.Arq = &pb.ArqConfig{Buckets: c.Arq.Buckets, BucketUs: c.Arq.BucketUs, MaxResends: c.Arq.MaxResends,
			Protocol: pb.ArqProtocol(c.Arq.Protocol)}
	}
	return out
}

func dropsOut(d []engine.DropCounter) []*pb.DropCounter {
	out := make([]*pb.DropCounter, len(d))
	for i, x := range d {
		out[i] = dropOut(x)
	}
	return out
}

func dropOut(x engine.DropCounter) *pb.DropCounter {
	return &pb.DropCounter{Cause: pb.DropCause(x.Cause), Packets: x.Packets, Bytes: x.Bytes}
}

func bufferOut(b engine.BufferInfo) *pb.Buffer {
	s := b.Stats
	return &pb.Buffer{
		BufferId:   b.ID,
		OwnerAppId: b.Owner,
		Config:     bufferConfigOut(b.Config),
		State:      pb.BufferState(b.State),
		VportIds:   b.VportIDs,
		Stats: &pb.BufferStats{
			PacketsIn: s.PacketsIn, BytesIn: s.BytesIn,
			PacketsOut: s.PacketsOut, BytesOut: s.BytesOut,
			Drops:            dropsOut(s.Drops),
			OccupancyPackets: s.OccupancyPackets, OccupancyBytes: s.OccupancyBytes,
			HighWatermarkPackets: s.HighWatermarkPackets, HighWatermarkBytes: s.HighWatermarkBytes,
			OldestPacketAgeNs: uint64(s.OldestPacketAge.Nanoseconds()),
			ArqResent:         s.ArqResent, ArqAcked: s.ArqAcked,
			LastOutPacketId: packetIDOut(s.LastOutPacketID, s.HasLastOutPacketID),
			TriggerArmed:    s.TriggerArmed,
			TriggersFired:   s.TriggersFired, TriggerFailures: s.TriggerFailures,
			Reattached: s.Reattached, ReattachedPackets: s.ReattachedPackets, MissedWhileDown: s.MissedWhileDown,
			SyncAwaits: s.SyncAwaits, SyncAwaitsArrived: s.SyncAwaitsArrived,
			SyncAwaitsExpired: s.SyncAwaitsExpired, SyncAwaitMaxNs: uint64(s.SyncAwaitMax.Nanoseconds()),
			RewoundPackets:      s.Rewound,
			ArqAckedAfterResend: s.ArqAckedAfterResend, ArqSuperseded: s.ArqSuperseded,
			ArqBadStatus: s.ArqBadStatus, ArqNotRadio: s.ArqNotRadio,
		},
	}
}

func vportConfigIn(c *pb.VportConfig) engine.VportConfig {
	out := engine.VportConfig{
		Mode:       engine.VportMode(c.GetMode()),
		SwitchPort: c.GetSwitchPort(),
		TxRateBps:  c.GetTxRateBps(),
		Tag:        c.GetTag(),
	}
	switch b := c.GetBackend().(type) {
	case *pb.VportConfig_LinuxInterface:
		out.Backend = engine.BackendSpec{
			Kind:           engine.BackendLinuxInterface,
			Interface:      b.LinuxInterface.GetInterface(),
			CreateVethPeer: b.LinuxInterface.GetCreateVethPeer(),
			KeepOffloads:   b.LinuxInterface.GetKeepOffloads(),
		}
	case *pb.VportConfig_InProcess:
		out.Backend = engine.BackendSpec{Kind: engine.BackendInProcess, Port: b.InProcess.GetPort()}
	}
	return out
}

func vportConfigOut(c engine.VportConfig) *pb.VportConfig {
	out := &pb.VportConfig{Mode: pb.VportMode(c.Mode), SwitchPort: c.SwitchPort, TxRateBps: c.TxRateBps, Tag: c.Tag}
	switch c.Backend.Kind {
	case engine.BackendLinuxInterface:
		out.Backend = &pb.VportConfig_LinuxInterface{LinuxInterface: &pb.LinuxInterfaceBackend{
			Interface:      c.Backend.Interface,
			CreateVethPeer: c.Backend.CreateVethPeer,
			KeepOffloads:   c.Backend.KeepOffloads,
		}}
	case engine.BackendInProcess:
		out.Backend = &pb.VportConfig_InProcess{InProcess: &pb.InProcessBackend{Port: c.Backend.Port}}
	}
	return out
}

func vportOut(v engine.VportInfo) *pb.Vport {
	s := v.Stats
	return &pb.Vport{
		VportId:    v.ID,
		OwnerAppId: v.Owner,
		Config:     vportConfigOut(v.Config),
		BufferId:   v.BufferID,
		Stats: &pb.VportStats{
			RxPackets: s.RxPackets, RxBytes: s.RxBytes,
			TxPackets: s.TxPackets, TxBytes: s.TxBytes,
			Drops: dropsOut(s.Drops),
		},
	}
}

func packetIDIn(p *pb.PacketId) (engine.PacketID, error) {
	if p == nil {
		return engine.PacketID{}, &engine.Error{Code: engine.InvalidArgument, Msg: "packet_id is required"}
	}
	if p.GetIpv4Id() > 0xffff || p.GetL4Checksum() > 0xffff {
		return engine.PacketID{}, &engine.Error{Code: engine.InvalidArgument, Msg: "packet_id fields are 16 bits"}
	}
	return engine.PacketID{IPv4ID: uint16(p.GetIpv4Id()), L4Checksum: uint16(p.GetL4Checksum())}, nil
}

// packetIDOut is nil (field unset) when ok is false.
func packetIDOut(id engine.PacketID, ok bool) *pb.PacketId {
	if !ok {
		return nil
	}
	return &pb.PacketId{Ipv4Id: uint32(id.IPv4ID), L4Checksum: uint32(id.L4Checksum)}
}

func opIn(o *pb.Operation) engine.Op {
	switch op := o.GetOp().(type) {
	case *pb.Operation_CreateBuffer:
		return engine.Op{CreateBuffer: &engine.CreateBufferOp{ID: op.CreateBuffer.GetBufferId(), Config: bufferConfigIn(op.CreateBuffer.GetConfig())}}
	case *pb.Operation_RemoveBuffer:
		return engine.Op{RemoveBuffer: &engine.RemoveBufferOp{ID: op.RemoveBuffer.GetBufferId(), Discard: op.RemoveBuffer.GetDiscard()}}
	case *pb.Operation_CreateVport:
		return engine.Op{CreateVport: &engine.CreateVportOp{ID: op.CreateVport.GetVportId(), Config: vportConfigIn(op.CreateVport.GetConfig())}}
	case *pb.Operation_RemoveVport:
		return engine.Op{RemoveVport: &engine.RemoveVportOp{ID: op.RemoveVport.GetVportId()}}
	case *pb.Operation_SetVportMode:
		return engine.Op{SetVportMode: setModeIn(op.SetVportMode)}
	case *pb.Operation_Bind:
		return engine.Op{Bind: &engine.BindOp{BufferID: op.Bind.GetBufferId(), VportID: op.Bind.GetVportId()}}
	case *pb.Operation_Unbind:
		return engine.Op{Unbind: &engine.BindOp{BufferID: op.Unbind.GetBufferId(), VportID: op.Unbind.GetVportId()}}
	}
	return engine.Op{} // rejected by the engine as an empty operation
}

func setModeIn(r *pb.SetVportModeRequest) *engine.SetVportModeOp {
	op := &engine.SetVportModeOp{ID: r.GetVportId(), Mode: engine.VportMode(r.GetMode())}
	if r.GetTxRate() != nil {
		bps := r.GetTxRate().GetBps()
		op.TxRateBps = &bps
	}
	return op
}

// setModesIn converts ArmTrigger's modes; their app_id is ignored, as in
// a Batch.
func setModesIn(rs []*pb.SetVportModeRequest) []engine.SetVportModeOp {
	out := make([]engine.SetVportModeOp, len(rs))
	for i, r := range rs {
		out[i] = *setModeIn(r)
	}
	return out
}

// triggerFireOut converts a trigger's newest fire; nil (never fired) stays unset.
func triggerFireOut(f *engine.TriggerFire) *pb.TriggerFire {
	if f == nil {
		return nil
	}
	return &pb.TriggerFire{ModesSet: f.ModesSet, ReportSync: pb.ReportSync(f.Report),
		PurgedPackets: f.PurgedPackets}
}

func opResultOut(r engine.OpResult, op engine.Op) *pb.OperationResult {
	switch {
	case r.Buffer != nil:
		return &pb.OperationResult{Result: &pb.OperationResult_Buffer{Buffer: bufferOut(*r.Buffer)}}
	case r.Vport != nil:
		return &pb.OperationResult{Result: &pb.OperationResult_Vport{Vport: vportOut(*r.Vport)}}
	case op.RemoveBuffer != nil:
		return &pb.OperationResult{Result: &pb.OperationResult_RemoveBuffer{RemoveBuffer: &pb.RemoveBufferResponse{DiscardedPackets: r.Discarded}}}
	default:
		return &pb.OperationResult{Result: &pb.OperationResult_RemoveVport{RemoveVport: &pb.RemoveVportResponse{}}}
	}
}

func ruleIn(r *pb.EventRule) engine.EventRule {
	return engine.EventRule{
		RuleID:           r.GetRuleId(),
		BufferID:         r.GetBufferId(),
		Kind:             engine.EventKind(r.GetKind()),
		ThresholdPackets: r.GetThresholdPackets(),
		ThresholdBytes:   r.GetThresholdBytes(),
		Marker: engine.MarkerMatch{
			Offset: r.GetMarker().GetOffset(),
			Value:  r.GetMarker().GetValue(),
			Mask:   r.GetMarker().GetMask(),
		},
	}
}

func eventOut(e engine.Event) *pb.Event {
	out := &pb.Event{
		RuleId:           e.RuleID,
		BufferId:         e.BufferID,
		Kind:             pb.EventKind(e.Kind),
		TimestampNs:      e.Time.UnixNano(),
		OccupancyPackets: e.OccupancyPackets,
		OccupancyBytes:   e.OccupancyBytes,
	}
	switch e.Kind {
	case engine.EventDropped:
		out.Dropped = dropOut(e.Dropped)
	case engine.EventStateChanged:
		out.State = pb.BufferState(e.State)
	case engine.EventMarkerSeen:
		out.PacketId = packetIDOut(e.PacketID, e.HasPacketID)
	}
	return out
}
