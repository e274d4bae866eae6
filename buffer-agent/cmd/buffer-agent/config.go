// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// Config is the agent's configuration: defaults, then the config file
// (YAML, or JSON which YAML reads too), then flags given on the command line.
type Config struct {
	Listen        string                 `yaml:"listen"`
	MetricsListen string                 `yaml:"metrics_listen"`
	Netns         string                 `yaml:"netns"`
	PoolBytes     uint64                 `yaml:"pool_bytes"`
	MaxBufBytes   uint64                 `yaml:"max_buffer_bytes"`
	MaxBufPackets uint64                 `yaml:"max_buffer_packets"`
	MaxBuffers    uint32                 `yaml:"max_buffers"`
	MaxVports     uint32                 `yaml:"max_vports"`
	MaxFrameBytes uint32                 `yaml:"max_frame_bytes"`
	MaxTags       uint32                 `yaml:"max_tags_per_backend"`
	RxSlots       int                    `yaml:"rx_ring_slots"`
	DefaultQuota  QuotaConfig            `yaml:"default_quota"`
	Quotas        map[string]QuotaConfig `yaml:"quotas"`
	TLS           TLSConfig              `yaml:"tls"`
	LogLevel      string                 `yaml:"log_level"`
	LogFormat     string                 `yaml:"log_format"`
	// StateDir keeps held packets across a crash of the agent (see
	// stateDir); "auto" derives it from Listen, "" disables it.
	StateDir string `yaml:"state_dir"`
	// Admission decides which buffer may take more of the pool; SIGHUP
	// applies a changed one without a restart.
	Admission AdmissionConfig `yaml:"pool_admission"`
}

// AdmissionConfig is engine.AdmissionConfig as the config file writes it.
type AdmissionConfig struct {
	Algorithm string                 `yaml:"algorithm"`  // quota, dt or fb
	LongPause time.Duration          `yaml:"long_pause"` // fb; 0: engine default
	Default   ClassConfig            `yaml:"default_class"`
	Classes   map[string]ClassConfig `yaml:"classes"` // by owner (application id)
}

// ClassConfig is an owner's admission class; a missing alpha means 1.
type ClassConfig struct {
	Alpha       *float64 `yaml:"alpha"`
	Low         bool     `yaml:"low"`
	PausedGamma float64  `yaml:"paused_gamma"`
}

func (c ClassConfig) engine(name string) (engine.ClassConfig, error) {
	out := engine.ClassConfig{Alpha: 1, Low: c.Low, PausedGamma: c.PausedGamma}
	if c.Alpha != nil {
		if !(*c.Alpha > 0) {
			return out, fmt.Errorf("pool_admission %s: alpha %v must be a finite number > 0", name, *c.Alpha)
		}
		out.Alpha = *c.Alpha
	}
	return out, nil
}

// engine converts the admission for the engine, checking it against a
// pool of poolBytes.
func (c AdmissionConfig) engine(poolBytes uint64) (engine.AdmissionConfig, error) {
	var out engine.AdmissionConfig
	alg, err := engine.ParseAlgorithm(c.Algorithm)
	if err != nil {
		return out, fmt.Errorf("pool_admission: %w", err)
	}
	out = engine.AdmissionConfig{Algorithm: alg, LongPause: c.LongPause, Owners: map[string]engine.ClassConfig{}}
	if out.Default, err = c.Default.engine("default_class"); err != nil {
		return out, err
	}
	for owner, cl := range c.Classes {
		if out.Owners[owner], err = cl.engine(fmt.Sprintf("class of owner %q", owner)); err != nil {
			return out, err
		}
	}
	if err := out.Validate(poolBytes); err != nil {
		return out, fmt.Errorf("pool_admission: %w", err)
	}
	return out, nil
}

// classFlag is a repeated -pool-class OWNER=ALPHA[:low] flag.
type classFlag struct{ classes *map[string]ClassConfig }

func (f classFlag) String() string { return "" }

func (f classFlag) Set(v string) error {
	owner, spec, ok := strings.Cut(v, "=")
	if !ok || owner == "" {
		return fmt.Errorf("%q: want OWNER=ALPHA[:low]", v)
	}
	a, low, _ := strings.Cut(spec, ":")
	alpha, err := strconv.ParseFloat(a, 64)
	if err != nil {
		return fmt.Errorf("%q: alpha %q is not a number", v, a)
	}
	if low != "" && low != "low" {
		return fmt.Errorf("%q: want OWNER=ALPHA[:low], not :%s", v, low)
	}
	if *f.classes == nil {
		*f.classes = map[string]ClassConfig{}
	}
	(*f.classes)[owner] = ClassConfig{Alpha: &alpha, Low: low == "low"}
	return nil
}

// QuotaConfig is a per-application quota; 0 means no limit of its own.
type QuotaConfig struct {
	MaxBytes   uint64 `yaml:"max_bytes"`
	MaxBuffers uint32 `yaml:"max_buffers"`
	MaxVports  uint32 `yaml:"max_vports"`
}

// TLSConfig enables mutual TLS when all three files are given.
type TLSConfig struct {
	Cert string `yaml:"cert"`
	Key  string `yaml:"key"`
	CA   string `yaml:"ca"`
}

func defaults() Config {
	d := engine.DefaultLimits
	return Config{
		Listen:        ":50061",
		MetricsListen: ":9465",
		PoolBytes:     d.PoolBytes,
		MaxBufBytes:   d.MaxBufferBytes,
		MaxBufPackets: d.MaxBufferPackets,
		MaxBuffers:    d.MaxBuffers,
		MaxVports:     d.MaxVports,
		MaxFrameBytes: d.MaxFrameBytes,
		MaxTags:       d.MaxTagsPerBackend,
		LogLevel:      "info",
		LogFormat:     "json",
		StateDir:      "auto",
		Admission:     AdmissionConfig{Algorithm: "quota"},
	}
}

// parseConfig reads flags and the optional config file.
func parseConfig(args []string) (Config, error) {
	cfg := defaults()
	fs := flag.NewFlagSet("buffer-agent", flag.ContinueOnError)
	file := fs.String("config", "", "config file (YAML or JSON)")
	var fromFlags Config
	fs.StringVar(&fromFlags.Listen, "listen", cfg.Listen, "gRPC listen address")
	fs.StringVar(&fromFlags.MetricsListen, "metrics-listen", cfg.MetricsListen, "Prometheus /metrics address; empty disables")
	fs.StringVar(&fromFlags.Netns, "netns", "", "network namespace path of the vport interfaces (default: the agent's own)")
	fs.Uint64Var(&fromFlags.PoolBytes, "pool-bytes", cfg.PoolBytes, "hard limit of the shared packet pool")
	fs.Uint64Var(&fromFlags.MaxBufBytes, "max-buffer-bytes", cfg.MaxBufBytes, "largest buffer, bytes")
	fs.Uint64Var(&fromFlags.MaxBufPackets, "max-buffer-packets", cfg.MaxBufPackets, "largest buffer, packets")
	fs.IntVar(&fromFlags.RxSlots, "rx-ring-slots", 0, "RX ring depth per vport, frames (0: default)")
	fs.Uint64Var(&fromFlags.DefaultQuota.MaxBytes, "quota-bytes", 0, "default per-application quota, bytes held")
	fs.StringVar(&fromFlags.TLS.Cert, "tls-cert", "", "server certificate (PEM) for mTLS")
	fs.StringVar(&fromFlags.TLS.Key, "tls-key", "", "server key (PEM) for mTLS")
	fs.StringVar(&fromFlags.TLS.CA, "tls-ca", "", "CA (PEM) that client certificates must chain to")
	fs.StringVar(&fromFlags.LogLevel, "log-level", cfg.LogLevel, "debug, info, warn or error")
	fs.StringVar(&fromFlags.LogFormat, "log-format", cfg.LogFormat, "json or text")
	fs.StringVar(&fromFlags.StateDir, "state-dir", cfg.StateDir,
		"directory (on tmpfs) keeping held packets across a crash of the agent; auto: "+autoStateRoot+"/flowbuf-agent-<listen address>; empty: none (held packets die with the agent)")
	fs.StringVar(&fromFlags.Admission.Algorithm, "pool-admission", cfg.Admission.Algorithm,
		"pool admission across buffers: quota (static quotas only), dt (dynamic thresholds) or fb")
	fs.Func("pool-alpha", "alpha of the default admission class (dt, fb)", func(v string) error {
		a, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", v)
		}
		fromFlags.Admission.Default.Alpha = &a
		return nil
	})
	fs.DurationVar(&fromFlags.Admission.LongPause, "pool-long-pause", 0, "fb: age of its oldest packet from which a paused buffer is a long pause (0: 100ms)")
	fs.Var(classFlag{&fromFlags.Admission.Classes}, "pool-class", "admission class of an owner, OWNER=ALPHA[:low] (repeatable)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	if *file != "" {
		if err := readFile(*file, &cfg); err != nil {
			return cfg, err
		}
	}
	fs.Visit(func(f *flag.Flag) { applyFlag(&cfg, &fromFlags, f.Name) })
	return cfg, cfg.validate()
}

func readFile(path string, cfg *Config) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read config: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	// An empty file decodes as io.EOF and means "defaults".
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("config %s: %w", path, err)
	}
	return nil
}

func applyFlag(cfg, f *Config, name string) {
	switch name {
	case "listen":
		cfg.Listen = f.Listen
	case "metrics-listen":
		cfg.MetricsListen = f.MetricsListen
	case "netns":
		cfg.Netns = f.Netns
	case "pool-bytes":
		cfg.PoolBytes = f.PoolBytes
	case "max-buffer-bytes":
		cfg.MaxBufBytes = f.MaxBufBytes
	case "max-buffer-packets":
		cfg.MaxBufPackets = f.MaxBufPackets
	case "rx-ring-slots":
		cfg.RxSlots = f.RxSlots
	case "quota-bytes":
		cfg.DefaultQuota.MaxBytes = f.DefaultQuota.MaxBytes
	case "tls-cert":
		cfg.TLS.Cert = f.TLS.Cert
	case "tls-key":
		cfg.TLS.Key = f.TLS.Key
	case "tls-ca":
		cfg.TLS.CA = f.TLS.CA
	case "log-level":
		cfg.LogLevel = f.LogLevel
	case "log-format":
		cfg.LogFormat = f.LogFormat
	case "state-dir":
		cfg.StateDir = f.StateDir
	case "pool-admission":
		cfg.Admission.Algorithm = f.Admission.Algorithm
	case "pool-alpha":
		cfg.Admission.Default.Alpha = f.Admission.Default.Alpha
	case "pool-long-pause":
		cfg.Admission.LongPause = f.Admission.LongPause
	case "pool-class":
		if cfg.Admission.Classes == nil {
			cfg.Admission.Classes = map[string]ClassConfig{}
		}
		for o, c := range f.Admission.Classes {
			cfg.Admission.Classes[o] = c
		}
	}
}

func (c Config) validate() error {
	if c.Listen == "" {
		return errors.New("listen address is required")
	}
	t := c.TLS
	if set := btoi(t.Cert != "") + btoi(t.Key != "") + btoi(t.CA != ""); set != 0 && set != 3 {
		return errors.New("mTLS needs all of tls cert, key and ca")
	}
	if c.Netns != "" {
		if _, err := os.Stat(c.Netns); err != nil {
			return fmt.Errorf("netns: %w", err)
		}
	}
	if c.PoolBytes == 0 {
		return errors.New("pool_bytes must be above 0")
	}
	if c.MaxBufBytes > c.PoolBytes {
		return fmt.Errorf("max_buffer_bytes %d above pool_bytes %d", c.MaxBufBytes, c.PoolBytes)
	}
	if _, err := c.Admission.engine(c.PoolBytes); err != nil {
		return err
	}
	if _, err := c.level(); err != nil {
		return err
	}
	if c.LogFormat != "json" && c.LogFormat != "text" {
		return fmt.Errorf("log_format %q is not json or text", c.LogFormat)
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (c Config) level() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return l, fmt.Errorf("log_level %q: %w", c.LogLevel, err)
	}
	return l, nil
}

// autoStateRoot is where "auto" puts the state directory: tmpfs on every
// Linux system, so the journals cost no disk I/O and outlive the process,
// not a reboot.
const autoStateRoot = "/dev/shm"

// stateDir resolves StateDir: "auto" is autoStateRoot/flowbuf-agent-<listen
// address> (one agent per address, and the agent restarted on the same
// address finds its buffers), or none when the address has port 0 (a
// different port at each start: nothing to find again) or autoStateRoot
// is missing.
func (c Config) stateDir() string {
	if c.StateDir != "auto" {
		return c.StateDir
	}
	_, port, err := net.SplitHostPort(c.Listen)
	if err != nil || port == "0" {
		return ""
	}
	if st, err := os.Stat(autoStateRoot); err != nil || !st.IsDir() {
		return ""
	}
	name := []byte("flowbuf-agent-" + c.Listen)
	for i, ch := range name {
		ok := ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '.' || ch == '-'
		if !ok {
			name[i] = '_'
		}
	}
	return filepath.Join(autoStateRoot, string(name))
}

func (c Config) mtls() bool { return c.TLS.Cert != "" }

func (c Config) engineOptions() engine.Options {
	quotas := map[string]engine.Quota{}
	for app, q := range c.Quotas {
		quotas[app] = engine.Quota(q)
	}
	adm, _ := c.Admission.engine(c.PoolBytes) // checked by validate
	return engine.Options{
		Admission: &adm,
		Limits: engine.Limits{
			PoolBytes: c.PoolBytes, MaxBufferBytes: c.MaxBufBytes, MaxBufferPackets: c.MaxBufPackets,
			MaxBuffers: c.MaxBuffers, MaxVports: c.MaxVports, MaxFrameBytes: c.MaxFrameBytes,
			MaxTagsPerBackend: c.MaxTags,
		},
		DefaultQuota: engine.Quota(c.DefaultQuota),
		Quotas:       quotas,
		StateDir:     c.stateDir(),
	}
}
