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
	switch kind % handlerKinds {
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
	case 11:
		r := &pb.QueryBufferRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.QueryBuffer(ctx, r)
		return err, true
	case 12:
		r := &pb.QueryVportRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.QueryVport(ctx, r)
		return err, true
	case 13:
		r := &pb.ListBuffersRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.ListBuffers(ctx, r)
		return err, true
	case 14:
		r := &pb.ListVportsRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.ListVports(ctx, r)
		return err, true
	default:
		r := &pb.GetCapabilitiesRequest{}
		if !decode(r) {
			return nil, false
		}
		_, err := s.GetCapabilities(ctx, r)
		return err, true
	}
}

// handlerKinds is the number of handlers handle dispatches to; kinds from
// readOnlyKinds on only read.
const (
	handlerKinds  = 16
	readOnlyKinds = 11
)

func seed(f *testing.F, kind uint8, m proto.Message) {
	b, err := proto.Marshal(m)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(kind, b)
}

// FuzzRequestHandlers feeds arbitrary requests to every unary handler: no
// panic, only codes of the API's error model, a failed call or a query
// leaves every object as it was. Each input starts from the populated
// agent (a call that changed it is followed by a fresh one), so a corpus
// entry replays alone. Seeds: below and testdata/fuzz/FuzzRequestHandlers.
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
	seed(f, 12, &pb.QueryVportRequest{AppId: appA, VportId: "vtheirs"})
	seed(f, 13, &pb.ListBuffersRequest{AppId: appA})
	seed(f, 14, &pb.ListVportsRequest{})
	seed(f, 15, &pb.GetCapabilitiesRequest{AppId: appA})
	e, stop := startEnv(f)
	defer func() { stop() }()
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
		unchanged := sameSnapshot(before, e.snapshot(t))
		if code != codes.OK && !unchanged {
			t.Fatalf("failed call (%v) changed state", err)
		}
		if kind%handlerKinds >= readOnlyKinds && !unchanged {
			t.Fatalf("a query (kind %d) changed state", kind%handlerKinds)
		}
		if !unchanged {
			stop()
			e, stop = startEnv(t)
		}
	})
}
