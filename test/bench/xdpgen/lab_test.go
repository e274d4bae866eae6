// SPDX-License-Identifier: Apache-2.0

package xdpgen

import (
	"fmt"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

// Both sinks count what leaves sw-out, and nothing else: with a bridge
// joining sw-in and sw-out, a paced run well below any ceiling arrives
// whole; with nothing joining them the count stays 0. Each sink gets a
// lab of its own, and the bridged run comes first: frames of a run into
// sw-in with nothing behind it can stay in sw-in's queue and reach a
// bridge added later.
func TestSinksCountWhatLeavesTheSwitch(t *testing.T) {
	const igmpSlack = 4
	if !nslab.IsRoot() {
		t.Skip("needs root to create network namespaces, veth pairs and XDP programs")
	}
	frame := nslab.Frame(make([]byte, 64), 64, 1, 0)
	const pps, dur = 20_000.0, 200 * time.Millisecond
	for i, c := range []struct {
		sink    Sink
		napiCPU int
	}{{SinkStack, -1}, {SinkXDP, -1}, {SinkStack, 0}, {SinkXDP, 0}} {
		sink := c.sink
		// A subtest each: the lab goes when it ends, so one h2-eth (and
		// one NAPI thread of that name) exists at a time.
		t.Run(fmt.Sprintf("%v/napi-cpu-%d", sink, c.napiCPU), func(t *testing.T) {
			l, err := NewLab(fmt.Sprintf("pbxdp-t%d", i), -1)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if err := l.Close(); err != nil {
					t.Error(err)
				}
			})
			if err := l.SetSink(sink); err != nil {
				t.Fatal(err)
			}
			if _, err := l.SetSinkCPU(c.napiCPU); err != nil {
				t.Fatal(err)
			}
			unbridge, err := l.Bridge()
			if err != nil {
				t.Fatal(err)
			}
			o, err := l.ForwardAt(frame, pps, dur)
			if err := unbridge(); err != nil {
				t.Fatal(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			// A few more frames than sent are the kernel's own: an interface
			// of the lab that comes up sends IGMPv3 reports, and the bridge
			// forwards them too. What is sent depends on how much of the
			// 200 ms the sender got (461 of 4,000 at load 19): the test is
			// the count, so any hundred frames will do.
			if o.Sent < 100 || o.Delivered < o.Sent || o.Delivered > o.Sent+igmpSlack {
				st, _ := l.switchOut()
				t.Logf("sw-out: %d sent, %d dropped", st.TxPackets, st.TxDropped)
				t.Fatalf("sink %v (NAPI thread on cpu %d), bridged: %d sent, %d counted; want all of them (and at most %d of the kernel's own)",
					sink, c.napiCPU, o.Sent, o.Delivered, igmpSlack)
			}
			o, err = l.ForwardAt(frame, pps, dur)
			if err != nil {
				t.Fatal(err)
			}
			if o.Sent == 0 || o.Delivered != 0 {
				t.Fatalf("sink %v (NAPI thread on cpu %d), no switch: %d sent, %d counted; want some sent, none counted", sink, c.napiCPU, o.Sent, o.Delivered)
			}
		})
	}
	if _, err := ParseSink("nope"); err == nil {
		t.Fatal("an unknown sink name was read")
	}
}

// SetSinkCPU gives h2-eth's receive a NAPI thread pinned to the CPU asked
// for, with either sink (the stack sink through GRO, the XDP sink through
// its program), keeps it pinned across a change of sink, and takes it
// away again: the frames then go back to the sender's context.
func TestSinkThreadIsPinnedAndGoesAway(t *testing.T) {
	if !nslab.IsRoot() {
		t.Skip("needs root to create network namespaces, veth pairs and XDP programs")
	}
	l, err := NewLab("pbxdp-n", -1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Error(err)
		}
	})
	if pid, err := l.SinkThread(); err != nil || pid != 0 {
		t.Fatalf("a new lab's sink has NAPI thread %d (%v); want none", pid, err)
	}
	pinned := func(want int) {
		t.Helper()
		pid, err := l.SinkThread()
		if err != nil || pid == 0 {
			t.Fatalf("no NAPI thread for h2-eth (%v)", err)
		}
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(pid, &set); err != nil {
			t.Fatal(err)
		}
		if set.Count() != 1 || !set.IsSet(want) {
			t.Fatalf("NAPI thread %d may run on %d CPUs (cpu %d: %v); want cpu %d only", pid, set.Count(), want, set.IsSet(want), want)
		}
	}
	if _, err := l.SetSinkCPU(0); err != nil { // the XDP sink
		t.Fatal(err)
	}
	pinned(0)
	if err := l.SetSink(SinkStack); err != nil { // GRO now keeps NAPI on
		t.Fatal(err)
	}
	pinned(0)
	if _, err := l.SetSinkCPU(-1); err != nil {
		t.Fatal(err)
	}
	if pid, err := l.SinkThread(); err != nil || pid != 0 {
		t.Fatalf("after SetSinkCPU(-1), NAPI thread %d (%v); want none", pid, err)
	}
}
