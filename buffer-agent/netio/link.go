// SPDX-License-Identifier: Apache-2.0

package netio

import (
	"errors"
	"fmt"
	"os"

	"github.com/safchain/ethtool"
	"github.com/vishvananda/netlink"
)

// offloadFeatures are the ethtool features that merge or split frames;
// with them off, the frames that enter a vport are the frames that leave.
var offloadFeatures = []string{
	"rx-gro", "rx-gro-list", "rx-udp-gro-forwarding",
	"tx-generic-segmentation", "tx-tcp-segmentation", "tx-tcp6-segmentation",
	"tx-tcp-ecn-segmentation", "tx-tcp-mangleid-segmentation", "tx-udp-segmentation",
}

// errLinkExists reports an interface name that is already taken.
var errLinkExists = errors.New("interface exists")

// CreateVeth creates the veth pair (name, peer), both ends up. In the
// calling thread's namespace.
func CreateVeth(name, peer string) error {
	if _, err := netlink.LinkByName(name); err == nil {
		return fmt.Errorf("%w: %s", errLinkExists, name)
	}
	if _, err := netlink.LinkByName(peer); err == nil {
		return fmt.Errorf("%w: %s", errLinkExists, peer)
	}
	veth := &netlink.Veth{LinkAttrs: netlink.LinkAttrs{Name: name}, PeerName: peer}
	if err := netlink.LinkAdd(veth); err != nil {
		return fmt.Errorf("create veth %s/%s: %w", name, peer, err)
	}
	for _, n := range []string{name, peer} {
		if err := SetUp(n); err != nil {
			_ = DeleteLink(name)
			return err
		}
	}
	return nil
}

// DeleteLink removes an interface (and a veth's peer with it).
func DeleteLink(name string) error {
	l, err := netlink.LinkByName(name)
	if err != nil {
		return fmt.Errorf("find %s: %w", name, err)
	}
	if err := netlink.LinkDel(l); err != nil {
		return fmt.Errorf("delete %s: %w", name, err)
	}
	return nil
}

// SetUp brings an interface up.
func SetUp(name string) error {
	l, err := netlink.LinkByName(name)
	if err != nil {
		return fmt.Errorf("find %s: %w", name, err)
	}
	if err := netlink.LinkSetUp(l); err != nil {
		return fmt.Errorf("set %s up: %w", name, err)
	}
	return nil
}

// DisableOffloads turns off every offload feature the interface lets
// change.
func DisableOffloads(name string) error {
	et, err := ethtool.NewEthtool()
	if err != nil {
		return fmt.Errorf("ethtool: %w", err)
	}
	defer et.Close()
	states, err := et.FeaturesWithState(name)
	if err != nil {
		return fmt.Errorf("read features of %s: %w", name, err)
	}
	off := map[string]bool{}
	for _, f := range offloadFeatures {
		if st, ok := states[f]; ok && st.Active && st.Available && !st.NeverChanged {
			off[f] = false
		}
	}
	if len(off) == 0 {
		return nil
	}
	if err := et.Change(name, off); err != nil {
		return fmt.Errorf("disable offloads on %s: %w", name, err)
	}
	return nil
}

// OffloadsOn lists the offload features still active on an interface.
func OffloadsOn(name string) ([]string, error) {
	et, err := ethtool.NewEthtool()
	if err != nil {
		return nil, fmt.Errorf("ethtool: %w", err)
	}
	defer et.Close()
	feats, err := et.Features(name)
	if err != nil {
		return nil, fmt.Errorf("read features of %s: %w", name, err)
	}
	var on []string
	for _, f := range offloadFeatures {
		if feats[f] {
			on = append(on, f)
		}
	}
	return on, nil
}

// DisableIPv6 keeps the host from sending its own frames (router and
// neighbour solicitations) out of an interface that is a vport.
func DisableIPv6(name string) error {
	path := "/proc/sys/net/ipv6/conf/" + name + "/disable_ipv6"
	if _, err := os.Stat(path); err != nil {
		return nil // no IPv6 in this kernel
	}
	return os.WriteFile(path, []byte("1"), 0o644)
}
