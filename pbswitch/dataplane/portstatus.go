// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"
)

// OperStatus is a port's operational state, named as OpenConfig's
// interfaces model (and RFC 2863's ifOperStatus) names them.
type OperStatus string

// Operational states.
const (
	OperUp             OperStatus = "UP"
	OperDown           OperStatus = "DOWN"
	OperLowerLayerDown OperStatus = "LOWER_LAYER_DOWN"
	OperTesting        OperStatus = "TESTING"
	OperDormant        OperStatus = "DORMANT"
	OperNotPresent     OperStatus = "NOT_PRESENT"
	OperUnknown        OperStatus = "UNKNOWN"
)

// LinkCounters are what the kernel counts on a port's interface that the
// switch cannot see: frames lost or damaged before they reach it, or
// after they leave it.
type LinkCounters struct {
	RxErrors, TxErrors   uint64
	RxDropped, TxDropped uint64
	RxCRCErrors          uint64
	// RxRingDrops are frames the kernel dropped because the switch's
	// receive ring was full; RxTruncated frames longer than MaxFrame.
	RxRingDrops, RxTruncated uint64
}

// PortStatus is one port as management (gNMI) sees it.
type PortStatus struct {
	ID uint32
	// Name is the port's Linux interface, or "vport<ID>" for an
	// in-process port.
	Name string
	// Link says the port is a Linux interface; an in-process port has no
	// link, no MAC address, and is up while it exists.
	Link    bool
	AdminUp bool
	Oper    OperStatus
	// LastChange is when the switch saw Oper change last (or added the
	// port, if it never changed since).
	LastChange time.Time
	MAC        net.HardwareAddr
	// RateBps is the port's shaped rate (0: unshaped); LinkSpeedBps is the
	// interface's speed as the kernel reported it when the port was added
	// (0: none reported).
	RateBps      uint64
	LinkSpeedBps uint64
	// Stats are the switch's counts of the port; Kernel the interface's.
	Stats  PortStats
	Kernel LinkCounters
}

// OutDiscards counts what the port's queues refused (every cause).
func (ps PortStatus) OutDiscards() uint64 {
	var n uint64
	for _, q := range ps.Stats.Queues {
		for _, d := range q.Drops {
			n += d
		}
	}
	return n
}

// ErrNoLink is returned for a change a port without its own interface
// cannot make.
var ErrNoLink = errors.New("the port has no interface of its own")

// ErrNoPort is returned for a port the switch lacks.
var ErrNoPort = errors.New("no such port")

// link is a port's own interface (a Linux port's).
type link interface {
	// status fills the link's part of st from the kernel.
	status(st *PortStatus)
	setAdmin(up bool) error
}

// portWatchers are the functions told about a port's state change.
type portWatchers struct {
	mu   sync.Mutex
	next int
	fns  map[int]func(PortStatus)
}

// PortStatuses describes every port but the CPU port, by port id.
func (s *Switch) PortStatuses() []PortStatus {
	ports := *s.ports.Load()
	out := make([]PortStatus, 0, len(ports))
	for id, p := range ports {
		if id != s.opts.CPUPort {
			out = append(out, s.statusOf(p))
		}
	}
	slices.SortFunc(out, func(a, b PortStatus) int { return int(a.ID) - int(b.ID) })
	return out
}

// PortStatus describes port id.
func (s *Switch) PortStatus(id uint32) (PortStatus, error) {
	p, ok := (*s.ports.Load())[id]
	if !ok || id == s.opts.CPUPort {
		return PortStatus{}, fmt.Errorf("port %d: %w", id, ErrNoPort)
	}
	return s.statusOf(p), nil
}

func (s *Switch) statusOf(p *port) PortStatus {
	st := PortStatus{ID: p.id, RateBps: p.q.rate(), Stats: p.stats()}
	if p.link == nil {
		st.Name, st.AdminUp, st.Oper, st.LastChange = fmt.Sprintf("vport%d", p.id), true, OperUp, p.added
		return st
	}
	st.Link = true
	p.link.status(&st)
	return st
}

// SetPortAdmin brings port id's interface up or down (administratively);
// a veth's peer then loses its carrier too, as a cable pulled.
func (s *Switch) SetPortAdmin(id uint32, up bool) error {
	p, ok := (*s.ports.Load())[id]
	if !ok || id == s.opts.CPUPort {
		return fmt.Errorf("port %d: %w", id, ErrNoPort)
	}
	if p.link == nil {
		return fmt.Errorf("port %d (in-process): %w", id, ErrNoLink)
	}
	return p.link.setAdmin(up)
}

// WatchPorts calls fn with a port's status whenever its administrative
// or operational state changes, until stop is called. fn runs on the
// goroutine that saw the change: it must not block.
func (s *Switch) WatchPorts(fn func(PortStatus)) (stop func()) {
	w := &s.watchers
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fns == nil {
		w.fns = map[int]func(PortStatus){}
	}
	id := w.next
	w.next++
	w.fns[id] = fn
	return func() {
		w.mu.Lock()
		delete(w.fns, id)
		w.mu.Unlock()
	}
}

// portChanged tells the watchers about port id.
func (s *Switch) portChanged(id uint32) {
	st, err := s.PortStatus(id)
	if err != nil {
		return // removed meanwhile
	}
	w := &s.watchers
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, fn := range w.fns {
		fn(st)
	}
}
