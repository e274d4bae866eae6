// SPDX-License-Identifier: Apache-2.0

// Package netio carries vport frames over Linux interfaces (veth ends or
// TAP devices): an engine.BackendFactory that binds a vport to an
// interface, creates and removes veth pairs on request, turns offloads off,
// and moves frames in batches through AF_PACKET rings.
package netio

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/vishvananda/netlink"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// Factory opens LINUX_INTERFACE vports. The zero value works in the
// agent's own network namespace.
type Factory struct {
	NS  NS
	Log *slog.Logger
	// RxSlots is the RX ring depth per vport; 0 means DefaultRxSlots.
	RxSlots int

	mu    sync.Mutex
	ports map[string]*Port
	// idle holds, by interface, the socket of the latest vport removed
	// from it, open for the next vport on that interface: the kernel
	// sets up an AF_PACKET ring, and releases a socket with rings, only
	// after RCU grace periods (25-40 ms a vport on a loaded 2-core host),
	// which the engine and the controller calling it would wait out on
	// every buffer created or removed.
	idle map[string]*idleSocket
}

// idleSocket is a socket kept open after its vport was removed.
type idleSocket struct {
	sock    *Socket
	ifindex int
	mtu     int
	rxSlots int
}

// park keeps the socket of a removed vport for the next vport on the same
// interface; the one it replaces is released in the background. The
// socket's reader has returned.
func (f *Factory) park(iface string, s idleSocket) {
	f.mu.Lock()
	if f.idle == nil {
		f.idle = map[string]*idleSocket{}
	}
	old := f.idle[iface]
	f.idle[iface] = &s
	f.mu.Unlock()
	if old != nil {
		go old.sock.Close()
	}
}

// takeIdle returns the parked socket of the interface when it fits (same
// interface index, frame size and ring depth), ready for a new reader; a
// parked socket that does not fit is released in the background.
func (f *Factory) takeIdle(iface string, ifindex, mtu, rxSlots int) *Socket {
	f.mu.Lock()
	s := f.idle[iface]
	delete(f.idle, iface)
	f.mu.Unlock()
	if s == nil {
		return nil
	}
	if s.ifindex != ifindex || s.mtu != mtu || s.rxSlots != rxSlots {
		go s.sock.Close()
		return nil
	}
	s.sock.reuse()
	return s.sock
}

// IdleSockets is the number of sockets kept open for vports to come.
func (f *Factory) IdleSockets() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.idle)
}

// Open implements engine.BackendFactory.
func (f *Factory) Open(vportID string, spec engine.BackendSpec, in engine.Ingress) (engine.Backend, error) {
	return f.open(vportID, spec, in, false)
}

// Reopen implements engine.Reopener: the vport of an agent that crashed,
// whose veth pair (when the vport created one) is still there and is taken
// over, to be removed with the vport as if this agent had created it.
func (f *Factory) Reopen(vportID string, spec engine.BackendSpec, in engine.Ingress) (engine.Backend, error) {
	return f.open(vportID, spec, in, true)
}

func (f *Factory) open(vportID string, spec engine.BackendSpec, in engine.Ingress, reopen bool) (engine.Backend, error) {
	if spec.Kind != engine.BackendLinuxInterface {
		return nil, &engine.Error{Code: engine.InvalidArgument, Msg: "not a linux_interface backend"}
	}
	log := f.Log
	if log == nil {
		log = slog.Default()
	}
	slots := f.RxSlots
	if slots <= 0 {
		slots = DefaultRxSlots
	}
	p := &Port{vportID: vportID, iface: spec.Interface, ns: f.NS, in: in, log: log, rxSlots: slots, f: f}
	start := time.Now()
	if err := f.NS.Do(func() error { return p.attach(spec, reopen) }); err != nil {
		return nil, err
	}
	p.start()
	f.track(vportID, p)
	// The time says how long the kernel kept the call (rtnl, RCU): normally
	// tens of milliseconds, seconds when other processes churn links.
	log.Info("vport attached", "vport", vportID, "interface", spec.Interface,
		"created_veth_peer", spec.CreateVethPeer, "keep_offloads", spec.KeepOffloads,
		"took_ms", time.Since(start).Milliseconds())
	return &trackedPort{Port: p, f: f}, nil
}

// attach runs in the namespace: it prepares the interface and opens the
// socket, undoing a veth it created if a later step fails. On reopen a
// veth pair that is already there is the one the vport created.
func (p *Port) attach(spec engine.BackendSpec, reopen bool) error {
	if spec.CreateVethPeer != "" && reopen {
		if _, err := netlink.LinkByName(spec.Interface); err == nil {
			p.ownLink = true
			return p.open(spec)
		}
	}
	if spec.CreateVethPeer != "" {
		if err := CreateVeth(spec.Interface, spec.CreateVethPeer); err != nil {
			if errors.Is(err, errLinkExists) {
				return &engine.Error{Code: engine.InvalidArgument, Msg: fmt.Sprintf("cannot create veth pair: %v", err)}
			}
			return err
		}
		p.ownLink = true
	}
	err := p.open(spec)
	if err != nil && p.ownLink {
		_ = DeleteLink(spec.Interface)
	}
	return err
}

func (p *Port) open(spec engine.BackendSpec) error {
	link, err := netlink.LinkByName(spec.Interface)
	if err != nil {
		var nf netlink.LinkNotFoundError
		if errors.As(err, &nf) {
			return &engine.Error{Code: engine.InvalidArgument, Msg: fmt.Sprintf("no interface %q", spec.Interface)}
		}
		return fmt.Errorf("find interface %s: %w", spec.Interface, err)
	}
	if err := netlink.LinkSetUp(link); err != nil {
		return fmt.Errorf("set %s up: %w", spec.Interface, err)
	}
	if !spec.KeepOffloads {
		if err := DisableOffloads(spec.Interface); err != nil {
			return err
		}
	}
	if err := DisableIPv6(spec.Interface); err != nil {
		p.log.Warn("cannot disable IPv6 on vport interface", "interface", spec.Interface, "err", err)
	}
	p.ifindex, p.mtu = link.Attrs().Index, max(link.Attrs().MTU, 1500)
	if s := p.f.takeIdle(spec.Interface, p.ifindex, p.mtu, p.rxSlots); s != nil {
		p.sock = s
		return nil
	}
	sock, err := OpenSocketSlots(p.ifindex, p.mtu, p.rxSlots, DefaultTxSlots)
	if err != nil {
		return fmt.Errorf("open socket on %s: %w", spec.Interface, err)
	}
	p.sock = sock
	return nil
}

func (f *Factory) track(id string, p *Port) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ports == nil {
		f.ports = map[string]*Port{}
	}
	f.ports[id] = p
}

// Ports returns the open ports by vport id (for metrics).
func (f *Factory) Ports() map[string]*Port {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]*Port, len(f.ports))
	for k, v := range f.ports {
		out[k] = v
	}
	return out
}

// trackedPort forgets the port in the factory when it closes.
type trackedPort struct {
	*Port
	f *Factory
}

func (t *trackedPort) Close() error {
	t.f.mu.Lock()
	if t.f.ports[t.vportID] == t.Port {
		delete(t.f.ports, t.vportID)
	}
	t.f.mu.Unlock()
	return t.Port.Close()
}
