// SPDX-License-Identifier: Apache-2.0

// Command buffer-agent runs FlowBuf's Buffer Engine beside a switch: it
// serves the southbound buffer API over gRPC (with health, reflection and
// optional mTLS), attaches vports to Linux interfaces, and exports
// Prometheus metrics. SIGTERM or SIGINT stops it gracefully: the health
// service reports NOT_SERVING, calls in flight finish, vports are closed
// and veth pairs it created are removed.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/metrics"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/server"
)

// version is the agent's release, reported by GetCapabilities.
const version = "0.1.0"

// shutdownGrace bounds how long calls in flight (and Subscribe streams)
// may take to finish on shutdown.
const shutdownGrace = 5 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := run(ctx, os.Args[1:], nil); err != nil {
		fmt.Fprintln(os.Stderr, "buffer-agent:", err)
		os.Exit(1)
	}
}

// run serves until ctx ends; ready, if set, receives the gRPC and metrics
// addresses once both listen.
func run(ctx context.Context, args []string, ready func(grpcAddr, metricsAddr string)) error {
	cfg, err := parseConfig(args)
	if err != nil {
		return err
	}
	log, err := newLogger(cfg)
	if err != nil {
		return err
	}
	factory := &netio.Factory{NS: netio.NS{Path: cfg.Netns}, Log: log, RxSlots: cfg.RxSlots}
	opts := cfg.engineOptions()
	opts.Backends = server.Backends(factory, nil)
	opts.StateErrors = func(err error) { log.Error("state dir not updated: a crash now would lose this change", "err", err) }
	eng, restored, err := engine.Open(opts)
	if err != nil {
		return err
	}
	logRestore(log, opts.StateDir, restored)
	defer func() {
		if err := eng.Close(); err != nil {
			log.Error("closing vports", "err", err)
		}
	}()
	srv := server.New(eng, server.Options{AgentVersion: "buffer-agent " + version, MTLS: cfg.mtls(), Logger: log})
	g, err := newGRPCServer(cfg, grpc.ChainUnaryInterceptor(server.LogCalls(log), server.RefuseAbandoned))
	if err != nil {
		return err
	}
	srv.Register(g)
	lis, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen %s: %w", cfg.Listen, err)
	}
	metricsAddr, stopMetrics, err := serveMetrics(cfg.MetricsListen, log, metrics.New(eng), portCollector{factory})
	if err != nil {
		lis.Close()
		return err
	}
	defer stopMetrics()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go reloadAdmission(ctx, hup, args, eng, log)
	serveErr := make(chan error, 1)
	go func() { serveErr <- g.Serve(lis) }()
	log.Info("buffer-agent serving", "grpc", lis.Addr().String(), "metrics", metricsAddr,
		"mtls", cfg.mtls(), "netns", cfg.Netns, "pool_bytes", cfg.PoolBytes)
	if ready != nil {
		ready(lis.Addr().String(), metricsAddr)
	}
	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case err := <-serveErr:
		return fmt.Errorf("grpc serve: %w", err)
	}
	srv.Shutdown()
	stopGracefully(g)
	return nil
}

// reloadAdmission applies the pool admission of the flags and config file
// again at each SIGHUP (only it: other settings need a restart). A bad
// one is logged and changes nothing.
func reloadAdmission(ctx context.Context, hup <-chan os.Signal, args []string, eng *engine.Engine, log *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
		}
		if err := applyAdmission(args, eng); err != nil {
			log.Error("SIGHUP: pool admission not changed", "err", err)
			continue
		}
		a := eng.Admission()
		log.Info("SIGHUP: pool admission applied", "algorithm", a.Algorithm.String(), "classes", len(a.Owners))
	}
}

func applyAdmission(args []string, eng *engine.Engine) error {
	cfg, err := parseConfig(args)
	if err != nil {
		return err
	}
	adm, err := cfg.Admission.engine(eng.Limits().PoolBytes)
	if err != nil {
		return err
	}
	return eng.SetAdmission(adm)
}

// logRestore says where held packets are kept and what a restart found.
func logRestore(log *slog.Logger, dir string, rep engine.RestoreReport) {
	if dir == "" {
		log.Warn("no state dir: held packets die with the agent")
		return
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err == nil && fs.Type != tmpfsMagic {
		log.Warn("state dir is not on tmpfs: journals go through the page cache to disk", "state_dir", dir)
	}
	for _, b := range rep.Buffers {
		log.Info("buffer re-attached from the state dir", "buffer", b.ID, "packets", b.Packets,
			"missed_while_down", b.Missed)
	}
	for _, n := range rep.Notes {
		log.Warn("state dir: " + n)
	}
	log.Info("state dir in use", "state_dir", dir, "buffers_reattached", len(rep.Buffers))
}

// tmpfsMagic is TMPFS_MAGIC of statfs(2).
const tmpfsMagic = 0x01021994

func newLogger(cfg Config) (*slog.Logger, error) {
	level, err := cfg.level()
	if err != nil {
		return nil, err
	}
	hopts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(os.Stderr, hopts)), nil
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, hopts)), nil
}

func newGRPCServer(cfg Config, opts ...grpc.ServerOption) (*grpc.Server, error) {
	if !cfg.mtls() {
		return grpc.NewServer(opts...), nil
	}
	tc, err := server.MTLSConfig(cfg.TLS.Cert, cfg.TLS.Key, cfg.TLS.CA)
	if err != nil {
		return nil, err
	}
	return grpc.NewServer(append(opts, grpc.Creds(credentials.NewTLS(tc)))...), nil
}

// stopGracefully lets calls in flight finish, then cuts what remains
// (long-lived Subscribe streams) after shutdownGrace.
func stopGracefully(g *grpc.Server) {
	done := make(chan struct{})
	go func() {
		g.GracefulStop()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(shutdownGrace):
		g.Stop()
	}
}

func serveMetrics(addr string, log *slog.Logger, cs ...prometheus.Collector) (string, func(), error) {
	if addr == "" {
		return "", func() {}, nil
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(cs...)
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("listen metrics %s: %w", addr, err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := hs.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server", "err", err)
		}
	}()
	return lis.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
	}, nil
}
