// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// parserVariants are frames that take the parser's other paths: VLAN,
// IPv6 (TCP, UDP, ICMPv6), IPv4 TCP and ICMP, IPv4 with options, GTP-U
// without options, with a sequence number only, with an extension that is
// not a PDU Session Container, with a container of another length, of
// another message type, the radio path behind its lookahead (RLC, PDCP),
// the two FlowBuf control frames, an unknown ethertype, and the UPF's and
// routed seeds behind a packet_out header (on the CPU port).
func parserVariants() [][]byte {
	inner := ipv4UDP(upfUE, upfDN, 4000, 80, 64, make([]byte, 24))
	eth := func(etype uint16, payload []byte) []byte {
		f := append([]byte{2, 0, 0, 0, 0, 0x11, 2, 0, 0, 0, 0, 0xaa, 0, 0}, payload...)
		binary.BigEndian.PutUint16(f[12:], etype)
		return f
	}
	ipv4 := func(proto byte, opts int, payload []byte) []byte {
		p := ipv4UDP(upfDN, upfUE, 80, 4000, 64, nil)[:20]
		p[0], p[9] = 0x45+byte(opts), proto
		p = append(p, make([]byte, 4*opts)...)
		return append(p, payload...)
	}
	ipv6 := func(next byte, payload []byte) []byte {
		p := make([]byte, 40)
		p[0], p[6], p[7] = 0x60, next, 64
		p[39] = 1
		return append(p, payload...)
	}
	gtp := func(flags, msg byte, opt []byte) []byte {
		h := []byte{flags, msg, 0, 0, 0, 0, 0x12, 0x34}
		h = append(h, opt...)
		return ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, append(h, inner...))
	}
	l4 := make([]byte, 24)
	var out [][]byte
	out = append(out,
		eth(0x8100, append([]byte{0, 5, 8, 0}, ipv4UDP(upfDN, upfUE, 80, 4000, 64, l4)...)),
		eth(0x8100, append([]byte{0, 5, 0x86, 0xdd}, ipv6(17, l4)...)),
		eth(0x8100, append([]byte{0, 5, 0x88, 0xcc}, l4...)),
		eth(0x86dd, ipv6(6, l4)), eth(0x86dd, ipv6(17, l4)), eth(0x86dd, ipv6(58, l4)), eth(0x86dd, ipv6(47, l4)),
		eth(0x0800, ipv4(6, 0, l4)), eth(0x0800, ipv4(1, 0, l4)), eth(0x0800, ipv4(17, 2, l4)), eth(0x0800, ipv4(6, 1, l4)),
		ether(gtp(0x30, 0xff, nil)),
		ether(gtp(0x32, 0xff, []byte{0, 1, 0, 0})),
		ether(gtp(0x34, 0xff, []byte{0, 0, 0, 0x40, 1, 0, 0, 0})),
		ether(gtp(0x34, 0xff, []byte{0, 0, 0, 0x85, 2, 0x10, 9, 0})),
		ether(gtp(0x34, 0xff, []byte{0, 0, 0, 0x85, 1, 0x10, 9, 0})),
		ether(gtp(0x30, 0x01, nil)),
		ether(gtp(0x50, 0xff, nil)),
		eth(0x88b5, append([]byte{0x52, 1, 0, 0, 0, 0, 0x80, 0, 0, 0}, ipv4UDP(upfUE, upfDN, 4000, 80, 64, l4)...)),
		eth(0x88b5, append([]byte{0x52, 1, 0, 0, 0, 0, 0x00, 0, 0, 0}, l4...)),
		eth(0x88b5, append([]byte{0x52, 2, 0, 0, 0, 0}, l4...)),
		eth(0x88b5, append([]byte{0x51}, l4...)),
		eth(0x88b5, nil),
		eth(0x88b6, l4), eth(0x88b7, l4), eth(0x88cc, l4),
		append([]byte{0, 2}, udpFrame([4]byte{10, 0, 2, 9}, 64)...),
		append([]byte{0, 3}, ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp, inner)))...),
	)
	return out
}

// The generated parser leaves the PHV as the engine's parser does: every
// metadata word, header byte and validity bit, the parser's position, its
// error and the stacks' counts, over parserVariants and the UPF's and
// routed seeds, each on the data ports and the CPU port, whole, cut at
// every length, and with bits flipped; on the default build and upf-slow.
// The whole ingress runs after it, so its reads of what the parser left
// are compared too.
func TestGeneratedParserAgreesWithTheEngines(t *testing.T) {
	for _, dir := range []string{filepath.Dir(flowbufJSON), filepath.Join(filepath.Dir(flowbufJSON), "upf-slow")} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			spec := upfFixtureOn(loadBuild(t, dir, Options{CPUPort: cpuPort}))
			interp := upfFixtureOn(loadBuild(t, dir, Options{CPUPort: cpuPort, interpret: true}))
			ref := upfFixtureOn(loadBuild(t, dir, Options{CPUPort: cpuPort, reference: true}))
			if spec.prog.genParse == nil {
				t.Fatal("the committed program does not run its generated parser (run go generate ./pbswitch/v1model)")
			}
			if interp.prog.genParse != nil || ref.prog.genParse != nil {
				t.Fatal("the interpreted or the reference program runs the generated parser")
			}
			inner := ipv4UDP(upfUE, upfDN, 4000, 80, 64, make([]byte, 64))
			frames := append(parserVariants(),
				ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp, inner))),
				ether(ipv4UDP(upfDN, upfUE, 80, 4000, 64, make([]byte, 64))),
				udpFrame([4]byte{10, 0, 2, 9}, 64))
			r := rand.New(rand.NewPCG(7, 7))
			compared, errs := 0, 0
			for _, whole := range frames {
				var cases [][]byte
				for n := 0; n <= len(whole); n++ {
					cases = append(cases, whole[:n])
				}
				for range 20 {
					f := bytes.Clone(whole)
					for range 1 + r.IntN(3) {
						f[r.IntN(min(len(f), 100))] ^= byte(1 << r.IntN(8))
					}
					cases = append(cases, f)
				}
				for _, frame := range cases {
					for _, port := range []uint32{1, 2, cpuPort} {
						a := ingressPHV(spec.prog, frame, port)
						for _, other := range []*Program{interp.prog, ref.prog} {
							if err := samePHV(a, ingressPHV(other, frame, port)); err != nil {
								t.Fatalf("frame %x on port %d: %v", frame, port, err)
							}
						}
						if a.parserErr {
							errs++
						}
						compared++
					}
				}
			}
			if errs < 1000 || compared-errs < 1000 {
				t.Fatalf("%d packets compared, %d with a parser error: the comparison saw too little", compared, errs)
			}
		})
	}
}

// ingressPHV runs frame through p's ingress and returns a copy of the PHV
// it left.
func ingressPHV(p *Program, frame []byte, port uint32) *phv {
	pk := &pipeline.Packet{}
	pk.Frame, pk.Meta.IngressPort = bytes.Clone(frame), port
	p.Ingress(pk)
	s := pk.State.(*phv)
	c := p.newPHV()
	c.copyFrom(s)
	c.parserErr, c.pos, c.data = s.parserErr, s.pos, bytes.Clone(s.data)
	return c
}

// samePHV compares what a parser and ingress leave in two PHVs.
func samePHV(a, b *phv) error {
	switch {
	case !slices.Equal(a.slots, b.slots):
		return fmt.Errorf("metadata differs:\n%v\n%v", a.slots, b.slots)
	case !bytes.Equal(a.hdr, b.hdr):
		return fmt.Errorf("headers differ:\n%x\n%x", a.hdr, b.hdr)
	case !slices.Equal(a.valid, b.valid):
		return fmt.Errorf("validity differs:\n%v\n%v", a.valid, b.valid)
	case !slices.Equal(a.stackNext, b.stackNext):
		return fmt.Errorf("stacks differ: %v %v", a.stackNext, b.stackNext)
	case a.pos != b.pos || a.parserErr != b.parserErr || !bytes.Equal(a.data, b.data):
		return fmt.Errorf("parser position %d / %d, error %v / %v", a.pos, b.pos, a.parserErr, b.parserErr)
	}
	return nil
}
