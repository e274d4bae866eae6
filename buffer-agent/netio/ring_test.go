// SPDX-License-Identifier: Apache-2.0

package netio

import (
	"bytes"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

func TestRingGeometry(t *testing.T) {
	for _, c := range []struct{ mtu, frames, size int }{{128, 1024, 512}, {1500, 4096, 2048}, {9000, 64, 16384}} {
		r := ringGeometry(c.mtu, c.frames)
		if int(r.Frame_size) != c.size || r.Block_size%4096 != 0 || r.Block_size%r.Frame_size != 0 ||
			r.Frame_nr != r.Block_nr*(r.Block_size/r.Frame_size) || int(r.Frame_nr) < min(c.frames, int(r.Block_size/r.Frame_size)) {
			t.Errorf("mtu %d: %+v", c.mtu, r)
		}
	}
}

// slotWith lays out a tpacket2_hdr slot holding frame at offset 64.
func slotWith(frame []byte, st uint32, tci, tpid uint16) []byte {
	slot := make([]byte, 2048)
	putU32(slot, hdrLen, uint32(len(frame)))
	putU32(slot, hdrSnaplen, uint32(len(frame)))
	*(*uint16)(ptr(slot, hdrMac)) = 64
	*(*uint16)(ptr(slot, hdrVlanTCI)) = tci
	*(*uint16)(ptr(slot, hdrVlanTPID)) = tpid
	copy(slot[64:], frame)
	setStatus(slot, st)
	return slot
}

func TestCopyOutRestoresVLANTag(t *testing.T) {
	s := &Socket{}
	frame := append(bytes.Repeat([]byte{0xaa}, 12), 0x08, 0x00, 1, 2, 3, 4)
	got, ok := s.copyOut(slotWith(frame, unix.TP_STATUS_USER, 0, 0), unix.TP_STATUS_USER)
	if !ok || !bytes.Equal(got, frame) {
		t.Fatalf("untagged: %x", got)
	}
	st := uint32(unix.TP_STATUS_USER | unix.TP_STATUS_VLAN_VALID | unix.TP_STATUS_VLAN_TPID_VALID)
	got, ok = s.copyOut(slotWith(frame, st, 0xa00a, 0x88a8), st)
	want := append(append(bytes.Repeat([]byte{0xaa}, 12), 0x88, 0xa8, 0xa0, 0x0a), frame[12:]...)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("tagged: %x, want %x", got, want)
	}
	short := slotWith(frame, unix.TP_STATUS_USER, 0, 0)
	putU32(short, hdrLen, uint32(len(frame)+100)) // the wire frame was longer than the slot kept
	if _, ok := s.copyOut(short, unix.TP_STATUS_USER); ok || s.Truncated.Load() != 1 {
		t.Fatal("a truncated frame was delivered")
	}
}

func ptr(s []byte, off int) unsafe.Pointer { return unsafe.Pointer(&s[off]) }
