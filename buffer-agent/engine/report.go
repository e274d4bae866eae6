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
//	5       1     flags: 0, or 1 (nothing received: the sender has taken no
//	              packet of the downlink yet; the id fields are then 0)
//	6       2     IPv4 identification of the newest packet received
//	8       2     that packet's L4 checksum (both big endian)
//
// The id is the one packetIDOf reads, so a report names a held packet as
// PurgeUpTo would. A report of nothing received is a sync point too: the
// sender has no packet that a release could give it twice, so there is
// nothing to purge. A packet without a report says nothing: a release after
// it is unsynced. Other flags are reserved: a report with one set is no
// report.
const (
	reportMagic   = "FBRX"
	reportVersion = 1
	// reportNothing is the flag of a report of nothing received.
	reportNothing = 1
	// ReportLen is the length of a receive report.
	ReportLen = 10
)

// reportKind is what a trigger packet reports.
type reportKind uint8

const (
	noReport              reportKind = iota // no usable report
	reportPacket                            // the newest packet received
	reportNothingReceived                   // no packet received yet
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

// NothingReceivedReport builds the UDP payload of a sender that has taken
// no packet yet (for far ends written in Go, and for tests).
func NothingReceivedReport() []byte {
	p := make([]byte, ReportLen)
	copy(p, reportMagic)
	p[4] = reportVersion
	p[5] = reportNothing
	return p
}

// parseReport returns what an IPv4 UDP frame reports: the id of the newest
// packet its sender received, that it received none yet, or no report
// (none, a truncated one, or one with an unknown flag).
func parseReport(f []byte) (PacketID, reportKind) {
	et, off := l3(f)
	if et != etherTypeIPv4 || off+20 > len(f) || f[off+9] != 17 {
		return PacketID{}, noReport
	}
	ihl := int(f[off]&0x0f) * 4
	p := off + ihl + 8 // the UDP payload
	// Within the UDP length too: a short frame's Ethernet padding is no report.
	if ihl < 20 || p+ReportLen > len(f) || int(binary.BigEndian.Uint16(f[p-4:])) < 8+ReportLen ||
		string(f[p:p+4]) != reportMagic || f[p+4] != reportVersion {
		return PacketID{}, noReport
	}
	switch f[p+5] {
	case 0:
		return PacketID{IPv4ID: binary.BigEndian.Uint16(f[p+6:]), L4Checksum: binary.BigEndian.Uint16(f[p+8:])}, reportPacket
	case reportNothing:
		return PacketID{}, reportNothingReceived
	}
	return PacketID{}, noReport
}
