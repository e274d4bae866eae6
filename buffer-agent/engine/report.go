// SPDX-License-Identifier: Apache-2.0

package engine

import "encoding/binary"

// Receive reports let a device behind the switch (an FMM UE) tell a
// trigger which packet of its downlink it received last, as LTE's PDCP
// status report tells a target eNB. A trigger armed to purge to the report
// reads it from the UDP payload of the packet that fires it:
//
//	offset  size  field (from the start of the UDP payload)
//	0       4     magic "FBRX"
//	4       1     version, 1
//	5       1     reserved, 0
//	6       2     IPv4 identification of the newest packet received
//	8       2     that packet's L4 checksum (both big endian)
//
// The id is the one packetIDOf reads, so a report names a held packet as
// PurgeUpTo would.
const (
	reportMagic   = "FBRX"
	reportVersion = 1
	// ReportLen is the length of a receive report.
	ReportLen = 10
)

// ReceiveReport builds the UDP payload that reports id (for far ends
// written in Go, and for tests).
func ReceiveReport(id PacketID) []byte {
	p := make([]byte, ReportLen)
	copy(p, reportMagic)
	p[4] = reportVersion
	binary.BigEndian.PutUint16(p[6:], id.IPv4ID)
	binary.BigEndian.PutUint16(p[8:], id.L4Checksum)
	return p
}

// parseReport returns the id an IPv4 UDP frame reports, or ok=false when
// the frame carries no receive report (including a truncated one).
func parseReport(f []byte) (PacketID, bool) {
	et, off := l3(f)
	if et != etherTypeIPv4 || off+20 > len(f) || f[off+9] != 17 {
		return PacketID{}, false
	}
	ihl := int(f[off]&0x0f) * 4
	p := off + ihl + 8 // the UDP payload
	// Within the UDP length too: a short frame's Ethernet padding is no report.
	if ihl < 20 || p+ReportLen > len(f) || int(binary.BigEndian.Uint16(f[p-4:])) < 8+ReportLen ||
		string(f[p:p+4]) != reportMagic || f[p+4] != reportVersion {
		return PacketID{}, false
	}
	return PacketID{IPv4ID: binary.BigEndian.Uint16(f[p+6:]), L4Checksum: binary.BigEndian.Uint16(f[p+8:])}, true
}
