// SPDX-License-Identifier: Apache-2.0

package server_test

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

var allowedCodes = map[codes.Code]bool{
	codes.OK: true, codes.InvalidArgument: true, codes.NotFound: true, codes.AlreadyExists: true,
	codes.PermissionDenied: true, codes.FailedPrecondition: true, codes.ResourceExhausted: true,
	codes.Unimplemented: true,
}

// handle decodes data as the request of handler kind%n and calls it.
func handle(e *env, kind uint8, data []byte) (error, bool) {
	ctx := context.Background()
	s := e.srv
	decode := func(m proto.Message) bool { return proto.Unmarshal(data, m) == nil }
	switch kind % 12 {
	case 0:
		r := &pb.CreateBufferRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.CreateBuffer(ctx, r)
		return err, true
	case 1:
		r := &pb.RemoveBufferRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.RemoveBuffer(ctx, r)
		return err, true
	case 2:
		r := &pb.CreateVportRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.CreateVport(ctx, r)
		return err, true
	case 3:
		r := &pb.RemoveVportRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.RemoveVport(ctx, r)
		return err, true
	case 4:
		r := &pb.SetVportModeRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.SetVportMode(ctx, r)
		return err, true
	case 5:
		r := &pb.BindRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.Bind(ctx, r)
		return err, true
	case 6:
		r := &pb.UnbindRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.Unbind(ctx, r)
		return err, true
	case 7:
		r := &pb.BatchRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.Batch(ctx, r)
		return err, true
	case 8:
		r := &pb.PurgeUpToRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.PurgeUpTo(ctx, r)
		return err, true
	case 9:
		r := &pb.AckRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.Ack(ctx, r)
		return err, true
	case 10:
		r := &pb.ArmTriggerRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.ArmTrigger(ctx, r)
		return err, true
	default:
		r := &pb.QueryBufferRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.QueryBuffer(ctx, r)
		return err, true
	}
}

func seed(f *testing.F, kind uint8, m proto.Message) {
	b, err := proto.Marshal(m)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(kind, b)
}

// FuzzRequestHandlers feeds arbitrary requests to every mutating handler:
// no panic, only codes of the API's error model, and a failed call leaves
// every object as it was.
func FuzzRequestHandlers(f *testing.F) {
	seed(f, 0, &pb.CreateBufferRequest{AppId: appA, BufferId: "n", Config: fifo(4)})
	seed(f, 1, &pb.RemoveBufferRequest{AppId: appA, BufferId: "held", Discard: true})
	seed(f, 2, &pb.CreateVportRequest{AppId: appA, VportId: "nv", Config: inproc(pb.VportMode_VPORT_MODE_TX, 77)})
	seed(f, 3, &pb.RemoveVportRequest{AppId: appA, VportId: "vfree"})
	seed(f, 4, &pb.SetVportModeRequest{AppId: appA, VportId: "vb", Mode: pb.VportMode_VPORT_MODE_RX_TX, TxRate: &pb.TxRate{Bps: 1e6}})
	seed(f, 5, &pb.BindRequest{AppId: appA, BufferId: "held", VportId: "vfree"})
	seed(f, 6, &pb.UnbindRequest{AppId: appA, BufferId: "bound", VportId: "vb"})
	seed(f, 7, &pb.BatchRequest{AppId: appA, Operations: []*pb.Operation{opCreateBuffer("x", fifo(2)), opBind("x", "vfree")}})
	seed(f, 8, &pb.PurgeUpToRequest{AppId: appA, BufferId: "held", PacketId: &pb.PacketId{Ipv4Id: 2, L4Checksum: 2}})
	seed(f, 9, &pb.AckRequest{AppId: appA, BufferId: "arq", PacketIds: []*pb.PacketId{{Ipv4Id: 1}}})
	seed(f, 10, &pb.ArmTriggerRequest{AppId: appA, BufferId: "bound", SetVportModes: []*pb.SetVportModeRequest{
		{VportId: "vfree", Mode: pb.VportMode_VPORT_MODE_TX}}})
	seed(f, 11, &pb.QueryBufferRequest{AppId: appB, BufferId: "theirs"})
	e := newEnv(f)
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		before := e.snapshot(t)
		err, ok := handle(e, kind, data)
		if !ok {
			return
		}
		code := status.Code(err)
		if !allowedCodes[code] {
			t.Fatalf("code %v outside the error model: %v", code, err)
		}
		if code != codes.OK && !sameSnapshot(before, e.snapshot(t)) {
			t.Fatalf("failed call (%v) changed state", err)
		}
	})
}
