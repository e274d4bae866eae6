// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/test/bench/xdpgen"
)

// The forwarding ceiling: what the Linux bridge, pbswitch and BMv2 forward
// at 64 bytes when the generator is not the limit. The generator is the
// kernel itself (xdpgen: XDP live frames, no socket), pinned to CPU
// genCPU; the switch under test runs pinned to CPU switchCPU (pbswitch
// with GOMAXPROCS=1: one core). The bridge forwards in the softirq of the
// generator's CPU, where the veth hands it the frames: it shares that core.
const (
	genCPU    = 0
	switchCPU = 1
)

func (b *bench) ceiling() (err error) {
	l, err := xdpgen.NewLab("pbxdp-", genCPU)
	if err != nil {
		return fmt.Errorf("lab: %w", err)
	}
	defer func() { err = errors.Join(err, l.Close()) }()
	frame := nslab.Frame(make([]byte, frame64), frame64, 1, 0)
	cond := map[string]any{"frame_bytes": frame64, "seconds": b.dur.Seconds(), "generator": "XDP live frames (BPF_PROG_RUN) on a veth, CPU 0",
		"cores": 2, "note": "machine shared with other work: figures are lower bounds"}
	gen, err := l.GeneratorRate(frame, b.dur)
	if err != nil {
		return fmt.Errorf("generator: %w", err)
	}
	b.Emit("generator_mpps_64b", gen/1e6, "Mpps", with(cond, "path", "veth pair, counted by XDP at the peer"))

	unbridge, err := l.Bridge()
	if err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	bridge, err := l.ForwardRate(frame, b.dur)
	if err := errors.Join(err, unbridge()); err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	b.Emit("bridge_fwd_mpps_64b_1core", bridge/1e6, "Mpps", with(cond, "path", "veth -> Linux bridge -> veth (softirq on the generator's CPU)"))

	bin, cleanup, err := pbswitchBinary()
	if err != nil {
		return err
	}
	defer cleanup()
	var lossless searchResult
	var stack xdpgen.Run
	var threaded []xdpgen.Run
	sw, swShare, err := measureSwitch(l, frame, b.dur, pbswitchCommand(bin, l.Switch.Path, "127.0.0.1:29559"), "127.0.0.1:29559",
		func(pid int) (err error) {
			if lossless, err = b.losslessRate(l, frame, gen); err != nil {
				return err
			}
			if stack, err = stackSinkRate(l, pid, frame, b.dur); err != nil {
				return err
			}
			threaded, err = sinkThreadRuns(l, pid, frame, b.dur)
			return err
		})
	if err != nil {
		return fmt.Errorf("pbswitch: %w", err)
	}
	pbCond := with(cond, "path", "veth -> pbswitch (FlowBuf program, routing_v4) -> veth; pbswitch on CPU 1, GOMAXPROCS=1")
	b.Emit("pbswitch_fwd_mpps_64b_1core", sw/1e6, "Mpps", with(pbCond, "load", "the generator's full rate (overload: what the switch keeps)"))
	b.Emit("pbswitch_vs_bridge_64b_1core", sw/bridge, "ratio", map[string]any{"baseline": "bridge_fwd_mpps_64b_1core"})
	b.emitCPU("pbswitch", sw, swShare, pbCond)
	b.Emit("pbswitch_lossless_mpps_64b_1core", lossless.rate/1e6, "Mpps", with(with(with(pbCond,
		"load", fmt.Sprintf("paced generator, highest rate with < %.0f %% loss, bisection in %d steps of %.1f s", maxLoss*100, searchSteps, b.stepDur().Seconds())),
		"loss_at_rate", lossless.loss), "steps", lossless.steps))
	stackCond := with(with(pbCond, "load", "the generator's full rate (overload: what the switch keeps)"), "sink",
		"h2-eth's stack (no XDP program: no copy of each frame into a page), counted by its receive counter; the sink's receive still runs in the switch's context")
	b.Emit("pbswitch_stack_sink_fwd_mpps_64b_1core", stack.Rate/1e6, "Mpps", stackCond)
	b.emitCPU("pbswitch_stack_sink", stack.Rate, stack.Share, stackCond)
	b.Emit("pbswitch_stack_sink_softirq_share_1core", stack.SoftirqShare, "ratio", with(stackCond, "what", "softirq time of CPU 1 (/proc/stat) / wall time: the sink's receive, run in pbswitch's context"))
	for i, s := range sinkThreadSinks {
		b.emitSinkThread(s.prefix, threaded[i], with(with(pbCond, "load", "the generator's full rate (overload: what the switch keeps)"), "sink", s.what))
	}

	bmv2Bin, err := exec.LookPath("simple_switch_grpc")
	if err != nil {
		for _, m := range []struct{ name, unit string }{{"bmv2_fwd_mpps_64b_1core", "Mpps"}, {"bmv2_cpu_share_1core", "ratio"}, {"bmv2_fwd_mpps_per_cpu_second", "Mpps"}} {
			b.Skip(m.name, m.unit, "simple_switch_grpc (BMv2 with PI) is not on PATH")
		}
		return nil
	}
	sockDir, err := os.MkdirTemp("", "pbxdp-bmv2-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(sockDir)
	// BMv2 runs inside the switch's namespace (its ports are there), so its
	// gRPC server listens on a Unix socket, which the root namespace reaches.
	sock := filepath.Join(sockDir, "p4rt.sock")
	bm, bmShare, err := measureSwitch(l, frame, b.dur, bmv2Command(bmv2Bin, l.Switch.Path, "unix:"+sock), "unix://"+sock, nil)
	if err != nil {
		return fmt.Errorf("bmv2: %w", err)
	}
	bmCond := with(with(cond, "binary", bmv2Bin), "path", "veth -> BMv2 simple_switch_grpc (FlowBuf program, routing_v4) -> veth; on CPU 1")
	b.Emit("bmv2_fwd_mpps_64b_1core", bm/1e6, "Mpps", with(bmCond, "note_bmv2", "every BMv2 thread on one core under the generator's full rate: the rate it keeps when overloaded (its receive thread competes with its pipeline threads); a BMv2 built with --disable-logging-macros --disable-elogger is faster (BMv2's docs/performance.md)"))
	b.emitCPU("bmv2", bm, bmShare, bmCond)
	return nil
}

// pbswitchCommand runs pbswitch on the lab's switch ports, on one core.
func pbswitchCommand(bin, netns, addr string) *exec.Cmd {
	cmd := exec.Command("taskset", "-c", fmt.Sprint(switchCPU), bin, "--netns", netns,
		"--port", "1="+xdpgen.SwitchIn, "--port", "2="+xdpgen.SwitchOut, "--cpu-port", "255", "--p4rt-listen", addr, "--buffer-listen", "")
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	return cmd
}

// bmv2Command runs simple_switch_grpc on the lab's switch ports, on one core,
// with the P4Runtime device id pbswitch has (1).
func bmv2Command(bin, netns, addr string) *exec.Cmd {
	return exec.Command("nsenter", "--net="+netns, "taskset", "-c", fmt.Sprint(switchCPU), bin, "--no-p4", "--device-id", "1",
		"-i", "1@"+xdpgen.SwitchIn, "-i", "2@"+xdpgen.SwitchOut, "--", "--grpc-server-addr", addr, "--cpu-port", "255")
}

// stackSinkRate measures what the switch (process pid) forwards under the
// generator's full rate into the stack sink, and its CPU share meanwhile;
// the XDP sink is back afterwards. The XDP sink's counter makes the veth
// copy every frame into a page in the switch's context (a fifth of its CPU
// in a profile); the stack sink drops them at IP receive instead. Both are
// measured on the same switch process in the same run.
func stackSinkRate(l *xdpgen.Lab, pid int, frame []byte, dur time.Duration) (r xdpgen.Run, err error) {
	if err := l.SetSink(xdpgen.SinkStack); err != nil {
		return r, err
	}
	defer func() { err = errors.Join(err, l.SetSink(xdpgen.SinkXDP)) }()
	return l.MeasureForward(pid, switchCPU, frame, dur)
}

// sinkThreadSinks are the sinks measured with their receive in a NAPI
// thread on the generator's CPU (xdpgen.Lab.SetSinkCPU), off the switch's.
var sinkThreadSinks = []struct {
	kind         xdpgen.Sink
	prefix, what string
}{
	{xdpgen.SinkXDP, "pbswitch_sink_thread", "h2-eth's XDP program counts and drops each frame, in h2-eth's threaded NAPI poll pinned to CPU 0 (off the switch's CPU)"},
	{xdpgen.SinkStack, "pbswitch_stack_sink_thread", "h2-eth's stack drops each frame, in h2-eth's threaded NAPI poll (GRO on) pinned to CPU 0 (off the switch's CPU); counted by its receive counter"},
}

// sinkThreadRuns measures what the switch (process pid) forwards under the
// generator's full rate into each of sinkThreadSinks, and where the CPU
// went; the XDP sink in the sender's context is back afterwards.
func sinkThreadRuns(l *xdpgen.Lab, pid int, frame []byte, dur time.Duration) (runs []xdpgen.Run, err error) {
	defer func() {
		_, e := l.SetSinkCPU(-1)
		err = errors.Join(err, e, l.SetSink(xdpgen.SinkXDP))
	}()
	for _, s := range sinkThreadSinks {
		if err := l.SetSink(s.kind); err != nil {
			return nil, err
		}
		if _, err := l.SetSinkCPU(genCPU); err != nil {
			return nil, err
		}
		r, err := l.MeasureForward(pid, switchCPU, frame, dur)
		if err != nil {
			return nil, fmt.Errorf("%v sink in a thread: %w", s.kind, err)
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// emitSinkThread reports a run whose sink received in a thread of its own
// on the generator's CPU: the rate, pbswitch's CPU share and the rate per
// CPU-second of it, with the sink thread's share and CPU 1's softirq share
// (what shows whether the sink's receive left the switch's CPU).
func (b *bench) emitSinkThread(prefix string, r xdpgen.Run, cond map[string]any) {
	b.Emit(prefix+"_fwd_mpps_64b_1core", r.Rate/1e6, "Mpps", cond)
	b.emitCPU(prefix, r.Rate, r.Share, cond)
	b.Emit(prefix+"_napi_thread_cpu_share", r.SinkThreadShare, "ratio", with(cond, "what", "CPU time of h2-eth's NAPI thread (on CPU 0) / wall time: the sink's receive, off pbswitch's CPU"))
	b.Emit(prefix+"_softirq_share_1core", r.SoftirqShare, "ratio", with(cond, "what", "softirq time of CPU 1 (/proc/stat) / wall time, whichever task it interrupted"))
	b.Emit(prefix+"_sink_dropped_ratio", dropped(r), "ratio", with(cond, "what", "frames the veth dropped for a full sink ring (sw-out's tx_dropped) / frames pbswitch sent: a sink thread that did not keep up"))
}

// dropped is the share of what the switch sent that the veth dropped.
func dropped(r xdpgen.Run) float64 {
	if r.Sent <= 0 {
		return 0
	}
	return r.Dropped / r.Sent
}

// measureSwitch starts a P4Runtime switch, pushes the FlowBuf program with
// the lab route and measures what it forwards under the generator's full
// rate, and the share of its core the switch process used meanwhile (cmd
// execs the switch: taskset and nsenter keep the pid); then it runs more
// (nil: nothing) on the same switch, given the switch's pid.
func measureSwitch(l *xdpgen.Lab, frame []byte, dur time.Duration, cmd *exec.Cmd, addr string, more func(pid int) error) (rate, share float64, err error) {
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	c, err := connectWhenUp(addr)
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	if err := c.Insert(c.Route(labDst, 32, 2, labSrcMAC, labDstMAC)); err != nil {
		return 0, 0, err
	}
	share, err = xdpgen.CPUShare(cmd.Process.Pid, func() (err error) { rate, err = l.ForwardRate(frame, dur); return err })
	if err != nil || more == nil {
		return rate, share, err
	}
	return rate, share, more(cmd.Process.Pid)
}

// emitCPU reports the share of its core switch (pbswitch, bmv2) used while
// it forwarded rate frames a second under overload, and the rate per
// CPU-second: what limits the figure, the switch's cost a frame or the
// core it shared with the machine's other work.
func (b *bench) emitCPU(switchName string, rate, share float64, cond map[string]any) {
	b.Emit(switchName+"_cpu_share_1core", share, "ratio", with(cond, "what", "CPU time of the switch process (user + system, softirq run in its context included) / wall time, during the overload run"))
	b.Emit(switchName+"_fwd_mpps_per_cpu_second", xdpgen.MppsPerCPUSecond(rate, share), "Mpps", with(cond, "what", "the overload rate / the switch's CPU share: frames forwarded per CPU-second of the switch"))
}

// The lossless ceiling: a switch that is offered more than it forwards
// spends part of its time on frames it then loses (the receive ring fills,
// the kernel drops and still pays for each), so the overload figure is
// not its ceiling. The search paces the generator and bisects for the
// highest rate forwarded with under maxLoss lost.
const (
	maxLoss     = 0.01
	searchSteps = 7
)

type searchResult struct {
	rate, loss float64 // delivered frames a second at the best passing step, and its loss
	steps      []map[string]float64
}

func (b *bench) stepDur() time.Duration {
	if b.quick {
		return 500 * time.Millisecond
	}
	return 1500 * time.Millisecond
}

// losslessRate bisects between 0 and the generator's rate gen.
func (b *bench) losslessRate(l *xdpgen.Lab, frame []byte, gen float64) (searchResult, error) {
	var r searchResult
	lo, hi := 0.0, gen
	for i := 0; i < searchSteps; i++ {
		pps := (lo + hi) / 2
		o, err := l.ForwardAt(frame, pps, b.stepDur())
		if err != nil {
			return r, err
		}
		r.steps = append(r.steps, map[string]float64{"offered_mpps": pps / 1e6, "delivered_mpps": o.DeliveredRate() / 1e6, "loss": o.Loss()})
		if o.Loss() < maxLoss {
			lo = pps
			r.rate, r.loss = o.DeliveredRate(), o.Loss()
		} else {
			hi = pps
		}
	}
	return r, nil
}

// pbswitchBinary builds pbswitch into a temporary directory, or takes the
// binary $PBSWITCH names (to compare builds in one run).
func pbswitchBinary() (string, func(), error) {
	if bin := os.Getenv("PBSWITCH"); bin != "" {
		return bin, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "pbxdp-bin-")
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(dir, "pbswitch")
	out, err := exec.Command("go", "build", "-o", bin, "./pbswitch/cmd/pbswitch").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("go build pbswitch: %v: %s", err, out)
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

// connectWhenUp pushes the FlowBuf program to the switch at addr once it
// answers (up to 20 s).
func connectWhenUp(addr string) (*ctl.Controller, error) {
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := pushed(addr)
		if err == nil || time.Now().After(deadline) {
			return c, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}
