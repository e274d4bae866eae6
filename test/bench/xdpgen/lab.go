// SPDX-License-Identifier: Apache-2.0

package xdpgen

import (
	"errors"
	"fmt"
	"time"

	"github.com/vishvananda/netlink"

	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

// Lab is a forwarding lab for measuring a switch's ceiling:
//
//	gen:g-eth  <-> sink:s-eth                                 the generator alone
//	gen:h1-eth <-> sw:sw-in [switch under test] sw:sw-out <-> sink:h2-eth
//
// Frames are sent with Send on the generator's CPU and counted at s-eth by
// XDP and at h2-eth as the lab's Sink says (XDP at first). What joins sw-in
// and sw-out (a bridge, a switch process in the sw namespace) is the
// caller's.
type Lab struct {
	lab              *nslab.Lab
	Gen, Switch      netio.NS
	sinkNS           netio.NS
	genCPU           int
	genSink, outSink *Counter
	sink             Sink
	sinkCPU          int // -1: the sink's receive runs in the sender's context
}

// Sink is how the lab takes and counts the frames that leave the switch
// (at h2-eth, the far end of sw-out). A veth delivers to its peer in the
// sender's context: whatever the sink does to a frame runs on the
// switch's CPU and is charged to the switch's process.
type Sink int

// Sinks.
const (
	// SinkXDP counts with an XDP program on h2-eth that drops the frames.
	// Before the program runs, the veth copies each frame a packet socket
	// sent (an skb with its data in a page fragment and no room for XDP's
	// headroom) into a page of its own pool, on the switch's CPU.
	SinkXDP Sink = iota
	// SinkStack attaches no program: h2-eth's stack takes the frames and
	// drops them at IP receive (they are addressed to another host's MAC).
	// They are counted by h2-eth's receive counter: what the veth handed
	// to the sink's stack (a frame it drops for a full backlog is counted
	// as rx_dropped instead). The stack's receive runs on the switch's CPU.
	SinkStack
)

var sinkNames = [...]string{SinkXDP: "xdp", SinkStack: "stack"}

func (s Sink) String() string {
	if int(s) < len(sinkNames) {
		return sinkNames[s]
	}
	return fmt.Sprintf("Sink(%d)", int(s))
}

// ParseSink reads a Sink's name (xdp, stack).
func ParseSink(name string) (Sink, error) {
	for s, n := range sinkNames {
		if n == name {
			return Sink(s), nil
		}
	}
	return 0, fmt.Errorf("unknown sink %q: want one of %v", name, sinkNames)
}

// Switch port interfaces in the Switch namespace.
const (
	SwitchIn  = "sw-in"
	SwitchOut = "sw-out"
)

// NewLab builds the lab with namespaces named with prefix; the generator
// runs pinned to genCPU.
func NewLab(prefix string, genCPU int) (*Lab, error) {
	l := &Lab{lab: nslab.New(prefix), genCPU: genCPU, sinkCPU: -1}
	var err error
	steps := []func() error{
		func() error { l.Gen, err = l.lab.NS("gen"); return err },
		func() error { l.sinkNS, err = l.lab.NS("sink"); return err },
		func() error { l.Switch, err = l.lab.NS("sw"); return err },
		func() error { return l.lab.Veth(l.Gen, "g-eth", l.sinkNS, "s-eth") },
		func() error { return l.lab.Veth(l.Gen, "h1-eth", l.Switch, SwitchIn) },
		func() error { return l.lab.Veth(l.Switch, SwitchOut, l.sinkNS, "h2-eth") },
		func() error { l.genSink, err = Attach(l.sinkNS, "s-eth", false); return err },
		func() error { l.outSink, err = Attach(l.sinkNS, "h2-eth", false); return err },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, errors.Join(err, l.Close())
		}
	}
	return l, nil
}

// SetSink changes how the frames leaving the switch are taken and counted.
func (l *Lab) SetSink(s Sink) error {
	if s == l.sink {
		return nil
	}
	if s < SinkXDP || s > SinkStack {
		return fmt.Errorf("sink %v: no such sink", s)
	}
	var err error
	switch {
	case s == SinkXDP:
		l.outSink, err = Attach(l.sinkNS, "h2-eth", false)
	case l.sink == SinkXDP:
		err = l.outSink.Close()
		l.outSink = nil
	}
	if err != nil {
		return fmt.Errorf("sink %v: %w", s, err)
	}
	l.sink = s
	if l.sinkCPU >= 0 { // the veth's NAPI instance came or went with the program
		if _, err := l.threadSink(l.sinkCPU); err != nil {
			return fmt.Errorf("sink %v: %w", s, err)
		}
	}
	return nil
}

// outCount is what arrived at h2-eth so far, as the sink counts.
func (l *Lab) outCount() (uint64, error) {
	if l.sink == SinkXDP {
		return l.outSink.Count()
	}
	var n uint64
	err := l.sinkNS.Do(func() error {
		link, err := netlink.LinkByName("h2-eth")
		if err != nil {
			return err
		}
		if st := link.Attrs().Statistics; st != nil {
			n = st.RxPackets
			return nil
		}
		return fmt.Errorf("h2-eth has no statistics")
	})
	return n, err
}

// switchOut is sw-out's counters: what the switch sent to the sink, and
// what the veth dropped of it.
func (l *Lab) switchOut() (st netlink.LinkStatistics, err error) {
	err = l.Switch.Do(func() error {
		link, err := netlink.LinkByName(SwitchOut)
		if err != nil {
			return err
		}
		if s := link.Attrs().Statistics; s != nil {
			st = netlink.LinkStatistics(*s)
			return nil
		}
		return fmt.Errorf("%s has no statistics", SwitchOut)
	})
	return st, err
}

// Close removes the lab.
func (l *Lab) Close() error {
	var errs []error
	for _, c := range []*Counter{l.genSink, l.outSink} {
		if c != nil {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(append(errs, l.lab.Close())...)
}

// GeneratorRate is the frames per second the generator delivers to a bare
// veth peer: the most any forwarding figure here can show.
func (l *Lab) GeneratorRate(frame []byte, dur time.Duration) (float64, error) {
	return l.blastRate("g-eth", l.genSink.Count, frame, dur)
}

// ForwardRate is the frames per second that leave sw-out while the
// generator sends frame into sw-in. sw-in gets an XDP program that passes
// the frames on to the stack (a veth takes XDP frames only then).
func (l *Lab) ForwardRate(frame []byte, dur time.Duration) (float64, error) {
	pass, err := Attach(l.Switch, SwitchIn, true)
	if err != nil {
		return 0, err
	}
	defer pass.Close()
	return l.blastRate("h1-eth", l.outCount, frame, dur)
}

// Bridge joins sw-in and sw-out with a Linux bridge; the returned func
// removes it.
func (l *Lab) Bridge() (func() error, error) {
	if err := l.lab.Bridge(l.Switch, "br0", SwitchIn, SwitchOut); err != nil {
		return nil, err
	}
	return func() error {
		return l.Switch.Do(func() error {
			link, err := netlink.LinkByName("br0")
			if err != nil {
				return err
			}
			return netlink.LinkDel(link)
		})
	}, nil
}

func (l *Lab) blastRate(ifname string, count func() (uint64, error), frame []byte, dur time.Duration) (float64, error) {
	if _, err := Send(l.Gen, ifname, frame, 200*time.Millisecond, l.genCPU); err != nil { // warm-up
		return 0, err
	}
	c0, err := count()
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	if _, err := Send(l.Gen, ifname, frame, dur, l.genCPU); err != nil {
		return 0, err
	}
	time.Sleep(50 * time.Millisecond) // what is still in flight
	c1, err := count()
	if err != nil {
		return 0, err
	}
	return float64(c1-c0) / time.Since(t0).Seconds(), nil
}

// Offered is one paced run through the switch: frames the generator sent
// and frames that left sw-out.
type Offered struct {
	Sent, Delivered uint64
	Seconds         float64
}

// Loss is the fraction of the sent frames that did not arrive.
func (o Offered) Loss() float64 {
	if o.Sent == 0 || o.Delivered >= o.Sent {
		return 0
	}
	return 1 - float64(o.Delivered)/float64(o.Sent)
}

// DeliveredRate is the frames per second that arrived.
func (o Offered) DeliveredRate() float64 { return float64(o.Delivered) / o.Seconds }

// ForwardAt sends frame into sw-in at pps frames a second for dur and
// counts what leaves sw-out, waiting for what is still in flight (the
// switch's queues drain) before it counts.
func (l *Lab) ForwardAt(frame []byte, pps float64, dur time.Duration) (Offered, error) {
	pass, err := Attach(l.Switch, SwitchIn, true)
	if err != nil {
		return Offered{}, err
	}
	defer pass.Close()
	c0, err := l.outCount()
	if err != nil {
		return Offered{}, err
	}
	sent, err := SendRate(l.Gen, "h1-eth", frame, pps, dur, l.genCPU)
	if err != nil {
		return Offered{}, err
	}
	c1, err := l.settledCount()
	if err != nil {
		return Offered{}, err
	}
	return Offered{Sent: sent, Delivered: c1 - c0, Seconds: dur.Seconds()}, nil
}

// settledCount reads the sink's counter once it stops moving (the switch
// has sent what it held), up to a second.
func (l *Lab) settledCount() (uint64, error) {
	prev, err := l.outCount()
	for i := 0; i < 20 && err == nil; i++ {
		time.Sleep(50 * time.Millisecond)
		var n uint64
		if n, err = l.outCount(); n == prev {
			return n, err
		}
		prev = n
	}
	return prev, err
}
