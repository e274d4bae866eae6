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
