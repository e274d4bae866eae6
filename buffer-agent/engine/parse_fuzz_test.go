// SPDX-License-Identifier: Apache-2.0

package engine

import "testing"

// FuzzFrameParsers: the header readers on the packet path never panic and
// stay inside the frame, whatever arrives on a vport.
func FuzzFrameParsers(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 60))
	f.Add(ArqStatusFrame([]PacketID{{IPv4ID: 1, L4Checksum: 2}}))
	f.Add(append(make([]byte, 12), "\x08\x00\x45\x00\x00\x26\x00\x00\x00\x00\x40\x11\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00FBRX\x01\x00\x12\x34\x56\x78"...))
	f.Add([]byte("\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x81\x00\xe0\x0a\x08\x00\x4f\x00"))
	f.Fuzz(func(t *testing.T, frame []byte) {
		if id, ok := packetIDOf(frame); !ok && id != (PacketID{}) {
			t.Fatal("no packet id but a non-zero one returned")
		}
		for _, p := range []PriorityConfig{{Classes: 8, Field: FieldIPDSCP}, {Classes: 3, Field: FieldVLANPCP}} {
			if c := classOf(frame, p); c < 0 || c >= int(p.Classes) {
				t.Fatalf("class %d outside 0..%d", c, p.Classes-1)
			}
		}
		if ids, ok := parseArqStatus(frame); ok && 22+4*len(ids) > len(frame) {
			t.Fatal("status ids read past the frame")
		}
		if id, kind := parseReport(frame); kind != reportPacket && id != (PacketID{}) {
			t.Fatalf("report kind %d but a non-zero id returned", kind)
		}
		m := MarkerMatch{Offset: 3, Value: []byte{1, 2}, Mask: []byte{0xff, 0x0f}}
		_ = m.Matches(frame)
	})
}
