// SPDX-License-Identifier: Apache-2.0

package xdpgen

import (
	"os"
	"testing"
	"time"
)

func TestParseProcessCPUAddsUserAndSystemTime(t *testing.T) {
	// A command name with a space and a ')' : fields count from the last ')'.
	stat := "4242 (pb sw)itch) R 1 4242 4242 0 -1 4194560 100 0 0 0 250 130 0 0 20 0 3 0 500 0 0"
	got, err := parseProcessCPU(stat)
	if err != nil || got != 3800*time.Millisecond {
		t.Fatalf("parseProcessCPU = %v, %v; want 3.8s (250+130 ticks)", got, err)
	}
}

func TestParseProcessCPURefusesAShortLine(t *testing.T) {
	if _, err := parseProcessCPU("4242 (pbswitch) R 1 2 3"); err == nil {
		t.Fatal("a line without utime and stime parsed")
	}
	if _, err := parseProcessCPU("no command name"); err == nil {
		t.Fatal("a line without a command name parsed")
	}
}

func TestCPUShareCountsABusyLoop(t *testing.T) {
	share, err := CPUShare(os.Getpid(), func() error {
		for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
		}
		return nil
	})
	// A loaded machine may give this process less than the whole core;
	// what the test checks is that busy time is counted at all.
	if err != nil || share <= 0.05 {
		t.Fatalf("CPUShare of a 300 ms busy loop = %v, %v", share, err)
	}
}

func TestParseCPUSoftirqReadsTheCPUsColumn(t *testing.T) {
	stat := "cpu  10 0 20 30 0 0 99 0 0 0\ncpu0 1 0 2 3 0 0 40 0 0 0\ncpu1 5 0 6 7 0 0 250 0 0 0\nintr 1 2\n"
	if d, err := parseCPUSoftirq(stat, 1); err != nil || d != 2500*time.Millisecond {
		t.Fatalf("cpu1 softirq = %v, %v; want 2.5s", d, err)
	}
	if _, err := parseCPUSoftirq(stat, 2); err == nil {
		t.Fatal("a CPU with no line was read")
	}
}
