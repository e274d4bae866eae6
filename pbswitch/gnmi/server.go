// SPDX-License-Identifier: Apache-2.0

// Package gnmi serves gNMI (github.com/openconfig/gnmi) for pbswitch's
// ports as Stratum serves them and ONOS 2.7's Stratum driver reads them:
// the OpenConfig interfaces tree /interfaces/interface[name=*] with its
// state (ifindex and id: the P4Runtime port number, oper-status,
// admin-status, last-change, counters), ethernet/state (MAC address,
// speeds) and config/enabled, which Set changes. Capabilities, Get,
// Subscribe (ONCE, POLL, STREAM with ON_CHANGE, SAMPLE and TARGET_DEFINED)
// and Set are served; values are always scalar typed values.
package gnmi

import (
	"context"
	"log/slog"
	"sync"
	"time"

	pb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

// Ports is the switch as the server sees it (a *dataplane.Switch).
type Ports interface {
	PortStatuses() []dataplane.PortStatus
	SetPortAdmin(id uint32, up bool) error
	// WatchPorts calls fn after a port's admin or oper state changed.
	WatchPorts(fn func(dataplane.PortStatus)) (stop func())
}

// Server is the gNMI server of one switch.
type Server struct {
	pb.UnimplementedGNMIServer
	ports Ports
	log   *slog.Logger
	now   func() time.Time

	mu       sync.Mutex
	watchers map[chan struct{}]bool // one per STREAM RPC
	stop     func()
}

// New returns a server for ports.
func New(ports Ports, log *slog.Logger) *Server {
	if log == nil {
		log = slog.Default()
	}
	s := &Server{ports: ports, log: log, now: time.Now, watchers: map[chan struct{}]bool{}}
	s.stop = ports.WatchPorts(s.portChanged)
	return s
}

// Register adds the gNMI service to g.
func (s *Server) Register(g *grpc.Server) { pb.RegisterGNMIServer(g, s) }

// Close stops following the ports.
func (s *Server) Close() { s.stop() }

// portChanged wakes every streaming subscription (without blocking the
// switch: a wake already pending is enough).
func (s *Server) portChanged(dataplane.PortStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.watchers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (s *Server) watch() (ch chan struct{}, stop func()) {
	ch = make(chan struct{}, 1)
	s.mu.Lock()
	s.watchers[ch] = true
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.watchers, ch)
		s.mu.Unlock()
	}
}

// gnmiVersion is the version of the gNMI service the module defines.
func gnmiVersion() string {
	v, _ := proto.GetExtension(pb.File_github_com_openconfig_gnmi_proto_gnmi_gnmi_proto.Options(), pb.E_GnmiService).(string)
	return v
}

// Capabilities implements gNMI.
func (s *Server) Capabilities(context.Context, *pb.CapabilityRequest) (*pb.CapabilityResponse, error) {
	return &pb.CapabilityResponse{
		SupportedModels: []*pb.ModelData{
			{Name: "openconfig-interfaces", Organization: "OpenConfig working group", Version: "2.4.1"},
			{Name: "openconfig-if-ethernet", Organization: "OpenConfig working group"},
		},
		SupportedEncodings: []pb.Encoding{pb.Encoding_PROTO},
		GNMIVersion:        gnmiVersion(),
	}, nil
}

// checkEncoding lets PROTO through, and JSON, the field's default, which
// clients that leave it unset send (ONOS 2.7's subscriber does): every
// value pbswitch sends is a leaf's scalar typed value, so no structured
// data is ever encoded. The structured encodings are UNIMPLEMENTED.
func checkEncoding(e pb.Encoding) error {
	switch e {
	case pb.Encoding_PROTO, pb.Encoding_JSON:
		return nil
	default:
		return status.Errorf(codes.Unimplemented, "encoding %v is not supported: pbswitch sends scalar typed values (PROTO)", e)
	}
}

// Get implements gNMI: one notification per requested path, with the
// leaves it names for every interface it picks.
func (s *Server) Get(_ context.Context, req *pb.GetRequest) (*pb.GetResponse, error) {
	if err := checkEncoding(req.GetEncoding()); err != nil {
		return nil, err
	}
	if len(req.GetUseModels()) > 0 {
		return nil, status.Error(codes.Unimplemented, "use_models is not supported")
	}
	keep, err := typeFilter(req.GetType())
	if err != nil {
		return nil, err
	}
	if len(req.GetPath()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "the request names no path")
	}
	sels := make([]selection, len(req.GetPath()))
	for i, p := range req.GetPath() {
		if sels[i], err = resolve(req.GetPrefix(), p); err != nil {
			return nil, err
		}
	}
	all := s.ports.PortStatuses()
	resp := &pb.GetResponse{}
	for i, sel := range sels {
		ports := sel.ports(all)
		if len(ports) == 0 && sel.iface == "" {
			return nil, status.Errorf(codes.NotFound, "path %s: the switch has no interfaces", show(req.GetPath()[i].GetElem()))
		}
		if len(ports) == 0 {
			return nil, status.Errorf(codes.NotFound, "path %s: no interface %q", show(req.GetPath()[i].GetElem()), sel.iface)
		}
		n := &pb.Notification{Timestamp: s.now().UnixNano()}
		for _, ps := range ports {
			n.Update = append(n.Update, updates(&ps, sel.leaves, keep)...)
		}
		if len(n.Update) == 0 && req.GetType() == pb.GetRequest_ALL { // a filtered-out type is an empty answer
			return nil, status.Errorf(codes.NotFound, "path %s: the interface has no such leaf", show(req.GetPath()[i].GetElem()))
		}
		resp.Notification = append(resp.Notification, n)
	}
	return resp, nil
}

// typeFilter keeps the leaves of a Get's data type: CONFIG the config
// leaves, STATE and OPERATIONAL the state (all of pbswitch's state is
// read-only data the switch produces), ALL both.
func typeFilter(t pb.GetRequest_DataType) (func(*leaf) bool, error) {
	switch t {
	case pb.GetRequest_ALL:
		return func(*leaf) bool { return true }, nil
	case pb.GetRequest_CONFIG:
		return func(l *leaf) bool { return l.config }, nil
	case pb.GetRequest_STATE, pb.GetRequest_OPERATIONAL:
		return func(l *leaf) bool { return !l.config }, nil
	default:
		return nil, status.Errorf(codes.InvalidArgument, "unknown data type %v", t)
	}
}

// updates are the values of leaves (those keep takes) for one port.
func updates(ps *dataplane.PortStatus, leaves []*leaf, keep func(*leaf) bool) []*pb.Update {
	var out []*pb.Update
	for _, l := range leaves {
		if !keep(l) {
			continue
		}
		if v := l.value(ps); v != nil {
			out = append(out, &pb.Update{Path: leafPath(ps.Name, l), Val: v})
		}
	}
	return out
}
