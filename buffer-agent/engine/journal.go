// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"encoding/binary"
	"fmt"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// A journal mirrors the packets one buffer holds into a file of the state
// directory (see Options.StateDir), mapped shared into the agent. The
// state directory is meant to be on tmpfs (/dev/shm by default): its pages
// are the page cache itself, so a store into the mapping is in the file as
// soon as the CPU has made it, with no write(2) per packet and no disk. A
// kill -9 of the agent leaves the page cache intact, so the next agent on
// the same directory maps the same pages and finds every packet that was
// published before the kill; tmpfs does not survive a reboot or a power
// loss, and the journal does not try to (no msync, no fsync). A file on
// tmpfs was chosen over a memfd handed to a helper process because it
// needs no second process to outlive the agent and an operator can see,
// size and remove it with ls and rm.
//
// The file is a header page then a ring of records. Positions are virtual
// (they only grow); a record's place is pos % size and it never wraps: a
// record that does not fit before the end of the ring is put at its start,
// after a skip record (or an implicit skip when fewer than recHdr bytes
// remain). A record is recHdr bytes (length, flags, arrival sequence,
// arrival time) then the frame, padded to 8 bytes.
//
// Crash consistency comes from the order of the stores: a record's bytes
// are written with plain stores, then the tail is published with an atomic
// store (which the compiler and the CPU do not move ahead of the earlier
// stores), so every record below the published tail is whole and whatever
// lies beyond it (a torn append) is ignored. Packets leave in arrival order
// from the head, which is published the same way. A packet that leaves out
// of order (a PRIORITY class served first, a drop-head, a purge) gets the
// gone flag in its record; the head moves over gone records when it
// reaches them. A packet sent to the switch is marked gone only after
// Transmit returned: a kill in between makes the restarted agent send that
// batch (at most maxTxBatch packets) again rather than lose it.
//
// Nothing here allocates per packet: an append is one copy of the frame
// into the mapping plus a header; the queue keeps its own heap copy, which
// it serves and hands over exactly as without a journal.
type journal struct {
	path string
	mem  []byte // the whole mapping
	data []byte // the ring: mem[ringHeaderSize:]
	size uint64 // a power of two: a position's place is pos&mask
	mask uint64
	// head and tail point into the header; h and t are their values as the
	// owning buffer sees them (t is published by publishTail, h by
	// publishHead). The buffer's mutex guards everything.
	head, tail *atomic.Uint64
	h, t       uint64
	// flagged counts the records in [h, t) with the gone flag (see gone).
	flagged int
}

const (
	ringMagic      = "FBRING01"
	ringVersion    = 1
	ringHeaderSize = 4096
	recHdr         = 24
	recMagic       = 0xFB000000
	recMagicMask   = 0xFF000000
	recGone        = 1
	recSkip        = 2
	// Header offsets.
	offVersion = 8
	offSize    = 16
	offHead    = 24
	offTail    = 32
	offIDLen   = 40
	offID      = 128
)

// ringSize is the size of the ring of a buffer that can hold maxBytes in
// maxPackets: every record's header and padding, and the room a record
// wastes at the end of the ring, are included, so that a FIFO buffer never
// finds its ring full before it is full itself; then it is rounded up to a
// power of two (a place in the ring is then a mask, not a division: three
// per packet). The file is sparse: tmpfs gives it pages only as records
// reach them, and the journal rewinds to the start whenever it empties.
func ringSize(maxBytes, maxPackets uint64, maxFrame uint32) uint64 {
	n := maxBytes + maxPackets*(recHdr+7) + 2*(recHdr+uint64(maxFrame)+8)
	size := uint64(4096)
	for size < n {
		size <<= 1
	}
	return size
}

func recSize(n int) uint64 { return (recHdr + uint64(n) + 7) &^ 7 }

// createJournal makes a new, empty journal file for buffer id.
func createJournal(path, id string, size uint64) (*journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create journal of buffer %q: %w", id, err)
	}
	defer f.Close()
	if err := f.Truncate(int64(ringHeaderSize + size)); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("size journal of buffer %q: %w", id, err)
	}
	j, err := mapJournal(f, path, ringHeaderSize+size)
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	copy(j.mem, ringMagic)
	binary.LittleEndian.PutUint32(j.mem[offVersion:], ringVersion)
	binary.LittleEndian.PutUint64(j.mem[offSize:], size)
	binary.LittleEndian.PutUint32(j.mem[offIDLen:], uint32(len(id)))
	copy(j.mem[offID:], id)
	j.size, j.mask = size, size-1
	j.data = j.mem[ringHeaderSize:]
	return j, nil
}

// openJournal maps an existing journal file of buffer id and checks its
// header; it changes nothing in the file.
func openJournal(path, id string) (*journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("open journal of buffer %q: %w", id, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat journal %s: %w", path, err)
	}
	if st.Size() < ringHeaderSize+8 {
		return nil, fmt.Errorf("%s is not a FlowBuf buffer journal (%d bytes)", path, st.Size())
	}
	j, err := mapJournal(f, path, uint64(st.Size()))
	if err != nil {
		return nil, err
	}
	if err := j.checkHeader(id, uint64(st.Size())); err != nil {
		j.unmap()
		return nil, err
	}
	j.size = uint64(st.Size()) - ringHeaderSize
	j.mask = j.size - 1
	j.data = j.mem[ringHeaderSize:]
	j.h, j.t = j.head.Load(), j.tail.Load()
	j.flagged = -1 // unknown until restore counted them (see countFlagged)
	if j.h > j.t || j.t-j.h > j.size || j.h%8 != 0 || j.t%8 != 0 {
		j.unmap()
		return nil, fmt.Errorf("journal %s is corrupt: head %d, tail %d, ring of %d bytes", path, j.h, j.t, j.size)
	}
	return j, nil
}

func mapJournal(f *os.File, path string, n uint64) (*journal, error) {
	mem, err := syscall.Mmap(int(f.Fd()), 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map journal %s: %w", path, err)
	}
	return &journal{
		path: path, mem: mem,
		head: (*atomic.Uint64)(unsafe.Pointer(&mem[offHead])),
		tail: (*atomic.Uint64)(unsafe.Pointer(&mem[offTail])),
	}, nil
}

func (j *journal) checkHeader(id string, fileSize uint64) error {
	if string(j.mem[:8]) != ringMagic {
		return fmt.Errorf("%s is not a FlowBuf buffer journal (bad magic)", j.path)
	}
	if v := binary.LittleEndian.Uint32(j.mem[offVersion:]); v != ringVersion {
		return fmt.Errorf("journal %s has format version %d; this agent reads version %d", j.path, v, ringVersion)
	}
	if s := binary.LittleEndian.Uint64(j.mem[offSize:]); s != fileSize-ringHeaderSize || s < 8 || s&(s-1) != 0 {
		return fmt.Errorf("journal %s is corrupt: ring size %d in a file of %d bytes", j.path, s, fileSize)
	}
	n := binary.LittleEndian.Uint32(j.mem[offIDLen:])
	if n > maxIDLen || string(j.mem[offID:offID+n]) != id {
		return fmt.Errorf("journal %s belongs to buffer %q, not %q", j.path, j.mem[offID:offID+min(n, maxIDLen)], id)
	}
	return nil
}

func (j *journal) unmap() {
	if j.mem != nil {
		_ = syscall.Munmap(j.mem)
		j.mem, j.data, j.head, j.tail = nil, nil, nil, nil
	}
}

// remove unmaps the journal and deletes its file (the buffer was removed).
func (j *journal) remove() error {
	j.unmap()
	if err := os.Remove(j.path); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove journal: %w", err)
	}
	return nil
}

// place returns where a record of rs bytes goes when appended at pos: its
// position, and whether a skip precedes it.
func (j *journal) place(pos, rs uint64) uint64 {
	if left := j.size - pos&j.mask; left < rs {
		return pos + left
	}
	return pos
}

// fits reports whether frames can all be appended now.
func (j *journal) fits(frames [][]byte) bool {
	pos := j.t
	for _, f := range frames {
		rs := recSize(len(f))
		pos = j.place(pos, rs) + rs
	}
	return pos-j.h <= j.size
}

// fitsOne reports whether a frame of n bytes can be appended now.
func (j *journal) fitsOne(n int) bool {
	rs := recSize(n)
	return j.place(j.t, rs)+rs-j.h <= j.size
}

func (j *journal) flagsAt(pos uint64) *uint32 {
	return (*uint32)(unsafe.Pointer(&j.data[pos&j.mask+4]))
}

// append writes one record past the tail, unpublished, and returns its
// position. The caller checked fits.
func (j *journal) append(f []byte, seq uint64, at int64) uint64 {
	rs := recSize(len(f))
	pos := j.place(j.t, rs)
	if pos != j.t && j.size-j.t&j.mask >= recHdr {
		// An explicit skip to the start of the ring.
		binary.LittleEndian.PutUint32(j.data[j.t&j.mask+4:], recMagic|recSkip)
	}
	p := pos & j.mask
	binary.LittleEndian.PutUint32(j.data[p:], uint32(len(f)))
	binary.LittleEndian.PutUint32(j.data[p+4:], recMagic)
	binary.LittleEndian.PutUint64(j.data[p+8:], seq)
	binary.LittleEndian.PutUint64(j.data[p+16:], uint64(at))
	copy(j.data[p+recHdr:], f)
	j.t = pos + rs
	return pos
}

// publishTail makes the records appended so far part of the journal.
func (j *journal) publishTail() { j.tail.Store(j.t) }

// gone records that the packet at pos, n bytes long, left the buffer;
// publishHead makes the head's move durable. When the packet is the oldest
// still held (inOrder: a one-class queue pops in arrival order) and no
// record is flagged, everything between the head and pos is skip space: the
// head moves past the record without reading the mapping (on a ring larger
// than the caches, a read there is a cache miss per packet). Otherwise the
// record is flagged in place (an atomic store: the flags word is the
// record's only mutable part) and the head moves over flagged records when
// it reaches them.
func (j *journal) gone(pos uint64, n int, inOrder bool) {
	if inOrder && j.flagged == 0 {
		j.h = pos + recSize(n)
		j.rewindIfEmpty()
		return
	}
	f := j.flagsAt(pos)
	atomic.StoreUint32(f, atomic.LoadUint32(f)|recGone)
	j.flagged++
	j.skipGone()
	j.rewindIfEmpty()
}

// rewindIfEmpty starts the next record at the start of the ring when the
// journal holds nothing: a buffer that empties now and then (a pause and
// its resume, a FORWARDING queue catching up) keeps writing the same first
// pages of its file, which stay in the caches and are all the tmpfs memory
// it takes, instead of walking through a ring sized for its capacity in
// its largest frames and faulting in every page of it. It is a skip to the
// end of the ring, published like an append (a crash in between leaves a
// valid journal); the caller publishes the head.
func (j *journal) rewindIfEmpty() {
	if j.h != j.t || j.t&j.mask == 0 {
		return
	}
	if j.size-j.t&j.mask >= recHdr {
		binary.LittleEndian.PutUint32(j.data[j.t&j.mask+4:], recMagic|recSkip)
	}
	j.t += j.size - j.t&j.mask
	j.publishTail()
	j.h = j.t
}

// skipGone moves the head over skips and gone records.
func (j *journal) skipGone() {
	for j.h < j.t {
		p := j.h & j.mask
		left := j.size - p
		if left < recHdr {
			j.h += left
			continue
		}
		flags := atomic.LoadUint32(j.flagsAt(j.h))
		switch {
		case flags&recSkip != 0:
			j.h += left
		case flags&recGone != 0:
			j.h += recSize(int(binary.LittleEndian.Uint32(j.data[p:])))
			j.flagged--
		default:
			return
		}
	}
}

func (j *journal) publishHead() { j.head.Store(j.h) }

// countFlagged counts the gone records between head and tail, once the
// records were checked.
func (j *journal) countFlagged() {
	j.flagged = 0
	for pos := j.h; pos < j.t; {
		p := pos & j.mask
		left := j.size - p
		if left < recHdr {
			pos += left
			continue
		}
		flags := binary.LittleEndian.Uint32(j.data[p+4:])
		if flags&recSkip != 0 {
			pos += left
			continue
		}
		if flags&recGone != 0 {
			j.flagged++
		}
		pos += recSize(int(binary.LittleEndian.Uint32(j.data[p:])))
	}
}

// record is a held packet found in a journal.
type record struct {
	pos  uint64
	data []byte // a view into the mapping
	seq  uint64
	at   int64
}

// records walks the published records from the head, calling fn for each
// packet still held, in arrival order. A record that cannot have been
// written by append (bad magic, a length beyond maxFrame or past the end of
// the ring, a sequence that does not grow) is corruption: an error, and
// nothing after it is read.
func (j *journal) records(maxFrame uint32, fn func(record)) error {
	var lastSeq uint64
	for pos := j.h; pos < j.t; {
		p := pos & j.mask
		left := j.size - p
		if left < recHdr {
			pos += left
			continue
		}
		n := binary.LittleEndian.Uint32(j.data[p:])
		flags := binary.LittleEndian.Uint32(j.data[p+4:])
		if flags&recMagicMask != recMagic {
			return fmt.Errorf("journal %s is corrupt: no record at position %d", j.path, pos)
		}
		if flags&recSkip != 0 {
			pos += left
			continue
		}
		rs := recSize(int(n))
		if n > maxFrame || rs > left || pos+rs > j.t {
			return fmt.Errorf("journal %s is corrupt: record of %d bytes at position %d", j.path, n, pos)
		}
		seq := binary.LittleEndian.Uint64(j.data[p+8:])
		if seq <= lastSeq {
			return fmt.Errorf("journal %s is corrupt: sequence %d after %d at position %d", j.path, seq, lastSeq, pos)
		}
		lastSeq = seq
		if flags&recGone == 0 {
			fn(record{pos: pos, data: j.data[p+recHdr : p+recHdr+uint64(n)], seq: seq,
				at: int64(binary.LittleEndian.Uint64(j.data[p+16:]))})
		}
		pos += rs
	}
	return nil
}
