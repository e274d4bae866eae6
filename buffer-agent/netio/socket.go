// SPDX-License-Identifier: Apache-2.0

package netio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// ErrClosed is returned by Recv once the socket is closed.
var ErrClosed = errors.New("netio: socket closed")

// Default ring sizes, in frames.
const (
	DefaultRxSlots = 4096
	DefaultTxSlots = 1024
)

// Socket is an AF_PACKET socket on one interface with a TPACKET_V2 RX ring
// and TX ring, with virtio-net headers (PACKET_VNET_HDR, see putVnetHdr).
// TPACKET_V2 rather than V3: V3 hands frames over a block at a time,
// after a block timeout of at least 1 ms when traffic is light, while V2
// wakes the reader per frame and still batches whatever is ready, which
// keeps the added latency in microseconds. The socket ignores its host's
// outgoing frames (PACKET_IGNORE_OUTGOING), so it never reads back what it
// sent, and transmits past the qdisc (PACKET_QDISC_BYPASS). The reader
// waits in Go's network poller, so an idle vport holds no OS thread and
// burns no CPU.
type Socket struct {
	fd     int
	file   *os.File        // owns fd once set; registered with the poller
	rc     syscall.RawConn // waits for readiness without a thread per socket
	rx, tx ring            // each its own mapping of its socket
	// txFd is the socket of the TX ring, bound to the interface with
	// protocol 0 (it hears nothing) and in no poller. The kernel wakes a
	// socket's waiters for every sent frame it frees (sock_def_write_space):
	// on the reader's socket, which waits in the poller, that took 8 % of
	// pbswitch's CPU at 64 B; on a socket nobody waits on it costs a test.
	txFd   int
	txMu   sync.Mutex
	closed atomic.Bool

	Truncated atomic.Uint64 // frames larger than a ring slot, not delivered
	TxErrors  atomic.Uint64 // frames the kernel refused
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// OpenSocket opens a socket with default ring sizes on interface ifindex
// for frames up to mtu. It must run in the interface's network namespace.
func OpenSocket(ifindex, mtu int) (*Socket, error) {
	return OpenSocketSlots(ifindex, mtu, DefaultRxSlots, DefaultTxSlots)
}

// OpenSocketSlots is OpenSocket with ring sizes in frames; a deep RX ring
// absorbs longer stalls of the reader.
func OpenSocketSlots(ifindex, mtu, rxSlots, txSlots int) (*Socket, error) {
	// Protocol 0: the socket hears nothing until bind() ties it to one
	// interface. Created with ETH_P_ALL it would take frames of every
	// interface into its ring while the rings are set up (a buffer opened on
	// a live switch held copies of other ports' traffic).
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("AF_PACKET socket: %w", err)
	}
	s := &Socket{fd: fd, txFd: -1}
	if s.txFd, err = unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, 0); err != nil {
		s.release()
		return nil, fmt.Errorf("AF_PACKET socket: %w", err)
	}
	if err := s.setupTx(ifindex, mtu, txSlots); err != nil {
		s.release()
		return nil, err
	}
	if err := s.setup(ifindex, mtu, rxSlots); err != nil {
		s.release()
		return nil, err
	}
	return s, nil
}

type sockOpt struct {
	name string
	opt  int
	val  int
}

func setOpts(fd int, opts []sockOpt) error {
	for _, o := range opts {
		if err := unix.SetsockoptInt(fd, unix.SOL_PACKET, o.opt, o.val); err != nil {
			return fmt.Errorf("setsockopt %s: %w", o.name, err)
		}
	}
	return nil
}

// mapRing maps a ring of bytes bytes of fd.
func mapRing(fd, bytes int) ([]byte, error) {
	mem, err := unix.Mmap(fd, 0, bytes, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_LOCKED)
	if err != nil {
		// MAP_LOCKED needs memlock headroom; fall back to a pageable ring.
		mem, err = unix.Mmap(fd, 0, bytes, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
		if err != nil {
			return nil, fmt.Errorf("mmap ring: %w", err)
		}
	}
	return mem, nil
}

// setupTx readies the TX socket: its ring, bound to the interface with
// protocol 0 (it takes no frames).
func (s *Socket) setupTx(ifindex, mtu, txSlots int) error {
	err := setOpts(s.txFd, []sockOpt{
		{"PACKET_VERSION", unix.PACKET_VERSION, unix.TPACKET_V2},
		{"PACKET_QDISC_BYPASS", unix.PACKET_QDISC_BYPASS, 1},
		{"PACKET_VNET_HDR", unix.PACKET_VNET_HDR, 1}, // before the ring: EBUSY after
	})
	if err != nil {
		return err
	}
	txReq := ringGeometry(mtu, txSlots)
	if err := unix.SetsockoptTpacketReq(s.txFd, unix.SOL_PACKET, unix.PACKET_TX_RING, &txReq); err != nil {
		return fmt.Errorf("setsockopt PACKET_TX_RING: %w", err)
	}
	s.tx = ring{frameSize: int(txReq.Frame_size), frameNr: int(txReq.Frame_nr)}
	if s.tx.mem, err = mapRing(s.txFd, s.tx.bytes()); err != nil {
		return err
	}
	if err := unix.Bind(s.txFd, &unix.SockaddrLinklayer{Ifindex: ifindex}); err != nil {
		return fmt.Errorf("bind TX socket to ifindex %d: %w", ifindex, err)
	}
	return nil
}

func (s *Socket) setup(ifindex, mtu, rxSlots int) error {
	err := setOpts(s.fd, []sockOpt{
		{"PACKET_VERSION", unix.PACKET_VERSION, unix.TPACKET_V2},
		{"PACKET_IGNORE_OUTGOING", unix.PACKET_IGNORE_OUTGOING, 1},
	})
	if err != nil {
		return err
	}
	rxReq := ringGeometry(mtu, rxSlots)
	if err := unix.SetsockoptTpacketReq(s.fd, unix.SOL_PACKET, unix.PACKET_RX_RING, &rxReq); err != nil {
		return fmt.Errorf("setsockopt PACKET_RX_RING: %w", err)
	}
	s.rx = ring{frameSize: int(rxReq.Frame_size), frameNr: int(rxReq.Frame_nr)}
	if s.rx.mem, err = mapRing(s.fd, s.rx.bytes()); err != nil {
		return err
	}
	sa := &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: ifindex}
	if err := unix.Bind(s.fd, sa); err != nil {
		return fmt.Errorf("bind to ifindex %d: %w", ifindex, err)
	}
	if err := unix.SetNonblock(s.fd, true); err != nil {
		return fmt.Errorf("set non-blocking: %w", err)
	}
	s.file = os.NewFile(uintptr(s.fd), "af_packet")
	if s.rc, err = s.file.SyscallConn(); err != nil {
		return fmt.Errorf("register with the poller: %w", err)
	}
	return nil
}

// Recv appends to dst up to max frames, copied out of the ring into frames
// of the engine's pool, waiting (parked in the poller, never spinning)
// until at least one is ready. VLAN tags the kernel moved out of band are put back, so the
// frame is the frame that was on the wire. Recv is not safe for concurrent
// use.
func (s *Socket) Recv(dst [][]byte, max int) ([][]byte, error) {
	for {
		n := len(dst)
		for len(dst)-n < max {
			slot := s.rx.slot(s.rx.next)
			st := status(slot)
			if st&unix.TP_STATUS_USER == 0 {
				break
			}
			if f, ok := s.copyOut(slot, st); ok {
				dst = append(dst, f)
			}
			setStatus(slot, unix.TP_STATUS_KERNEL)
			s.rx.next = (s.rx.next + 1) % s.rx.frameNr
		}
		if len(dst) > n {
			return dst, nil
		}
		if err := s.waitReadable(); err != nil {
			return dst, err
		}
	}
}

// waitReadable parks the goroutine in the network poller until the slot
// the reader looks at next belongs to user space (or the socket closes).
func (s *Socket) waitReadable() error {
	next := s.rx.slot(s.rx.next)
	for {
		if s.closed.Load() {
			return ErrClosed
		}
		err := s.rc.Read(func(uintptr) bool {
			return status(next)&unix.TP_STATUS_USER != 0 || s.closed.Load()
		})
		switch {
		case s.closed.Load():
			return ErrClosed
		case err == nil:
			return nil
		case errors.Is(err, os.ErrDeadlineExceeded):
			continue
		default:
			return fmt.Errorf("wait for frames: %w", err)
		}
	}
}

func (s *Socket) copyOut(slot []byte, st uint32) ([]byte, bool) {
	mac, snap, wire := int(u16(slot, hdrMac)), int(u32(slot, hdrSnaplen)), u32(slot, hdrLen)
	if uint32(snap) < wire || mac+snap > len(slot) || snap < 14 {
		s.Truncated.Add(1)
		return nil, false
	}
	data := slot[mac : mac+snap]
	if st&unix.TP_STATUS_VLAN_VALID == 0 {
		f := engine.GetFrame(snap)
		copy(f, data)
		return f, true
	}
	tpid := uint16(0x8100)
	if st&unix.TP_STATUS_VLAN_TPID_VALID != 0 {
		tpid = u16(slot, hdrVlanTPID)
	}
	f := engine.GetFrame(snap + 4)
	copy(f, data[:12])
	binary.BigEndian.PutUint16(f[12:], tpid)
	binary.BigEndian.PutUint16(f[14:], u16(slot, hdrVlanTCI))
	copy(f[16:], data[12:])
	return f, true
}

// Send copies frames into the TX ring and has the kernel transmit them, in
// order; it returns when they are handed to the driver. The caller keeps
// ownership of the frames. Safe for concurrent use.
func (s *Socket) Send(frames [][]byte) error {
	s.txMu.Lock()
	defer s.txMu.Unlock()
	if s.closed.Load() {
		return ErrClosed
	}
	pending := 0
	for _, f := range frames {
		if len(f) > s.tx.frameSize-txDataOffset-vnetHdrLen {
			s.TxErrors.Add(1)
			continue
		}
		slot := s.tx.slot(s.tx.next)
		if status(slot) != unix.TP_STATUS_AVAILABLE {
			if err := s.flush(); err != nil {
				return err
			}
			pending = 0
			if err := s.waitSlot(slot); err != nil {
				return err
			}
		}
		putVnetHdr(slot[txDataOffset:], len(f))
		copy(slot[txDataOffset+vnetHdrLen:], f)
		putU32(slot, hdrLen, uint32(vnetHdrLen+len(f)))
		setStatus(slot, unix.TP_STATUS_SEND_REQUEST)
		s.tx.next = (s.tx.next + 1) % s.tx.frameNr
		pending++
	}
	if pending == 0 {
		return nil
	}
	return s.flush()
}

// flush asks the kernel to send every SEND_REQUEST slot. The socket is
// non-blocking, so a full send buffer (a TAP device whose reader lags)
// answers EAGAIN: then it waits for POLLOUT, up to txStall in all.
func (s *Socket) flush() error {
	deadline := time.Now().Add(txStall)
	for {
		err := kick(s.txFd)
		switch {
		case err == nil:
			return nil
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN || err == unix.ENOBUFS:
			if time.Now().After(deadline) {
				return fmt.Errorf("flush TX ring: stalled for %v: %w", txStall, err)
			}
			fds := []unix.PollFd{{Fd: int32(s.txFd), Events: unix.POLLOUT}}
			_, _ = unix.Poll(fds, 1)
		default:
			return fmt.Errorf("flush TX ring: %w", err)
		}
	}
}

// kick is sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0): the kernel
// transmits the TX ring's requested slots and returns without waiting for
// their completion. It is a raw system call, which keeps the goroutine's
// P: the call never blocks, but it takes tens of microseconds for a batch
// (the kernel builds and sends one skb a frame), long enough that Go's
// sysmon took the P away during an ordinary call and handed it to another
// thread; with GOMAXPROCS=1 that happened on every batch (a profile of
// pbswitch forwarding at overload: 9 % of its CPU in finish_task_switch,
// 6 % in sysmon).
func kick(fd int) error {
	_, _, errno := unix.RawSyscall6(unix.SYS_SENDTO, uintptr(fd), 0, 0, unix.MSG_DONTWAIT, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// txStall bounds how long a send waits for the interface to take frames.
const txStall = time.Second

// waitSlot waits until the kernel gives a TX slot back; a slot it rejected
// is counted and reused.
func (s *Socket) waitSlot(slot []byte) error {
	for i := 0; ; i++ {
		switch status(slot) {
		case unix.TP_STATUS_AVAILABLE:
			return nil
		case unix.TP_STATUS_WRONG_FORMAT:
			s.TxErrors.Add(1)
			setStatus(slot, unix.TP_STATUS_AVAILABLE)
			return nil
		}
		fds := []unix.PollFd{{Fd: int32(s.txFd), Events: unix.POLLOUT}}
		if _, err := unix.Poll(fds, 1); err != nil && err != unix.EINTR {
			return fmt.Errorf("poll for TX slot: %w", err)
		}
		if i > 1000 {
			return fmt.Errorf("TX ring stuck")
		}
	}
}

// Drops is the number of frames the kernel dropped because the RX ring was
// full, since the last call (PACKET_STATISTICS resets on read).
func (s *Socket) Drops() uint64 {
	if s.fd < 0 || s.closed.Load() {
		return 0
	}
	st, err := unix.GetsockoptTpacketStats(s.fd, unix.SOL_PACKET, unix.PACKET_STATISTICS)
	if err != nil {
		return 0
	}
	return uint64(st.Drops)
}

// Wake makes a waiting Recv return ErrClosed and stops Send; Close must
// follow once the reader has returned.
func (s *Socket) Wake() {
	s.closed.Store(true)
	if s.file != nil {
		_ = s.file.SetReadDeadline(time.Now()) // interrupts a parked reader
	}
}

// reuse readies a woken socket whose reader has returned for a new reader:
// the frames that arrived meanwhile (when no vport took them) are dropped,
// and the counters start again.
func (s *Socket) reuse() {
	s.txMu.Lock()
	defer s.txMu.Unlock()
	for i := 0; i < s.rx.frameNr; i++ {
		slot := s.rx.slot(s.rx.next)
		if status(slot)&unix.TP_STATUS_USER == 0 {
			break
		}
		setStatus(slot, unix.TP_STATUS_KERNEL)
		s.rx.next = (s.rx.next + 1) % s.rx.frameNr
	}
	_ = s.file.SetReadDeadline(time.Time{})
	s.closed.Store(false)
	_ = s.Drops() // PACKET_STATISTICS resets on read
	s.Truncated.Store(0)
	s.TxErrors.Store(0)
}

// Close releases the rings and descriptors. The reader must have returned.
func (s *Socket) Close() error {
	s.Wake()
	s.txMu.Lock()
	defer s.txMu.Unlock()
	s.release()
	return nil
}

func (s *Socket) release() {
	for _, r := range []*ring{&s.rx, &s.tx} {
		if r.mem != nil {
			_ = unix.Munmap(r.mem)
			r.mem = nil
		}
	}
	if s.txFd >= 0 {
		unix.Close(s.txFd)
		s.txFd = -1
	}
	switch {
	case s.file != nil:
		s.file.Close() // closes fd
		s.file = nil
	case s.fd >= 0:
		unix.Close(s.fd)
	}
	s.fd = -1
}
