// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"encoding/binary"
	"testing"
)

// logFrame adds f to l with the packet id the TX path reads from it.
func logFrame(t *testing.T, l *sentLog, f []byte) {
	t.Helper()
	id, ok := packetIDOf(f)
	if !ok {
		t.Fatal("a frame without a packet id")
	}
	l.add(f, id)
}

// udpFrame is an IPv4 UDP frame whose packet id is (n, n).
func udpFrame(n uint16) []byte {
	f := make([]byte, 14+20+8)
	binary.BigEndian.PutUint16(f[12:], etherTypeIPv4)
	f[14], f[14+9] = 0x45, 17
	binary.BigEndian.PutUint16(f[14+4:], n)
	binary.BigEndian.PutUint16(f[14+20+6:], n)
	return f
}

func idsOf(t *testing.T, frames [][]byte) []uint16 {
	t.Helper()
	var out []uint16
	for _, f := range frames {
		id, ok := packetIDOf(f)
		if !ok {
			t.Fatalf("a frame without a packet id")
		}
		out = append(out, id.IPv4ID)
	}
	return out
}

// TestSentLogAcrossItsWrap: the log keeps the newest sentLogFrames frames;
// takeAfter finds a packet wherever the ring wrapped and hands over what
// was sent after it, oldest first, and the log then ends with that packet.
func TestSentLogAcrossItsWrap(t *testing.T) {
	var l sentLog
	total := sentLogFrames + 10
	for i := 0; i < total; i++ {
		logFrame(t, &l, udpFrame(uint16(i)))
	}
	if _, found := l.takeAfter(PacketID{IPv4ID: 5, L4Checksum: 5}); found {
		t.Fatal("found a packet the log let go for room")
	}
	last := uint16(total - 1)
	after, found := l.takeAfter(PacketID{IPv4ID: last - 3, L4Checksum: last - 3})
	if got := idsOf(t, after); !found || len(got) != 3 || got[0] != last-2 || got[2] != last {
		t.Fatalf("after %d: %v, found %v", last-3, got, found)
	}
	logFrame(t, &l, udpFrame(9000))
	after, found = l.takeAfter(PacketID{IPv4ID: last - 4, L4Checksum: last - 4})
	if got := idsOf(t, after); !found || len(got) != 2 || got[0] != last-3 || got[1] != 9000 {
		t.Fatalf("after %d: %v, found %v", last-4, got, found)
	}
	if l.n != sentLogFrames-4 {
		t.Fatalf("the log keeps %d frames, want %d", l.n, sentLogFrames-4)
	}
	l.release()
}

// TestSentLogSkipsFramesWithoutAnID: only frames a report can name are
// kept by the TX path's record of what it sent.
func TestSentLogSkipsFramesWithoutAnID(t *testing.T) {
	b := &buffer{left: new(idRing), sent: new(sentLog)}
	b.noteOut([][]byte{make([]byte, 60), udpFrame(7)})
	if b.sent.n != 1 || b.sent.ids[0] != (PacketID{IPv4ID: 7, L4Checksum: 7}) {
		t.Fatalf("kept %d frames, the first %+v: want only the one with an id", b.sent.n, b.sent.ids[0])
	}
}

// TestSentLogKeepsAtMostItsBytes: big frames go oldest first once the log
// holds sentLogBytes.
func TestSentLogKeepsAtMostItsBytes(t *testing.T) {
	var l sentLog
	const big = 1 << 20
	for i := 0; i < sentLogBytes/big+2; i++ {
		logFrame(t, &l, append(udpFrame(uint16(i)), make([]byte, big-42)...))
	}
	if l.n != sentLogBytes/big || l.bytes != sentLogBytes {
		t.Fatalf("kept %d frames, %d bytes; want %d, %d", l.n, l.bytes, sentLogBytes/big, sentLogBytes)
	}
	if _, found := l.takeAfter(PacketID{IPv4ID: 1, L4Checksum: 1}); found {
		t.Fatal("found a frame the log let go for room")
	}
}
