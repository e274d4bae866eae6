// SPDX-License-Identifier: Apache-2.0

package flowbufprog

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

type fixture struct {
	t    testing.TB
	prog *Program
	ids  map[string]uint32
}

func newFixture(t testing.TB) *fixture {
	info := loadP4Info(t)
	prog, err := Bind(info, DefaultCPUPort, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]uint32{}
	for _, x := range info.Tables {
		ids[x.Preamble.Name] = x.Preamble.Id
	}
	for _, x := range info.Actions {
		ids[x.Preamble.Name] = x.Preamble.Id
	}
	return &fixture{t: t, prog: prog, ids: ids}
}

func (f *fixture) table(name string) *pipeline.Table { return f.prog.objs.Tables[f.ids[name]] }

func (f *fixture) insert(table string, e *pipeline.Entry) {
	f.t.Helper()
	if err := f.table(table).Insert(e); err != nil {
		f.t.Fatal(err)
	}
}

func b16(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }

// udpFrame builds Ethernet/IPv4/UDP 10.0.0.1:1000 -> dst:2000 with TTL ttl.
func udpFrame(dst [4]byte, ttl byte) []byte {
	f := make([]byte, 64)
	copy(f[0:], []byte{2, 0, 0, 0, 0, 0xbb})
	copy(f[6:], []byte{2, 0, 0, 0, 0, 0xaa})
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	ip := f[14:]
	ip[0], ip[8], ip[9] = 0x45, ttl, 17
	binary.BigEndian.PutUint16(ip[2:], 50)
	copy(ip[12:], []byte{10, 0, 0, 1})
	copy(ip[16:], dst[:])
	binary.BigEndian.PutUint16(ip[10:], ipv4Checksum(ip))
	binary.BigEndian.PutUint16(f[34:], 1000)
	binary.BigEndian.PutUint16(f[36:], 2000)
	return f
}

func (f *fixture) run(frame []byte, inPort uint32) *pipeline.Packet {
	pk := &pipeline.Packet{Frame: frame, Meta: pipeline.StdMeta{IngressPort: inPort}}
	f.prog.Ingress(pk)
	return pk
}

func TestRoutingRewritesAndDecrementsTTL(t *testing.T) {
	f := newFixture(t)
	nhMAC, myMAC := []byte{2, 0, 0, 0, 0, 0x22}, []byte{2, 0, 0, 0, 0, 0x11}
	f.insert(TableRoutingV4, &pipeline.Entry{
		Match:  []pipeline.FieldMatch{{Value: []byte{10, 0, 2, 0}, PrefixLen: 24}},
		Action: pipeline.Action{ID: f.ids[ActionRoute], Params: [][]byte{b16(2), myMAC, nhMAC}},
	})
	pk := f.run(udpFrame([4]byte{10, 0, 2, 9}, 64), 1)
	if pk.Meta.EgressSpec != 2 {
		t.Fatalf("egress %d, want 2", pk.Meta.EgressSpec)
	}
	if pk.Frame[22] != 63 || string(pk.Frame[0:6]) != string(nhMAC) || string(pk.Frame[6:12]) != string(myMAC) {
		t.Fatalf("not rewritten: ttl %d dst %x src %x", pk.Frame[22], pk.Frame[0:6], pk.Frame[6:12])
	}
	if ipv4Checksum(pk.Frame[14:34]) != binary.BigEndian.Uint16(pk.Frame[24:]) {
		t.Fatal("IPv4 checksum not updated")
	}
	// TTL 1 is not routed: nothing matches, egress stays 0.
	if pk := f.run(udpFrame([4]byte{10, 0, 2, 9}, 1), 1); pk.Meta.EgressSpec != 0 {
		t.Fatalf("TTL 1 routed to %d", pk.Meta.EgressSpec)
	}
	_, e := f.table(TableRoutingV4).Lookup([]byte{10, 0, 2, 9})
	if p, _ := e.Counter.Read(); p != 1 {
		t.Fatalf("direct counter %d, want 1", p)
	}
}

func TestSteeringIntoVportAndReplayFromVport(t *testing.T) {
	f := newFixture(t)
	const vportRX, vportTX, out = 100, 101, 2
	any := pipeline.FieldMatch{Wildcard: true}
	f.insert(TableFlowSteering, &pipeline.Entry{
		Match: []pipeline.FieldMatch{{Value: []byte{0}, Mask: []byte{1}}, any, any, {Value: []byte{10, 0, 2, 9}, Mask: []byte{255, 255, 255, 255}},
			{Value: []byte{17}, Mask: []byte{255}}, any, {Value: b16(2000), Mask: b16(0xffff)}},
		Priority: 10,
		Action:   pipeline.Action{ID: f.ids[ActionSteerToPort], Params: [][]byte{b16(vportRX)}},
	})
	f.insert(TableVportPorts, &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: b16(vportTX)}},
		Action: pipeline.Action{ID: f.ids[ActionMarkFromVport]}})
	f.insert(TableL2Exact, &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{2, 0, 0, 0, 0, 0xbb}}},
		Action: pipeline.Action{ID: f.ids[ActionSetEgressPort], Params: [][]byte{b16(out)}}})
	if pk := f.run(udpFrame([4]byte{10, 0, 2, 9}, 64), 1); pk.Meta.EgressSpec != vportRX {
		t.Fatalf("flow not steered into the RX vport: egress %d", pk.Meta.EgressSpec)
	}
	if pk := f.run(udpFrame([4]byte{10, 0, 2, 9}, 64), vportTX); pk.Meta.EgressSpec != out {
		t.Fatalf("replayed packet not forwarded on: egress %d", pk.Meta.EgressSpec)
	}
	if pk := f.run(udpFrame([4]byte{10, 0, 3, 9}, 64), 1); pk.Meta.EgressSpec != out {
		t.Fatalf("other flow not L2-forwarded: egress %d", pk.Meta.EgressSpec)
	}
}

func TestACLPuntCopyDropAndPacketIO(t *testing.T) {
	f := newFixture(t)
	any := pipeline.FieldMatch{Wildcard: true}
	acl := func(dport uint16, action string) {
		f.insert(TableACL, &pipeline.Entry{
			Match:    []pipeline.FieldMatch{any, any, any, any, any, any, any, any, {Value: b16(dport), Mask: b16(0xffff)}},
			Priority: 1, Action: pipeline.Action{ID: f.ids[action]}})
	}
	acl(2000, ActionPuntToCPU)
	pk := f.run(udpFrame([4]byte{10, 0, 0, 2}, 64), 3)
	if pk.Meta.EgressSpec != DefaultCPUPort {
		t.Fatalf("punt: egress %d", pk.Meta.EgressSpec)
	}
	pk.Meta.EgressPort = pk.Meta.EgressSpec
	if !f.prog.Egress(pk) || len(pk.PacketIn) == 0 || pipeline.Uint(pk.PacketIn[0].Value) != 3 {
		t.Fatalf("packet_in metadata %v", pk.PacketIn)
	}
	f.table(TableACL).Clear()
	acl(2000, ActionCopyToCPU)
	if pk := f.run(udpFrame([4]byte{10, 0, 0, 2}, 64), 3); pk.Meta.CloneSession != CPUCloneSession {
		t.Fatalf("copy_to_cpu: clone session %d", pk.Meta.CloneSession)
	}
	f.table(TableACL).Clear()
	acl(2000, ActionACLDrop)
	if pk := f.run(udpFrame([4]byte{10, 0, 0, 2}, 64), 3); pk.Meta.EgressSpec != pipeline.DropPort {
		t.Fatalf("drop: egress %d", pk.Meta.EgressSpec)
	}
	out := &pipeline.Packet{Frame: udpFrame([4]byte{10, 0, 0, 2}, 64), Meta: pipeline.StdMeta{IngressPort: DefaultCPUPort},
		PacketOut: []pipeline.CtrlMeta{{ID: f.prog.packetOutPort, Value: b16(7)}}}
	f.prog.Ingress(out)
	if out.Meta.EgressSpec != 7 {
		t.Fatalf("packet-out went to %d, want 7", out.Meta.EgressSpec)
	}
}

func TestBindRefusesAnotherProgram(t *testing.T) {
	info := loadP4Info(t)
	broken := proto.Clone(info).(*p4info.P4Info)
	broken.Tables = broken.Tables[1:] // drop vport_ports
	broken.Tables[0].MatchFields[1].Bitwidth = 10
	broken.Registers = append(broken.Registers, &p4info.Register{Preamble: &p4info.Preamble{Id: 0x16000001, Name: "Ingress.extra"}})
	_, err := Bind(broken, DefaultCPUPort, nil)
	var ce *ContractError
	if !errors.As(err, &ce) {
		t.Fatalf("Bind accepted a different program: %v", err)
	}
	for _, want := range []string{"missing table " + TableVportPorts, "ingress_port: TERNARY bit<10>", "register Ingress.extra is not implemented"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}
}
