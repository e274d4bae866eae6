// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"net"
	"sort"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/server"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

// grpcAgent serves a fresh engine (in-process vport backend) over gRPC on
// loopback and returns a client of it, the engine, and a stop function.
func grpcAgent() (pb.BufferAgentClient, *engine.Engine, func(), error) {
	eng := newEngine(engine.Options{Backends: server.Backends(nil, &countingFactory{})})
	g := grpc.NewServer()
	server.New(eng, server.Options{AgentVersion: "agentbench"}).Register(g)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		eng.Close()
		return nil, nil, nil, err
	}
	go func() { _ = g.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		g.Stop()
		eng.Close()
		return nil, nil, nil, err
	}
	stop := func() {
		conn.Close()
		g.Stop()
		eng.Close()
	}
	return pb.NewBufferAgentClient(conn), eng, stop, nil
}

var apiCalls = []string{"create_buffer", "create_vport", "bind", "set_vport_mode", "unbind", "remove_vport", "remove_buffer", "query_buffer"}

// api times each control call over real gRPC on loopback; vports use an
// in-process backend so the figure is the agent's control path.
func (b *bench) api() error {
	c, _, stop, err := grpcAgent()
	if err != nil {
		return err
	}
	defer stop()
	iters := 500
	if b.quick {
		iters = 150
	}
	samples, err := timeCalls(c, iters)
	if err != nil {
		return err
	}
	for _, call := range apiCalls {
		s := samples[call]
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		b.Emit("api_"+call+"_ms_p50", float64(percentile(s, 0.5).Nanoseconds())/1e6, "ms",
			map[string]any{"calls": len(s), "p99_ms": float64(percentile(s, 0.99).Nanoseconds()) / 1e6,
				"transport": "gRPC over TCP loopback", "vport_backend": "in_process"})
	}
	return nil
}

func timeCalls(c pb.BufferAgentClient, iters int) (map[string][]time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := map[string][]time.Duration{}
	timed := func(name string, f func() error) error {
		t0 := time.Now()
		if err := f(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		out[name] = append(out[name], time.Since(t0))
		return nil
	}
	const app = benchApp
	for i := 0; i < iters+20; i++ {
		bid, vid := fmt.Sprintf("b%d", i), fmt.Sprintf("v%d", i)
		steps := []struct {
			name string
			f    func() error
		}{
			{"create_buffer", func() error {
				_, err := c.CreateBuffer(ctx, &pb.CreateBufferRequest{AppId: app, BufferId: bid, Config: &pb.BufferConfig{CapacityPackets: 1024}})
				return err
			}},
			{"create_vport", func() error {
				_, err := c.CreateVport(ctx, &pb.CreateVportRequest{AppId: app, VportId: vid, Config: &pb.VportConfig{
					Mode: pb.VportMode_VPORT_MODE_RX, Backend: &pb.VportConfig_InProcess{InProcess: &pb.InProcessBackend{Port: uint32(i)}}}})
				return err
			}},
			{"bind", func() error {
				_, err := c.Bind(ctx, &pb.BindRequest{AppId: app, BufferId: bid, VportId: vid})
				return err
			}},
			{"set_vport_mode", func() error {
				_, err := c.SetVportMode(ctx, &pb.SetVportModeRequest{AppId: app, VportId: vid, Mode: pb.VportMode_VPORT_MODE_TX})
				return err
			}},
			{"query_buffer", func() error {
				_, err := c.QueryBuffer(ctx, &pb.QueryBufferRequest{AppId: app, BufferId: bid})
				return err
			}},
			{"unbind", func() error {
				_, err := c.Unbind(ctx, &pb.UnbindRequest{AppId: app, BufferId: bid, VportId: vid})
				return err
			}},
			{"remove_vport", func() error {
				_, err := c.RemoveVport(ctx, &pb.RemoveVportRequest{AppId: app, VportId: vid})
				return err
			}},
			{"remove_buffer", func() error {
				_, err := c.RemoveBuffer(ctx, &pb.RemoveBufferRequest{AppId: app, BufferId: bid})
				return err
			}},
		}
		for _, s := range steps {
			if err := timed(s.name, s.f); err != nil {
				return nil, err
			}
		}
		if i == 19 { // the first rounds warm up connections and caches
			out = map[string][]time.Duration{}
		}
	}
	return out, nil
}
