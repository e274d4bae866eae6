// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"encoding/binary"
	"testing"
)

// onesSum is RFC 1071's sum over b (an odd last byte padded with zero).
func onesSum(b []byte, sum uint32) uint32 {
	for i := 0; i+1 < len(b); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(b[i:]))
	}
	if len(b)%2 == 1 {
		sum += uint32(b[len(b)-1]) << 8
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return sum
}

// udpChecksum is RFC 768's: the pseudo-header, the UDP header with a zero
// checksum, the payload.
func udpChecksum(ip, udp []byte) uint16 {
	pseudo := append(append([]byte(nil), ip[12:20]...), 0, 17, udp[4], udp[5])
	u := append([]byte(nil), udp...)
	u[6], u[7] = 0, 0
	return ^uint16(onesSum(u, onesSum(pseudo, 0)))
}

// ipUDP is testdata/checksums.p4's IPv4 + UDP with an odd-length payload.
func ipUDP(goodIPChecksum bool) []byte {
	payload := []byte("odd payload")
	f := make([]byte, 28+len(payload))
	ip := f[:20]
	ip[0], ip[8], ip[9] = 0x45, 64, 17
	binary.BigEndian.PutUint16(ip[2:], uint16(len(f)))
	copy(ip[12:], []byte{10, 0, 0, 1, 10, 0, 0, 2})
	binary.BigEndian.PutUint16(ip[10:], ipv4Checksum(ip))
	if !goodIPChecksum {
		ip[10] ^= 0xff
	}
	udp := f[20:]
	binary.BigEndian.PutUint16(udp[0:], 1000)
	binary.BigEndian.PutUint16(udp[2:], 2000)
	binary.BigEndian.PutUint16(udp[4:], uint16(8+len(payload)))
	copy(udp[8:], payload)
	return f
}

func TestChecksumsVerifyIntoChecksumErrorAndUpdateWithThePseudoHeader(t *testing.T) {
	tp := loadTestProgram(t, "checksums")
	if len(tp.prog.verify) == 0 {
		t.Fatal("the program reads checksum_error, yet its verify_checksum was dropped")
	}
	for _, good := range []bool{true, false} {
		pk, ok := tp.run(ipUDP(good))
		if !ok {
			t.Fatal("dropped")
		}
		ip, udp := pk.Frame[:20], pk.Frame[20:]
		wantErr := byte(0)
		if !good {
			wantErr = 1
		}
		if ip[8] != wantErr {
			t.Errorf("good checksum %v: checksum_error %d, want %d", good, ip[8], wantErr)
		}
		if binary.BigEndian.Uint16(ip[10:]) != ipv4Checksum(ip) {
			t.Errorf("IPv4 checksum %#x not recomputed (want %#x)", binary.BigEndian.Uint16(ip[10:]), ipv4Checksum(ip))
		}
		if binary.BigEndian.Uint16(udp[2:]) != 2001 {
			t.Errorf("dport %d, want 2001", binary.BigEndian.Uint16(udp[2:]))
		}
		if got, want := binary.BigEndian.Uint16(udp[6:]), udpChecksum(ip, udp); got != want {
			t.Errorf("UDP checksum %#x, want %#x", got, want)
		}
	}
}
