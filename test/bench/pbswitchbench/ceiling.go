// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/vishvananda/netlink"

	"github.com/flowbuf/flowbuf/buffer-agent/netio"
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
//
//	cgen:g-eth <-> csink:s-eth               generator ceiling (counted, dropped)
//	cgen:h1-eth <-> csw:sw-in  [switch]  csw:sw-out <-> csink:h2-eth (counted, dropped)
const (
	genCPU    = 0
	switchCPU = 1
)

type ceilingLab struct {
	lab              *nslab.Lab
	gen, sw, sinkNS  netio.NS
	genSink, outSink *xdpgen.Counter
}

func (l *ceilingLab) build() error {
	var err error
	steps := []func() error{
		func() error { l.gen, err = l.lab.NS("gen"); return err },
		func() error { l.sinkNS, err = l.lab.NS("sink"); return err },
		func() error { l.sw, err = l.lab.NS("sw"); return err },
		func() error { return l.lab.Veth(l.gen, "g-eth", l.sinkNS, "s-eth") },
		func() error { return l.lab.Veth(l.gen, "h1-eth", l.sw, "sw-in") },
		func() error { return l.lab.Veth(l.sw, "sw-out", l.sinkNS, "h2-eth") },
		func() error { l.genSink, err = xdpgen.Attach(l.sinkNS, "s-eth", false); return err },
		func() error { l.outSink, err = xdpgen.Attach(l.sinkNS, "h2-eth", false); return err },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

func (l *ceilingLab) close() error {
	var errs []error
	for _, c := range []*xdpgen.Counter{l.genSink, l.outSink} {
		if c != nil {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(append(errs, l.lab.Close())...)
}

// blastRate sends the lab frame out of ifname in the generator namespace
// for dur and returns the frames per second counter k saw meanwhile.
func (l *ceilingLab) blastRate(ifname string, k *xdpgen.Counter, dur time.Duration) (float64, error) {
	frame := nslab.Frame(make([]byte, frame64), frame64, 1, 0)
	if _, err := xdpgen.Send(l.gen, ifname, frame, 200*time.Millisecond, genCPU); err != nil { // warm-up
		return 0, err
	}
	c0, err := k.Count()
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	if _, err := xdpgen.Send(l.gen, ifname, frame, dur, genCPU); err != nil {
		return 0, err
	}
	time.Sleep(50 * time.Millisecond) // what is still in flight
	c1, err := k.Count()
	if err != nil {
		return 0, err
	}
	return float64(c1-c0) / time.Since(t0).Seconds(), nil
}

// viaSwitchPort measures forwarding from sw-in to sw-out with whatever
// joins them; sw-in needs an XDP program for the veth to take XDP frames,
// one that passes them on to the stack.
func (l *ceilingLab) viaSwitchPort(dur time.Duration) (float64, error) {
	pass, err := xdpgen.Attach(l.sw, "sw-in", true)
	if err != nil {
		return 0, err
	}
	defer pass.Close()
	return l.blastRate("h1-eth", l.outSink, dur)
}

func (b *bench) ceiling() (err error) {
	l := &ceilingLab{lab: nslab.New("pbxdp-")}
	defer func() { err = errors.Join(err, l.close()) }()
	if err := l.build(); err != nil {
		return fmt.Errorf("lab: %w", err)
	}
	cond := map[string]any{"frame_bytes": frame64, "seconds": b.dur.Seconds(), "generator": "XDP live frames (BPF_PROG_RUN) on a veth, CPU 0",
		"cores": 2, "note": "machine shared with other work: figures are lower bounds"}
	gen, err := l.blastRate("g-eth", l.genSink, b.dur)
	if err != nil {
		return fmt.Errorf("generator: %w", err)
	}
	b.Emit("generator_mpps_64b", gen/1e6, "Mpps", with(cond, "path", "veth pair, counted by XDP at the peer"))

	if err := l.lab.Bridge(l.sw, "br0", "sw-in", "sw-out"); err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	bridge, err := l.viaSwitchPort(b.dur)
	if err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	if err := delLink(l.sw, "br0"); err != nil {
		return err
	}
	b.Emit("bridge_fwd_mpps_64b_1core", bridge/1e6, "Mpps", with(cond, "path", "veth -> Linux bridge -> veth (softirq on the generator's CPU)"))

	sw, err := l.pbswitch(b.dur)
	if err != nil {
		return fmt.Errorf("pbswitch: %w", err)
	}
	b.Emit("pbswitch_fwd_mpps_64b_1core", sw/1e6, "Mpps", with(cond, "path", "veth -> pbswitch (FlowBuf program, routing_v4) -> veth; pbswitch on CPU 1, GOMAXPROCS=1"))
	b.Emit("pbswitch_vs_bridge_64b_1core", sw/bridge, "ratio", map[string]any{"baseline": "bridge_fwd_mpps_64b_1core"})

	bmv2Bin, err := exec.LookPath("simple_switch_grpc")
	if err != nil {
		b.Skip("bmv2_fwd_mpps_64b_1core", "Mpps", "simple_switch_grpc (BMv2 with PI) is not on PATH")
		return nil
	}
	bm, err := l.bmv2(bmv2Bin, b.dur)
	if err != nil {
		return fmt.Errorf("bmv2: %w", err)
	}
	b.Emit("bmv2_fwd_mpps_64b_1core", bm/1e6, "Mpps", with(with(cond, "binary", bmv2Bin), "path", "veth -> BMv2 simple_switch_grpc (FlowBuf program, routing_v4) -> veth; on CPU 1"))
	return nil
}

func delLink(ns netio.NS, name string) error {
	return ns.Do(func() error {
		link, err := netlink.LinkByName(name)
		if err != nil {
			return err
		}
		return netlink.LinkDel(link)
	})
}

// pbswitchBinary builds pbswitch into a temporary directory.
func pbswitchBinary() (string, func(), error) {
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

// pbswitch runs pbswitch as its own process on one core, programs the lab
// route and measures it.
func (l *ceilingLab) pbswitch(dur time.Duration) (float64, error) {
	bin, cleanup, err := pbswitchBinary()
	if err != nil {
		return 0, err
	}
	defer cleanup()
	const addr = "127.0.0.1:29559"
	cmd := exec.Command("taskset", "-c", fmt.Sprint(switchCPU), bin, "--netns", l.sw.Path,
		"--port", "1=sw-in", "--port", "2=sw-out", "--cpu-port", "255", "--p4rt-listen", addr, "--buffer-listen", "")
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	c, err := connectWhenUp(addr)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if err := c.Insert(c.Route(labDst, 32, 2, labSrcMAC, labDstMAC)); err != nil {
		return 0, err
	}
	return l.viaSwitchPort(dur)
}

// bmv2 runs BMv2's simple_switch_grpc in the switch namespace on one core,
// programs the lab route as for pbswitch and measures it.
func (l *ceilingLab) bmv2(bin string, dur time.Duration) (float64, error) {
	const addr = "127.0.0.1:29560"
	cmd := exec.Command("nsenter", "--net="+l.sw.Path, "taskset", "-c", fmt.Sprint(switchCPU), bin, "--no-p4",
		"-i", "1@sw-in", "-i", "2@sw-out", "--", "--grpc-server-addr", addr, "--cpu-port", "255")
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	c, err := connectWhenUp(addr)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if err := c.Insert(c.Route(labDst, 32, 2, labSrcMAC, labDstMAC)); err != nil {
		return 0, err
	}
	return l.viaSwitchPort(dur)
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
