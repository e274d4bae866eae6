// SPDX-License-Identifier: Apache-2.0

package xdpgen

import (
	"errors"
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
// Frames are sent with Send on the generator's CPU and counted by XDP at
// s-eth and h2-eth (then dropped). What joins sw-in and sw-out (a bridge,
// a switch process in the sw namespace) is the caller's.
type Lab struct {
	lab              *nslab.Lab
	Gen, Switch      netio.NS
	sinkNS           netio.NS
	genCPU           int
	genSink, outSink *Counter
}

// Switch port interfaces in the Switch namespace.
const (
	SwitchIn  = "sw-in"
	SwitchOut = "sw-out"
)

// NewLab builds the lab with namespaces named with prefix; the generator
// runs pinned to genCPU.
func NewLab(prefix string, genCPU int) (*Lab, error) {
	l := &Lab{lab: nslab.New(prefix), genCPU: genCPU}
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
	return l.blastRate("g-eth", l.genSink, frame, dur)
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
	return l.blastRate("h1-eth", l.outSink, frame, dur)
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

func (l *Lab) blastRate(ifname string, k *Counter, frame []byte, dur time.Duration) (float64, error) {
	if _, err := Send(l.Gen, ifname, frame, 200*time.Millisecond, l.genCPU); err != nil { // warm-up
		return 0, err
	}
	c0, err := k.Count()
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	if _, err := Send(l.Gen, ifname, frame, dur, l.genCPU); err != nil {
		return 0, err
	}
	time.Sleep(50 * time.Millisecond) // what is still in flight
	c1, err := k.Count()
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
	c0, err := l.outSink.Count()
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
	prev, err := l.outSink.Count()
	for i := 0; i < 20 && err == nil; i++ {
		time.Sleep(50 * time.Millisecond)
		var n uint64
		if n, err = l.outSink.Count(); n == prev {
			return n, err
		}
		prev = n
	}
	return prev, err
}
