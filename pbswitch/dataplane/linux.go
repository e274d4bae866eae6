// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"

	"github.com/vishvananda/netlink"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
)

// rxBatch bounds the frames one Receive call handles.
const rxBatch = 64

// MaxFrame is the largest frame a Linux port carries.
const MaxFrame = 9216

// linuxPort moves frames between an interface's AF_PACKET rings and the
// switch: one reader goroutine feeds Receive in batches; Send writes
// batches into the TX ring. Its link state (linkstate.go) is what
// management reads of the interface.
type linuxPort struct {
	id    uint32
	iface string
	sock  *netio.Socket
	done  chan struct{}
	state *linkState

	dropsMu   sync.Mutex
	ringDrops uint64 // PACKET_STATISTICS resets on read: the running total
}

// AddLinuxPort attaches interface ifname (in network namespace ns; the zero
// NS is the switch's own) as port id. Offloads are turned off so that the
// switch sees wire-sized frames.
func (s *Switch) AddLinuxPort(id uint32, ns netio.NS, ifname string, rateBps uint64) error {
	var sock *netio.Socket
	var state *linkState
	err := ns.Do(func() error {
		link, err := netlink.LinkByName(ifname)
		if err != nil {
			return fmt.Errorf("interface %s: %w", ifname, err)
		}
		if err := netio.DisableOffloads(ifname); err != nil {
			return fmt.Errorf("interface %s: %w", ifname, err)
		}
		if err := netio.SetUp(ifname); err != nil {
			return fmt.Errorf("interface %s: %w", ifname, err)
		}
		if state, err = openLinkState(link, func() { s.portChanged(id) }); err != nil {
			return fmt.Errorf("interface %s: %w", ifname, err)
		}
		sock, err = netio.OpenSocketSlots(link.Attrs().Index, MaxFrame, 4096, netio.DefaultTxSlots)
		if err != nil {
			state.close()
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("port %d: %w", id, err)
	}
	lp := &linuxPort{id: id, iface: ifname, sock: sock, done: make(chan struct{}), state: state}
	if err := s.addPort(id, lp, rateBps, s.opts.QueueLen, s.shared, lp.close, lp); err != nil {
		sock.Wake()
		sock.Close()
		state.close()
		return err
	}
	go lp.read(s)
	return nil
}

func (lp *linuxPort) read(s *Switch) {
	defer close(lp.done)
	if err := s.receiveFrom(lp.id, lp.sock); !errors.Is(err, netio.ErrClosed) {
		slog.Error("port receive stopped", "port", lp.id, "interface", lp.iface, "err", err)
	}
}

// frameSource is what a port's reader takes frames from: a socket's RX
// ring (netio.Socket.Recv), waiting until at least one is ready.
type frameSource interface {
	Recv(dst [][]byte, max int) ([][]byte, error)
}

// receiveFrom feeds port id's frames from src into the switch in batches
// until src fails (netio.ErrClosed: the port is closing).
//
// After each batch the reader yields, so the egress workers send what the
// batch queued before it reads more. Without that, on one core
// (GOMAXPROCS=1) a reader whose ring never empties (a port offered more
// than the switch forwards) ran until the Go scheduler preempted it, about
// every 10 ms: it paid for ingress on every frame while the egress queue
// overflowed, and the port forwarded a fraction of what it could (receive
// livelock). Yielding keeps ingress and egress in step: the surplus waits
// in the ring, and the kernel drops it there, before the switch spends
// anything on it.
func (s *Switch) receiveFrom(id uint32, src frameSource) error {
	batch := make([][]byte, 0, rxBatch)
	for {
		var err error
		batch, err = src.Recv(batch[:0], rxBatch)
		if len(batch) > 0 {
			s.Receive(id, batch)
			clear(batch)
			runtime.Gosched()
		}
		if err != nil {
			return err
		}
	}
}

// Send implements Sink: the socket copies the frames into its TX ring,
// and they go back to the frame pool.
func (lp *linuxPort) Send(frames [][]byte) error {
	err := lp.sock.Send(frames)
	engine.PutFrames(frames)
	return err
}

// status implements link: the interface's state, and what its socket
// lost: frames the kernel dropped for a full RX ring (the switch not
// keeping up) and frames cut to MaxFrame.
func (lp *linuxPort) status(st *PortStatus) {
	lp.state.status(st)
	lp.dropsMu.Lock()
	lp.ringDrops += lp.sock.Drops()
	st.Kernel.RxRingDrops = lp.ringDrops
	lp.dropsMu.Unlock()
	st.Kernel.RxTruncated = lp.sock.Truncated.Load()
}

func (lp *linuxPort) setAdmin(up bool) error { return lp.state.setAdmin(up) }

func (lp *linuxPort) close() error {
	lp.sock.Wake()
	<-lp.done
	lp.state.close()
	return lp.sock.Close()
}
