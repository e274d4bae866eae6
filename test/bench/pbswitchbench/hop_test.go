// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"syscall"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		in := append([]float64(nil), tc.in...)
		if got := median(in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		for i := range in {
			if in[i] != tc.in[i] {
				t.Errorf("median reordered its input: %v, was %v", in, tc.in)
				break
			}
		}
	}
}

// processRuntime counts this process's CPU time in nanoseconds, as the
// kernel's getrusage does (whose user and system times add up to the same
// scheduler runtime), far below /proc/PID/stat's 10 ms ticks.
func TestProcessRuntimeCountsCPUTime(t *testing.T) {
	rusage := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	c0, r0 := mustRuntime(t), rusage()
	x := uint64(1)
	for i := 0; i < 30_000_000; i++ { // some milliseconds of work
		x = x*6364136223846793005 + 1442695040888963407
	}
	c1, r1 := mustRuntime(t), rusage()
	got, want := c1-c0, r1-r0
	if x == 0 || got <= 0 || got < want*8/10-time.Millisecond || got > want*12/10+time.Millisecond {
		t.Fatalf("processRuntime counted %v for work getrusage counted as %v", got, want)
	}
	if _, err := processRuntime(-1); err == nil {
		t.Fatal("no error for a process that does not exist")
	}
}

func mustRuntime(t *testing.T) time.Duration {
	t.Helper()
	c, err := processRuntime(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	return c
}
