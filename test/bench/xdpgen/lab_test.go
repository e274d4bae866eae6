// SPDX-License-Identifier: Apache-2.0

package xdpgen

import (
	"fmt"
	"testing"
	"time"

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
	for i, sink := range []Sink{SinkStack, SinkXDP} {
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
		// forwards them too.
		if o.Sent < 1000 || o.Delivered < o.Sent || o.Delivered > o.Sent+igmpSlack {
			t.Fatalf("sink %v, bridged: %d sent, %d counted; want all of them (and at most %d of the kernel's own)",
				sink, o.Sent, o.Delivered, igmpSlack)
		}
		o, err = l.ForwardAt(frame, pps, dur)
		if err != nil {
			t.Fatal(err)
		}
		if o.Sent == 0 || o.Delivered != 0 {
			t.Fatalf("sink %v, no switch: %d sent, %d counted; want some sent, none counted", sink, o.Sent, o.Delivered)
		}
	}
	if _, err := ParseSink("nope"); err == nil {
		t.Fatal("an unknown sink name was read")
	}
}
