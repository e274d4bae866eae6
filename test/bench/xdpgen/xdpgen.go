// SPDX-License-Identifier: Apache-2.0

// Package xdpgen is a packet generator and counter for the benchmarks that
// outruns AF_PACKET on veths: the kernel runs an XDP program in live-frame
// mode (BPF_PROG_RUN with BPF_F_TEST_XDP_LIVE_FRAMES, Linux 5.18+, the
// mechanism of xdp-tools' xdp-trafficgen), which transmits one frame over
// and over with XDP_TX, without a socket or an skb on the sending side.
// On a veth the frames arrive at the peer's XDP path, so the peer needs an
// XDP program attached (Attach: pass them on to the stack, or count and
// drop them). The programs are built with cilium/ebpf's assembler: no
// compiler is needed.
package xdpgen

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/link"
	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"

	"github.com/flowbuf/flowbuf/buffer-agent/netio"
)

// XDP verdicts.
const (
	xdpDrop = 1
	xdpPass = 2
	xdpTx   = 3
)

// xdpMD is struct xdp_md, the context BPF_PROG_RUN takes for XDP.
type xdpMD struct {
	Data, DataEnd, DataMeta, IngressIfindex, RxQueueIndex, EgressIfindex uint32
}

// repeatPerRun is how many frames one BPF_PROG_RUN call sends: large
// enough that the call costs nothing per frame, small enough that a run
// stops within a few milliseconds of its deadline.
const repeatPerRun = 1 << 16

// Send transmits frame out of interface ifname (in namespace ns) as fast
// as the kernel can, for dur, on the calling goroutine's OS thread pinned
// to cpu (-1: not pinned). It returns the frames the program handed to
// XDP_TX; what the peer takes is what its counter says.
func Send(ns netio.NS, ifname string, frame []byte, dur time.Duration, cpu int) (uint64, error) {
	return SendRate(ns, ifname, frame, 0, dur, cpu)
}

// SendRate is Send at pps frames a second (0: as fast as the kernel can),
// paced in ticks of pacingTick.
func SendRate(ns netio.NS, ifname string, frame []byte, pps float64, dur time.Duration, cpu int) (uint64, error) {
	prog, err := verdictProgram("xdpgen_tx", xdpTx, nil)
	if err != nil {
		return 0, err
	}
	defer prog.Close()
	var sent uint64
	err = ns.Do(func() error {
		l, err := netlink.LinkByName(ifname)
		if err != nil {
			return err
		}
		if cpu >= 0 {
			runtime.LockOSThread() // ns.Do's thread is discarded afterwards
			var set unix.CPUSet
			set.Set(cpu)
			if err := unix.SchedSetaffinity(0, &set); err != nil {
				return fmt.Errorf("pin the generator to cpu %d: %w", cpu, err)
			}
		}
		opts := &ebpf.RunOptions{Data: frame, Repeat: repeatPerRun, Flags: unix.BPF_F_TEST_XDP_LIVE_FRAMES,
			Context: xdpMD{DataEnd: uint32(len(frame)), IngressIfindex: uint32(l.Attrs().Index)}}
		if pps <= 0 {
			for end := time.Now().Add(dur); time.Now().Before(end); {
				if _, err := prog.Run(opts); err != nil {
					return fmt.Errorf("BPF_PROG_RUN live frames on %s: %w", ifname, err)
				}
				sent += repeatPerRun
			}
			return nil
		}
		sent, err = paced(pps, dur, func(n uint32) error {
			opts.Repeat = n
			_, err := prog.Run(opts)
			return err
		})
		if err != nil {
			return fmt.Errorf("BPF_PROG_RUN live frames on %s: %w", ifname, err)
		}
		return nil
	})
	return sent, err
}

// pacingTick is the period of a paced sender. A 1 ms burst at 2 Mpps is
// 2,000 frames: less than a switch's 4,096-slot receive ring.
const pacingTick = time.Millisecond

// paced sends at pps frames a second for dur with send (n frames a call):
// every tick, one call sends what the rate owes since the start, so a late
// tick catches up and the average holds.
func paced(pps float64, dur time.Duration, send func(n uint32) error) (uint64, error) {
	return pacedOn(wallClock{}, pps, dur, send)
}

// clock is what paced reads and waits on: the wall clock, or a test's.
type clock interface {
	Now() time.Time
	Sleep(d time.Duration)
}

type wallClock struct{}

func (wallClock) Now() time.Time        { return time.Now() }
func (wallClock) Sleep(d time.Duration) { time.Sleep(d) }

func pacedOn(c clock, pps float64, dur time.Duration, send func(n uint32) error) (uint64, error) {
	var sent uint64
	start := c.Now()
	for next := start; ; next = next.Add(pacingTick) {
		if d := next.Sub(c.Now()); d > 0 {
			c.Sleep(d)
		}
		elapsed := c.Now().Sub(start)
		if elapsed >= dur {
			return sent, nil
		}
		owed := uint64(pps*elapsed.Seconds()) - sent
		if owed == 0 {
			continue
		}
		n := uint32(min(owed, repeatPerRun))
		if err := send(n); err != nil {
			return sent, err
		}
		sent += uint64(n)
	}
}

// Counter is an XDP program attached to an interface that counts the
// frames arriving there, then drops them or passes them to the stack.
type Counter struct {
	prog   *ebpf.Program
	counts *ebpf.Map
	link   link.Link
}

// Attach attaches a counter to ifname in ns (native XDP). With pass, the
// frames go on to the kernel's stack (a bridge, a packet socket); without,
// they are dropped.
func Attach(ns netio.NS, ifname string, pass bool) (*Counter, error) {
	counts, err := ebpf.NewMap(&ebpf.MapSpec{Name: "xdpgen_count", Type: ebpf.PerCPUArray, KeySize: 4, ValueSize: 8, MaxEntries: 1})
	if err != nil {
		return nil, fmt.Errorf("counter map: %w", err)
	}
	verdict := int32(xdpDrop)
	if pass {
		verdict = xdpPass
	}
	prog, err := verdictProgram("xdpgen_count", verdict, counts)
	if err != nil {
		counts.Close()
		return nil, err
	}
	c := &Counter{prog: prog, counts: counts}
	err = ns.Do(func() error {
		l, err := netlink.LinkByName(ifname)
		if err != nil {
			return err
		}
		c.link, err = link.AttachXDP(link.XDPOptions{Program: prog, Interface: l.Attrs().Index, Flags: link.XDPDriverMode})
		return err
	})
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("attach XDP to %s: %w", ifname, err)
	}
	return c, nil
}

// Count is the frames counted so far, over all CPUs.
func (c *Counter) Count() (uint64, error) {
	var per []uint64
	if err := c.counts.Lookup(uint32(0), &per); err != nil {
		return 0, err
	}
	var n uint64
	for _, v := range per {
		n += v
	}
	return n, nil
}

// Close detaches the program.
func (c *Counter) Close() error {
	var errs []error
	if c.link != nil {
		errs = append(errs, c.link.Close())
	}
	errs = append(errs, c.prog.Close(), c.counts.Close())
	return errors.Join(errs...)
}

// verdictProgram is an XDP program that returns verdict, first adding one
// to counts[0] when counts is given.
func verdictProgram(name string, verdict int32, counts *ebpf.Map) (*ebpf.Program, error) {
	var insns asm.Instructions
	if counts != nil {
		insns = append(insns,
			asm.StoreImm(asm.RFP, -4, 0, asm.Word), // key 0 on the stack
			asm.LoadMapPtr(asm.R1, counts.FD()),
			asm.Mov.Reg(asm.R2, asm.RFP),
			asm.Add.Imm(asm.R2, -4),
			asm.FnMapLookupElem.Call(),
			asm.JEq.Imm(asm.R0, 0, "verdict"),
			asm.LoadMem(asm.R1, asm.R0, 0, asm.DWord),
			asm.Add.Imm(asm.R1, 1),
			asm.StoreMem(asm.R0, 0, asm.R1, asm.DWord), // per-CPU: no other writer
		)
	}
	insns = append(insns, asm.Mov.Imm(asm.R0, verdict).WithSymbol("verdict"), asm.Return())
	prog, err := ebpf.NewProgram(&ebpf.ProgramSpec{Name: name, Type: ebpf.XDP, License: "GPL", Instructions: insns})
	if err != nil {
		return nil, fmt.Errorf("load XDP program %s: %w", name, err)
	}
	return prog, nil
}
