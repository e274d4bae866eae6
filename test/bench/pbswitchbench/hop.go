// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
	"github.com/flowbuf/flowbuf/test/bench/benchreport"
	"github.com/flowbuf/flowbuf/test/bench/xdpgen"
)

// The in-process buffer hop: the same flow routed directly by pbswitch and
// steered through an in-process buffer in FORWARDING and back, on one
// pbswitch process pinned to one core (GOMAXPROCS=1), fed by the XDP
// generator of the ceiling part (it outruns the switch on both paths, so
// the figure is the switch's, not the generator's). Each round runs under
// the generator's full rate and reads the switch process's CPU time
// meanwhile (processRuntime); the two paths alternate, hopRounds times, and the figures are
// medians. The headline ratio is of frames forwarded per CPU-second of the
// switch process: buffered over direct, that is the direct path's CPU time
// a frame over the buffered path's. It does not depend on how much of its
// core the switch got from the machine's other work, which the rates do.
const (
	hopP4RT   = "127.0.0.1:29579"
	hopBuffer = "127.0.0.1:29580"
)

func (b *bench) hopRounds() (int, time.Duration) {
	if b.quick {
		return 3, time.Second
	}
	return 7, 2 * time.Second
}

// hopRound is one round of one path.
type hopRound struct {
	rate, share float64 // frames a second leaving sw-out; the switch's CPU share
}

func (r hopRound) perCPUSecond() float64 { return xdpgen.MppsPerCPUSecond(r.rate, r.share) }

func (b *bench) hop() (err error) {
	if !nslab.IsRoot() {
		return errors.New("needs root for network namespaces")
	}
	l, err := xdpgen.NewLab("pbhop-", genCPU)
	if err != nil {
		return fmt.Errorf("lab: %w", err)
	}
	defer func() { err = errors.Join(err, l.Close()) }()
	frame := nslab.Frame(make([]byte, frame64), frame64, 1, 0)
	bin, cleanup, err := pbswitchBinary()
	if err != nil {
		return err
	}
	defer cleanup()
	cmd := exec.Command("taskset", "-c", fmt.Sprint(switchCPU), bin, "--netns", l.Switch.Path,
		"--port", "1="+xdpgen.SwitchIn, "--port", "2="+xdpgen.SwitchOut, "--vport", fmt.Sprint(vportPort),
		"--cpu-port", "255", "--p4rt-listen", hopP4RT, "--buffer-listen", hopBuffer)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	c, err := connectWhenUp(hopP4RT)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Insert(c.Route(labDst, 32, 2, labSrcMAC, labDstMAC), c.VportPort(vportPort)); err != nil {
		return err
	}
	if err := forwardingBuffer(hopBuffer); err != nil {
		return fmt.Errorf("buffer: %w", err)
	}
	steer := c.SteerDst(labDst, vportPort, 10)
	pid := cmd.Process.Pid
	measure := func(dur time.Duration) (hopRound, error) {
		var r hopRound
		c0, err := processRuntime(pid)
		if err != nil {
			return r, err
		}
		t0 := time.Now()
		if r.rate, err = l.ForwardRate(frame, dur); err != nil {
			return r, err
		}
		wall := time.Since(t0)
		c1, err := processRuntime(pid)
		if err != nil {
			return r, err
		}
		if c1 < c0 {
			return r, fmt.Errorf("pbswitch's CPU time went back (%v -> %v): a thread ended during the round", c0, c1)
		}
		r.share = (c1 - c0).Seconds() / wall.Seconds()
		return r, err
	}
	rounds, dur := b.hopRounds()
	var direct, buffered []hopRound
	for i := 0; i < rounds; i++ {
		d, err := measure(dur)
		if err != nil {
			return fmt.Errorf("direct: %w", err)
		}
		if err := c.Insert(steer); err != nil {
			return err
		}
		bu, err := measure(dur)
		if err := errors.Join(err, c.Delete(steer)); err != nil {
			return fmt.Errorf("buffered: %w", err)
		}
		direct, buffered = append(direct, d), append(buffered, bu)
	}
	b.emitHop(direct, buffered, dur)
	return nil
}

// emitHop reports the medians of the rounds.
func (b *bench) emitHop(direct, buffered []hopRound, dur time.Duration) {
	var cpuRatio, rateRatio []float64
	for i := range direct {
		if d := direct[i].perCPUSecond(); d > 0 {
			cpuRatio = append(cpuRatio, buffered[i].perCPUSecond()/d)
		}
		if direct[i].rate > 0 {
			rateRatio = append(rateRatio, buffered[i].rate/direct[i].rate)
		}
	}
	field := func(rs []hopRound, f func(hopRound) float64) []float64 {
		out := make([]float64, len(rs))
		for i, r := range rs {
			out[i] = f(r)
		}
		return out
	}
	rate := func(r hopRound) float64 { return r.rate / 1e6 }
	share := func(r hopRound) float64 { return r.share }
	perCPU := func(r hopRound) float64 { return r.perCPUSecond() }
	usPerFrame := func(r hopRound) float64 {
		if r.rate == 0 {
			return 0
		}
		return r.share / r.rate * 1e6
	}
	cond := map[string]any{"frame_bytes": frame64, "rounds": len(direct), "seconds_per_round": dur.Seconds(),
		"generator": "XDP live frames (BPF_PROG_RUN) on a veth, CPU 0, full rate (overload on both paths)",
		"switch":    "pbswitch (FlowBuf program) as its own process on CPU 1, GOMAXPROCS=1, in-process vport port 100",
		"order":     "direct and buffered rounds alternate on one switch process; figures are medians"}
	b.Emit("pbswitch_inproc_buffer_fwd_mpps_64b_1core", median(field(buffered, rate)), "Mpps", with(with(with(cond,
		"path", "veth -> pbswitch -> in-process buffer (FORWARDING) -> pbswitch -> veth"),
		"direct_mpps_64b_1core", benchreport.Round(median(field(direct, rate)))),
		"rates_mpps", map[string][]float64{"direct": roundAll(field(direct, rate)), "buffered": roundAll(field(buffered, rate))}))
	b.Emit("pbswitch_inproc_buffer_vs_direct", median(cpuRatio), "ratio", with(with(with(with(with(cond,
		"what", "frames forwarded per CPU-second of the switch process, buffered / direct (= CPU time a frame, direct / buffered); median of the rounds' pairs"),
		"cpu_us_per_frame", map[string]float64{"direct": benchreport.Round(median(field(direct, usPerFrame))), "buffered": benchreport.Round(median(field(buffered, usPerFrame)))}),
		"mpps_per_cpu_second", map[string][]float64{"direct": roundAll(field(direct, perCPU)), "buffered": roundAll(field(buffered, perCPU))}),
		"cpu_share", map[string][]float64{"direct": roundAll(field(direct, share)), "buffered": roundAll(field(buffered, share))}),
		"note", "the switch's CPU time includes the veth's delivery of each frame to the sink (an XDP counter on h2-eth) and AF_PACKET's work, the same on both paths"))
	b.Emit("pbswitch_inproc_buffer_vs_direct_rate", median(rateRatio), "ratio", with(cond,
		"what", "frames a second leaving the switch under overload, buffered / direct; median of the rounds' pairs (depends on the share of CPU 1 the switch got)"))
}

// processRuntime is the CPU time pid's threads have run, in nanoseconds
// (the first field of each /proc/PID/task/TID/schedstat: the scheduler's
// sum_exec_runtime, which without IRQ time accounting includes softirq work
// run in the threads' context). /proc/PID/stat's times count in 10 ms
// ticks, too coarse for rounds of a second at a fraction of a core.
func processRuntime(pid int) (time.Duration, error) {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	var total time.Duration
	for _, t := range tasks {
		raw, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
		if errors.Is(err, fs.ErrNotExist) {
			continue // the thread ended
		}
		if err != nil {
			return 0, err
		}
		f := strings.Fields(string(raw))
		if len(f) == 0 {
			return 0, fmt.Errorf("%s/%s/schedstat: empty", dir, t.Name())
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s/%s/schedstat: %w", dir, t.Name(), err)
		}
		total += time.Duration(ns)
	}
	return total, nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func roundAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = benchreport.Round(x)
	}
	return out
}
