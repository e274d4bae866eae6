// SPDX-License-Identifier: Apache-2.0

package server_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

type call func(ctx context.Context, c pb.BufferAgentClient) error

type badCase struct {
	name string
	call call
	want codes.Code
}

func fifo(packets uint64) *pb.BufferConfig { return &pb.BufferConfig{CapacityPackets: packets} }

func inproc(mode pb.VportMode, port uint32) *pb.VportConfig {
	return &pb.VportConfig{Mode: mode, Backend: &pb.VportConfig_InProcess{InProcess: &pb.InProcessBackend{Port: port}}}
}

func linux(name string) *pb.VportConfig {
	return &pb.VportConfig{Mode: pb.VportMode_VPORT_MODE_RX,
		Backend: &pb.VportConfig_LinuxInterface{LinuxInterface: &pb.LinuxInterfaceBackend{Interface: name}}}
}

func createBuffer(app, id string, cfg *pb.BufferConfig) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.CreateBuffer(ctx, &pb.CreateBufferRequest{AppId: app, BufferId: id, Config: cfg})
		return err
	}
}

func removeBuffer(app, id string, discard bool) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.RemoveBuffer(ctx, &pb.RemoveBufferRequest{AppId: app, BufferId: id, Discard: discard})
		return err
	}
}

func queryBuffer(app, id string) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.QueryBuffer(ctx, &pb.QueryBufferRequest{AppId: app, BufferId: id})
		return err
	}
}

func createVport(app, id string, cfg *pb.VportConfig) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.CreateVport(ctx, &pb.CreateVportRequest{AppId: app, VportId: id, Config: cfg})
		return err
	}
}

func removeVport(app, id string) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.RemoveVport(ctx, &pb.RemoveVportRequest{AppId: app, VportId: id})
		return err
	}
}

func setMode(app, id string, m pb.VportMode) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.SetVportMode(ctx, &pb.SetVportModeRequest{AppId: app, VportId: id, Mode: m})
		return err
	}
}

func queryVport(app, id string) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.QueryVport(ctx, &pb.QueryVportRequest{AppId: app, VportId: id})
		return err
	}
}

func bind(app, b, v string) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.Bind(ctx, &pb.BindRequest{AppId: app, BufferId: b, VportId: v})
		return err
	}
}

func unbind(app, b, v string) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.Unbind(ctx, &pb.UnbindRequest{AppId: app, BufferId: b, VportId: v})
		return err
	}
}

func batch(app string, ops ...*pb.Operation) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.Batch(ctx, &pb.BatchRequest{AppId: app, Operations: ops})
		return err
	}
}

func purge(app, b string, id *pb.PacketId) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.PurgeUpTo(ctx, &pb.PurgeUpToRequest{AppId: app, BufferId: b, PacketId: id})
		return err
	}
}

func ack(app, b string, ids ...*pb.PacketId) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.Ack(ctx, &pb.AckRequest{AppId: app, BufferId: b, PacketIds: ids})
		return err
	}
}

func subscribe(app string, rules ...*pb.EventRule) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		s, err := c.Subscribe(ctx, &pb.SubscribeRequest{AppId: app, Rules: rules})
		if err != nil {
			return err
		}
		_, err = s.Recv() // a rejected subscription fails on its first receive
		return err
	}
}

func armTrigger(app, b string, modes ...*pb.SetVportModeRequest) call {
	return armPurging(app, b, "", modes...)
}

// armPurging arms b to purge buffer purge to the trigger packet's report.
func armPurging(app, b, purge string, modes ...*pb.SetVportModeRequest) call {
	return func(ctx context.Context, c pb.BufferAgentClient) error {
		_, err := c.ArmTrigger(ctx, &pb.ArmTriggerRequest{AppId: app, BufferId: b, SetVportModes: modes,
			PurgeToReport: purge})
		return err
	}
}

func modeReq(v string, m pb.VportMode) *pb.SetVportModeRequest {
	return &pb.SetVportModeRequest{VportId: v, Mode: m}
}

func opCreateBuffer(id string, cfg *pb.BufferConfig) *pb.Operation {
	return &pb.Operation{Op: &pb.Operation_CreateBuffer{CreateBuffer: &pb.CreateBufferRequest{BufferId: id, Config: cfg}}}
}

func opBind(b, v string) *pb.Operation {
	return &pb.Operation{Op: &pb.Operation_Bind{Bind: &pb.BindRequest{BufferId: b, VportId: v}}}
}

func badCases() []badCase {
	const (
		inv  = codes.InvalidArgument
		nf   = codes.NotFound
		ae   = codes.AlreadyExists
		pd   = codes.PermissionDenied
		fp   = codes.FailedPrecondition
		re   = codes.ResourceExhausted
		unim = codes.Unimplemented
	)
	huge := uint64(1) << 40
	long := strings.Repeat("x", 65)
	manyOps := make([]*pb.Operation, 257)
	manyModes := make([]*pb.SetVportModeRequest, 257)
	for i := range manyOps {
		manyOps[i] = opCreateBuffer("m", fifo(1))
		manyModes[i] = modeReq("vfree", pb.VportMode_VPORT_MODE_TX)
	}
	tx := pb.VportMode_VPORT_MODE_TX
	return []badCase{
		{"GetCapabilities/no app", func(ctx context.Context, c pb.BufferAgentClient) error {
			_, err := c.GetCapabilities(ctx, &pb.GetCapabilitiesRequest{})
			return err
		}, inv},

		{"CreateBuffer/no app", createBuffer("", "n", fifo(1)), inv},
		{"CreateBuffer/no id", createBuffer(appA, "", fifo(1)), inv},
		{"CreateBuffer/bad id", createBuffer(appA, "a b", fifo(1)), inv},
		{"CreateBuffer/long id", createBuffer(appA, long, fifo(1)), inv},
		{"CreateBuffer/no config", createBuffer(appA, "n", nil), inv},
		{"CreateBuffer/zero sizes", createBuffer(appA, "n", &pb.BufferConfig{}), inv},
		{"CreateBuffer/huge bytes", createBuffer(appA, "n", &pb.BufferConfig{CapacityBytes: huge}), inv},
		{"CreateBuffer/huge packets", createBuffer(appA, "n", &pb.BufferConfig{CapacityPackets: huge}), inv},
		{"CreateBuffer/unknown queue", createBuffer(appA, "n", &pb.BufferConfig{CapacityPackets: 1, QueueType: 99}), inv},
		{"CreateBuffer/unknown overflow", createBuffer(appA, "n", &pb.BufferConfig{CapacityPackets: 1, Overflow: 99}), inv},
		{"CreateBuffer/9 classes", createBuffer(appA, "n", &pb.BufferConfig{CapacityPackets: 1,
			QueueType: pb.QueueType_QUEUE_TYPE_PRIORITY, Priority: &pb.PriorityConfig{Classes: 9}}), inv},
		{"CreateBuffer/1001 buckets", createBuffer(appA, "n", &pb.BufferConfig{CapacityPackets: 1,
			QueueType: pb.QueueType_QUEUE_TYPE_ARQ, Arq: &pb.ArqConfig{Buckets: 1001}}), inv},
		{"CreateBuffer/unknown ARQ protocol", createBuffer(appA, "n", &pb.BufferConfig{CapacityPackets: 1,
			QueueType: pb.QueueType_QUEUE_TYPE_ARQ, Arq: &pb.ArqConfig{Protocol: 9}}), inv},
		{"CreateBuffer/PDCP ARQ drop head", createBuffer(appA, "n", &pb.BufferConfig{CapacityPackets: 1,
			QueueType: pb.QueueType_QUEUE_TYPE_ARQ, Overflow: pb.OverflowPolicy_OVERFLOW_POLICY_DROP_HEAD,
			Arq: &pb.ArqConfig{Protocol: pb.ArqProtocol_ARQ_PROTOCOL_PDCP}}), inv},
		{"CreateBuffer/other config", createBuffer(appA, "held", fifo(5)), ae},
		{"CreateBuffer/other owner", createBuffer(appA, "theirs", fifo(100)), ae},
		{"CreateBuffer/over quota", createBuffer(appA, "n", &pb.BufferConfig{CapacityBytes: 9 << 20}), re},

		{"RemoveBuffer/no app", removeBuffer("", "held", true), inv},
		{"RemoveBuffer/unknown", removeBuffer(appA, "nope", true), nf},
		{"RemoveBuffer/wrong owner", removeBuffer(appB, "held", true), pd},
		{"RemoveBuffer/bound", removeBuffer(appA, "bound", true), fp},
		{"RemoveBuffer/non-empty", removeBuffer(appA, "held", false), fp},

		{"QueryBuffer/no id", queryBuffer(appA, ""), inv},
		{"QueryBuffer/unknown", queryBuffer(appA, "nope"), nf},
		{"QueryBuffer/wrong owner", queryBuffer(appA, "theirs"), pd},

		{"ListBuffers/no app", func(ctx context.Context, c pb.BufferAgentClient) error {
			_, err := c.ListBuffers(ctx, &pb.ListBuffersRequest{})
			return err
		}, inv},

		{"CreateVport/no app", createVport("", "nv", inproc(pb.VportMode_VPORT_MODE_RX, 50)), inv},
		{"CreateVport/no id", createVport(appA, "", inproc(pb.VportMode_VPORT_MODE_RX, 50)), inv},
		{"CreateVport/no config", createVport(appA, "nv", nil), inv},
		{"CreateVport/unspecified mode", createVport(appA, "nv", inproc(0, 50)), inv},
		{"CreateVport/unknown mode", createVport(appA, "nv", inproc(99, 50)), inv},
		{"CreateVport/no backend", createVport(appA, "nv", &pb.VportConfig{Mode: pb.VportMode_VPORT_MODE_RX}), inv},
		{"CreateVport/bad interface", createVport(appA, "nv", linux("no/slash")), inv},
		{"CreateVport/long interface", createVport(appA, "nv", linux("abcdefghijklmnop")), inv},
		{"CreateVport/no linux backend", createVport(appA, "nv", linux("fbag-x")), unim},
		{"CreateVport/other config", createVport(appA, "vfree", inproc(pb.VportMode_VPORT_MODE_TX, 11)), ae},
		{"CreateVport/port in use", createVport(appA, "nv", inproc(pb.VportMode_VPORT_MODE_RX, 11)), fp},

		{"RemoveVport/no app", removeVport("", "vfree"), inv},
		{"RemoveVport/unknown", removeVport(appA, "nope"), nf},
		{"RemoveVport/wrong owner", removeVport(appB, "vfree"), pd},
		{"RemoveVport/bound", removeVport(appA, "vb"), fp},

		{"SetVportMode/unknown", setMode(appA, "nope", pb.VportMode_VPORT_MODE_TX), nf},
		{"SetVportMode/wrong owner", setMode(appA, "vtheirs", pb.VportMode_VPORT_MODE_TX), pd},
		{"SetVportMode/unspecified", setMode(appA, "vb", 0), inv},
		{"SetVportMode/unknown mode", setMode(appA, "vb", 42), inv},

		{"QueryVport/no id", queryVport(appA, ""), inv},
		{"QueryVport/unknown", queryVport(appA, "nope"), nf},
		{"QueryVport/wrong owner", queryVport(appB, "vb"), pd},

		{"ListVports/no app", func(ctx context.Context, c pb.BufferAgentClient) error {
			_, err := c.ListVports(ctx, &pb.ListVportsRequest{})
			return err
		}, inv},

		{"Bind/twice", bind(appA, "bound", "vb"), fp},
		{"Bind/vport bound elsewhere", bind(appA, "held", "vb"), fp},
		{"Bind/their buffer", bind(appA, "theirs", "vfree"), pd},
		{"Bind/their vport", bind(appA, "held", "vtheirs"), pd},
		{"Bind/unknown buffer", bind(appA, "nope", "vfree"), nf},
		{"Bind/unknown vport", bind(appA, "held", "nope"), nf},
		{"Bind/no ids", bind(appA, "", ""), inv},

		{"Unbind/not bound", unbind(appA, "held", "vfree"), fp},
		{"Unbind/wrong pair", unbind(appA, "held", "vb"), fp},
		{"Unbind/unknown", unbind(appA, "nope", "vb"), nf},
		{"Unbind/wrong owner", unbind(appB, "bound", "vb"), pd},

		{"Batch/no app", batch("", opCreateBuffer("n", fifo(1))), inv},
		{"Batch/empty", batch(appA), inv},
		{"Batch/too many", batch(appA, manyOps...), inv},
		{"Batch/empty op", batch(appA, &pb.Operation{}), inv},
		{"Batch/last op fails", batch(appA, opCreateBuffer("n", fifo(1)), opBind("n", "vfree"), opBind("bound", "vb")), fp},
		{"Batch/quota in batch", batch(appA, opCreateBuffer("n1", fifo(1)), opCreateBuffer("n2", fifo(1)),
			opCreateBuffer("n3", fifo(1)), opCreateBuffer("n4", fifo(1)), opCreateBuffer("n5", fifo(1)),
			opCreateBuffer("n6", fifo(1)), opCreateBuffer("n7", fifo(1)), opCreateBuffer("n8", fifo(1))), re},

		{"PurgeUpTo/no packet id", purge(appA, "held", nil), inv},
		{"PurgeUpTo/id over 16 bits", purge(appA, "held", &pb.PacketId{Ipv4Id: 70000}), inv},
		{"PurgeUpTo/unknown", purge(appA, "nope", &pb.PacketId{Ipv4Id: 1}), nf},
		{"PurgeUpTo/wrong owner", purge(appB, "held", &pb.PacketId{Ipv4Id: 1, L4Checksum: 1}), pd},

		{"Ack/not arq", ack(appA, "held", &pb.PacketId{Ipv4Id: 1}), fp},
		{"Ack/id over 16 bits", ack(appA, "arq", &pb.PacketId{L4Checksum: 1 << 16}), inv},
		{"Ack/unknown", ack(appA, "nope", &pb.PacketId{}), nf},
		{"Ack/wrong owner", ack(appB, "arq", &pb.PacketId{}), pd},

		{"ArmTrigger/no app", armTrigger("", "bound"), inv},
		{"ArmTrigger/no buffer id", armTrigger(appA, ""), inv},
		{"ArmTrigger/unknown buffer", armTrigger(appA, "nope", modeReq("vfree", tx)), nf},
		{"ArmTrigger/wrong owner", armTrigger(appA, "theirs", modeReq("vfree", tx)), pd},
		{"ArmTrigger/unknown vport", armTrigger(appA, "bound", modeReq("vfree", tx), modeReq("nope", tx)), nf},
		{"ArmTrigger/their vport", armTrigger(appA, "bound", modeReq("vtheirs", tx)), pd},
		{"ArmTrigger/unspecified mode", armTrigger(appA, "bound", modeReq("vfree", 0)), inv},
		{"ArmTrigger/too many", armTrigger(appA, "bound", manyModes...), inv},
		{"ArmTrigger/purge without modes", armPurging(appA, "bound", "held"), inv},
		{"ArmTrigger/purge of itself", armPurging(appA, "bound", "bound", modeReq("vfree", tx)), inv},
		{"ArmTrigger/purge of an unknown buffer", armPurging(appA, "bound", "nope", modeReq("vfree", tx)), nf},
		{"ArmTrigger/purge of their buffer", armPurging(appA, "bound", "theirs", modeReq("vfree", tx)), pd},

		{"Subscribe/no rules", subscribe(appA), inv},
		{"Subscribe/unknown buffer", subscribe(appA, &pb.EventRule{BufferId: "nope", Kind: pb.EventKind_EVENT_KIND_DRAINED}), nf},
		{"Subscribe/wrong owner", subscribe(appA, &pb.EventRule{BufferId: "theirs", Kind: pb.EventKind_EVENT_KIND_DRAINED}), pd},
		{"Subscribe/unknown kind", subscribe(appA, &pb.EventRule{BufferId: "held", Kind: 99}), inv},
		{"Subscribe/no threshold", subscribe(appA, &pb.EventRule{BufferId: "held", Kind: pb.EventKind_EVENT_KIND_OCCUPANCY_ABOVE}), inv},
	}
}

// TestBadInputChangesNothing sends every bad request of the table over real
// gRPC and checks the exact status code and that no object changed.
func TestBadInputChangesNothing(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for _, c := range badCases() {
		t.Run(c.name, func(t *testing.T) {
			before := e.snapshot(t)
			err := c.call(ctx, e.client)
			if got := status.Code(err); got != c.want {
				t.Fatalf("code %v (%v), want %v", got, err, c.want)
			}
			if msg := status.Convert(err).Message(); msg == "" {
				t.Fatal("error without a message")
			}
			if after := e.snapshot(t); !sameSnapshot(before, after) {
				t.Fatalf("state changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

// TestEveryRPCHasBadInputCases keeps the table honest as the API grows.
func TestEveryRPCHasBadInputCases(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range badCases() {
		covered[strings.SplitN(c.name, "/", 2)[0]] = true
	}
	for _, m := range pb.BufferAgent_ServiceDesc.Methods {
		if !covered[m.MethodName] {
			t.Errorf("no bad-input case for %s", m.MethodName)
		}
	}
	for _, s := range pb.BufferAgent_ServiceDesc.Streams {
		if !covered[s.StreamName] {
			t.Errorf("no bad-input case for %s", s.StreamName)
		}
	}
}
