// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/vishvananda/netlink"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/node"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

// The lab: gen:g-eth <-> sink:s-eth (generator ceiling); h1:h1-eth <->
// sw:sw-in and h2:h2-eth <-> sw:sw-out, joined either by a Linux bridge or
// by pbswitch (ports 1 and 2, vport port 100).
type netLab struct {
	lab          *nslab.Lab
	sw           netio.NS
	genTx, h1Tx  *netio.Socket
	genSink, out *sink
}

const vportPort = 100

var (
	labDst    = [4]byte{10, 251, 0, 2}
	labSrcMAC = []byte{2, 0xfb, 0, 0, 0, 1}
	labDstMAC = []byte{2, 0xfb, 0, 0, 0, 2}
)

func (l *netLab) build() error {
	var gen, sinkNS, h1, h2 netio.NS
	var err error
	steps := []func() error{
		func() error { gen, err = l.lab.NS("gen"); return err },
		func() error { sinkNS, err = l.lab.NS("sink"); return err },
		func() error { h1, err = l.lab.NS("h1"); return err },
		func() error { h2, err = l.lab.NS("h2"); return err },
		func() error { l.sw, err = l.lab.NS("sw"); return err },
		func() error { return l.lab.Veth(gen, "g-eth", sinkNS, "s-eth") },
		func() error { return l.lab.Veth(h1, "h1-eth", l.sw, "sw-in") },
		func() error { return l.lab.Veth(h2, "h2-eth", l.sw, "sw-out") },
		func() error { l.genTx, err = nslab.Socket(gen, "g-eth", 1600, 1024); return err },
		func() error { l.h1Tx, err = nslab.Socket(h1, "h1-eth", 1600, 1024); return err },
		func() error {
			s, err := nslab.Socket(sinkNS, "s-eth", 1600, 1<<15)
			if err == nil {
				l.genSink = startSink(s)
			}
			return err
		},
		func() error {
			s, err := nslab.Socket(h2, "h2-eth", 1600, 1<<16)
			if err == nil {
				l.out = startSink(s)
			}
			return err
		},
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

func (l *netLab) close() error {
	for _, k := range []*sink{l.genSink, l.out} {
		if k != nil {
			k.stop()
		}
	}
	for _, s := range []*netio.Socket{l.genTx, l.h1Tx} {
		if s != nil {
			s.Wake()
			s.Close()
		}
	}
	return l.lab.Close()
}

func (l *netLab) bridgeUp() error { return l.lab.Bridge(l.sw, "br0", "sw-in", "sw-out") }

func (l *netLab) bridgeDown() error {
	return l.sw.Do(func() error {
		link, err := netlink.LinkByName("br0")
		if err != nil {
			return err
		}
		return netlink.LinkDel(link)
	})
}

// switchUp starts pbswitch on the lab's switch ports with the route to the
// lab destination installed.
func (l *netLab) switchUp() (*node.Node, *ctl.Controller, error) {
	n, err := node.Start(node.Config{DeviceID: 1, CPUPort: 255, P4RTListen: "127.0.0.1:0", BufferListen: "127.0.0.1:0",
		Netns: l.sw.Path, Ports: []node.PortSpec{{ID: 1, Interface: "sw-in"}, {ID: 2, Interface: "sw-out"}},
		Vports: []uint32{vportPort}, Logger: quietLog})
	if err != nil {
		return nil, nil, err
	}
	c, err := pushed(n.P4RTAddr())
	if err == nil {
		err = c.Insert(c.Route(labDst, 32, 2, labSrcMAC, labDstMAC), c.VportPort(vportPort))
	}
	if err != nil {
		n.Close()
		return nil, nil, err
	}
	return n, c, nil
}

const throughputRounds = 3

func (b *bench) network() (err error) {
	l := &netLab{lab: nslab.New("pbswb-")}
	defer func() { err = errors.Join(err, l.close()) }()
	if err := l.build(); err != nil {
		return err
	}
	gen := rate(l.genTx, l.genSink, b.dur)
	b.Emit("generator_max_mpps_64b", gen/1e6, "Mpps", map[string]any{"frame_bytes": frame64, "seconds": b.dur.Seconds(), "path": "veth pair, AF_PACKET sender and sink"})
	var bridge, sw float64
	per := b.dur / throughputRounds
	for r := 0; r < throughputRounds; r++ {
		if err := l.bridgeUp(); err != nil {
			return fmt.Errorf("bridge: %w", err)
		}
		bridge += rate(l.h1Tx, l.out, per) / throughputRounds
		if err := l.bridgeDown(); err != nil {
			return fmt.Errorf("bridge down: %w", err)
		}
		n, c, err := l.switchUp()
		if err != nil {
			return fmt.Errorf("pbswitch: %w", err)
		}
		sw += rate(l.h1Tx, l.out, per) / throughputRounds
		c.Close()
		if err := n.Close(); err != nil {
			return err
		}
	}
	cond := map[string]any{"frame_bytes": frame64, "seconds": b.dur.Seconds(), "rounds": throughputRounds, "cores": runtime.NumCPU()}
	b.Emit("baseline_fwd_mpps_64b", bridge/1e6, "Mpps", with(cond, "path", "veth -> Linux bridge -> veth"))
	b.Emit("pbswitch_fwd_mpps_64b", sw/1e6, "Mpps", with(cond, "path", "veth -> pbswitch routing_v4 -> veth"))
	b.Emit("pbswitch_vs_bridge_64b", sw/bridge, "ratio", map[string]any{"baseline": "baseline_fwd_mpps_64b",
		"note": "not like with like: the bridge forwards (and the sink's socket receives) in the softirq the generator's sendmmsg raises, " +
			"on the generator's thread, so its work slows the generator; pbswitch forwards on threads of its own and the sink receives in " +
			"pbswitch's transmit, so pbswitch gets a second core; the like-with-like comparison is pbswitch_vs_bridge_64b_1core"})
	return nil
}

func with(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for a, b := range m {
		out[a] = b
	}
	return out
}

// forwardingBuffer creates a buffer bound to an RX+TX in-process vport on
// vportPort, over the southbound API like the controller would.
func forwardingBuffer(addr string) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	api := pb.NewBufferAgentClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	const app = "pbswitchbench"
	if _, err := api.CreateBuffer(ctx, &pb.CreateBufferRequest{AppId: app, BufferId: "fwd",
		Config: &pb.BufferConfig{CapacityPackets: 1 << 16}}); err != nil {
		return err
	}
	if _, err := api.CreateVport(ctx, &pb.CreateVportRequest{AppId: app, VportId: "v", Config: &pb.VportConfig{
		Mode: pb.VportMode_VPORT_MODE_RX_TX, Backend: &pb.VportConfig_InProcess{InProcess: &pb.InProcessBackend{Port: vportPort}}}}); err != nil {
		return err
	}
	_, err = api.Bind(ctx, &pb.BindRequest{AppId: app, BufferId: "fwd", VportId: "v"})
	return err
}
