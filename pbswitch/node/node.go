// SPDX-License-Identifier: Apache-2.0

// Package node assembles a running pbswitch: the data plane with its ports,
// the P4Runtime server, and (optionally) in-process buffers served over the
// southbound buffer API on a second gRPC port.
package node

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/server"
	"github.com/flowbuf/flowbuf/pbswitch/admin"
	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
	"github.com/flowbuf/flowbuf/pbswitch/device"
	"github.com/flowbuf/flowbuf/pbswitch/gnmi"
	"github.com/flowbuf/flowbuf/pbswitch/inproc"
	"github.com/flowbuf/flowbuf/pbswitch/p4rt"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// Version is reported to buffer API clients.
const Version = "pbswitch 0.1.0"

// PortSpec is one front-panel port: a Linux interface, optionally shaped
// and delayed (a lab link's one-way delay; see dataplane.SetPortDelay).
type PortSpec struct {
	ID        uint32
	Interface string
	RateBps   uint64
	Delay     time.Duration
}

// Config is what a node runs.
type Config struct {
	DeviceID uint64
	CPUPort  uint32
	// P4RTListen and BufferListen are TCP addresses (":0" picks a port);
	// an empty BufferListen disables the in-process buffer API.
	P4RTListen   string
	BufferListen string
	// Netns holds the interfaces of Ports ("" : the process's own).
	Netns  string
	Ports  []PortSpec
	Vports []uint32
	// QueueLen is the traffic manager's per-priority queue length.
	QueueLen int
	// CPURateBps and CPUQueueLen shape the path to the controller (see
	// dataplane.Options).
	CPURateBps  uint64
	CPUQueueLen int
	// SharedBufferBytes and Buffer give the ports' queues one shared
	// buffer and its admission (see dataplane.Options); 0 bytes: none.
	SharedBufferBytes int64
	Buffer            dataplane.BufferConfig
	// Scheduler chooses which of a port's queues sends next (see
	// dataplane.Options).
	Scheduler dataplane.Scheduler
	// AdminListen is the address of pbswitch's own HTTP API (package
	// admin: the shared buffer's admission, the counters); "" disables it.
	AdminListen string
	// Pipeline, when set, is installed at start (a P4Runtime client may
	// replace it); without it the switch drops everything until a
	// controller pushes one.
	Pipeline *p4.ForwardingPipelineConfig
	// GenericTables keeps every table's entries as Go objects instead of
	// packing exact-match tables into slabs (v1model.Options).
	GenericTables bool
	Logger        *slog.Logger
}

// Node is a running pbswitch.
type Node struct {
	Switch *dataplane.Switch
	P4RT   *p4rt.Server
	// GNMI serves the ports' OpenConfig state on the P4Runtime address, as
	// Stratum serves both on one port (ONOS's Stratum driver dials one).
	GNMI   *gnmi.Server
	Engine *engine.Engine // nil without in-process buffers
	Vports *inproc.Vports

	p4rtLis, bufLis   net.Listener
	p4rtGRPC, bufGRPC *grpc.Server
	adminLis          net.Listener
	adminHTTP         *http.Server
	bufSrv            *server.Server
	log               *slog.Logger
}

// Start brings a node up; on error nothing is left running.
func Start(cfg Config) (_ *Node, err error) {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	n := &Node{log: log}
	defer func() {
		if err != nil {
			n.Close() // the half-built node, not the nil that is returned
		}
	}()
	var srv *p4rt.Server
	opts := dataplane.Options{CPUPort: cfg.CPUPort, QueueLen: cfg.QueueLen,
		CPURateBps: cfg.CPURateBps, CPUQueueLen: cfg.CPUQueueLen,
		SharedBufferBytes: cfg.SharedBufferBytes, Buffer: cfg.Buffer, Scheduler: cfg.Scheduler,
		PacketIn: func(f []byte, m []pipeline.CtrlMeta) { srv.PacketIn(f, m) }}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	n.Switch = dataplane.New(opts)
	dev := device.New(n.Switch)
	dev.GenericTables = cfg.GenericTables
	srv = p4rt.New(cfg.DeviceID, dev, log)
	n.P4RT = srv
	for _, p := range cfg.Ports {
		if err := n.Switch.AddLinuxPort(p.ID, netio.NS{Path: cfg.Netns}, p.Interface, p.RateBps); err != nil {
			return nil, err
		}
		if err := n.Switch.SetPortDelay(p.ID, p.Delay); err != nil {
			return nil, err
		}
	}
	if n.Vports, err = inproc.New(n.Switch, cfg.Vports); err != nil {
		return nil, err
	}
	if cfg.Pipeline != nil {
		if err := srv.Install(cfg.Pipeline); err != nil {
			return nil, fmt.Errorf("the start pipeline: %w", err)
		}
	}
	if n.p4rtLis, err = net.Listen("tcp", cfg.P4RTListen); err != nil {
		return nil, fmt.Errorf("P4Runtime listen %s: %w", cfg.P4RTListen, err)
	}
	n.p4rtGRPC = grpc.NewServer(grpc.MaxRecvMsgSize(64<<20), p4rt.ServerOption())
	srv.Register(n.p4rtGRPC)
	n.GNMI = gnmi.New(n.Switch, log)
	n.GNMI.Register(n.p4rtGRPC)
	go n.p4rtGRPC.Serve(n.p4rtLis)
	if cfg.AdminListen != "" {
		if n.adminLis, err = net.Listen("tcp", cfg.AdminListen); err != nil {
			return nil, fmt.Errorf("admin API listen %s: %w", cfg.AdminListen, err)
		}
		n.adminHTTP = &http.Server{Handler: admin.Handler(n.Switch), ReadHeaderTimeout: 10 * time.Second}
		go n.adminHTTP.Serve(n.adminLis)
	}
	if cfg.BufferListen == "" {
		return n, nil
	}
	n.Engine = engine.New(engine.Options{Backends: server.Backends(nil, n.Vports)})
	n.bufSrv = server.New(n.Engine, server.Options{AgentVersion: Version, Logger: log})
	if n.bufLis, err = net.Listen("tcp", cfg.BufferListen); err != nil {
		return nil, fmt.Errorf("buffer API listen %s: %w", cfg.BufferListen, err)
	}
	n.bufGRPC = grpc.NewServer()
	n.bufSrv.Register(n.bufGRPC)
	go n.bufGRPC.Serve(n.bufLis)
	log.Info("pbswitch up", "p4runtime+gnmi", n.P4RTAddr(), "buffers", n.BufferAddr(), "admin", n.AdminAddr(),
		"ports", len(cfg.Ports), "vports", cfg.Vports)
	return n, nil
}

// P4RTAddr is the P4Runtime server's address.
func (n *Node) P4RTAddr() string { return addr(n.p4rtLis) }

// BufferAddr is the buffer API's address ("" when disabled).
func (n *Node) BufferAddr() string { return addr(n.bufLis) }

// AdminAddr is the admin HTTP API's address ("" when disabled).
func (n *Node) AdminAddr() string { return addr(n.adminLis) }

func addr(l net.Listener) string {
	if l == nil {
		return ""
	}
	return l.Addr().String()
}

// Close stops the servers, removes the vports and ports.
func (n *Node) Close() error {
	var errs []error
	if n.bufGRPC != nil {
		n.bufSrv.Shutdown()
		n.bufGRPC.Stop()
	}
	if n.p4rtGRPC != nil {
		n.p4rtGRPC.Stop()
	}
	if n.GNMI != nil {
		n.GNMI.Close()
	}
	if n.adminHTTP != nil {
		errs = append(errs, n.adminHTTP.Close())
	}
	if n.Engine != nil {
		errs = append(errs, n.Engine.Close())
	}
	if n.Switch != nil {
		// What was dropped, and why, is the first thing to look at after a run.
		st := n.Switch.Stats()
		n.log.Info("pbswitch stopping", "drops", st.Drops)
		errs = append(errs, n.Switch.Close())
	}
	return errors.Join(errs...)
}
