// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/encoding/prototext"

	names "github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// The FlowBuf pipeconf's compiled program, run by the engine.
const (
	flowbufJSON   = "../../pipeconf/p4src/build/bmv2.json"
	flowbufP4Info = "../../pipeconf/p4src/build/p4info.txt"
	cpuPort       = 255
)

type fixture struct {
	t    testing.TB
	prog *Program
	ids  map[string]uint32
	info *p4info.P4Info
}

func loadFlowBuf(t testing.TB) *fixture {
	t.Helper()
	return loadBuild(t, filepath.Dir(flowbufJSON), Options{CPUPort: cpuPort})
}

// loadBuild loads the program p4c wrote into dir (the default build or a
// profile's).
func loadBuild(t testing.TB, dir string, opts Options) *fixture {
	t.Helper()
	jb, info := readBuild(t, dir)
	prog, err := Load(jb, info, opts)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, prog: prog, ids: idsOf(info), info: info}
}

// readBuild reads the bmv2.json and p4info p4c wrote into dir.
func readBuild(t testing.TB, dir string) ([]byte, *p4info.P4Info) {
	t.Helper()
	jb, err := os.ReadFile(filepath.Join(dir, "bmv2.json"))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := os.ReadFile(filepath.Join(dir, "p4info.txt"))
	if err != nil {
		t.Fatal(err)
	}
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal(ib, info); err != nil {
		t.Fatal(err)
	}
	return jb, info
}

// idsOf is the p4info's ids by name: tables, actions, and controller
// packet metadata as header.field.
func idsOf(info *p4info.P4Info) map[string]uint32 {
	ids := map[string]uint32{}
	for _, x := range info.Tables {
		ids[x.Preamble.Name] = x.Preamble.Id
	}
	for _, x := range info.Actions {
		ids[x.Preamble.Name] = x.Preamble.Id
	}
	for _, x := range info.ControllerPacketMetadata {
		for _, m := range x.Metadata {
			ids[x.Preamble.Name+"."+m.Name] = m.Id
		}
	}
	return ids
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

// ipv4Checksum is RFC 791's header checksum over a 20-byte header.
func ipv4Checksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i < 20; i += 2 {
		if i != 10 {
			sum += uint32(binary.BigEndian.Uint16(h[i:]))
		}
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}

func (f *fixture) ingress(frame []byte, inPort uint32) *pipeline.Packet {
	pk := &pipeline.Packet{Frame: frame, Meta: pipeline.StdMeta{IngressPort: inPort}}
	f.prog.Ingress(pk)
	return pk
}

// egress runs egress for the unicast verdict of pk.
func (f *fixture) egress(pk *pipeline.Packet) bool {
	pk.Meta.EgressPort = pk.Meta.EgressSpec
	return f.prog.Egress(pk)
}

func TestFlowBufRoutingRewritesDecrementsTTLAndFixesChecksum(t *testing.T) {
	f := loadFlowBuf(t)
	nhMAC, myMAC := []byte{2, 0, 0, 0, 0, 0x22}, []byte{2, 0, 0, 0, 0, 0x11}
	f.insert(names.TableRoutingV4, &pipeline.Entry{
		Match:  []pipeline.FieldMatch{{Value: []byte{10, 0, 2, 0}, PrefixLen: 24, Mask: []byte{255, 255, 255, 0}}},
		Action: pipeline.Action{ID: f.ids[names.ActionRoute], Params: [][]byte{b16(2), myMAC, nhMAC}},
	})
	in := udpFrame([4]byte{10, 0, 2, 9}, 64)
	payload := append([]byte(nil), in[34:]...)
	pk := f.ingress(in, 1)
	if pk.Meta.EgressSpec != 2 {
		t.Fatalf("egress %d, want 2", pk.Meta.EgressSpec)
	}
	if !f.egress(pk) {
		t.Fatal("egress dropped a routed packet")
	}
	if pk.Frame[22] != 63 || string(pk.Frame[0:6]) != string(nhMAC) || string(pk.Frame[6:12]) != string(myMAC) {
		t.Fatalf("not rewritten: ttl %d dst %x src %x", pk.Frame[22], pk.Frame[0:6], pk.Frame[6:12])
	}
	if ipv4Checksum(pk.Frame[14:34]) != binary.BigEndian.Uint16(pk.Frame[24:]) {
		t.Fatal("IPv4 checksum not updated")
	}
	if string(pk.Frame[34:]) != string(payload) || len(pk.Frame) != 64 {
		t.Fatalf("payload changed: %x", pk.Frame[34:])
	}
	// TTL 1 is not routed: nothing matches, egress_spec stays 0.
	if pk := f.ingress(udpFrame([4]byte{10, 0, 2, 9}, 1), 1); pk.Meta.EgressSpec != 0 {
		t.Fatalf("TTL 1 routed to %d", pk.Meta.EgressSpec)
	}
	_, e := f.table(names.TableRoutingV4).Lookup([]byte{10, 0, 2, 9})
	if p, b := e.Counter.Read(); p != 1 || b != 64 {
		t.Fatalf("direct counter %d packets %d bytes, want 1 and 64", p, b)
	}
}

func TestFlowBufSteeringIntoVportAndReplayFromVport(t *testing.T) {
	f := loadFlowBuf(t)
	const vportRX, vportTX, out = 100, 101, 2
	anyM := pipeline.FieldMatch{Wildcard: true}
	f.insert(names.TableFlowSteering, &pipeline.Entry{
		Match: []pipeline.FieldMatch{{Value: []byte{0}, Mask: []byte{1}}, anyM, anyM, {Value: []byte{10, 0, 2, 9}, Mask: []byte{255, 255, 255, 255}},
			{Value: []byte{17}, Mask: []byte{255}}, anyM, {Value: b16(2000), Mask: b16(0xffff)}},
		Priority: 10,
		Action:   pipeline.Action{ID: f.ids[names.ActionSteerToPort], Params: [][]byte{b16(vportRX)}},
	})
	f.insert(names.TableVportPorts, &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: b16(vportTX)}},
		Action: pipeline.Action{ID: f.ids[names.ActionMarkFromVport]}})
	f.insert(names.TableL2Exact, &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{2, 0, 0, 0, 0, 0xbb}}},
		Action: pipeline.Action{ID: f.ids[names.ActionSetEgressPort], Params: [][]byte{b16(out)}}})
	if pk := f.ingress(udpFrame([4]byte{10, 0, 2, 9}, 64), 1); pk.Meta.EgressSpec != vportRX {
		t.Fatalf("flow not steered into the RX vport: egress %d", pk.Meta.EgressSpec)
	}
	if pk := f.ingress(udpFrame([4]byte{10, 0, 2, 9}, 64), vportTX); pk.Meta.EgressSpec != out {
		t.Fatalf("replayed packet not forwarded on: egress %d", pk.Meta.EgressSpec)
	}
	if pk := f.ingress(udpFrame([4]byte{10, 0, 3, 9}, 64), 1); pk.Meta.EgressSpec != out {
		t.Fatalf("other flow not L2-forwarded: egress %d", pk.Meta.EgressSpec)
	}
}

func TestFlowBufACLPuntCopyDropAndPacketIO(t *testing.T) {
	f := loadFlowBuf(t)
	anyM := pipeline.FieldMatch{Wildcard: true}
	acl := func(dport uint16, action string) {
		f.table(names.TableACL).Clear()
		f.insert(names.TableACL, &pipeline.Entry{
			Match:    []pipeline.FieldMatch{anyM, anyM, anyM, anyM, anyM, anyM, anyM, anyM, {Value: b16(dport), Mask: b16(0xffff)}},
			Priority: 1, Action: pipeline.Action{ID: f.ids[action]}})
	}
	acl(2000, names.ActionPuntToCPU)
	frame := udpFrame([4]byte{10, 0, 0, 2}, 64)
	orig := append([]byte(nil), frame...)
	pk := f.ingress(frame, 3)
	if pk.Meta.EgressSpec != cpuPort {
		t.Fatalf("punt: egress %d", pk.Meta.EgressSpec)
	}
	if !f.egress(pk) || len(pk.PacketIn) != 2 || pipeline.Uint(pk.PacketIn[0].Value) != 3 {
		t.Fatalf("packet_in metadata %v", pk.PacketIn)
	}
	if string(pk.Frame) != string(orig) {
		t.Fatalf("packet-in frame %x, want the packet as it came %x", pk.Frame, orig)
	}

	acl(2000, names.ActionCopyToCPU)
	pk = f.ingress(udpFrame([4]byte{10, 0, 0, 2}, 64), 3)
	if pk.Meta.CloneSession != names.CPUCloneSession {
		t.Fatalf("copy_to_cpu: clone session %d", pk.Meta.CloneSession)
	}
	clone := &pipeline.Packet{Frame: append([]byte(nil), orig...),
		Meta: pipeline.StdMeta{EgressPort: cpuPort, InstanceType: instanceIngressClone}}
	f.prog.Replicate(clone, pk, pipeline.CopyIngressClone)
	if !f.prog.Egress(clone) || pipeline.Uint(clone.PacketIn[0].Value) != 3 {
		t.Fatalf("the clone's packet_in carries ingress port %v, want 3 (the field list)", clone.PacketIn)
	}

	acl(2000, names.ActionACLDrop)
	if pk := f.ingress(udpFrame([4]byte{10, 0, 0, 2}, 64), 3); pk.Meta.EgressSpec != pipeline.DropPort {
		t.Fatalf("drop: egress %d", pk.Meta.EgressSpec)
	}
	out := &pipeline.Packet{Frame: udpFrame([4]byte{10, 0, 0, 2}, 64), Meta: pipeline.StdMeta{IngressPort: cpuPort},
		PacketOut: []pipeline.CtrlMeta{{ID: f.ids["packet_out.egress_port"], Value: b16(7)}}}
	f.prog.Ingress(out)
	if out.Meta.EgressSpec != 7 {
		t.Fatalf("packet-out went to %d, want 7", out.Meta.EgressSpec)
	}
	if !f.egress(out) || string(out.Frame) != string(orig) {
		t.Fatalf("packet-out left as %x, want the frame without its packet_out header", out.Frame)
	}
}

func TestFlowBufRunAllocatesNothing(t *testing.T) {
	f := loadFlowBuf(t)
	f.insert(names.TableRoutingV4, &pipeline.Entry{
		Match:  []pipeline.FieldMatch{{Value: []byte{10, 0, 2, 0}, PrefixLen: 24, Mask: []byte{255, 255, 255, 0}}},
		Action: pipeline.Action{ID: f.ids[names.ActionRoute], Params: [][]byte{b16(2), make([]byte, 6), make([]byte, 6)}},
	})
	frame := udpFrame([4]byte{10, 0, 2, 9}, 64)
	pk := &pipeline.Packet{}
	allocs := testing.AllocsPerRun(200, func() {
		frame[22] = 64
		pk.Frame, pk.Meta = frame, pipeline.StdMeta{IngressPort: 1}
		f.prog.Ingress(pk)
		pk.Meta.EgressPort = pk.Meta.EgressSpec
		f.prog.Egress(pk)
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per packet, want 0", allocs)
	}
}

func TestAPacketFinishesOnTheProgramItStartedOn(t *testing.T) {
	old := loadFlowBuf(t)
	old.insert(names.TableL2Exact, &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{2, 0, 0, 0, 0, 0xbb}}},
		Action: pipeline.Action{ID: old.ids[names.ActionSetEgressPort], Params: [][]byte{b16(4)}}})
	pk := old.ingress(udpFrame([4]byte{10, 0, 3, 9}, 64), 1)
	// A push swaps in a new program while pk waits in a queue.
	next := loadFlowBuf(t)
	pk.Meta.EgressPort = pk.Meta.EgressSpec
	if !next.prog.Egress(pk) || pk.Meta.EgressPort != 4 || len(pk.Frame) != 64 {
		t.Fatalf("a packet from the old program did not finish on it: egress %d, frame %d bytes", pk.Meta.EgressPort, len(pk.Frame))
	}
	// Its replicas too.
	pk2 := old.ingress(udpFrame([4]byte{10, 0, 3, 9}, 64), 1)
	rep := &pipeline.Packet{Frame: append([]byte(nil), pk2.Frame...), Meta: pk2.Meta}
	next.prog.Replicate(rep, pk2, pipeline.CopyReplica)
	if st, ok := rep.State.(*phv); !ok || st.prog != old.prog {
		t.Fatal("the replica was not prepared by the program its original ran on")
	}
}
