// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// The gNodeB block of the FlowBuf program (include/gnb.p4) run by the
// engine in process; test/packet/test_gnb.py checks the same on the wire,
// on pbswitch and BMv2.
const (
	gnbUPF, gnbRadio, gnbBaaS = 1, 2, 3
	gnbTEID, gnbUplinkTEID    = 0xd0001, 0x5151
	gnbSNCell                 = 7
)

var (
	gnbUEMAC   = []byte{2, 0, 0, 0, 0x0e, 1}
	gnbAddr    = []byte{10, 0, 0, 200}
	gnbUPFAddr = []byte{10, 0, 0, 100}
)

func loadGnb(t *testing.T) *fixture {
	f := loadFlowBuf(t)
	for port, action := range map[uint16]string{gnbUPF: "from_upf", gnbRadio: "from_radio", gnbBaaS: "from_baas"} {
		f.insert("IngressPipeImpl.gnb.ports", &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: b16(port)}},
			Action: pipeline.Action{ID: f.ids["IngressPipeImpl.gnb."+action]}})
	}
	f.insert("IngressPipeImpl.gnb.downlink_bearers", &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: b32(gnbTEID)}},
		Action: pipeline.Action{ID: f.ids["IngressPipeImpl.gnb.set_downlink_bearer"],
			Params: [][]byte{b16(gnbSNCell), b16(gnbRadio), b16(gnbBaaS), gnbUEMAC}}})
	f.insert("IngressPipeImpl.gnb.uplink_bearers", &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: b32(gnbTEID)}},
		Action: pipeline.Action{ID: f.ids["IngressPipeImpl.gnb.set_uplink_bearer"],
			Params: [][]byte{b32(gnbUplinkTEID), gnbAddr, gnbUPFAddr, b16(gnbUPF)}}})
	return f
}

// innerIPv4 is an IPv4/UDP packet of 36 bytes with a valid checksum.
func innerIPv4() []byte {
	p := udpFrame([4]byte{10, 250, 0, 1}, 64)[14:50]
	binary.BigEndian.PutUint16(p[2:], 36)
	binary.BigEndian.PutUint16(p[10:], 0)
	binary.BigEndian.PutUint16(p[10:], ipv4Checksum(p))
	binary.BigEndian.PutUint16(p[24:], 16) // UDP length
	return append([]byte(nil), p...)
}

// gtpuFrame is Ethernet/IPv4/UDP 2152/GTP-U (no extension) carrying inner.
func gtpuFrame(teid uint32, inner []byte) []byte {
	f := make([]byte, 14+20+8+8, 14+20+8+8+len(inner))
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	ip := f[14:]
	ip[0], ip[8], ip[9] = 0x45, 64, 17
	binary.BigEndian.PutUint16(ip[2:], uint16(20+8+8+len(inner)))
	copy(ip[12:], gnbUPFAddr)
	copy(ip[16:], gnbAddr)
	binary.BigEndian.PutUint16(ip[10:], ipv4Checksum(ip))
	binary.BigEndian.PutUint16(f[34:], 2152)
	binary.BigEndian.PutUint16(f[36:], 2152)
	binary.BigEndian.PutUint16(f[38:], uint16(8+8+len(inner)))
	f[42], f[43] = 0x30, 0xff
	binary.BigEndian.PutUint16(f[44:], uint16(len(inner)))
	binary.BigEndian.PutUint32(f[46:], teid)
	return append(f, inner...)
}

func radioFrame(teid, sn uint32, inner []byte) []byte {
	f := make([]byte, 24, 24+len(inner))
	copy(f, gnbUEMAC)
	binary.BigEndian.PutUint16(f[12:], 0x88b5)
	f[14], f[15] = 0x52, 1
	binary.BigEndian.PutUint32(f[16:], teid)
	binary.BigEndian.PutUint32(f[20:], 1<<31|sn)
	return append(f, inner...)
}

func TestGnbDownstreamIsARadioFrameWithTheBearersSNAndAClone(t *testing.T) {
	f := loadGnb(t)
	inner := innerIPv4()
	for sn := uint32(0); sn < 3; sn++ {
		pk := f.ingress(gtpuFrame(gnbTEID, inner), gnbUPF)
		if pk.Meta.EgressSpec != gnbRadio || !f.egress(pk) {
			t.Fatalf("PDU %d: egress %d", sn, pk.Meta.EgressSpec)
		}
		want := radioFrame(gnbTEID, sn, inner)
		copy(want[6:12], pk.Frame[6:12]) // the source MAC stays the frame's
		if !bytes.Equal(pk.Frame, want) {
			t.Fatalf("PDU %d:\n got %x\nwant %x", sn, pk.Frame, want)
		}
		if pk.Meta.EgressClone != 3000+gnbBaaS {
			t.Fatalf("PDU %d: egress clone session %d, want %d", sn, pk.Meta.EgressClone, 3000+gnbBaaS)
		}
	}
	// A resend from the BaaS port goes to the radio as it is, not cloned.
	resend := radioFrame(gnbTEID, 1, inner)
	pk := f.ingress(append([]byte(nil), resend...), gnbBaaS)
	if pk.Meta.EgressSpec != gnbRadio || !f.egress(pk) || !bytes.Equal(pk.Frame, resend) || pk.Meta.EgressClone != 0 {
		t.Fatalf("resend: egress %d clone %d frame %x", pk.Meta.EgressSpec, pk.Meta.EgressClone, pk.Frame)
	}
}

func TestGnbUplinkDataLeavesInGTPU(t *testing.T) {
	f := loadGnb(t)
	inner := innerIPv4()
	pk := f.ingress(radioFrame(gnbTEID, 5, inner), gnbRadio)
	if pk.Meta.EgressSpec != gnbUPF || !f.egress(pk) {
		t.Fatalf("egress %d", pk.Meta.EgressSpec)
	}
	got := pk.Frame
	if binary.BigEndian.Uint16(got[12:]) != 0x0800 || len(got) != 14+20+8+8+len(inner) {
		t.Fatalf("frame %x", got)
	}
	ip := got[14:34]
	if ip[9] != 17 || ip[8] != 64 || !bytes.Equal(ip[12:16], gnbAddr) || !bytes.Equal(ip[16:20], gnbUPFAddr) ||
		binary.BigEndian.Uint16(ip[2:]) != uint16(20+8+8+len(inner)) || ipv4Checksum(ip) != binary.BigEndian.Uint16(ip[10:]) {
		t.Fatalf("outer IPv4 %x", ip)
	}
	udp, gtp := got[34:42], got[42:50]
	if binary.BigEndian.Uint16(udp) != 2152 || binary.BigEndian.Uint16(udp[2:]) != 2152 ||
		binary.BigEndian.Uint16(udp[4:]) != uint16(8+8+len(inner)) || binary.BigEndian.Uint16(udp[6:]) != 0 {
		t.Fatalf("UDP %x", udp)
	}
	if gtp[0] != 0x30 || gtp[1] != 0xff || binary.BigEndian.Uint16(gtp[2:]) != uint16(len(inner)) ||
		binary.BigEndian.Uint32(gtp[4:]) != gnbUplinkTEID || !bytes.Equal(got[50:], inner) {
		t.Fatalf("GTP-U %x, payload %x", gtp, got[50:])
	}
}
