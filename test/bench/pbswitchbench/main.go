// SPDX-License-Identifier: Apache-2.0

// Command pbswitchbench measures pbswitch: 64-byte L3 forwarding between
// two veth ports against a Linux bridge on the same veths (same run), the
// forwarding ceiling on one core with a generator that outruns AF_PACKET
// (ceiling.go: bridge, pbswitch, BMv2 where installed; ONLY=ceiling runs
// just that), a flow
// steered through an in-process buffer against the same flow forwarded
// directly (hop.go: pbswitch on one core fed by the ceiling's generator),
// and P4Runtime table-entry writes per second from one client. It
// prints one JSON object per metric, then a one-line summary. QUICK=1 runs
// in under a minute. The packet part needs root (network namespaces);
// ONLY=engine runs the in-process figures alone (the engine on slab and
// generic tables, the push time, P4Runtime writes). The ceiling reports
// pbswitch twice: under the generator's full rate (overload) and at the
// highest paced rate it forwards with under 1 % loss; PBSWITCH=path runs
// that binary instead of building one. ONLY=inproc runs the in-process
// buffer hop alone (root).
package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/test/bench/benchreport"
	"github.com/flowbuf/flowbuf/test/bench/xdpgen"
)

type bench struct {
	quick bool
	dur   time.Duration
	*benchreport.Reporter
}

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// buildDir holds the committed p4c outputs (p4info.txt, bmv2.json),
// relative to the repository root (where `go run ./test/bench/pbswitchbench`
// runs); P4BUILD overrides it.
func buildDir() string {
	if p := os.Getenv("P4BUILD"); p != "" {
		return p
	}
	return "pipeconf/p4src/build"
}

// pushed connects to a pbswitch as primary and pushes the FlowBuf program.
func pushed(addr string) (*ctl.Controller, error) {
	info, err := ctl.LoadPipeline(buildDir())
	if err != nil {
		return nil, err
	}
	c, err := ctl.Connect(addr, 1)
	if err != nil {
		return nil, err
	}
	if err := c.Push(info); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

var networkMetrics = []struct{ name, unit string }{
	{"generator_max_mpps_64b", "Mpps"}, {"baseline_fwd_mpps_64b", "Mpps"}, {"pbswitch_fwd_mpps_64b", "Mpps"},
	{"pbswitch_vs_bridge_64b", "ratio"}, {"pbswitch_inproc_buffer_vs_direct", "ratio"},
	{"generator_mpps_64b", "Mpps"}, {"bridge_fwd_mpps_64b_1core", "Mpps"}, {"pbswitch_fwd_mpps_64b_1core", "Mpps"},
	{"pbswitch_vs_bridge_64b_1core", "ratio"}, {"pbswitch_lossless_mpps_64b_1core", "Mpps"}, {"bmv2_fwd_mpps_64b_1core", "Mpps"},
	{"pbswitch_cpu_share_1core", "ratio"}, {"pbswitch_fwd_mpps_per_cpu_second", "Mpps"},
	{"bmv2_cpu_share_1core", "ratio"}, {"bmv2_fwd_mpps_per_cpu_second", "Mpps"},
	{"pbswitch_stack_sink_fwd_mpps_64b_1core", "Mpps"}, {"pbswitch_stack_sink_cpu_share_1core", "ratio"},
	{"pbswitch_stack_sink_fwd_mpps_per_cpu_second", "Mpps"}, {"pbswitch_stack_sink_softirq_share_1core", "ratio"},
	{"pbswitch_inproc_buffer_fwd_mpps_64b_1core", "Mpps"}, {"pbswitch_inproc_buffer_vs_direct_rate", "ratio"},
}

func init() { // the runs with the sink's receive in a thread off the switch's CPU
	for _, s := range sinkThreadSinks {
		networkMetrics = append(networkMetrics, []struct{ name, unit string }{
			{s.prefix + "_fwd_mpps_64b_1core", "Mpps"}, {s.prefix + "_cpu_share_1core", "ratio"}, {s.prefix + "_fwd_mpps_per_cpu_second", "Mpps"},
			{s.prefix + "_napi_thread_cpu_share", "ratio"}, {s.prefix + "_softirq_share_1core", "ratio"}, {s.prefix + "_sink_dropped_ratio", "ratio"}}...)
	}
}

func main() {
	slog.SetDefault(quietLog)
	b := &bench{quick: os.Getenv("QUICK") == "1", dur: 6 * time.Second, Reporter: benchreport.New(os.Stdout)}
	if b.quick {
		b.dur = 1500 * time.Millisecond
	}
	start := time.Now()
	if os.Getenv("ONLY") == "ceiling" {
		if err := b.ceiling(); err != nil {
			fmt.Fprintln(os.Stderr, "pbswitchbench: forwarding ceiling:", err)
			os.Exit(1)
		}
		fmt.Println(b.ceilingSummary(time.Since(start)))
		return
	}
	if os.Getenv("ONLY") == "inproc" { // the in-process buffer hop alone
		if err := b.hop(); err != nil {
			fmt.Fprintln(os.Stderr, "pbswitchbench: in-process buffer hop:", err)
			os.Exit(1)
		}
		fmt.Println(b.hopSummary(time.Since(start)))
		return
	}
	if os.Getenv("ONLY") == "engine" { // the in-process figures alone: no namespaces
		for _, m := range networkMetrics {
			b.Skip(m.name, m.unit, "ONLY=engine")
		}
	} else if nslab.IsRoot() {
		if err := b.network(); err != nil {
			fmt.Fprintln(os.Stderr, "pbswitchbench: packet benchmarks:", err)
			os.Exit(1)
		}
		if err := b.ceiling(); err != nil {
			fmt.Fprintln(os.Stderr, "pbswitchbench: forwarding ceiling:", err)
			os.Exit(1)
		}
		if err := b.hop(); err != nil {
			fmt.Fprintln(os.Stderr, "pbswitchbench: in-process buffer hop:", err)
			os.Exit(1)
		}
	} else {
		for _, m := range networkMetrics {
			b.Skip(m.name, m.unit, "needs root for network namespaces")
		}
	}
	if err := b.engine(); err != nil {
		fmt.Fprintln(os.Stderr, "pbswitchbench: engine:", err)
		os.Exit(1)
	}
	if err := b.writes(); err != nil {
		fmt.Fprintln(os.Stderr, "pbswitchbench: P4Runtime writes:", err)
		os.Exit(1)
	}
	fmt.Println(b.summary(time.Since(start)))
}

// goals are the targets.
var goals = []benchreport.Goal{
	// Against the bridge on one core each: pbswitch_vs_bridge_64b compares
	// setups that are not alike (its condition says why).
	{Metric: "pbswitch_vs_bridge_64b_1core", AtLeast: true, Bound: 0.6},
	{Metric: "pbswitch_fwd_mpps_64b_1core", AtLeast: true, Bound: 1.0},
	{Metric: "pbswitch_inproc_buffer_vs_direct", AtLeast: true, Bound: 0.9},
	{Metric: "p4rt_write_entries_per_s", AtLeast: true, Bound: 50000},
	{Metric: "pipeline_push_ms", AtLeast: false, Bound: 200},
}

func (b *bench) hopSummary(took time.Duration) string {
	return fmt.Sprintf("pbswitchbench (%s, in-process buffer hop, %.0fs): pbswitch on one core under the XDP generator, buffered / direct: %.3f per CPU-second (goal >= 0.9), %.3f in rate; buffered %.3f Mpps",
		map[bool]string{true: "QUICK", false: "full"}[b.quick], took.Seconds(), b.Value("pbswitch_inproc_buffer_vs_direct"),
		b.Value("pbswitch_inproc_buffer_vs_direct_rate"), b.Value("pbswitch_inproc_buffer_fwd_mpps_64b_1core"))
}

func (b *bench) summary(took time.Duration) string {
	met, missed := b.Goals(goals)
	return fmt.Sprintf("pbswitchbench (%s, %.0fs): pbswitch %.3f Mpps vs bridge %.3f Mpps (generator %.3f); ceiling on one core (XDP generator %.3f Mpps): pbswitch %.3f overloaded (%.0f %% of its core: %.3f Mpps per CPU-second; into the stack sink %.3f per CPU-second; with the sink's receive off its CPU %.3f / %.3f), %.3f with < 1 %% loss, bridge %.3f, BMv2 %.3f Mpps; in-process buffer hop %.3f per CPU-second of direct; engine %.0f ns/packet (generic tables %.0f: ratio %.2f), push %.1f ms, P4Runtime %.0f entries/s; goals met: %s; goals missed: %s",
		map[bool]string{true: "QUICK", false: "full"}[b.quick], took.Seconds(),
		b.Value("pbswitch_fwd_mpps_64b"), b.Value("baseline_fwd_mpps_64b"), b.Value("generator_max_mpps_64b"),
		b.Value("generator_mpps_64b"), b.Value("pbswitch_fwd_mpps_64b_1core"), 100*b.Value("pbswitch_cpu_share_1core"), b.Value("pbswitch_fwd_mpps_per_cpu_second"),
		b.Value("pbswitch_stack_sink_fwd_mpps_per_cpu_second"), b.Value("pbswitch_sink_thread_fwd_mpps_per_cpu_second"),
		b.Value("pbswitch_stack_sink_thread_fwd_mpps_per_cpu_second"), b.Value("pbswitch_lossless_mpps_64b_1core"), b.Value("bridge_fwd_mpps_64b_1core"), b.Value("bmv2_fwd_mpps_64b_1core"),
		b.Value("pbswitch_inproc_buffer_vs_direct"),
		b.Value("engine_pipeline_ns_per_packet"), b.Value("engine_pipeline_ns_per_packet_generic_tables"),
		b.Value("engine_slab_vs_generic_tables"), b.Value("pipeline_push_ms"),
		b.Value("p4rt_write_entries_per_s"), met, missed)
}

// ceilingSummary is the one line of ONLY=ceiling: the figures, and what
// limits them (pbswitch's CPU a frame, with the sink's receive in its
// context and off its CPU, and the share of CPU 1 it got).
func (b *bench) ceilingSummary(took time.Duration) string {
	us := xdpgen.MicrosecondsPerFrame
	best := max(b.Value("pbswitch_sink_thread_fwd_mpps_per_cpu_second"), b.Value("pbswitch_stack_sink_thread_fwd_mpps_per_cpu_second"))
	return fmt.Sprintf("pbswitchbench ceiling (%.0fs): generator %.3f Mpps, bridge %.3f; pbswitch %.3f Mpps overloaded with %.0f %% of CPU 1 "+
		"(%.3f Mpps per CPU-second, stack sink %.3f; with the sink's receive in a NAPI thread on CPU 0: %.3f / %.3f, CPU 1 softirq %.2f / %.2f), "+
		"%.3f with < 1 %% loss, BMv2 %.3f; what limits it: pbswitch's CPU a frame, %.2f µs with the sink's receive in its context (XDP sink) and %.2f µs "+
		"with it off its CPU (pbswitch's work and the kernel's transmit, one skb a frame), and the %.0f %% of CPU 1 it got on a shared machine",
		took.Seconds(), b.Value("generator_mpps_64b"), b.Value("bridge_fwd_mpps_64b_1core"), b.Value("pbswitch_fwd_mpps_64b_1core"),
		100*b.Value("pbswitch_cpu_share_1core"), b.Value("pbswitch_fwd_mpps_per_cpu_second"), b.Value("pbswitch_stack_sink_fwd_mpps_per_cpu_second"),
		b.Value("pbswitch_sink_thread_fwd_mpps_per_cpu_second"), b.Value("pbswitch_stack_sink_thread_fwd_mpps_per_cpu_second"),
		b.Value("pbswitch_sink_thread_softirq_share_1core"), b.Value("pbswitch_stack_sink_thread_softirq_share_1core"),
		b.Value("pbswitch_lossless_mpps_64b_1core"), b.Value("bmv2_fwd_mpps_64b_1core"),
		us(b.Value("pbswitch_fwd_mpps_per_cpu_second")), us(best), 100*b.Value("pbswitch_cpu_share_1core"))
}
