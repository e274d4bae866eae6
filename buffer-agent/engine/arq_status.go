// SPDX-License-Identifier: Apache-2.0

package engine

import "encoding/binary"

// ARQ status frames let the far end of a radio link acknowledge packets in
// band, through the switch, instead of by an Ack call. A frame that reaches
// an ARQ buffer through one of its RX vports and has this layout is
// consumed as acknowledgements, not stored:
//
//	offset  size  field
//	0       12    destination and source MAC (any)
//	12      2     EtherType 0x88B5 (IEEE 802 local experimental)
//	14      4     magic "FBAK"
//	18      1     version, 1
//	19      1     reserved, 0
//	20      2     count n (big endian)
//	22      4*n   n × (IPv4 identification, L4 checksum), big endian
//
// Ids that match no kept packet are ignored, as in Ack.
const (
	ArqStatusEtherType = 0x88b5
	arqStatusMagic     = "FBAK"
	arqStatusVersion   = 1
	arqStatusHeader    = 22
)

// ArqStatusFrame builds a status frame acknowledging ids (for far ends
// written in Go, and for tests).
func ArqStatusFrame(ids []PacketID) []byte {
	f := make([]byte, arqStatusHeader+4*len(ids))
	binary.BigEndian.PutUint16(f[12:], ArqStatusEtherType)
	copy(f[14:], arqStatusMagic)
	f[18] = arqStatusVersion
	binary.BigEndian.PutUint16(f[20:], uint16(len(ids)))
	for i, id := range ids {
		binary.BigEndian.PutUint16(f[arqStatusHeader+4*i:], id.IPv4ID)
		binary.BigEndian.PutUint16(f[arqStatusHeader+4*i+2:], id.L4Checksum)
	}
	return f
}

// parseArqStatus returns the ids of a status frame, or ok=false when f is
// not one (including a truncated one).
func parseArqStatus(f []byte) ([]PacketID, bool) {
	if len(f) < arqStatusHeader || binary.BigEndian.Uint16(f[12:]) != ArqStatusEtherType ||
		string(f[14:18]) != arqStatusMagic || f[18] != arqStatusVersion {
		return nil, false
	}
	n := int(binary.BigEndian.Uint16(f[20:]))
	if len(f) < arqStatusHeader+4*n {
		return nil, false
	}
	ids := make([]PacketID, n)
	for i := range ids {
		off := arqStatusHeader + 4*i
		ids[i] = PacketID{IPv4ID: binary.BigEndian.Uint16(f[off:]), L4Checksum: binary.BigEndian.Uint16(f[off+2:])}
	}
	return ids, true
}

// takeArqStatus consumes the status frames of a batch arriving at an ARQ
// buffer and returns the data frames. The caller holds b.mu. The caller's
// batch is left as it is; a new one is built only when status frames are
// present.
func (b *buffer) takeArqStatus(frames [][]byte) [][]byte {
	var data [][]byte
	for i, f := range frames {
		ids, ok := parseArqStatus(f)
		if !ok {
			if data != nil {
				data = append(data, f)
			}
			continue
		}
		if data == nil {
			data = append(make([][]byte, 0, len(frames)), frames[:i]...)
		}
		b.ackLocked(ids)
		PutFrame(f)
	}
	if data == nil {
		return frames
	}
	return data
}
