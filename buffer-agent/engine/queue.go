// SPDX-License-Identifier: Apache-2.0

package engine

// packet is one held frame.
type packet struct {
	data []byte
	at   int64  // clock time of arrival, ns
	seq  uint64 // arrival order within the buffer
	jpos uint64 // position in the buffer's journal, if it has one
}

// sentRec is the journal record of a packet being transmitted.
type sentRec struct {
	pos uint64
	n   uint32
}

// ring is a growable FIFO of packets.
type ring struct {
	buf  []packet
	head int
	n    int
}

// Its size is a power of two so that indexes wrap with a mask.
func (r *ring) push(p packet) {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = p
	r.n++
}

func (r *ring) grow() {
	size := max(64, 2*len(r.buf))
	nb := make([]packet, size)
	for i := 0; i < r.n; i++ {
		nb[i] = r.buf[(r.head+i)&(len(r.buf)-1)]
	}
	r.buf, r.head = nb, 0
}

// pushFrames appends frames that arrived at the same instant; their
// sequence numbers continue from seq. With a journal j, each is appended
// to it too (the caller publishes the tail).
func (r *ring) pushFrames(frames [][]byte, at int64, seq uint64, j *journal) {
	for r.n+len(frames) > len(r.buf) {
		r.grow()
	}
	mask := len(r.buf) - 1
	for i, f := range frames {
		seq++
		var pos uint64
		if j != nil {
			pos = j.append(f, seq, at)
		}
		r.buf[(r.head+r.n+i)&mask] = packet{data: f, at: at, seq: seq, jpos: pos}
	}
	r.n += len(frames)
}

// popFrames moves up to max frames from the head into out and returns out
// and their total size; with pos not nil, it appends their journal
// positions to *pos.
func (r *ring) popFrames(out [][]byte, max int, pos *[]sentRec) ([][]byte, uint64) {
	var bytes uint64
	mask := len(r.buf) - 1
	n := min(max, r.n)
	for i := 0; i < n; i++ {
		p := &r.buf[(r.head+i)&mask]
		out = append(out, p.data)
		bytes += uint64(len(p.data))
		if pos != nil {
			*pos = append(*pos, sentRec{p.jpos, uint32(len(p.data))})
		}
		*p = packet{} // drop the reference: the frame now has a new owner
	}
	r.head = (r.head + n) & mask
	r.n -= n
	return out, bytes
}

func (r *ring) front() *packet { return &r.buf[r.head] }

func (r *ring) at(i int) *packet { return &r.buf[(r.head+i)&(len(r.buf)-1)] }

func (r *ring) pop() packet {
	p := r.buf[r.head]
	r.buf[r.head] = packet{} // drop the reference: the frame now has a new owner
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	return p
}

// queue holds a buffer's packets in one ring per class; FIFO and ARQ
// buffers have one class. Higher classes are served first.
type queue struct {
	classes []ring
	n       int
	bytes   uint64
}

func newQueue(classes int) queue { return queue{classes: make([]ring, classes)} }

func (q *queue) push(class int, p packet) {
	q.classes[class].push(p)
	q.n++
	q.bytes += uint64(len(p.data))
}

// pushAll appends frames to class 0 (FIFO buffers) in one step.
func (q *queue) pushAll(frames [][]byte, at int64, seq uint64, bytes uint64, j *journal) {
	q.classes[0].pushFrames(frames, at, seq, j)
	q.n += len(frames)
	q.bytes += bytes
}

// popAll moves up to max frames of a one-class queue into out.
func (q *queue) popAll(out [][]byte, max int, pos *[]sentRec) ([][]byte, uint64) {
	out, bytes := q.classes[0].popFrames(out, max, pos)
	q.n = q.classes[0].n
	q.bytes -= bytes
	return out, bytes
}

// pop removes the next packet to serve: the head of the highest non-empty class.
func (q *queue) pop() (packet, bool) {
	for c := len(q.classes) - 1; c >= 0; c-- {
		if q.classes[c].n > 0 {
			return q.take(c), true
		}
	}
	return packet{}, false
}

// popOldest removes the packet that arrived first, whatever its class.
func (q *queue) popOldest() (packet, bool) {
	c := q.oldestClass()
	if c < 0 {
		return packet{}, false
	}
	return q.take(c), true
}

func (q *queue) take(c int) packet {
	p := q.classes[c].pop()
	q.n--
	q.bytes -= uint64(len(p.data))
	return p
}

func (q *queue) oldestClass() int {
	best := -1
	for c := range q.classes {
		r := &q.classes[c]
		if r.n > 0 && (best < 0 || r.front().seq < q.classes[best].front().seq) {
			best = c
		}
	}
	return best
}

// oldestAt is the arrival time of the oldest packet; ok is false when empty.
func (q *queue) oldestAt() (int64, bool) {
	c := q.oldestClass()
	if c < 0 {
		return 0, false
	}
	return q.classes[c].front().at, true
}

// findSeq returns the arrival sequence of the first-arrived packet for which
// match is true.
func (q *queue) findSeq(match func([]byte) bool) (uint64, bool) {
	var best uint64
	found := false
	for c := range q.classes {
		r := &q.classes[c]
		for i := 0; i < r.n; i++ {
			p := r.at(i)
			if found && p.seq >= best {
				break // within a class, sequences only grow
			}
			if match(p.data) {
				best, found = p.seq, true
				break
			}
		}
	}
	return best, found
}

// popUpTo removes, oldest first, every packet with seq <= last, passing each
// to drop.
func (q *queue) popUpTo(last uint64, drop func(packet)) {
	for c := range q.classes {
		r := &q.classes[c]
		for r.n > 0 && r.front().seq <= last {
			drop(q.take(c))
		}
	}
}

// classOf reads a frame's class for a PRIORITY buffer; malformed or
// untagged frames are class 0.
func classOf(frame []byte, p PriorityConfig) int {
	var c int
	switch p.Field {
	case FieldVLANPCP:
		c = vlanPCP(frame)
	default:
		c = ipDSCP(frame) >> 3
	}
	// With fewer than 8 classes the 0..7 range is scaled down, keeping order.
	return c * int(p.Classes) / 8
}

const (
	etherTypeIPv4 = 0x0800
	etherTypeIPv6 = 0x86dd
	etherTypeVLAN = 0x8100
	etherTypeQinQ = 0x88a8
)

func vlanPCP(f []byte) int {
	if len(f) < 16 {
		return 0
	}
	et := int(f[12])<<8 | int(f[13])
	if et != etherTypeVLAN && et != etherTypeQinQ {
		return 0
	}
	return int(f[14] >> 5)
}

// l3 returns the EtherType and offset of the L3 header, skipping VLAN tags.
func l3(f []byte) (int, int) {
	off := 12
	for off+2 <= len(f) {
		et := int(f[off])<<8 | int(f[off+1])
		if et != etherTypeVLAN && et != etherTypeQinQ {
			return et, off + 2
		}
		off += 4
	}
	return 0, len(f)
}

func ipDSCP(f []byte) int {
	et, off := l3(f)
	switch {
	case et == etherTypeIPv4 && off+2 <= len(f):
		return int(f[off+1] >> 2)
	case et == etherTypeIPv6 && off+2 <= len(f):
		tc := (f[off]&0x0f)<<4 | f[off+1]>>4
		return int(tc >> 2)
	}
	return 0
}

// packetIDOf extracts the IPv4 identification and L4 checksum of a frame.
func packetIDOf(f []byte) (PacketID, bool) {
	et, off := l3(f)
	if et != etherTypeIPv4 || off+20 > len(f) {
		return PacketID{}, false
	}
	ihl := int(f[off]&0x0f) * 4
	id := uint16(f[off+4])<<8 | uint16(f[off+5])
	l4 := off + ihl
	var ck int
	switch f[off+9] {
	case 6: // TCP
		ck = l4 + 16
	case 17: // UDP
		ck = l4 + 6
	case 1: // ICMP
		ck = l4 + 2
	default:
		return PacketID{}, false
	}
	if ihl < 20 || ck+2 > len(f) {
		return PacketID{}, false
	}
	return PacketID{IPv4ID: id, L4Checksum: uint16(f[ck])<<8 | uint16(f[ck+1])}, true
}

// next is the packet pop would return; the queue must not be empty.
func (q *queue) next() *packet {
	for c := len(q.classes) - 1; c >= 0; c-- {
		if q.classes[c].n > 0 {
			return q.classes[c].front()
		}
	}
	return nil
}
