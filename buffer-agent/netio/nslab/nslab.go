// SPDX-License-Identifier: Apache-2.0

// Package nslab builds throw-away network labs for the agent's integration
// tests and benchmarks: named network namespaces, veth pairs between them
// and Linux bridges, all removed by Close. Everything needs root.
package nslab

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netns"

	"github.com/flowbuf/flowbuf/buffer-agent/netio"
)

// IsRoot reports whether the process can create namespaces.
func IsRoot() bool { return os.Geteuid() == 0 }

// Lab owns the namespaces it created; their interfaces go with them.
type Lab struct {
	prefix string
	names  []string
}

// New returns an empty lab whose namespace names start with prefix.
func New(prefix string) *Lab { return &Lab{prefix: prefix} }

// NS creates the namespace prefix+name with its loopback up.
func (l *Lab) NS(name string) (netio.NS, error) {
	full := l.prefix + name
	_ = netns.DeleteNamed(full) // a leftover of a killed run
	errc := make(chan error, 1)
	go func() {
		// The thread enters the new namespace and is discarded with it
		// still locked, so no other goroutine runs there.
		runtime.LockOSThread()
		h, err := netns.NewNamed(full)
		if err != nil {
			errc <- fmt.Errorf("create netns %s: %w", full, err)
			return
		}
		h.Close()
		errc <- netio.SetUp("lo")
	}()
	if err := <-errc; err != nil {
		return netio.NS{}, err
	}
	l.names = append(l.names, full)
	return netio.NS{Path: "/var/run/netns/" + full}, nil
}

// Veth creates the pair a (in nsA) - b (in nsB), both up, offloads and
// IPv6 off so that only the lab's own frames cross it.
func (l *Lab) Veth(nsA netio.NS, a string, nsB netio.NS, b string) error {
	peerNS, err := netns.GetFromPath(nsB.Path)
	if err != nil {
		return fmt.Errorf("open %s: %w", nsB.Path, err)
	}
	defer peerNS.Close()
	err = nsA.Do(func() error {
		v := &netlink.Veth{LinkAttrs: netlink.LinkAttrs{Name: a}, PeerName: b, PeerNamespace: netlink.NsFd(peerNS)}
		if err := netlink.LinkAdd(v); err != nil {
			return fmt.Errorf("create veth %s/%s: %w", a, b, err)
		}
		return quiet(a)
	})
	if err != nil {
		return err
	}
	return nsB.Do(func() error { return quiet(b) })
}

func quiet(name string) error {
	if err := netio.DisableIPv6(name); err != nil {
		return err
	}
	if err := netio.SetUp(name); err != nil {
		return err
	}
	return netio.DisableOffloads(name)
}

// Bridge creates a Linux bridge in ns with the given ports enslaved.
func (l *Lab) Bridge(ns netio.NS, name string, ports ...string) error {
	return ns.Do(func() error {
		br := &netlink.Bridge{LinkAttrs: netlink.LinkAttrs{Name: name}}
		if err := netlink.LinkAdd(br); err != nil {
			return fmt.Errorf("create bridge %s: %w", name, err)
		}
		if err := quiet(name); err != nil {
			return err
		}
		for _, p := range ports {
			link, err := netlink.LinkByName(p)
			if err != nil {
				return fmt.Errorf("find %s: %w", p, err)
			}
			if err := netlink.LinkSetMaster(link, br); err != nil {
				return fmt.Errorf("enslave %s to %s: %w", p, name, err)
			}
		}
		return nil
	})
}

// Socket opens a packet socket on interface name inside ns, sized for
// frames up to maxFrame bytes with rxSlots frames of RX ring.
func Socket(ns netio.NS, name string, maxFrame, rxSlots int) (*netio.Socket, error) {
	var s *netio.Socket
	err := ns.Do(func() error {
		link, err := netlink.LinkByName(name)
		if err != nil {
			return fmt.Errorf("find %s: %w", name, err)
		}
		s, err = netio.OpenSocketSlots(link.Attrs().Index, maxFrame, rxSlots, netio.DefaultTxSlots)
		return err
	})
	return s, err
}

// Close deletes every namespace of the lab.
func (l *Lab) Close() error {
	var errs []error
	for _, n := range l.names {
		if err := netns.DeleteNamed(n); err != nil {
			errs = append(errs, fmt.Errorf("delete netns %s: %w", n, err))
		}
	}
	l.names = nil
	return errors.Join(errs...)
}
