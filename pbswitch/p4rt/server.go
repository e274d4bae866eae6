// SPDX-License-Identifier: Apache-2.0

// Package p4rt serves P4Runtime (p4.v1.P4Runtime, spec v1.4) for one device
// on top of package pipeline: pipeline push (VERIFY, VERIFY_AND_SAVE,
// VERIFY_AND_COMMIT, COMMIT, RECONCILE_AND_COMMIT), Write and Read of table
// entries, PRE entries, counters, meters, registers and digests, and the
// StreamChannel with client arbitration, packet I/O and digest lists. The
// device behind it (the program and its ports) is a Device.
package p4rt

import (
	"context"
	"log/slog"
	"sync"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// APIVersion is the P4Runtime version served.
const APIVersion = "1.4.1"

// Program is a pipeline bound to a p4info, ready to run.
type Program interface {
	Objects() *pipeline.Objects
}

// Device is the switch the server drives.
type Device interface {
	// Bind builds a program for a pipeline config (p4info and the target's
	// device config) without touching the running one; it fails, with a
	// message naming what is wrong or missing, when the device cannot run
	// it (a gRPC status error keeps its code; others are INVALID_ARGUMENT).
	// Digest lists of the program go to digestOut.
	Bind(cfg *p4.ForwardingPipelineConfig, digestOut func(pipeline.DigestList)) (Program, error)
	// Activate makes prog the running pipeline.
	Activate(prog Program)
	// PacketOut sends a frame from the controller through the pipeline with
	// its packet_out header.
	PacketOut(frame []byte, meta []pipeline.CtrlMeta) error
}

// Server is a P4Runtime server for one device.
type Server struct {
	p4.UnimplementedP4RuntimeServer
	deviceID uint64
	dev      Device
	log      *slog.Logger

	mu      sync.RWMutex // guards the pipeline fields below
	running *pipelineState
	saved   *pipelineState

	arb *arbiter
}

type pipelineState struct {
	prog   Program
	config *p4.ForwardingPipelineConfig
}

// New returns a server for dev, answering to deviceID.
func New(deviceID uint64, dev Device, log *slog.Logger) *Server {
	if log == nil {
		log = slog.Default()
	}
	return &Server{deviceID: deviceID, dev: dev, log: log, arb: newArbiter()}
}

// Register adds the P4Runtime service to g.
func (s *Server) Register(g *grpc.Server) { p4.RegisterP4RuntimeServer(g, s) }

// Capabilities implements P4Runtime.
func (s *Server) Capabilities(context.Context, *p4.CapabilitiesRequest) (*p4.CapabilitiesResponse, error) {
	return &p4.CapabilitiesResponse{P4RuntimeApiVersion: APIVersion}, nil
}

// objects returns the running pipeline's objects or FAILED_PRECONDITION.
func (s *Server) objects() (*pipeline.Objects, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.running == nil {
		return nil, status.Error(codes.FailedPrecondition, "no forwarding pipeline config has been set")
	}
	return s.running.prog.Objects(), nil
}

func (s *Server) checkDevice(id uint64) error {
	if id != s.deviceID {
		return status.Errorf(codes.NotFound, "device %d not found (this is device %d)", id, s.deviceID)
	}
	return nil
}

// SetForwardingPipelineConfig implements P4Runtime.
func (s *Server) SetForwardingPipelineConfig(_ context.Context, req *p4.SetForwardingPipelineConfigRequest) (*p4.SetForwardingPipelineConfigResponse, error) {
	if err := s.checkDevice(req.GetDeviceId()); err != nil {
		return nil, err
	}
	if err := s.arb.checkPrimary(req.GetRole(), req.GetElectionId()); err != nil {
		return nil, err
	}
	act := req.GetAction()
	if act == p4.SetForwardingPipelineConfigRequest_COMMIT {
		return s.commitSaved()
	}
	if act == p4.SetForwardingPipelineConfigRequest_UNSPECIFIED {
		return nil, status.Error(codes.InvalidArgument, "pipeline config action UNSPECIFIED")
	}
	cfg := req.GetConfig()
	if cfg.GetP4Info() == nil {
		return nil, status.Error(codes.InvalidArgument, "the request carries no p4info")
	}
	if act == p4.SetForwardingPipelineConfigRequest_RECONCILE_AND_COMMIT {
		return s.reconcile(cfg)
	}
	prog, err := s.bind(cfg)
	if err != nil {
		return nil, err
	}
	st := &pipelineState{prog: prog, config: proto.Clone(cfg).(*p4.ForwardingPipelineConfig)}
	switch act {
	case p4.SetForwardingPipelineConfigRequest_VERIFY:
	case p4.SetForwardingPipelineConfigRequest_VERIFY_AND_SAVE:
		s.mu.Lock()
		s.saved = st
		s.mu.Unlock()
	case p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT:
		s.activate(st)
	default:
		return nil, status.Errorf(codes.InvalidArgument, "unknown pipeline config action %v", act)
	}
	s.log.Info("pipeline config", "action", act.String(), "cookie", cfg.GetCookie().GetCookie())
	return &p4.SetForwardingPipelineConfigResponse{}, nil
}

// Install makes cfg the running pipeline without a client (a switch
// started with a pipeline from files). Errors are those of a push.
func (s *Server) Install(cfg *p4.ForwardingPipelineConfig) error {
	prog, err := s.bind(cfg)
	if err != nil {
		return err
	}
	s.activate(&pipelineState{prog: prog, config: proto.Clone(cfg).(*p4.ForwardingPipelineConfig)})
	return nil
}

func (s *Server) bind(cfg *p4.ForwardingPipelineConfig) (Program, error) {
	prog, err := s.dev.Bind(cfg, s.sendDigest)
	if err == nil {
		return prog, nil
	}
	if _, ok := status.FromError(err); ok {
		return nil, err
	}
	return nil, status.Errorf(codes.InvalidArgument, "%v", err)
}

func (s *Server) activate(st *pipelineState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running, s.saved = st, nil
	s.dev.Activate(st.prog)
}

func (s *Server) commitSaved() (*p4.SetForwardingPipelineConfigResponse, error) {
	s.mu.RLock()
	saved := s.saved
	s.mu.RUnlock()
	if saved == nil {
		return nil, status.Error(codes.FailedPrecondition, "COMMIT without a config saved by VERIFY_AND_SAVE")
	}
	s.activate(saved)
	return &p4.SetForwardingPipelineConfigResponse{}, nil
}

// reconcile keeps the forwarding state when the pushed p4info is the one
// running (a controller reconnecting) and commits it fresh when nothing
// runs yet; a different p4info cannot carry the state over, and the caller
// is told to use VERIFY_AND_COMMIT.
func (s *Server) reconcile(cfg *p4.ForwardingPipelineConfig) (*p4.SetForwardingPipelineConfigResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running != nil {
		if !proto.Equal(s.running.config.GetP4Info(), cfg.GetP4Info()) {
			return nil, status.Error(codes.Unimplemented, "RECONCILE_AND_COMMIT with a p4info other than the running one cannot keep the forwarding state; use VERIFY_AND_COMMIT")
		}
		s.running.config.Cookie = cfg.GetCookie()
		s.running.config.P4DeviceConfig = cfg.GetP4DeviceConfig()
		return &p4.SetForwardingPipelineConfigResponse{}, nil
	}
	prog, err := s.bind(cfg)
	if err != nil {
		return nil, err
	}
	s.running = &pipelineState{prog: prog, config: proto.Clone(cfg).(*p4.ForwardingPipelineConfig)}
	s.dev.Activate(prog)
	return &p4.SetForwardingPipelineConfigResponse{}, nil
}

// GetForwardingPipelineConfig implements P4Runtime.
func (s *Server) GetForwardingPipelineConfig(_ context.Context, req *p4.GetForwardingPipelineConfigRequest) (*p4.GetForwardingPipelineConfigResponse, error) {
	if err := s.checkDevice(req.GetDeviceId()); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.running == nil {
		return nil, status.Error(codes.FailedPrecondition, "no forwarding pipeline config has been set")
	}
	c := s.running.config
	out := &p4.ForwardingPipelineConfig{Cookie: c.GetCookie()}
	switch req.GetResponseType() {
	case p4.GetForwardingPipelineConfigRequest_ALL:
		out.P4Info, out.P4DeviceConfig = c.GetP4Info(), c.GetP4DeviceConfig()
	case p4.GetForwardingPipelineConfigRequest_P4INFO_AND_COOKIE:
		out.P4Info = c.GetP4Info()
	case p4.GetForwardingPipelineConfigRequest_DEVICE_CONFIG_AND_COOKIE:
		out.P4DeviceConfig = c.GetP4DeviceConfig()
	}
	return &p4.GetForwardingPipelineConfigResponse{Config: out}, nil
}
