// SPDX-License-Identifier: Apache-2.0

package netio

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/vishvananda/netlink"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// rxBatch bounds the frames handed to the engine per Receive call.
const rxBatch = 64

// Port is the engine backend of a vport on a Linux interface: one reader
// goroutine moves received frames into the engine in batches, and the
// engine's TX worker calls Transmit.
type Port struct {
	vportID string
	iface   string
	ns      NS
	sock    *Socket
	in      engine.Ingress
	log     *slog.Logger
	ownLink bool // the port created the veth pair and removes it
	rxSlots int
	done    chan struct{}
	once    sync.Once

	statsMu   sync.Mutex
	ringDrops uint64 // PACKET_STATISTICS resets on read: the running total
}

func (p *Port) start() {
	p.done = make(chan struct{})
	go p.read()
}

func (p *Port) read() {
	defer close(p.done)
	batch := make([][]byte, 0, rxBatch)
	for !p.sock.closed.Load() {
		var err error
		batch, err = p.sock.Recv(batch[:0], rxBatch)
		if len(batch) > 0 {
			p.in.Receive(batch)
			clear(batch) // the engine owns the frames now
		}
		if err != nil {
			if !errors.Is(err, ErrClosed) {
				p.log.Error("vport receive stopped", "vport", p.vportID, "interface", p.iface, "err", err)
			}
			return
		}
	}
}

// Transmit implements engine.Transmitter: the frames go out of the
// interface in order and return to the frame pool.
func (p *Port) Transmit(frames [][]byte) error {
	err := p.sock.Send(frames)
	engine.PutFrames(frames)
	return err
}

// Stats are a port's socket counters.
type Stats struct {
	RingDrops uint64 // dropped by the kernel: RX ring full
	Truncated uint64
	TxErrors  uint64
}

// Stats reads the counters (totals since the port opened).
func (p *Port) Stats() Stats {
	p.statsMu.Lock()
	defer p.statsMu.Unlock()
	p.ringDrops += p.sock.Drops()
	return Stats{RingDrops: p.ringDrops, Truncated: p.sock.Truncated.Load(), TxErrors: p.sock.TxErrors.Load()}
}

// Interface is the name of the interface the port reads and writes.
func (p *Port) Interface() string { return p.iface }

// Close stops the reader, releases the socket and removes a veth pair the
// port created.
func (p *Port) Close() error {
	var err error
	p.once.Do(func() {
		p.sock.Wake()
		<-p.done
		p.statsMu.Lock()
		err = p.sock.Close()
		p.statsMu.Unlock()
		if p.ownLink {
			if derr := p.ns.Do(func() error { return DeleteLink(p.iface) }); derr != nil && err == nil {
				err = derr
			}
		}
	})
	return err
}

// InterfaceRxPackets implements engine.InterfaceCounter: the kernel's
// count of frames the interface received, which goes on while the agent
// is down (an agent restarted on a state directory compares it with what
// it took in to count the frames it missed).
func (p *Port) InterfaceRxPackets() (uint64, error) {
	var n uint64
	err := p.ns.Do(func() error {
		link, err := netlink.LinkByName(p.iface)
		if err != nil {
			return fmt.Errorf("find interface %s: %w", p.iface, err)
		}
		st := link.Attrs().Statistics
		if st == nil {
			return fmt.Errorf("interface %s has no statistics", p.iface)
		}
		n = st.RxPackets
		return nil
	})
	return n, err
}
