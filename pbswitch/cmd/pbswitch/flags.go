// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"

	"flag"
	"fmt"
	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/encoding/prototext"
	"strconv"
	"strings"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
	"github.com/flowbuf/flowbuf/pbswitch/node"
)

// portFlags collects --port ID=IFACE[@RATE_BPS].
type portFlags []node.PortSpec

func (p *portFlags) String() string { return fmt.Sprint(*p) }

func (p *portFlags) Set(v string) error {
	id, rest, ok := strings.Cut(v, "=")
	if !ok || rest == "" {
		return fmt.Errorf("want ID=INTERFACE[@RATE_BPS], got %q", v)
	}
	n, err := parsePort(id)
	if err != nil {
		return err
	}
	spec := node.PortSpec{ID: n, Interface: rest}
	if iface, rate, ok := strings.Cut(rest, "@"); ok {
		r, err := strconv.ParseUint(rate, 10, 64)
		if err != nil || iface == "" {
			return fmt.Errorf("bad rate in %q: want ID=INTERFACE@BITS_PER_SECOND", v)
		}
		spec.Interface, spec.RateBps = iface, r
	}
	for _, q := range *p {
		if q.ID == spec.ID {
			return fmt.Errorf("port %d given twice", spec.ID)
		}
	}
	*p = append(*p, spec)
	return nil
}

// delayFlags collects --port-delay ID=DURATION.
type delayFlags map[uint32]time.Duration

func (d delayFlags) String() string { return fmt.Sprint(map[uint32]time.Duration(d)) }

func (d delayFlags) Set(v string) error {
	id, text, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want ID=DURATION (e.g. 1=10ms), got %q", v)
	}
	n, err := parsePort(id)
	if err != nil {
		return err
	}
	delay, err := time.ParseDuration(text)
	if err != nil || delay < 0 || delay > dataplane.MaxPortDelay {
		return fmt.Errorf("bad delay in %q: want a duration in [0, %v], e.g. 10ms", v, dataplane.MaxPortDelay)
	}
	if _, dup := d[n]; dup {
		return fmt.Errorf("port %d delayed twice", n)
	}
	d[n] = delay
	return nil
}

// vportFlags collects --vport ID (in-process vport ports).
type vportFlags []uint32

func (v *vportFlags) String() string { return fmt.Sprint(*v) }

func (v *vportFlags) Set(s string) error {
	n, err := parsePort(s)
	if err != nil {
		return err
	}
	*v = append(*v, n)
	return nil
}

// classFlags collects --buffer-class QUEUE=ALPHA[:high|:low].
type classFlags map[int]dataplane.ClassConfig

func (c classFlags) String() string { return fmt.Sprint(map[int]dataplane.ClassConfig(c)) }

func (c classFlags) Set(v string) error {
	q, rest, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want QUEUE=ALPHA[:high], got %q", v)
	}
	n, err := strconv.Atoi(q)
	if err != nil || n < 0 || n >= dataplane.NumPriorities {
		return fmt.Errorf("queue %q: want a number in [0, %d]", q, dataplane.NumPriorities-1)
	}
	alpha, prio, _ := strings.Cut(rest, ":")
	a, err := strconv.ParseFloat(alpha, 64)
	if err != nil {
		return fmt.Errorf("alpha %q of queue %d: want a number > 0", alpha, n)
	}
	cl := dataplane.ClassConfig{Alpha: a}
	switch prio {
	case "", "low":
	case "high":
		cl.High = true
	default:
		return fmt.Errorf("queue %d: priority %q, want low or high", n, prio)
	}
	if _, dup := c[n]; dup {
		return fmt.Errorf("queue %d's class given twice", n)
	}
	c[n] = cl
	return nil
}

// bufferConfig makes the shared buffer's admission from --buffer-algorithm
// and --buffer-class; the zero config when neither was given.
func bufferConfig(algorithm string, classes classFlags) (dataplane.BufferConfig, error) {
	if algorithm == "" && len(classes) == 0 {
		return dataplane.BufferConfig{}, nil
	}
	cfg := dataplane.DefaultBufferConfig()
	if algorithm != "" {
		a, err := dataplane.ParseAlgorithm(algorithm)
		if err != nil {
			return cfg, fmt.Errorf("--buffer-algorithm: %w", err)
		}
		cfg.Algorithm = a
	}
	for q, cl := range classes {
		cfg.Classes[q] = cl
	}
	return cfg, nil
}

// applyDelays sets each --port-delay on its --port.
func applyDelays(ports []node.PortSpec, delays delayFlags) error {
	for i := range ports {
		if d, ok := delays[ports[i].ID]; ok {
			ports[i].Delay = d
			delete(delays, ports[i].ID)
		}
	}
	for id := range delays {
		return fmt.Errorf("--port-delay names port %d, which no --port declares", id)
	}
	return nil
}

// loadPipeline reads --p4info and --bmv2-json: both or neither.
func loadPipeline(p4infoFile, jsonFile string) (*p4.ForwardingPipelineConfig, error) {
	if (p4infoFile == "") != (jsonFile == "") {
		return nil, fmt.Errorf("--p4info and --bmv2-json go together: the p4info names what the JSON runs")
	}
	if p4infoFile == "" {
		return nil, nil
	}
	text, err := os.ReadFile(p4infoFile)
	if err != nil {
		return nil, fmt.Errorf("--p4info: %w", err)
	}
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal(text, info); err != nil {
		return nil, fmt.Errorf("--p4info %s: %w", p4infoFile, err)
	}
	js, err := os.ReadFile(jsonFile)
	if err != nil {
		return nil, fmt.Errorf("--bmv2-json: %w", err)
	}
	return &p4.ForwardingPipelineConfig{P4Info: info, P4DeviceConfig: js}, nil
}

// parsePort reads a port number; v1model ports are 9 bits and 511 drops.
func parsePort(s string) (uint32, error) {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n == 0 || n >= 511 {
		return 0, fmt.Errorf("port %q: want a number in [1, 510]", s)
	}
	return uint32(n), nil
}

func parseFlags(args []string) (node.Config, error) {
	fs := flag.NewFlagSet("pbswitch", flag.ContinueOnError)
	var ports portFlags
	var vports vportFlags
	delays := delayFlags{}
	classes := classFlags{}
	cfg := node.Config{}
	fs.Uint64Var(&cfg.DeviceID, "device-id", 1, "P4Runtime device id")
	cpu := fs.Uint("cpu-port", 255, "port number that stands for the controller (CPU_PORT of the P4 program)")
	fs.StringVar(&cfg.P4RTListen, "p4rt-listen", ":9559", "gRPC address of P4Runtime and gNMI (one port, as Stratum)")
	fs.StringVar(&cfg.BufferListen, "buffer-listen", ":50061", "southbound buffer API address for in-process buffers; empty disables")
	fs.StringVar(&cfg.Netns, "netns", "", "network namespace path holding the port interfaces (default: this process's)")
	fs.IntVar(&cfg.QueueLen, "queue-len", 0, "packets per priority queue of each port (default 4096)")
	fs.Uint64Var(&cfg.CPURateBps, "cpu-rate", 0, "bits per second the path to the controller carries, as a switch polices what it punts (default: unshaped)")
	fs.IntVar(&cfg.CPUQueueLen, "cpu-queue", 0, "packets per priority queue of the path to the controller; what does not fit is dropped (default: --queue-len)")
	fs.Var(&ports, "port", "front-panel port ID=INTERFACE[@RATE_BPS] (repeatable)")
	fs.Var(&vports, "vport", "in-process vport port ID (repeatable)")
	fs.Var(delays, "port-delay", "a front-panel port's egress delay ID=DURATION, e.g. 1=10ms (a lab link's one-way delay; repeatable)")
	fs.Int64Var(&cfg.SharedBufferBytes, "shared-buffer-bytes", 0, "one buffer of this many bytes shared by every port's queues, admission by --buffer-algorithm (default 0: none, each queue holds --queue-len packets)")
	algorithm := fs.String("buffer-algorithm", "", "the shared buffer's admission: cs (complete sharing), dt (dynamic thresholds) or fb (default dt)")
	fs.Var(classes, "buffer-class", "a queue's class in the shared buffer QUEUE=ALPHA[:high], e.g. 7=2:high (default alpha 1, low; repeatable)")
	scheduler := fs.String("scheduler", "sp", "how a port chooses which queue sends next: sp (strict priority) or rr (round robin)")
	fs.StringVar(&cfg.AdminListen, "admin-listen", "", "address of pbswitch's HTTP admin API (shared buffer admission, counters); empty disables")
	p4infoFile := fs.String("p4info", "", "start with this pipeline's p4info (text format; with --bmv2-json), for P4Runtime clients that do not push one")
	jsonFile := fs.String("bmv2-json", "", "start with this pipeline's bmv2 JSON, as p4c-bm2-ss emits it (with --p4info)")
	tableStore := fs.String("table-store", "slab", "how exact-match tables keep their entries: slab (flat records and an index, no Go object per entry) or generic (a Go object per entry, the reference)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	pl, err := loadPipeline(*p4infoFile, *jsonFile)
	if err != nil {
		return cfg, err
	}
	cfg.Pipeline = pl
	switch *tableStore {
	case "slab":
	case "generic":
		cfg.GenericTables = true
	default:
		return cfg, fmt.Errorf("bad --table-store %q: want slab or generic", *tableStore)
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	if cfg.Scheduler, err = dataplane.ParseScheduler(*scheduler); err != nil {
		return cfg, err
	}
	if cfg.Buffer, err = bufferConfig(*algorithm, classes); err != nil {
		return cfg, err
	}
	if cfg.Buffer.Algorithm != 0 && cfg.SharedBufferBytes == 0 {
		return cfg, fmt.Errorf("--buffer-algorithm and --buffer-class need --shared-buffer-bytes")
	}
	if err := (dataplane.Options{SharedBufferBytes: cfg.SharedBufferBytes, Buffer: cfg.Buffer}).Validate(); err != nil {
		return cfg, err
	}
	if cfg.CPUQueueLen < 0 {
		return cfg, fmt.Errorf("bad --cpu-queue %d: want a packet count, or 0 for --queue-len", cfg.CPUQueueLen)
	}
	cfg.CPUPort, cfg.Ports, cfg.Vports = uint32(*cpu), ports, vports
	if err := applyDelays(cfg.Ports, delays); err != nil {
		return cfg, err
	}
	used := map[uint32]string{cfg.CPUPort: "the CPU port"}
	for _, p := range cfg.Ports {
		if what, dup := used[p.ID]; dup {
			return cfg, fmt.Errorf("port %d is already %s", p.ID, what)
		}
		used[p.ID] = "interface " + p.Interface
	}
	for _, v := range cfg.Vports {
		if what, dup := used[v]; dup {
			return cfg, fmt.Errorf("vport port %d is already %s", v, what)
		}
		used[v] = "a vport port"
	}
	return cfg, nil
}
