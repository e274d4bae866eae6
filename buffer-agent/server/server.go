// SPDX-License-Identifier: Apache-2.0

// Package server serves the southbound buffer API (flowbuf.buffer.v1) over
// gRPC on top of an engine.Engine, with the standard health service and
// server reflection. The stand-alone buffer-agent and pbswitch both use it:
// each plugs its own vport backends into the engine (LINUX_INTERFACE for the
// agent, IN_PROCESS for pbswitch); a kind without a factory answers
// UNIMPLEMENTED.
package server

import (
	"errors"
	"log/slog"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

// APIVersion is the southbound API version this server speaks.
const APIVersion = "v1"

// Options configure a Server.
type Options struct {
	// AgentVersion is reported by GetCapabilities, e.g. "buffer-agent 0.1.0".
	AgentVersion string
	// MTLS tells GetCapabilities whether the channel is mutually
	// authenticated (the TLS itself is set up on the grpc.Server).
	MTLS   bool
	Logger *slog.Logger
}

// Server implements pb.BufferAgentServer on an engine.
type Server struct {
	pb.UnimplementedBufferAgentServer
	eng    *engine.Engine
	opts   Options
	health *health.Server
	log    *slog.Logger
}

// Backends builds the engine's backend table from the two pluggable
// factories; a nil factory leaves its kind UNIMPLEMENTED.
func Backends(linuxInterface, inProcess engine.BackendFactory) map[engine.BackendKind]engine.BackendFactory {
	m := map[engine.BackendKind]engine.BackendFactory{}
	if linuxInterface != nil {
		m[engine.BackendLinuxInterface] = linuxInterface
	}
	if inProcess != nil {
		m[engine.BackendInProcess] = inProcess
	}
	return m
}

// New returns a server for eng.
func New(eng *engine.Engine, opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Server{eng: eng, opts: opts, health: health.NewServer(), log: log}
}

// Engine returns the engine the server drives.
func (s *Server) Engine() *engine.Engine { return s.eng }

// Register adds the buffer API, the health service (SERVING) and server
// reflection to g.
func (s *Server) Register(g *grpc.Server) {
	pb.RegisterBufferAgentServer(g, s)
	healthpb.RegisterHealthServer(g, s.health)
	s.health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	s.health.SetServingStatus(pb.BufferAgent_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	reflection.Register(g)
}

// Shutdown marks the services NOT_SERVING, so health checks see the drain.
func (s *Server) Shutdown() { s.health.Shutdown() }

var codeOf = map[engine.Code]codes.Code{
	engine.InvalidArgument:    codes.InvalidArgument,
	engine.NotFound:           codes.NotFound,
	engine.AlreadyExists:      codes.AlreadyExists,
	engine.PermissionDenied:   codes.PermissionDenied,
	engine.FailedPrecondition: codes.FailedPrecondition,
	engine.ResourceExhausted:  codes.ResourceExhausted,
	engine.Unimplemented:      codes.Unimplemented,
}

// toStatus maps an engine error 1:1 onto its gRPC code; anything else (a
// backend that failed to open a socket) is INTERNAL and logged.
func (s *Server) toStatus(method string, err error) error {
	var e *engine.Error
	if errors.As(err, &e) {
		return status.Error(codeOf[e.Code], e.Msg)
	}
	s.log.Error("request failed", "method", method, "err", err)
	return status.Error(codes.Internal, err.Error())
}
