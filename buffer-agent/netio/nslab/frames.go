// SPDX-License-Identifier: Apache-2.0

package nslab

import "encoding/binary"

// Lab frames are Ethernet/IPv4/UDP with locally administered MACs and a
// 32-bit sequence number (plus a send timestamp) in the payload.
const (
	seqOffset  = 14 + 20 + 8
	timeOffset = seqOffset + 4
	// MinFrame is the smallest frame Frame builds (60 bytes, no FCS).
	MinFrame = 60
)

var (
	dstMAC = []byte{0x02, 0xfb, 0, 0, 0, 0x02}
	srcMAC = []byte{0x02, 0xfb, 0, 0, 0, 0x01}
)

// Frame writes a frame of size bytes (at least MinFrame) with sequence seq
// and timestamp ns into buf (len >= size) and returns buf[:size]. The IPv4
// id carries seq's low 16 bits and the UDP checksum field its high bits
// (odd, so never "no checksum"): the pair is a PacketID per seq.
func Frame(buf []byte, size int, seq uint32, ns int64) []byte {
	size = max(size, MinFrame)
	f := buf[:size]
	clear(f)
	copy(f[0:], dstMAC)
	copy(f[6:], srcMAC)
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	ip := f[14:]
	ip[0], ip[8], ip[9] = 0x45, 64, 17
	binary.BigEndian.PutUint16(ip[2:], uint16(size-14))
	binary.BigEndian.PutUint16(ip[4:], uint16(seq))
	copy(ip[12:], []byte{10, 251, 0, 1})
	copy(ip[16:], []byte{10, 251, 0, 2})
	// A valid header checksum: bridges with br_netfilter drop bad ones.
	binary.BigEndian.PutUint16(ip[10:], ipChecksum(ip[:20]))
	udp := ip[20:]
	binary.BigEndian.PutUint16(udp[0:], 40000)
	binary.BigEndian.PutUint16(udp[2:], 40001)
	binary.BigEndian.PutUint16(udp[4:], uint16(size-34))
	binary.BigEndian.PutUint16(udp[6:], uint16(seq>>16)|1)
	binary.BigEndian.PutUint32(f[seqOffset:], seq)
	binary.BigEndian.PutUint64(f[timeOffset:], uint64(ns))
	return f
}

// IsLabFrame reports whether f was built by Frame.
func IsLabFrame(f []byte) bool {
	return len(f) >= MinFrame && string(f[6:12]) == string(srcMAC) && f[12] == 0x08 && f[13] == 0
}

// Seq reads the sequence number of a lab frame.
func Seq(f []byte) uint32 { return binary.BigEndian.Uint32(f[seqOffset:]) }

// SentAt reads the send timestamp of a lab frame.
func SentAt(f []byte) int64 { return int64(binary.BigEndian.Uint64(f[timeOffset:])) }

func ipChecksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i < len(h); i += 2 {
		sum += uint32(h[i])<<8 | uint32(h[i+1])
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}
