// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"encoding/binary"
	"testing"

	names "github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// The FlowBuf program's UPF (include/upf.p4) on the engine: GTP-U
// decapsulation and encapsulation byte for byte, and without allocation.
// test/packet/test_upf.py checks the same against scapy on any target.

var (
	upfN3  = [4]byte{10, 0, 0, 100} // the UPF's N3 address
	upfGNB = [4]byte{10, 0, 0, 200} // a gNodeB
	upfUE  = [4]byte{10, 250, 0, 1} // a UE
	upfDN  = [4]byte{10, 0, 2, 9}   // a server in the data network
	upfMAC = []byte{2, 0, 0, 0, 0, 0x11}
	nhMAC  = []byte{2, 0, 0, 0, 0, 0x22}
)

const (
	upfTEIDUp   = 0x1234
	upfTEIDDown = 0xabcd
	upfQFI      = 9
	upfSport    = 5555
)

func b32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

func exact(v []byte) pipeline.FieldMatch { return pipeline.FieldMatch{Value: v} }

func prefix(a [4]byte, n int) pipeline.FieldMatch {
	mask := binary.BigEndian.AppendUint32(nil, ^uint32(0)<<(32-n))
	return pipeline.FieldMatch{Value: a[:], PrefixLen: n, Mask: mask}
}

func (f *fixture) entry(table string, action string, params [][]byte, match ...pipeline.FieldMatch) {
	f.t.Helper()
	f.insert(table, &pipeline.Entry{Match: match, Action: pipeline.Action{ID: f.ids[action], Params: params}})
}

func (f *fixture) counterCell(name string, i int64) (packets, bytes uint64) {
	f.t.Helper()
	for _, c := range f.info.Counters {
		if c.Preamble.Name == name {
			cell, err := f.prog.objs.Counters[c.Preamble.Id].Cell(i)
			if err != nil {
				f.t.Fatal(err)
			}
			p, b := cell.Read()
			return uint64(p), uint64(b)
		}
	}
	f.t.Fatalf("no counter %s", name)
	return 0, 0
}

// upfFixture installs one UE's session both ways: uplink TEID upfTEIDUp on
// upfN3, downlink through tunnel peer 7 (upfGNB) with TEID upfTEIDDown and
// QFI upfQFI; the data network routed out of port 2, the gNodeB out of 3.
func upfFixture(t testing.TB) *fixture {
	return upfFixtureOn(loadFlowBuf(t))
}

// upfFixtureOn installs upfFixture's entries into f's program.
func upfFixtureOn(f *fixture) *fixture {
	f.entry(names.TableUpfInterfaces, names.ActionIfaceAccess, nil, prefix(upfN3, 32))
	f.entry(names.TableUpfInterfaces, names.ActionIfaceCore, nil, prefix([4]byte{10, 250, 0, 0}, 16))
	f.entry(names.TableUplinkSessions, names.ActionSetUplinkSession, [][]byte{b16(1), b16(0)},
		exact(upfN3[:]), exact(b32(upfTEIDUp)))
	f.entry(names.TableUplinkTerminations, names.ActionUplinkTermFwd, [][]byte{b16(2), b16(0), {upfQFI}},
		exact(upfUE[:]), exact([]byte{0}))
	f.entry(names.TableDownlinkSessions, names.ActionSetDownlinkSession, [][]byte{b16(3), b16(0), b16(7)},
		exact(upfUE[:]))
	f.entry(names.TableDownlinkTerminations, names.ActionDownlinkTermFwd,
		[][]byte{b16(4), b16(0), b32(upfTEIDDown), {upfQFI}}, exact(upfUE[:]), exact([]byte{0}))
	f.entry(names.TableTunnelPeers, names.ActionSetTunnelPeer, [][]byte{upfN3[:], upfGNB[:], b16(upfSport)},
		exact(b16(7)))
	f.entry(names.TableRoutingV4, names.ActionRoute, [][]byte{b16(2), upfMAC, nhMAC}, prefix([4]byte{10, 0, 2, 0}, 24))
	f.entry(names.TableRoutingV4, names.ActionRoute, [][]byte{b16(3), upfMAC, nhMAC}, prefix(upfGNB, 32))
	return f
}

// ipv4UDP is an IPv4/UDP packet (no Ethernet) with payload; the UDP
// checksum is left 0, which nothing here checks.
func ipv4UDP(src, dst [4]byte, sport, dport uint16, ttl byte, payload []byte) []byte {
	p := make([]byte, 28, 28+len(payload))
	p[0], p[8], p[9] = 0x45, ttl, 17
	binary.BigEndian.PutUint16(p[2:], uint16(28+len(payload)))
	binary.BigEndian.PutUint16(p[4:], 0x4242)
	copy(p[12:], src[:])
	copy(p[16:], dst[:])
	binary.BigEndian.PutUint16(p[10:], ipv4Checksum(p))
	binary.BigEndian.PutUint16(p[20:], sport)
	binary.BigEndian.PutUint16(p[22:], dport)
	binary.BigEndian.PutUint16(p[24:], uint16(8+len(payload)))
	return append(p, payload...)
}

func ether(payload []byte) []byte {
	f := append([]byte{2, 0, 0, 0, 0, 0x11, 2, 0, 0, 0, 0, 0xaa, 8, 0}, payload...)
	return f
}

// gtpu is GTP-U with the options word and an uplink PDU Session Container
// carrying upfQFI around inner.
func gtpu(teid uint32, inner []byte) []byte {
	h := []byte{0x34, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x85, 1, 0x10, upfQFI, 0}
	binary.BigEndian.PutUint16(h[2:], uint16(8+len(inner)))
	binary.BigEndian.PutUint32(h[4:], teid)
	return append(h, inner...)
}

func TestUpfUplinkDecapsulates(t *testing.T) {
	f := upfFixture(t)
	payload := []byte("uplink payload, 64 bytes or so, it does not matter how many....")
	inner := ipv4UDP(upfUE, upfDN, 4000, 80, 64, payload)
	in := ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp, inner)))
	size := len(in)
	pk := f.ingress(in, 1)
	if pk.Meta.EgressSpec != 2 || !f.egress(pk) {
		t.Fatalf("uplink not forwarded to the data network: egress %d", pk.Meta.EgressSpec)
	}
	want := append(append(append([]byte(nil), nhMAC...), upfMAC...), 8, 0)
	want = append(want, inner...)
	want[14+8] = 63 // routed: TTL - 1, checksum again
	binary.BigEndian.PutUint16(want[14+10:], 0)
	binary.BigEndian.PutUint16(want[14+10:], ipv4Checksum(want[14:34]))
	if !bytes.Equal(pk.Frame, want) {
		t.Fatalf("decapsulated\n got %x\nwant %x", pk.Frame, want)
	}
	if p, b := f.counterCell(names.CounterUpfSessions, 1); p != 1 || b != uint64(size) {
		t.Errorf("session counter %d/%d, want 1/%d", p, b, size)
	}
	if p, _ := f.counterCell(names.CounterUpfTerminations, 2); p != 1 {
		t.Errorf("termination counter %d packets, want 1", p)
	}

	// An unknown TEID is dropped and counted.
	pk = f.ingress(ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(0x999, inner))), 1)
	if pk.Meta.EgressSpec != pipeline.DropPort {
		t.Fatalf("unknown TEID went to %d", pk.Meta.EgressSpec)
	}
	if p, _ := f.counterCell(names.CounterUpfDrops, names.UpfDropUplinkSessionMiss); p != 1 {
		t.Errorf("drops[uplink session miss] %d, want 1", p)
	}
}

func TestUpfDownlinkEncapsulates(t *testing.T) {
	f := upfFixture(t)
	payload := []byte("downlink payload")
	inner := ipv4UDP(upfDN, upfUE, 80, 4000, 64, payload)
	pk := f.ingress(ether(inner), 2)
	if pk.Meta.EgressSpec != 3 || !f.egress(pk) {
		t.Fatalf("downlink not forwarded to the gNodeB: egress %d", pk.Meta.EgressSpec)
	}
	out := pk.Frame
	if len(out) != 14+20+8+16+len(inner) {
		t.Fatalf("%d bytes, want %d", len(out), 14+20+8+16+len(inner))
	}
	ip, udp, gtp := out[14:34], out[34:42], out[42:58]
	wantIP := []byte{0x45, 0, 0, 0, 0, 0, 0, 0, 63, 17, 0, 0}
	binary.BigEndian.PutUint16(wantIP[2:], uint16(20+8+16+len(inner)))
	wantIP = append(append(wantIP, upfN3[:]...), upfGNB[:]...)
	binary.BigEndian.PutUint16(wantIP[10:], ipv4Checksum(wantIP))
	if !bytes.Equal(ip, wantIP) {
		t.Errorf("outer IPv4\n got %x\nwant %x", ip, wantIP)
	}
	wantUDP := []byte{upfSport >> 8, upfSport & 0xff, 0x08, 0x68, 0, 0, 0, 0}
	binary.BigEndian.PutUint16(wantUDP[4:], uint16(8+16+len(inner)))
	if !bytes.Equal(udp, wantUDP) {
		t.Errorf("outer UDP %x, want %x", udp, wantUDP)
	}
	wantGTP := []byte{0x34, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x85, 1, 0x00, upfQFI, 0}
	binary.BigEndian.PutUint16(wantGTP[2:], uint16(8+len(inner)))
	binary.BigEndian.PutUint32(wantGTP[4:], upfTEIDDown)
	if !bytes.Equal(gtp, wantGTP) {
		t.Errorf("GTP-U %x, want %x", gtp, wantGTP)
	}
	if !bytes.Equal(out[58:], inner) {
		t.Errorf("inner packet changed\n got %x\nwant %x", out[58:], inner)
	}
}

// GTP-U encapsulation and decapsulation cost no allocation per packet.
func TestUpfRunAllocatesNothing(t *testing.T) {
	f := upfFixture(t)
	pool := &framePool{free: make([][]byte, 0, 16)}
	f.prog.opts.Frames, f.prog.ownsFrames = pool, true // as Load with Options.Frames
	inner := ipv4UDP(upfUE, upfDN, 4000, 80, 64, make([]byte, 64))
	ins := []struct {
		frame []byte
		port  uint32
	}{
		{ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp, inner))), 1},
		{ether(ipv4UDP(upfDN, upfUE, 80, 4000, 64, make([]byte, 64))), 2},
	}
	pk := &pipeline.Packet{}
	i := 0
	run := func() {
		in := ins[i%len(ins)]
		i++
		fr := pool.Get(len(in.frame))
		copy(fr, in.frame)
		pk.Frame, pk.Meta = fr, pipeline.StdMeta{IngressPort: in.port}
		f.prog.Ingress(pk)
		pk.Meta.EgressPort = pk.Meta.EgressSpec
		if !f.prog.Egress(pk) {
			t.Fatal("dropped")
		}
		pool.Put(pk.Frame)
	}
	for range 8 {
		run()
	}
	if allocs := testing.AllocsPerRun(200, run); allocs != 0 {
		t.Fatalf("%.1f allocations per packet, want 0", allocs)
	}
}

// A program with a frame allocator moves the payload within the frame when
// the headers grow (the downlink's encapsulation) or shrink (the uplink's
// decapsulation) and the frame's capacity allows, and otherwise deparses
// into a new frame; every deparser (generated, deparseFixed, deparseAny)
// gives the bytes a program on the Go heap gives, which never writes past
// a frame's length.
func TestDeparseMovesThePayloadInPlace(t *testing.T) {
	heap := upfFixture(t)
	f := upfFixture(t)
	pool := &framePool{}
	f.prog.opts.Frames, f.prog.ownsFrames = pool, true
	gen := f.prog.genDeparse
	if gen == nil {
		t.Fatal("no generated deparser")
	}
	inner := ipv4UDP(upfUE, upfDN, 4000, 80, 64, make([]byte, 64))
	ins := []struct {
		name  string
		frame []byte
		port  uint32
	}{
		{"uplink", ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp, inner))), 1},
		{"downlink", ether(ipv4UDP(upfDN, upfUE, 80, 4000, 64, bytes.Repeat([]byte{1, 2, 3, 4, 5}, 20))), 2},
		{"downlink, 1-byte payload", ether(ipv4UDP(upfDN, upfUE, 80, 4000, 64, []byte{7})), 2},
	}
	for _, deparser := range []string{"generated", "fixed", "any"} {
		f.prog.genDeparse, f.prog.emitFixed = gen, true
		switch deparser {
		case "fixed":
			f.prog.genDeparse = nil
		case "any":
			f.prog.genDeparse, f.prog.emitFixed = nil, false
		}
		for _, in := range ins {
			hf := append(make([]byte, 0, len(in.frame)+64), in.frame...)
			want := &pipeline.Packet{Frame: hf, Meta: pipeline.StdMeta{IngressPort: in.port}}
			heap.prog.Ingress(want)
			want.Meta.EgressPort = want.Meta.EgressSpec
			if !heap.prog.Egress(want) || len(want.Frame) == len(in.frame) || &want.Frame[0] == &hf[0] {
				t.Fatalf("%s: the heap program gave %d bytes from %d, in its input frame: %v",
					in.name, len(want.Frame), len(in.frame), &want.Frame[0] == &hf[0])
			}
			for _, spare := range []int{0, 64} {
				fr := make([]byte, len(in.frame), len(in.frame)+spare)
				copy(fr, in.frame)
				pk := &pipeline.Packet{Frame: fr, Meta: pipeline.StdMeta{IngressPort: in.port}}
				f.prog.Ingress(pk)
				pk.Meta.EgressPort = pk.Meta.EgressSpec
				pool.free = pool.free[:0]
				if !f.prog.Egress(pk) || !bytes.Equal(pk.Frame, want.Frame) {
					t.Fatalf("%s, %s deparser, %d spare bytes:\n got %x\nwant %x", in.name, deparser, spare, pk.Frame, want.Frame)
				}
				inPlace := &pk.Frame[0] == &fr[0]
				if fits := len(want.Frame) <= cap(fr); inPlace != fits || len(pool.free) != map[bool]int{true: 0, false: 1}[fits] {
					t.Fatalf("%s, %s deparser, %d spare bytes: in place %v, %d frames put back; the frame fits: %v",
						in.name, deparser, spare, inPlace, len(pool.free), fits)
				}
			}
		}
	}
	f.prog.genDeparse, f.prog.emitFixed = gen, true
}
