// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/test/bench/xdpgen"
)

// The UPF's forwarding ceiling on one core: 64-byte downlink packets (a
// data-network host to a UE) encapsulated in GTP-U towards the gNodeB by a
// pbswitch process on CPU 1 (GOMAXPROCS=1), with a generator that outruns
// AF_PACKET (xdpgen, CPU 0), measured with the generator's own rate in the
// same run.
const (
	ceilingGenCPU    = 0
	ceilingSwitchCPU = 1
	ceilingAddr      = "127.0.0.1:29561"
	ceilingFrame     = 64
)

func (b *bench) ceiling(pl ctl.Pipeline) (err error) {
	dur := 6 * time.Second
	if b.quick {
		dur = 1500 * time.Millisecond
	}
	l, err := xdpgen.NewLab("upxdp-", ceilingGenCPU)
	if err != nil {
		return fmt.Errorf("lab: %w", err)
	}
	defer func() { err = errors.Join(err, l.Close()) }()
	ue := ueAddr(0)
	frame := ether(ipv4UDP(dnAddr, ue, 80, 4000, make([]byte, ceilingFrame-14-28)))
	cond := map[string]any{"frame_bytes": len(frame), "seconds": dur.Seconds(), "generator": "XDP live frames (BPF_PROG_RUN) on a veth, CPU 0",
		"cores": 2, "note": "machine shared with other work: figures are lower bounds"}
	gen, err := l.GeneratorRate(frame, dur)
	if err != nil {
		return fmt.Errorf("generator: %w", err)
	}
	b.Emit("generator_mpps_64b", gen/1e6, "Mpps", merge(cond, map[string]any{"path": "veth pair, counted by XDP at the peer"}))
	bin, err := pbswitchBinary()
	if err != nil {
		return err
	}
	cmd := exec.Command("taskset", "-c", fmt.Sprint(ceilingSwitchCPU), bin, "--netns", l.Switch.Path,
		"--port", "1="+xdpgen.SwitchIn, "--port", fmt.Sprintf("%d=%s", portGNB, xdpgen.SwitchOut),
		"--cpu-port", "255", "--p4rt-listen", ceilingAddr, "--buffer-listen", "")
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if err := programDownlink(pl, ceilingAddr); err != nil {
		return fmt.Errorf("program the UPF: %w", err)
	}
	upCond := merge(cond, map[string]any{
		"path": "veth -> pbswitch (FlowBuf program: UPF downlink, GTP-U encapsulation, 108 B out) -> veth; pbswitch on CPU 1, GOMAXPROCS=1"})
	// The XDP sink's counter makes the veth copy every frame into a page in
	// the switch's context; the stack sink drops them at IP receive. Both
	// on the same switch process, one after the other; then both again
	// with the sink's receive in a NAPI thread on the generator's CPU (off
	// the switch's: xdpgen.Lab.SetSinkCPU).
	for _, sink := range []struct {
		kind    xdpgen.Sink
		napiCPU int
		prefix  string
		what    string
	}{
		{xdpgen.SinkXDP, -1, "pbswitch_upf", "h2-eth's XDP program counts and drops each frame (the veth copies it into a page first)"},
		{xdpgen.SinkStack, -1, "pbswitch_upf_stack_sink", "h2-eth's stack (no XDP program) drops each frame, counted by its receive counter"},
		{xdpgen.SinkXDP, ceilingGenCPU, "pbswitch_upf_sink_thread", "h2-eth's XDP program counts and drops each frame, in h2-eth's threaded NAPI poll pinned to CPU 0 (off the switch's CPU)"},
		{xdpgen.SinkStack, ceilingGenCPU, "pbswitch_upf_stack_sink_thread", "h2-eth's stack drops each frame, in h2-eth's threaded NAPI poll (GRO on) pinned to CPU 0 (off the switch's CPU)"},
	} {
		if err := l.SetSink(sink.kind); err != nil {
			return err
		}
		if _, err := l.SetSinkCPU(sink.napiCPU); err != nil {
			return err
		}
		r, err := l.MeasureForward(cmd.Process.Pid, ceilingSwitchCPU, frame, dur)
		if err != nil {
			return fmt.Errorf("%v sink: %w", sink.kind, err)
		}
		cond := merge(upCond, map[string]any{"sink": sink.what})
		b.emitCeiling(sink.prefix, r.Rate, r.Share, cond)
		if sink.napiCPU >= 0 {
			b.Emit(sink.prefix+"_napi_thread_cpu_share", r.SinkThreadShare, "ratio", merge(cond, map[string]any{
				"what": "CPU time of h2-eth's NAPI thread (on CPU 0) / wall time: the sink's receive, off pbswitch's CPU"}))
			var drop float64
			if r.Sent > 0 {
				drop = r.Dropped / r.Sent
			}
			b.Emit(sink.prefix+"_sink_dropped_ratio", drop, "ratio", merge(cond, map[string]any{
				"what": "frames the veth dropped for a full sink ring (sw-out's tx_dropped) / frames pbswitch sent: a sink thread that did not keep up"}))
		}
		b.Emit(sink.prefix+"_softirq_share_1core", r.SoftirqShare, "ratio", merge(cond, map[string]any{
			"what": "softirq time of CPU 1 (/proc/stat) / wall time, whichever task it interrupted"}))
	}
	if _, err := l.SetSinkCPU(-1); err != nil {
		return err
	}
	return l.SetSink(xdpgen.SinkXDP)
}

// emitCeiling prints one sink's figures: the rate pbswitch kept at
// overload, the share of CPU 1 it got (the machine is shared) and the rate
// per CPU-second of it, which say what limited the figure.
func (b *bench) emitCeiling(prefix string, rate, share float64, cond map[string]any) {
	b.Emit(prefix+"_fwd_mpps_64b_1core", rate/1e6, "Mpps", cond)
	b.Emit(prefix+"_cpu_share_1core", share, "ratio", merge(cond, map[string]any{
		"what": "CPU time of the pbswitch process (user + system, softirq run in its context included) / wall time, during the run"}))
	b.Emit(prefix+"_fwd_mpps_per_cpu_second", xdpgen.MppsPerCPUSecond(rate, share), "Mpps", merge(cond, map[string]any{
		"what": "the rate / pbswitch's CPU share: frames forwarded per CPU-second of pbswitch"}))
}

// programDownlink pushes the FlowBuf program to the pbswitch at addr once
// it answers and installs one UE's downlink: the UE pool is the core side,
// a session and a termination for UE 0, its gNodeB tunnel peer and the
// route to the gNodeB.
func programDownlink(pl ctl.Pipeline, addr string) error {
	var c *ctl.Controller
	var err error
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if c, err = ctl.Connect(addr, 1); err == nil {
			if err = c.Push(pl); err == nil {
				break
			}
			c.Close()
		}
		if time.Now().After(deadline) {
			return err
		}
	}
	defer c.Close()
	w := newWriter(pl.Info)
	core := &p4.TableEntry{TableId: w.id(ctl.TableUpfInterfaces),
		Match: []*p4.FieldMatch{{FieldId: w.id(ctl.TableUpfInterfaces + "/ipv4_dst"),
			FieldMatchType: &p4.FieldMatch_Lpm{Lpm: &p4.FieldMatch_LPM{Value: []byte{10, 250, 0, 0}, PrefixLen: 16}}}},
		Action: &p4.TableAction{Type: &p4.TableAction_Action{Action: &p4.Action{ActionId: w.id(ctl.ActionIfaceCore)}}}}
	var gnb [4]byte
	copy(gnb[:], gnbAddr[:])
	ue := ueAddr(0)
	return c.Insert(core,
		w.peer.entry([][]byte{{0}}, n3Addr[:], gnb[:], canon(b16(41000))),
		w.session.entry([][]byte{ue[:]}, []byte{1}, []byte{0}, []byte{0}),
		w.termination.entry([][]byte{ue[:], {0}}, []byte{1}, []byte{0}, canon(b32(teidDown(0))), []byte{qfi}),
		c.Route(gnb, 32, portGNB, mac, mac))
}

// ceilingSummary is the one line of ONLY=ceiling: the downlink figures
// and what limits them (pbswitch's CPU a frame, with the sink's receive in
// its context and off its CPU, and the share of CPU 1 it got).
func (b *bench) ceilingSummary(took time.Duration) string {
	us := xdpgen.MicrosecondsPerFrame
	best := max(b.Value("pbswitch_upf_sink_thread_fwd_mpps_per_cpu_second"), b.Value("pbswitch_upf_stack_sink_thread_fwd_mpps_per_cpu_second"))
	return fmt.Sprintf("upfbench ceiling (%.0fs): generator %.3f Mpps; pbswitch UPF downlink %.3f Mpps overloaded with %.0f %% of CPU 1 "+
		"(%.3f Mpps per CPU-second, stack sink %.3f; with the sink's receive in a NAPI thread on CPU 0: %.3f / %.3f); "+
		"what limits it: pbswitch's CPU a frame, %.2f µs with the sink's receive in its context (XDP sink) and %.2f µs with it off its CPU "+
		"(pbswitch's work and the kernel's transmit, one skb a frame), and the %.0f %% of CPU 1 it got on a shared machine",
		took.Seconds(), b.Value("generator_mpps_64b"), b.Value("pbswitch_upf_fwd_mpps_64b_1core"), 100*b.Value("pbswitch_upf_cpu_share_1core"),
		b.Value("pbswitch_upf_fwd_mpps_per_cpu_second"), b.Value("pbswitch_upf_stack_sink_fwd_mpps_per_cpu_second"),
		b.Value("pbswitch_upf_sink_thread_fwd_mpps_per_cpu_second"), b.Value("pbswitch_upf_stack_sink_thread_fwd_mpps_per_cpu_second"),
		us(b.Value("pbswitch_upf_fwd_mpps_per_cpu_second")), us(best), 100*b.Value("pbswitch_upf_cpu_share_1core"))
}
