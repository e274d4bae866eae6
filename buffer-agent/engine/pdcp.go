// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"encoding/binary"
	"fmt"
)

// The gNodeB's radio frames: a compact RLC + PDCP layout of FlowBuf's own,
// the one pipeconf/p4src/include/gnb.p4 writes downstream and reads
// upstream, and the one a PDCP ARQ buffer (buffer-as-a-service, baas.go)
// keeps and is acknowledged with:
//
//	offset  size  field
//	0       12    destination and source MAC
//	12      2     EtherType 0x88B5 (IEEE 802 local experimental)
//	14      1     RLC magic 0x52 ('R'): not a buffer tag (its first byte is
//	              0) nor an ARQ status frame ('F' of "FBAK")
//	15      1     RLC version, 1
//	16      4     RLC bearer: the TEID of the UE's downlink GTP-U tunnel
//	              (the gNodeB chose it, so it names the bearer on the gNodeB)
//	20      4     PDCP word: bit 31 D/C (1 data, 0 control).
//	              Data: bits 30..18 zero, bits 17..0 the PDCP SN.
//	              Control: bits 30..28 PDU type (0: status), bits 27..18
//	              zero, bits 17..0 the first acknowledged SN.
//	24      ...   data: the UE's IP packet.
//	24      4     status: bits 31..18 zero, bits 17..0 the last
//	              acknowledged SN.
//
// A status acknowledges first..last inclusive, counted modulo 2^18 (the
// 18-bit SN of NR PDCP), at most 2^17 SNs (half the SN space: PDCP's
// window), so a range that wraps past 2^18 - 1 to 0 is one range.
const (
	RadioEtherType   = 0x88b5
	radioMagic       = 0x52
	radioVersion     = 1
	radioHeaderLen   = 24 // Ethernet + RLC + PDCP word
	pdcpStatusLen    = radioHeaderLen + 4
	pdcpSNBits       = 18
	PDCPSNSpace      = 1 << pdcpSNBits
	pdcpSNMask       = PDCPSNSpace - 1
	MaxPDCPAckRange  = PDCPSNSpace / 2
	pdcpDataBit      = 1 << 31
	pdcpTypeShift    = 28
	pdcpReservedMask = ^uint32(pdcpDataBit | pdcpSNMask)
)

// PDCPID names one downlink PDCP PDU: its bearer and sequence number.
type PDCPID struct {
	TEID uint32
	SN   uint32
}

// PDCPStatus is a parsed status message: the bearer and the inclusive SN
// range it acknowledges.
type PDCPStatus struct {
	TEID        uint32
	First, Last uint32
}

// Len is the number of SNs the status acknowledges.
func (s PDCPStatus) Len() uint32 { return (s.Last-s.First)&pdcpSNMask + 1 }

type radioKind int

const (
	radioNone radioKind = iota
	radioData
	radioControl
)

// radioKindOf tells a radio frame's PDCP data PDUs from its control PDUs;
// radioNone when f is not a radio frame.
func radioKindOf(f []byte) radioKind {
	if len(f) < radioHeaderLen || binary.BigEndian.Uint16(f[12:]) != RadioEtherType || f[14] != radioMagic {
		return radioNone
	}
	if f[20]&0x80 != 0 {
		return radioData
	}
	return radioControl
}

// pdcpDataID is the id of a frame radioKindOf found to be radioData (it
// is not checked again: this is per packet); ok=false when its RLC
// version is not ours or it sets reserved bits.
func pdcpDataID(f []byte) (PDCPID, bool) {
	if f[15] != radioVersion {
		return PDCPID{}, false
	}
	w := binary.BigEndian.Uint32(f[20:])
	if w&pdcpReservedMask != 0 {
		return PDCPID{}, false
	}
	return PDCPID{TEID: binary.BigEndian.Uint32(f[16:]), SN: w & pdcpSNMask}, true
}

// ParsePDCPStatus reads a status message, or says precisely why f is not a
// valid one (an INVALID_ARGUMENT error).
func ParsePDCPStatus(f []byte) (PDCPStatus, error) {
	switch {
	case len(f) < radioHeaderLen || binary.BigEndian.Uint16(f[12:]) != RadioEtherType || f[14] != radioMagic:
		return PDCPStatus{}, errorf(InvalidArgument, "not a radio frame (EtherType 0x88b5, RLC magic 0x52)")
	case f[15] != radioVersion:
		return PDCPStatus{}, errorf(InvalidArgument, "RLC version %d, want %d", f[15], radioVersion)
	case f[20]&0x80 != 0:
		return PDCPStatus{}, errorf(InvalidArgument, "a PDCP data PDU, not a status")
	case len(f) < pdcpStatusLen:
		return PDCPStatus{}, errorf(InvalidArgument, "status of %d bytes, want at least %d", len(f), pdcpStatusLen)
	}
	w0, w1 := binary.BigEndian.Uint32(f[20:]), binary.BigEndian.Uint32(f[24:])
	if t := w0 >> pdcpTypeShift & 7; t != 0 {
		return PDCPStatus{}, errorf(InvalidArgument, "PDCP control PDU type %d, only 0 (status) is known", t)
	}
	if w0&pdcpReservedMask&^(7<<pdcpTypeShift) != 0 || w1&^uint32(pdcpSNMask) != 0 {
		return PDCPStatus{}, errorf(InvalidArgument, "reserved bits set in the status")
	}
	s := PDCPStatus{TEID: binary.BigEndian.Uint32(f[16:]), First: w0 & pdcpSNMask, Last: w1 & pdcpSNMask}
	return s, s.check()
}

func (s PDCPStatus) check() error {
	if s.TEID == 0 {
		return errorf(InvalidArgument, "bearer TEID 0")
	}
	if s.First > pdcpSNMask || s.Last > pdcpSNMask {
		return errorf(InvalidArgument, "SN range %d..%d outside 0..%d", s.First, s.Last, pdcpSNMask)
	}
	if n := s.Len(); n > MaxPDCPAckRange {
		return errorf(InvalidArgument, "SN range %d..%d covers %d SNs, more than %d (half the SN space)",
			s.First, s.Last, n, MaxPDCPAckRange)
	}
	return nil
}

func putRadioHeader(f []byte, teid, word uint32) {
	binary.BigEndian.PutUint16(f[12:], RadioEtherType)
	f[14], f[15] = radioMagic, radioVersion
	binary.BigEndian.PutUint32(f[16:], teid)
	binary.BigEndian.PutUint32(f[20:], word)
}

// PDCPDataFrame builds a downlink radio frame carrying payload (the UE's IP
// packet) with the bearer's TEID and SN (modulo 2^18).
func PDCPDataFrame(teid, sn uint32, payload []byte) []byte {
	f := make([]byte, radioHeaderLen+len(payload))
	putRadioHeader(f, teid, pdcpDataBit|sn&pdcpSNMask)
	copy(f[radioHeaderLen:], payload)
	return f
}

// PDCPStatusFrame builds a status message acknowledging first..last of the
// bearer teid.
func PDCPStatusFrame(s PDCPStatus) []byte {
	f := make([]byte, pdcpStatusLen)
	putRadioHeader(f, s.TEID, s.First&pdcpSNMask)
	binary.BigEndian.PutUint32(f[24:], s.Last&pdcpSNMask)
	return f
}

func (id PDCPID) String() string { return fmt.Sprintf("teid 0x%x sn %d", id.TEID, id.SN) }
