// SPDX-License-Identifier: Apache-2.0

// Command agentbench measures the buffer-agent: forwarding through real
// veth pairs against a Linux bridge between the same veths (same run),
// added latency, the engine alone in process, scaling to 2048 buffers,
// control-call latency over gRPC on loopback, and a paused/resumed stream.
// It prints one JSON object per metric, then a one-line summary. QUICK=1
// gives a run of under a minute. The network part needs root.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

type result struct {
	Metric     string         `json:"metric"`
	Value      any            `json:"value"`
	Unit       string         `json:"unit"`
	Conditions map[string]any `json:"conditions,omitempty"`
}

type bench struct {
	quick   bool
	dur     time.Duration // per throughput measurement
	results map[string]float64
	enc     *json.Encoder
}

func (b *bench) emit(metric string, value float64, unit string, cond map[string]any) {
	b.results[metric] = value
	_ = b.enc.Encode(result{Metric: metric, Value: round(value), Unit: unit, Conditions: cond})
}

// skip reports a metric that could not be measured, with why.
func (b *bench) skip(metric, unit, why string) {
	_ = b.enc.Encode(result{Metric: metric, Value: nil, Unit: unit, Conditions: map[string]any{"skipped": why}})
}

func round(v float64) float64 {
	switch {
	case v >= 100:
		return float64(int64(v*10+0.5)) / 10
	default:
		return float64(int64(v*1000+0.5)) / 1000
	}
}

func main() {
	b := &bench{
		quick:   os.Getenv("QUICK") == "1",
		dur:     4 * time.Second,
		results: map[string]float64{},
		enc:     json.NewEncoder(os.Stdout),
	}
	if b.quick {
		b.dur = 1500 * time.Millisecond
	}
	start := time.Now()
	if nslab.IsRoot() {
		if err := b.network(); err != nil {
			fmt.Fprintln(os.Stderr, "agentbench: network benchmarks:", err)
			os.Exit(1)
		}
	} else {
		for _, m := range networkMetrics {
			b.skip(m.name, m.unit, "needs root for network namespaces")
		}
	}
	if err := b.inProcess(); err != nil {
		fmt.Fprintln(os.Stderr, "agentbench: engine benchmarks:", err)
		os.Exit(1)
	}
	if err := b.api(); err != nil {
		fmt.Fprintln(os.Stderr, "agentbench: API benchmarks:", err)
		os.Exit(1)
	}
	fmt.Println(b.summary(time.Since(start)))
}

var networkMetrics = []struct{ name, unit string }{
	{"generator_max_mpps_64b", "Mpps"}, {"baseline_fwd_mpps_64b", "Mpps"}, {"agent_fwd_mpps_64b", "Mpps"},
	{"agent_vs_bridge_64b", "ratio"}, {"agent_fwd_gbps_1500b", "Gbps"},
	{"agent_added_latency_us_p50", "us"}, {"agent_added_latency_us_p99", "us"},
	{"pause_resume_lost", "packets"}, {"pause_resume_reordered", "packets"},
}

// goal is one of the targets: metric >= bound when atLeast, else
// metric <= bound.
type goal struct {
	metric  string
	atLeast bool
	bound   float64
}

var goals = []goal{
	{"agent_vs_bridge_64b", true, 0.8},
	{"agent_added_latency_us_p50", false, 20},
	{"engine_inproc_mpps", true, 20},
	{"buffers_2048_vs_4_throughput", true, 0.8},
	{"pause_resume_lost", false, 0},
	{"pause_resume_reordered", false, 0},
}

func (b *bench) summary(took time.Duration) string {
	var met, missed []string
	all := append([]goal(nil), goals...)
	for _, call := range apiCalls {
		all = append(all, goal{"api_" + call + "_ms_p50", false, 0.5})
	}
	for _, g := range all {
		v, ok := b.results[g.metric]
		if !ok {
			continue
		}
		pass := v <= g.bound
		if g.atLeast {
			pass = v >= g.bound
		}
		s := fmt.Sprintf("%s=%v", g.metric, round(v))
		if pass {
			met = append(met, s)
		} else {
			missed = append(missed, s)
		}
	}
	return fmt.Sprintf("agentbench (%s, %.0fs): agent %.3f Mpps vs bridge %.3f Mpps (generator %.3f), engine %.1f Mpps; goals met: %s; goals missed: %s",
		map[bool]string{true: "QUICK", false: "full"}[b.quick], took.Seconds(),
		b.results["agent_fwd_mpps_64b"], b.results["baseline_fwd_mpps_64b"], b.results["generator_max_mpps_64b"],
		b.results["engine_inproc_mpps"], orNone(met), orNone(missed))
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, " ")
}
