// SPDX-License-Identifier: Apache-2.0

package flowbufprog

import "encoding/binary"

// EtherTypes and IP protocols the parser knows (include/defines.p4).
const (
	etherTypeIPv4 = 0x0800
	etherTypeIPv6 = 0x86dd
	etherTypeVLAN = 0x8100
	ipProtoICMP   = 1
	ipProtoTCP    = 6
	ipProtoUDP    = 17
	ipProtoICMPv6 = 58
)

// headers is what ParserImpl extracts: offsets of the valid headers (-1:
// invalid) and the local metadata the parser sets.
type headers struct {
	ipv4, ipv6   int
	ipProto      uint8
	l4Src, l4Dst uint16
	l4Valid      bool
}

// parse mirrors ParserImpl from parse_ethernet on. A header that does not
// fit in the frame is left invalid (bmv2 would reject the packet; here it
// simply matches as if the header were absent).
func parse(f []byte, h *headers) {
	*h = headers{ipv4: -1, ipv6: -1}
	if len(f) < 14 {
		return
	}
	off := 14
	et := binary.BigEndian.Uint16(f[12:])
	if et == etherTypeVLAN {
		if len(f) < 18 {
			return
		}
		et = binary.BigEndian.Uint16(f[16:])
		off = 18
	}
	var l4 int
	switch et {
	case etherTypeIPv4:
		if len(f) < off+20 {
			return
		}
		h.ipv4 = off
		h.ipProto = f[off+9]
		// The P4 parser extracts a fixed 20-byte IPv4 header (no options),
		// so TCP/UDP is read right after it, exactly like the P4 program.
		l4 = off + 20
	case etherTypeIPv6:
		if len(f) < off+40 {
			return
		}
		h.ipv6 = off
		h.ipProto = f[off+6]
		l4 = off + 40
	default:
		return
	}
	switch h.ipProto {
	case ipProtoTCP:
		if len(f) >= l4+20 {
			h.l4Src, h.l4Dst, h.l4Valid = binary.BigEndian.Uint16(f[l4:]), binary.BigEndian.Uint16(f[l4+2:]), true
		}
	case ipProtoUDP:
		if len(f) >= l4+8 {
			h.l4Src, h.l4Dst, h.l4Valid = binary.BigEndian.Uint16(f[l4:]), binary.BigEndian.Uint16(f[l4+2:]), true
		}
	}
}

// ipv4Checksum computes the header checksum of a 20-byte IPv4 header with
// its checksum field treated as zero (ComputeChecksumImpl).
func ipv4Checksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i < 20; i += 2 {
		if i == 10 {
			continue
		}
		sum += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}
