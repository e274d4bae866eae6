// SPDX-License-Identifier: Apache-2.0

// Command agentbench measures the buffer-agent: forwarding through real
// veth pairs against a Linux bridge between the same veths (same run),
// added latency, the engine alone in process, scaling to 2048 buffers,
// control-call latency over gRPC on loopback, a paused/resumed stream, and
// the gNodeB's buffer-as-a-service (PDCP ARQ) on one and two cores.
// It prints one JSON object per metric, then a one-line summary. QUICK=1
// gives a run of under a minute. The network part needs root. -only baas
// runs the buffer-as-a-service part alone, -only network the veth part.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
	"github.com/flowbuf/flowbuf/test/bench/benchreport"
)

type bench struct {
	quick bool
	dur   time.Duration // per throughput measurement
	*benchreport.Reporter
}

func main() {
	b := &bench{
		quick:    os.Getenv("QUICK") == "1",
		dur:      4 * time.Second,
		Reporter: benchreport.New(os.Stdout),
	}
	if b.quick {
		b.dur = 1500 * time.Millisecond
	}
	only := flag.String("only", "", "run one part only: baas (the buffer-as-a-service benchmark) or network (veths, needs root and the lab lock)")
	flag.Parse()
	start := time.Now()
	switch *only {
	case "":
		b.all()
	case "baas":
		run("BaaS benchmark", b.baas)
	case "network":
		if !nslab.IsRoot() {
			fmt.Fprintln(os.Stderr, "agentbench: -only network needs root for network namespaces")
			os.Exit(2)
		}
		run("network benchmarks", b.network)
	default:
		fmt.Fprintf(os.Stderr, "agentbench: -only %q: the parts that run alone are baas and network\n", *only)
		os.Exit(2)
	}
	fmt.Println(b.summary(time.Since(start), *only))
}

// all runs every part.
func (b *bench) all() {
	if nslab.IsRoot() {
		run("network benchmarks", b.network)
	} else {
		for _, m := range networkMetrics {
			b.Skip(m.name, m.unit, "needs root for network namespaces")
		}
	}
	run("engine benchmarks", b.inProcess)
	run("API benchmarks", b.api)
	run("purge benchmark", b.purge)
	run("BaaS benchmark", b.baas)
}

// run runs one part; its error ends the program.
func run(part string, f func() error) {
	if err := f(); err != nil {
		fmt.Fprintf(os.Stderr, "agentbench: %s: %v\n", part, err)
		os.Exit(1)
	}
}

var networkMetrics = []struct{ name, unit string }{
	{"generator_max_mpps_64b", "Mpps"}, {"baseline_fwd_mpps_64b", "Mpps"}, {"agent_fwd_mpps_64b", "Mpps"},
	{"agent_vs_bridge_64b", "ratio"}, {"agent_fwd_gbps_1500b", "Gbps"},
	{"agent_latency_us_p50", "us"}, {"agent_latency_us_p99", "us"},
	{"bridge_latency_us_p50", "us"}, {"bridge_latency_us_p99", "us"},
	{"agent_added_latency_us_p50", "us"}, {"agent_added_latency_us_p99", "us"},
	{"pause_resume_lost", "packets"}, {"pause_resume_reordered", "packets"},
}

var goals = []benchreport.Goal{
	{Metric: "agent_vs_bridge_64b", AtLeast: true, Bound: 0.8},
	{Metric: "agent_added_latency_us_p50", AtLeast: false, Bound: 20},
	{Metric: "engine_inproc_mpps", AtLeast: true, Bound: 20},
	{Metric: "buffers_2048_vs_4_throughput", AtLeast: true, Bound: 0.8},
	{Metric: "pause_resume_lost", AtLeast: false, Bound: 0},
	{Metric: "pause_resume_reordered", AtLeast: false, Bound: 0},
	{Metric: "fmm_sync_purge_ms_10k", AtLeast: false, Bound: 1},
	{Metric: "baas_mpps_1core_128b", AtLeast: true, Bound: 5},
	{Metric: "baas_scaling_2_vs_1_core", AtLeast: true, Bound: 1.7},
}

func (b *bench) summary(took time.Duration, only string) string {
	all := append([]benchreport.Goal(nil), goals...)
	for _, call := range apiCalls {
		all = append(all, benchreport.Goal{Metric: "api_" + call + "_ms_p50", Bound: 0.5})
	}
	met, missed := b.Goals(all)
	mode := map[bool]string{true: "QUICK", false: "full"}[b.quick]
	baas := fmt.Sprintf("BaaS %.2f Mpps on 1 core, %.2f on 2 (scaling %.2f)",
		b.Value("baas_mpps_1core_128b"), b.Value("baas_mpps_2core_128b"), b.Value("baas_scaling_2_vs_1_core"))
	if only == "baas" {
		return fmt.Sprintf("agentbench (%s, baas only, %.0fs): %s; goals met: %s; goals missed: %s", mode, took.Seconds(), baas, met, missed)
	}
	return fmt.Sprintf("agentbench (%s, %.0fs): agent %.3f Mpps vs bridge %.3f Mpps (generator %.3f), engine %.1f Mpps, %s; goals met: %s; goals missed: %s",
		mode, took.Seconds(),
		b.Value("agent_fwd_mpps_64b"), b.Value("baseline_fwd_mpps_64b"), b.Value("generator_max_mpps_64b"),
		b.Value("engine_inproc_mpps"), baas, met, missed)
}
