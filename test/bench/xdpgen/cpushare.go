// SPDX-License-Identifier: Apache-2.0

package xdpgen

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// The machine is shared: the switch's core also runs other work, so a
// switch's forwarding rate is the rate it reached with the part of the
// core it got. Its CPU share while it forwarded, and the rate divided by
// it (frames per CPU-second: what one whole core would forward at that
// cost a frame), say how much of the figure is the switch and how much
// the machine.

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times (100 on
// Linux everywhere the ABI is fixed, x86 and arm64 among them).
const clockTicks = 100

// ProcessCPU is the CPU time pid has used, user and system (with tick
// accounting, softirq work run in its context, such as the veth peer's
// receive its transmit triggers, counts as its system time).
func ProcessCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseProcessCPU(string(raw))
}

// parseProcessCPU reads utime and stime (fields 14 and 15) from the text
// of /proc/PID/stat; the command name (field 2) may hold spaces and
// parentheses, so fields count from the last ')'.
func parseProcessCPU(stat string) (time.Duration, error) {
	end := strings.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, fmt.Errorf("/proc stat %q: no command name", stat)
	}
	f := strings.Fields(stat[end+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat: %d fields after the command name, want 13 or more", len(f))
	}
	var ticks uint64
	for _, s := range f[11:13] { // utime, stime
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc stat: %w", err)
		}
		ticks += v
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// CPUShare runs measure and returns the share of one core process pid
// used meanwhile (0 to 1 for a process pinned to one core).
func CPUShare(pid int, measure func() error) (float64, error) {
	c0, err := ProcessCPU(pid)
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := measure(); err != nil {
		return 0, err
	}
	wall := time.Since(t0)
	c1, err := ProcessCPU(pid)
	if err != nil {
		return 0, err
	}
	return (c1 - c0).Seconds() / wall.Seconds(), nil
}

// MppsPerCPUSecond is a rate in frames a second divided by the CPU share
// it took, in Mpps: what a whole core would forward at the same cost a
// frame (0 when the share is 0).
func MppsPerCPUSecond(rate, share float64) float64 {
	if share <= 0 {
		return 0
	}
	return rate / share / 1e6
}

// MicrosecondsPerFrame is the CPU a frame costs at mppsPerCPUSecond, in µs
// (0 for a rate of 0).
func MicrosecondsPerFrame(mppsPerCPUSecond float64) float64 {
	if mppsPerCPUSecond <= 0 {
		return 0
	}
	return 1 / mppsPerCPUSecond
}

// CPUSoftirq is the time CPU cpu has spent in softirq since boot, whoever's
// context it ran in (/proc/stat's seventh column).
func CPUSoftirq(cpu int) (time.Duration, error) {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	return parseCPUSoftirq(string(raw), cpu)
}

func parseCPUSoftirq(stat string, cpu int) (time.Duration, error) {
	name := fmt.Sprintf("cpu%d", cpu)
	for _, line := range strings.Split(stat, "\n") {
		f := strings.Fields(line)
		if len(f) < 8 || f[0] != name {
			continue
		}
		ticks, err := strconv.ParseUint(f[7], 10, 64) // user nice system idle iowait irq softirq
		if err != nil {
			return 0, fmt.Errorf("/proc/stat %s: %w", name, err)
		}
		return time.Duration(ticks) * time.Second / clockTicks, nil
	}
	return 0, fmt.Errorf("/proc/stat: no line for %s", name)
}

// Run is one overload run through a switch and where the CPU went.
type Run struct {
	Rate  float64 // frames a second that left sw-out
	Share float64 // the switch process's CPU time / wall time
	// SinkThreadShare is the sink's NAPI thread's CPU time / wall time
	// (0 when the sink's receive runs in the sender's context).
	SinkThreadShare float64
	// SoftirqShare is the share of the switch's CPU spent in softirq,
	// whichever task it interrupted: the sink's receive when it runs in
	// the switch's context.
	SoftirqShare float64
	// Sent is the frames the switch sent out of sw-out a second, and
	// Dropped those of them the veth dropped (the sink's ring full: a
	// sink that does not keep up).
	Sent, Dropped float64
}

// MeasureForward runs ForwardRate with the switch process pid on CPU
// switchCPU and reads where the CPU went meanwhile.
func (l *Lab) MeasureForward(pid, switchCPU int, frame []byte, dur time.Duration) (Run, error) {
	var r Run
	thread := 0
	if l.sinkCPU >= 0 {
		var err error
		if thread, err = l.SinkThread(); err != nil {
			return r, err
		}
	}
	threadCPU := func() (time.Duration, error) {
		if thread == 0 {
			return 0, nil
		}
		return ProcessCPU(thread)
	}
	si0, err := CPUSoftirq(switchCPU)
	if err != nil {
		return r, err
	}
	th0, err := threadCPU()
	if err != nil {
		return r, err
	}
	out0, err := l.switchOut()
	if err != nil {
		return r, err
	}
	t0 := time.Now()
	r.Share, err = CPUShare(pid, func() (err error) { r.Rate, err = l.ForwardRate(frame, dur); return err })
	if err != nil {
		return r, err
	}
	wall := time.Since(t0).Seconds()
	si1, err := CPUSoftirq(switchCPU)
	if err != nil {
		return r, err
	}
	th1, err := threadCPU()
	if err != nil {
		return r, err
	}
	out1, err := l.switchOut()
	if err != nil {
		return r, err
	}
	r.SoftirqShare, r.SinkThreadShare = (si1-si0).Seconds()/wall, (th1-th0).Seconds()/wall
	r.Sent, r.Dropped = float64(out1.TxPackets-out0.TxPackets)/wall, float64(out1.TxDropped-out0.TxDropped)/wall
	return r, nil
}
