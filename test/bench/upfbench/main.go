// SPDX-License-Identifier: Apache-2.0

// Command upfbench measures the 5G UPF of the FlowBuf program
// (pipeconf/p4src/include/upf.p4) on pbswitch, in one run: the engine's
// GTP-U encapsulation (downlink) and decapsulation (uplink) per packet in
// this process against plain L3 routed forwarding of the same program and
// frame size, measured interleaved in the same run; the downlink at 4,096
// sessions (the hybrid UPF's fast profile) and at 1M (its slow profile);
// and batched P4Runtime Writes of 1M downlink sessions to a real pbswitch
// process running the slow profile, with that process's RSS growth per
// session. Table lookups and installs are measured with the exact tables
// in slabs and, as the baseline in the same run, on the generic store. It
// prints one JSON object per metric, then a one-line summary with the
// goals of issues 22 and 40. QUICK=1 is short; ONLY=scale runs the 1M
// figures alone (no namespaces), ONLY=sessions only the installs on slabs (with
// SESSION_BATCH sessions per Write and WRITES_IN_FLIGHT outstanding),
// ONLY=profile PROFILE=dir profiles the installs in process.
package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/test/bench/benchreport"
)

type bench struct {
	quick bool
	// slabOnly runs the installs on the slab store alone (ONLY=sessions).
	slabOnly bool
	*benchreport.Reporter
}

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// buildDir holds the committed p4c outputs (p4info.txt, bmv2.json),
// relative to the repository root; P4BUILD overrides it.
func buildDir() string {
	if p := os.Getenv("P4BUILD"); p != "" {
		return p
	}
	return "pipeconf/p4src/build"
}

func main() {
	slog.SetDefault(quietLog)
	b := &bench{quick: os.Getenv("QUICK") == "1", Reporter: benchreport.New(os.Stdout)}
	start := time.Now()
	load0 := loadAvg()
	pl, err := ctl.LoadPipeline(buildDir())
	if err != nil {
		fmt.Fprintln(os.Stderr, "upfbench:", err)
		os.Exit(1)
	}
	if dir := os.Getenv("PROFILE"); os.Getenv("ONLY") == "profile" && dir != "" { // profiles of the installs
		if err := profileInstall(dir, scaleSessions); err != nil {
			fmt.Fprintln(os.Stderr, "upfbench: profile:", err)
			os.Exit(1)
		}
		return
	}
	if os.Getenv("ONLY") == "sessions" { // the 1M installs alone
		b.slabOnly = true
		if err := b.sessions(); err != nil {
			fmt.Fprintln(os.Stderr, "upfbench: sessions:", err)
			os.Exit(1)
		}
		fmt.Println(b.summary(time.Since(start), load0, loadAvg()))
		return
	}
	if os.Getenv("ONLY") == "ceiling" { // just the forwarding ceiling
		if err := b.ceiling(pl); err != nil {
			fmt.Fprintln(os.Stderr, "upfbench: forwarding ceiling:", err)
			os.Exit(1)
		}
		fmt.Println(b.ceilingSummary(time.Since(start)))
		return
	}
	if os.Getenv("ONLY") == "scale" { // the 1M figures alone
		if err := b.lookupScale(); err != nil {
			fmt.Fprintln(os.Stderr, "upfbench: lookup at scale:", err)
			os.Exit(1)
		}
		if err := b.sessions(); err != nil {
			fmt.Fprintln(os.Stderr, "upfbench: sessions:", err)
			os.Exit(1)
		}
		fmt.Println(b.summary(time.Since(start), load0, loadAvg()))
		return
	}
	if err := b.engine(pl); err != nil {
		fmt.Fprintln(os.Stderr, "upfbench: engine:", err)
		os.Exit(1)
	}
	if err := b.lookupScale(); err != nil {
		fmt.Fprintln(os.Stderr, "upfbench: lookup at scale:", err)
		os.Exit(1)
	}
	if err := b.sessions(); err != nil {
		fmt.Fprintln(os.Stderr, "upfbench: sessions:", err)
		os.Exit(1)
	}
	if os.Geteuid() != 0 {
		for _, m := range []struct{ name, unit string }{{"pbswitch_upf_fwd_mpps_64b_1core", "Mpps"}, {"pbswitch_upf_cpu_share_1core", "ratio"}, {"pbswitch_upf_fwd_mpps_per_cpu_second", "Mpps"},
			{"pbswitch_upf_stack_sink_fwd_mpps_64b_1core", "Mpps"}, {"pbswitch_upf_stack_sink_cpu_share_1core", "ratio"}, {"pbswitch_upf_stack_sink_fwd_mpps_per_cpu_second", "Mpps"},
			{"pbswitch_upf_sink_thread_fwd_mpps_64b_1core", "Mpps"}, {"pbswitch_upf_sink_thread_cpu_share_1core", "ratio"}, {"pbswitch_upf_sink_thread_fwd_mpps_per_cpu_second", "Mpps"},
			{"pbswitch_upf_stack_sink_thread_fwd_mpps_64b_1core", "Mpps"}, {"pbswitch_upf_stack_sink_thread_cpu_share_1core", "ratio"}, {"pbswitch_upf_stack_sink_thread_fwd_mpps_per_cpu_second", "Mpps"}} {
			b.Skip(m.name, m.unit, "needs root for network namespaces and XDP")
		}
	} else if err := b.ceiling(pl); err != nil {
		fmt.Fprintln(os.Stderr, "upfbench: forwarding ceiling:", err)
		os.Exit(1)
	}
	fmt.Println(b.summary(time.Since(start), load0, loadAvg()))
}

// goals are issue 22's targets.
var goals = []benchreport.Goal{
	{Metric: "upf_vs_plain_forwarding", AtLeast: true, Bound: 0.8},
	{Metric: "upf_latency_us_p50", AtLeast: false, Bound: 20},
	{Metric: "upf_sessions_installed_per_s", AtLeast: true, Bound: 100000},
	{Metric: "upf_sessions_1m_bytes_per_session", AtLeast: false, Bound: 300},
	{Metric: "upf_slab_vs_generic_downlink_1m", AtLeast: true, Bound: 1},
}

func (b *bench) summary(took time.Duration, load0, load1 string) string {
	met, missed := b.Goals(goals)
	return fmt.Sprintf("upfbench (%s, %.0fs, load average %s at start, %s at end, 2 cores shared): engine downlink %.3f Mpps, uplink %.3f Mpps vs plain routing %.3f Mpps (ratio %.2f), added %.2f µs p50; downlink %.0f ns at 4,096 sessions, %.0f ns at 1M (generic tables: %.0f, %.0f); slow profile at 1M: %.0f sessions/s installed, %.0f B RSS per session (generic tables: %.0f sessions/s, %.0f B); goals met: %s; goals missed: %s",
		map[bool]string{true: "QUICK", false: "full"}[b.quick], took.Seconds(), load0, load1,
		b.Value("upf_downlink_mpps"), b.Value("upf_uplink_mpps"), b.Value("plain_forwarding_mpps"),
		b.Value("upf_vs_plain_forwarding"), b.Value("upf_latency_us_p50"),
		b.Value("upf_downlink_ns_4096_sessions"), b.Value("upf_downlink_ns_1m_sessions"),
		b.Value("upf_downlink_ns_4096_sessions_generic"), b.Value("upf_downlink_ns_1m_sessions_generic"),
		b.Value("upf_sessions_installed_per_s"), b.Value("upf_sessions_1m_bytes_per_session"),
		b.Value("upf_sessions_installed_per_s_generic"), b.Value("upf_sessions_1m_bytes_per_session_generic"), met, missed)
}

// loadAvg is the 1-minute load average ("?" where /proc has none).
func loadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(raw))[0]
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
