// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/safchain/ethtool"
	"github.com/vishvananda/netlink"
)

// linkState follows a Linux port's interface through netlink: its
// administrative and operational state as the kernel reports them (the
// kernel's link-change messages, read by one goroutine), its MAC address
// and the kernel's error counters.
type linkState struct {
	iface    string
	ifindex  int
	speedBps uint64
	nl       *netlink.Handle // in the interface's namespace
	stop     chan struct{}
	stopped  chan struct{}
	onChange func()

	mu         sync.Mutex
	adminUp    bool
	oper       OperStatus
	lastChange time.Time
	mac        net.HardwareAddr
}

// openLinkState starts following lk. It must run in lk's network
// namespace: the netlink sockets it opens stay there. onChange runs after
// each change of the administrative or operational state.
func openLinkState(lk netlink.Link, onChange func()) (*linkState, error) {
	h, err := netlink.NewHandle()
	if err != nil {
		return nil, err
	}
	a := lk.Attrs()
	ls := &linkState{iface: a.Name, ifindex: a.Index, speedBps: linkSpeed(a.Name), nl: h,
		stop: make(chan struct{}), stopped: make(chan struct{}), onChange: onChange,
		adminUp: a.Flags&net.FlagUp != 0, oper: operOf(a.OperState), lastChange: time.Now(), mac: a.HardwareAddr}
	updates := make(chan netlink.LinkUpdate, 16)
	err = netlink.LinkSubscribeWithOptions(updates, ls.stop, netlink.LinkSubscribeOptions{ErrorCallback: ls.updateError})
	if err != nil {
		h.Close()
		return nil, err
	}
	// Read again now that changes are coming: one between the first read
	// and the subscription is not missed.
	if lk, err := h.LinkByIndex(ls.ifindex); err == nil {
		ls.observe(lk.Attrs())
	}
	go ls.follow(updates)
	return ls, nil
}

// linkSpeed is the interface's speed in bits/s as ethtool reports it (a
// veth: 10 Gb/s), 0 when it reports none.
func linkSpeed(iface string) uint64 {
	et, err := ethtool.NewEthtool()
	if err != nil {
		return 0
	}
	defer et.Close()
	m, err := et.CmdGetMapped(iface)
	mbps := m["Speed"]
	if err != nil || mbps == 0 || mbps >= 0xffffffff { // SPEED_UNKNOWN is -1 in 32 bits
		return 0
	}
	return mbps * 1_000_000
}

func operOf(s netlink.LinkOperState) OperStatus {
	switch s {
	case netlink.OperUp:
		return OperUp
	case netlink.OperDown:
		return OperDown
	case netlink.OperLowerLayerDown:
		return OperLowerLayerDown
	case netlink.OperTesting:
		return OperTesting
	case netlink.OperDormant:
		return OperDormant
	case netlink.OperNotPresent:
		return OperNotPresent
	default:
		return OperUnknown
	}
}

// updateError logs a failed read of the link updates, unless close
// caused it.
func (ls *linkState) updateError(err error) {
	select {
	case <-ls.stop:
	default:
		slog.Warn("link state updates", "interface", ls.iface, "err", err)
	}
}

func (ls *linkState) follow(updates <-chan netlink.LinkUpdate) {
	defer close(ls.stopped)
	for u := range updates {
		if int(u.Index) == ls.ifindex {
			ls.observe(u.Link.Attrs())
		}
	}
}

// observe records what the kernel reports; a changed state is stamped and
// told.
func (ls *linkState) observe(a *netlink.LinkAttrs) {
	admin, oper := a.Flags&net.FlagUp != 0, operOf(a.OperState)
	ls.mu.Lock()
	changed := admin != ls.adminUp || oper != ls.oper
	if oper != ls.oper { // OpenConfig's last-change is the oper-status's
		ls.lastChange = time.Now()
	}
	ls.adminUp, ls.oper = admin, oper
	if len(a.HardwareAddr) > 0 {
		ls.mac = a.HardwareAddr
	}
	ls.mu.Unlock()
	if changed && ls.onChange != nil {
		ls.onChange()
	}
}

// status reads the interface afresh (a state the updates have not brought
// yet counts as observed now) and fills st.
func (ls *linkState) status(st *PortStatus) {
	lk, err := ls.nl.LinkByIndex(ls.ifindex)
	if err == nil {
		ls.observe(lk.Attrs())
		if c := lk.Attrs().Statistics; c != nil {
			st.Kernel = LinkCounters{RxErrors: c.RxErrors, TxErrors: c.TxErrors,
				RxDropped: c.RxDropped, TxDropped: c.TxDropped, RxCRCErrors: c.RxCrcErrors}
		}
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	st.Name, st.AdminUp, st.Oper, st.LastChange = ls.iface, ls.adminUp, ls.oper, ls.lastChange
	st.MAC, st.LinkSpeedBps = ls.mac, ls.speedBps
	if err != nil {
		st.Oper = OperNotPresent // the interface is gone
	}
}

func (ls *linkState) setAdmin(up bool) error {
	lk, err := ls.nl.LinkByIndex(ls.ifindex)
	if err != nil {
		return err
	}
	if up {
		err = ls.nl.LinkSetUp(lk)
	} else {
		err = ls.nl.LinkSetDown(lk)
	}
	if err != nil {
		return err
	}
	if lk, err = ls.nl.LinkByIndex(ls.ifindex); err == nil {
		ls.observe(lk.Attrs())
	}
	return nil
}

func (ls *linkState) close() {
	close(ls.stop)
	<-ls.stopped
	ls.nl.Close()
}
