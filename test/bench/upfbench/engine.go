// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
	"github.com/flowbuf/flowbuf/pbswitch/v1model"
)

// The lab of test/packet/test_upf.py: a gNodeB behind port 3 tunnels to the
// N3 address; the data network is behind port 2; UEs are in 10.250/16.
var (
	n3Addr  = [4]byte{10, 0, 0, 100}
	gnbAddr = [4]byte{10, 0, 0, 200}
	dnAddr  = [4]byte{10, 0, 2, 9}
	srcAddr = [4]byte{10, 0, 0, 1} // the plain path's sender
	mac     = []byte{2, 0, 0, 0, 0, 1}
)

const (
	portDN, portGNB = 2, 3
	payloadLen      = 64 // the inner packet's UDP payload
	// engineSessions are the UEs installed both ways; the measured
	// packets cycle through engineFlows of them.
	engineSessions = 10000
	engineFlows    = 1024
	qfi            = 9
	tunnelPeers    = 64
)

func ueAddr(i int) [4]byte {
	var a [4]byte
	binary.BigEndian.PutUint32(a[:], 0x0afa0000+uint32(i)+1) // 10.250.0.1 on
	return a
}

func teidUp(i int) uint32   { return 0x100000 + uint32(i) }
func teidDown(i int) uint32 { return 0x200000 + uint32(i) }

// frames is Ether/IPv4/UDP with a payloadLen payload (the plain and downlink
// packets, 106 B) and GTP-U with a PDU Session Container around the same
// (the uplink packets, 150 B).
func ipv4UDP(src, dst [4]byte, sport, dport uint16, data []byte) []byte {
	payload := len(data)
	p := make([]byte, 28, 28+payload)
	p[0], p[8], p[9] = 0x45, 64, 17
	binary.BigEndian.PutUint16(p[2:], uint16(28+payload))
	copy(p[12:], src[:])
	copy(p[16:], dst[:])
	binary.BigEndian.PutUint16(p[10:], checksum(p[:20]))
	binary.BigEndian.PutUint16(p[20:], sport)
	binary.BigEndian.PutUint16(p[22:], dport)
	binary.BigEndian.PutUint16(p[24:], uint16(8+payload))
	return append(p, data...)
}

func checksum(h []byte) uint16 {
	var s uint32
	for i := 0; i+1 < len(h); i += 2 {
		s += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

func ether(p []byte) []byte {
	return append([]byte{2, 0, 0, 0, 0, 0x11, 2, 0, 0, 0, 0, 0xaa, 8, 0}, p...)
}

func gtpu(teid uint32, inner []byte) []byte {
	h := []byte{0x34, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x85, 1, 0x10, qfi, 0}
	binary.BigEndian.PutUint16(h[2:], uint16(8+len(inner)))
	binary.BigEndian.PutUint32(h[4:], teid)
	return append(h, inner...)
}

// path is one kind of packet through the engine: its frames (one per flow),
// the port they arrive on, and where and how long they leave.
type path struct {
	name          string
	frames        [][]byte
	in, out       uint32
	inLen, outLen int
}

func paths() []path {
	var plain, down, up [][]byte
	for i := 0; i < engineFlows; i++ {
		ue := ueAddr(i * (engineSessions / engineFlows))
		ueIdx := i * (engineSessions / engineFlows)
		// The plain packet goes to a host of the data network, routed.
		dst := dnAddr
		dst[3] = byte(i)
		plain = append(plain, ether(ipv4UDP(srcAddr, dst, 1000, 2000, make([]byte, payloadLen))))
		down = append(down, ether(ipv4UDP(dnAddr, ue, 80, 4000, make([]byte, payloadLen))))
		inner := ipv4UDP(ue, dnAddr, 4000, 80, make([]byte, payloadLen))
		up = append(up, ether(ipv4UDP(gnbAddr, n3Addr, 2152, 2152, gtpu(teidUp(ueIdx), inner))))
	}
	l := 14 + 28 + payloadLen
	return []path{
		{"plain", plain, 1, portDN, l, l},
		{"downlink", down, portDN, portGNB, l, l + 44},
		{"uplink", up, portGNB, portDN, l + 44, l},
	}
}

type framePool struct{}

func (framePool) Get(n int) []byte { return engine.GetFrame(n) }
func (framePool) Put(b []byte)     { engine.PutFrame(b) }

// installer writes entries straight into the engine's tables.
type installer struct {
	info   *v1.P4Info
	tables map[string]*pipeline.Table
	err    error
}

func (in *installer) add(table, action string, params [][]byte, match ...pipeline.FieldMatch) {
	if in.err != nil {
		return
	}
	t := in.tables[table]
	if t == nil {
		in.err = fmt.Errorf("no table %s", table)
		return
	}
	var id uint32
	for _, a := range in.info.GetActions() {
		if a.GetPreamble().GetName() == action {
			id = a.GetPreamble().GetId()
		}
	}
	in.err = t.Insert(&pipeline.Entry{Match: match, Action: pipeline.Action{ID: id, Params: params}})
}

func b16(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }
func b32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

func exact(v []byte) pipeline.FieldMatch { return pipeline.FieldMatch{Value: v} }

func prefix(a [4]byte, n int) pipeline.FieldMatch {
	return pipeline.FieldMatch{Value: a[:], PrefixLen: n, Mask: b32(^uint32(0) << (32 - n))}
}

// upfProgram loads the FlowBuf program into the engine with the lab's
// routes, the UPF's interfaces and engineSessions UEs with a session and a
// termination each way (as test_upf.py writes them), over tunnelPeers
// gNodeB tunnel peers.
func upfProgram(pl ctl.Pipeline) (*v1model.Program, error) {
	prog, err := v1model.Load(pl.JSON, pl.Info, v1model.Options{CPUPort: 255, Frames: framePool{}})
	if err != nil {
		return nil, err
	}
	in := &installer{info: pl.Info, tables: map[string]*pipeline.Table{}}
	for _, t := range prog.Objects().Tables {
		in.tables[t.Name] = t
	}
	in.add(ctl.TableUpfInterfaces, ctl.ActionIfaceAccess, nil, prefix(n3Addr, 32))
	in.add(ctl.TableUpfInterfaces, ctl.ActionIfaceCore, nil, prefix([4]byte{10, 250, 0, 0}, 16))
	in.add(ctl.TableRoutingV4, ctl.ActionRoute, [][]byte{b16(portDN), mac, mac}, prefix([4]byte{10, 0, 2, 0}, 24))
	in.add(ctl.TableRoutingV4, ctl.ActionRoute, [][]byte{b16(portGNB), mac, mac}, prefix(gnbAddr, 32))
	for p := 0; p < tunnelPeers; p++ {
		in.add(ctl.TableTunnelPeers, ctl.ActionSetTunnelPeer, [][]byte{n3Addr[:], gnbAddr[:], b16(41000 + uint16(p))}, exact(b16(uint16(p))))
	}
	for i := 0; i < engineSessions; i++ {
		ue := ueAddr(i)
		in.add(ctl.TableUplinkSessions, ctl.ActionSetUplinkSession, [][]byte{b16(uint16(2 * i)), b16(0)},
			exact(n3Addr[:]), exact(b32(teidUp(i))))
		in.add(ctl.TableUplinkTerminations, ctl.ActionUplinkTermFwd, [][]byte{b16(uint16(2 * i)), b16(0), {qfi}},
			exact(ue[:]), exact([]byte{0}))
		in.add(ctl.TableDownlinkSessions, ctl.ActionSetDownlinkSession,
			[][]byte{b16(uint16(2*i + 1)), b16(0), b16(uint16(i % tunnelPeers))}, exact(ue[:]))
		in.add(ctl.TableDownlinkTerminations, ctl.ActionDownlinkTermFwd,
			[][]byte{b16(uint16(2*i + 1)), b16(0), b32(teidDown(i)), {qfi}}, exact(ue[:]), exact([]byte{0}))
	}
	return prog, in.err
}

// run sends n packets of p through Ingress and Egress, each in a frame from
// the switch's pool (copied in, returned after), as pbswitch's ports do.
// lat, when not nil, gets each packet's time.
func run(prog *v1model.Program, p path, n int, lat []time.Duration) error {
	pk := &pipeline.Packet{}
	for i := 0; i < n; i++ {
		src := p.frames[i%len(p.frames)]
		var t0 time.Time
		if lat != nil {
			t0 = time.Now()
		}
		fr := engine.GetFrame(len(src))
		copy(fr, src)
		pk.Frame, pk.Meta = fr, pipeline.StdMeta{IngressPort: p.in}
		prog.Ingress(pk)
		pk.Meta.EgressPort = pk.Meta.EgressSpec
		ok := prog.Egress(pk)
		if !ok || pk.Meta.EgressSpec != p.out || len(pk.Frame) != p.outLen {
			return fmt.Errorf("%s packet: egress %d, %d bytes (forwarded %v), want port %d, %d bytes",
				p.name, pk.Meta.EgressSpec, len(pk.Frame), ok, p.out, p.outLen)
		}
		engine.PutFrame(pk.Frame)
		if lat != nil {
			lat[i] = time.Since(t0)
		}
	}
	if pk.State != nil {
		pk.State.Release()
		pk.State = nil
	}
	return nil
}

// engine measures ns/packet of plain routing, downlink encapsulation and
// uplink decapsulation on one program, interleaved run by run so that the
// machine's load falls on all three alike.
func (b *bench) engine(pl ctl.Pipeline) error {
	prog, err := upfProgram(pl)
	if err != nil {
		return err
	}
	ps := paths()
	for _, p := range ps {
		if err := run(prog, p, len(p.frames), nil); err != nil {
			return err
		}
	}
	runs := 7
	if b.quick {
		runs = 3
	}
	ns := map[string][]float64{}
	var failed error
	for r := 0; r < runs; r++ {
		for _, p := range ps {
			res := testing.Benchmark(func(bn *testing.B) {
				if err := run(prog, p, bn.N, nil); err != nil {
					failed = err
				}
			})
			ns[p.name] = append(ns[p.name], float64(res.T.Nanoseconds())/float64(res.N))
		}
	}
	if failed != nil {
		return failed
	}
	med := func(name string) float64 {
		v := slices.Clone(ns[name])
		sort.Float64s(v)
		return v[len(v)/2]
	}
	plain, down, up := med("plain"), med("downlink"), med("uplink")
	cond := map[string]any{"where": "in process: v1model engine Ingress+Egress of the compiled FlowBuf program, one core, frames from pbswitch's pool; no ports, no queues",
		"sessions_installed": engineSessions, "flows_cycled": engineFlows, "tunnel_peers": tunnelPeers,
		"inner_payload_bytes": payloadLen, "runs": runs, "statistic": "median of runs, interleaved with the plain path"}
	b.Emit("plain_forwarding_mpps", 1000/plain, "Mpps", merge(cond, map[string]any{
		"path": fmt.Sprintf("plain L3 routing (routing_v4 hit, UPF classifier miss), %d B frame", ps[0].inLen), "ns_per_packet": plain}))
	b.Emit("upf_downlink_mpps", 1000/down, "Mpps", merge(cond, map[string]any{
		"path": fmt.Sprintf("GTP-U encapsulation with PSC, %d B in, %d B out, routed to the gNodeB", ps[1].inLen, ps[1].outLen), "ns_per_packet": down}))
	b.Emit("upf_uplink_mpps", 1000/up, "Mpps", merge(cond, map[string]any{
		"path": fmt.Sprintf("GTP-U decapsulation (PSC), %d B in, %d B out, routed to the data network", ps[2].inLen, ps[2].outLen), "ns_per_packet": up}))
	b.Emit("upf_vs_plain_forwarding", plain/down, "ratio", merge(cond, map[string]any{
		"measures": "downlink (the issue's 64 B worst case) packets/s over plain routing's", "uplink_ratio": plain / up}))

	// Per-packet times, the three paths interleaved in slices.
	n, slice := 400000, 20000
	if b.quick {
		n = 100000
	}
	lat := map[string][]time.Duration{}
	buf := make([]time.Duration, slice)
	for done := 0; done < n; done += slice {
		for _, p := range ps {
			if err := run(prog, p, slice, buf); err != nil {
				return err
			}
			lat[p.name] = append(lat[p.name], buf...)
		}
	}
	p50 := func(name string) float64 {
		v := lat[name]
		slices.Sort(v)
		return float64(v[len(v)/2].Nanoseconds()) / 1000
	}
	pl50, dl50, ul50 := p50("plain"), p50("downlink"), p50("uplink")
	b.Emit("upf_latency_us_p50", max(dl50, ul50)-pl50, "µs", merge(cond, map[string]any{
		"measures":  "added per-packet engine time of the UPF path over plain routing (p50 UPF - p50 plain, the slower direction); in-process engine time, no wire or queueing",
		"packets":   n,
		"plain_p50": pl50, "downlink_p50": dl50, "uplink_p50": ul50,
		"includes": "a time.Now pair per packet in every path"}))
	return nil
}
