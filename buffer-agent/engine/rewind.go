// SPDX-License-Identifier: Apache-2.0

package engine

// A buffer named as one to purge to a receive report (an FMM eNB's window)
// keeps copies of the newest frames it sent, as an eNB keeps the PDCP
// packets its UE has not acknowledged. A report can name a packet the
// buffer sent, with more sent after it: those left the buffer but never
// reached the far end (the radio was cut with them in flight). Arrivals are
// in order, so the far end has nothing after the packet it reports; the
// purge then rewinds: the frames sent after it go out again first, before
// what the buffer holds, instead of being lost.

// A buffer's log keeps at most sentLogFrames frames and sentLogBytes
// bytes: more than a radio's air queue holds (the lab's UDP radio queues
// 100 ms of 50 Mbit/s, about 4,400 frames of 142 bytes; a loaded machine
// drained one that far behind its eNB).
const (
	sentLogFrames = 8192
	sentLogBytes  = 8 << 20
)

// sentLog is a ring of the newest frames a buffer sent (exact-size copies,
// so a small frame costs its size, with their packet ids). Guarded by the
// buffer's mutex.
type sentLog struct {
	frames [sentLogFrames][]byte
	ids    [sentLogFrames]PacketID
	next   int // where the next frame goes
	n      int
	bytes  int
}

// add keeps a copy of frame f, whose packet id is id; the oldest go when
// the log is full.
func (l *sentLog) add(f []byte, id PacketID) {
	for l.n > 0 && (l.n == sentLogFrames || l.bytes+len(f) > sentLogBytes) {
		l.dropOldest()
	}
	l.frames[l.next], l.ids[l.next] = append([]byte(nil), f...), id
	l.bytes += len(f)
	l.next = (l.next + 1) % sentLogFrames
	l.n++
}

func (l *sentLog) dropOldest() {
	s := l.at(0)
	l.bytes -= len(l.frames[s])
	l.frames[s] = nil
	l.n--
}

// at is the i-th oldest entry's slot.
func (l *sentLog) at(i int) int {
	return (l.next - l.n + i + sentLogFrames) % sentLogFrames
}

// takeAfter finds id and hands over the frames sent after it, oldest
// first; they leave the log (what stays ends with id). found is false when
// the log does not have id.
func (l *sentLog) takeAfter(id PacketID) (after [][]byte, found bool) {
	for i := l.n - 1; i >= 0; i-- {
		if l.ids[l.at(i)] != id {
			continue
		}
		for k := i + 1; k < l.n; k++ {
			s := l.at(k)
			after = append(after, l.frames[s])
			l.bytes -= len(l.frames[s])
			l.frames[s] = nil
		}
		l.next = l.at(i + 1)
		l.n = i + 1
		return after, true
	}
	return nil, false
}

// release lets every copy go (the buffer is removed).
func (l *sentLog) release() {
	clear(l.frames[:])
	l.n, l.bytes = 0, 0
}

// rewindTo queues again, ahead of what the buffer holds, the frames it sent
// after the reported packet, when its log has that packet. found says the
// log has it (the report is then synced: the far end has everything up to
// it, and is sent the rest). The caller holds b.mu.
func (b *buffer) rewindTo(id PacketID) (found bool) {
	if b.sent == nil {
		return false
	}
	after, found := b.sent.takeAfter(id)
	if len(after) > 0 {
		b.rewind = append(b.rewind, after...)
		b.st.rewound += uint64(len(after))
	}
	return found
}

// takeRewind moves rewound frames into out within the pacing budget; they
// count as sent and are logged again. The caller holds b.mu.
func (b *buffer) takeRewind(out [][]byte, rateBps uint64) [][]byte {
	from := len(out)
	out, b.rewind = takePaced(out, b.rewind, &b.pace, rateBps)
	for _, f := range out[from:] {
		b.st.packetsOut++
		b.st.bytesOut += uint64(len(f))
	}
	b.noteOut(out[from:])
	return out
}

// dropRewind discards rewound frames not sent yet (a later purge: the far
// end has them, or the buffer is removed), with cause; it returns how many.
// The caller holds b.mu.
func (b *buffer) dropRewind(cause DropCause) uint64 {
	n := uint64(len(b.rewind))
	for _, f := range b.rewind {
		b.drop(f, cause)
	}
	clear(b.rewind)
	b.rewind = b.rewind[:0]
	return n
}
