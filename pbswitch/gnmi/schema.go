// SPDX-License-Identifier: Apache-2.0

package gnmi

import (
	"strings"

	pb "github.com/openconfig/gnmi/proto/gnmi"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

// leaf is one leaf pbswitch serves under /interfaces/interface[name=X],
// named and typed as Stratum serves it (its yang_parse_tree_paths.cc):
// enumerations as strings ("UP", "SPEED_10GB"), numbers and counters as
// uint_val, last-change in nanoseconds since the Unix epoch.
type leaf struct {
	path []string // below interface[name=X]
	// config leaves are read/write (YANG "config true"); the rest is state.
	config bool
	// sampled leaves (the counters) change all the time: TARGET_DEFINED
	// samples them; everything else it streams on change.
	sampled bool
	// value is the leaf's value for a port; nil when the port has none
	// (an in-process port has no MAC address).
	value func(ps *dataplane.PortStatus) *pb.TypedValue
}

func (l *leaf) pathString() string { return strings.Join(l.path, "/") }

func str(s string) *pb.TypedValue {
	return &pb.TypedValue{Value: &pb.TypedValue_StringVal{StringVal: s}}
}
func uintVal(n uint64) *pb.TypedValue {
	return &pb.TypedValue{Value: &pb.TypedValue_UintVal{UintVal: n}}
}
func boolean(b bool) *pb.TypedValue {
	return &pb.TypedValue{Value: &pb.TypedValue_BoolVal{BoolVal: b}}
}

// upDown is OpenConfig's admin-status.
func upDown(up bool) string {
	if up {
		return "UP"
	}
	return "DOWN"
}

// sub is a-b, 0 when counters read a moment apart disagree.
func sub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// counter makes a sampled counter leaf.
func counter(name string, v func(ps *dataplane.PortStatus) uint64) leaf {
	return leaf{path: []string{"state", "counters", name}, sampled: true,
		value: func(ps *dataplane.PortStatus) *pb.TypedValue { return uintVal(v(ps)) }}
}

// schema is every leaf served, in the order responses list them.
var schema = []leaf{
	{path: []string{"config", "enabled"}, config: true,
		value: func(ps *dataplane.PortStatus) *pb.TypedValue { return boolean(ps.AdminUp) }},
	{path: []string{"state", "name"},
		value: func(ps *dataplane.PortStatus) *pb.TypedValue { return str(ps.Name) }},
	// ifindex and id are the port's P4Runtime (SDN) port number, as
	// Stratum serves them: ONOS takes ifindex as the port number.
	{path: []string{"state", "ifindex"},
		value: func(ps *dataplane.PortStatus) *pb.TypedValue { return uintVal(uint64(ps.ID)) }},
	{path: []string{"state", "id"},
		value: func(ps *dataplane.PortStatus) *pb.TypedValue { return uintVal(uint64(ps.ID)) }},
	{path: []string{"state", "oper-status"},
		value: func(ps *dataplane.PortStatus) *pb.TypedValue { return str(string(ps.Oper)) }},
	{path: []string{"state", "admin-status"},
		value: func(ps *dataplane.PortStatus) *pb.TypedValue { return str(upDown(ps.AdminUp)) }},
	{path: []string{"state", "last-change"},
		value: func(ps *dataplane.PortStatus) *pb.TypedValue { return uintVal(uint64(ps.LastChange.UnixNano())) }},
	{path: []string{"state", "hardware-port"},
		value: func(ps *dataplane.PortStatus) *pb.TypedValue { return str(ps.Name) }},
	counter("in-octets", func(ps *dataplane.PortStatus) uint64 { return ps.Stats.RxBytes }),
	counter("out-octets", func(ps *dataplane.PortStatus) uint64 { return ps.Stats.TxBytes }),
	counter("in-unicast-pkts", func(ps *dataplane.PortStatus) uint64 {
		return sub(ps.Stats.RxFrames, ps.Stats.RxMulticast+ps.Stats.RxBroadcast)
	}),
	counter("out-unicast-pkts", func(ps *dataplane.PortStatus) uint64 {
		return sub(ps.Stats.TxFrames, ps.Stats.TxMulticast+ps.Stats.TxBroadcast)
	}),
	counter("in-broadcast-pkts", func(ps *dataplane.PortStatus) uint64 { return ps.Stats.RxBroadcast }),
	counter("out-broadcast-pkts", func(ps *dataplane.PortStatus) uint64 { return ps.Stats.TxBroadcast }),
	counter("in-multicast-pkts", func(ps *dataplane.PortStatus) uint64 { return ps.Stats.RxMulticast }),
	counter("out-multicast-pkts", func(ps *dataplane.PortStatus) uint64 { return ps.Stats.TxMulticast }),
	// in-discards: what the kernel dropped on the way in, the interface's
	// and for the switch's full receive ring; out-discards: what the
	// port's queues refused, and the kernel dropped on the way out.
	counter("in-discards", func(ps *dataplane.PortStatus) uint64 { return ps.Kernel.RxDropped + ps.Kernel.RxRingDrops }),
	counter("out-discards", func(ps *dataplane.PortStatus) uint64 { return ps.OutDiscards() + ps.Kernel.TxDropped }),
	counter("in-errors", func(ps *dataplane.PortStatus) uint64 { return ps.Kernel.RxErrors + ps.Kernel.RxTruncated }),
	counter("out-errors", func(ps *dataplane.PortStatus) uint64 { return ps.Stats.TxErrors + ps.Kernel.TxErrors }),
	counter("in-fcs-errors", func(ps *dataplane.PortStatus) uint64 { return ps.Kernel.RxCRCErrors }),
	// The switch refuses no frame for its protocol: the P4 program parses
	// whatever arrives, and what it drops is a forwarding decision.
	counter("in-unknown-protos", func(*dataplane.PortStatus) uint64 { return 0 }),
	{path: []string{"ethernet", "state", "mac-address"},
		value: func(ps *dataplane.PortStatus) *pb.TypedValue {
			if len(ps.MAC) == 0 {
				return nil
			}
			return str(ps.MAC.String())
		}},
	// port-speed is what the port runs at: its shaped rate, else its
	// link's speed; negotiated-port-speed is the link's.
	{path: []string{"ethernet", "state", "port-speed"},
		value: func(ps *dataplane.PortStatus) *pb.TypedValue {
			if ps.RateBps > 0 {
				return str(speedName(ps.RateBps))
			}
			return str(speedName(ps.LinkSpeedBps))
		}},
	{path: []string{"ethernet", "state", "negotiated-port-speed"},
		value: func(ps *dataplane.PortStatus) *pb.TypedValue {
			if !ps.Link {
				return nil
			}
			return str(speedName(ps.LinkSpeedBps))
		}},
}

// speedNames are OpenConfig's ETHERNET_SPEED identities.
var speedNames = map[uint64]string{
	10e6: "SPEED_10MB", 100e6: "SPEED_100MB", 1e9: "SPEED_1GB", 2.5e9: "SPEED_2500MB",
	5e9: "SPEED_5GB", 10e9: "SPEED_10GB", 25e9: "SPEED_25GB", 40e9: "SPEED_40GB",
	50e9: "SPEED_50GB", 100e9: "SPEED_100GB", 200e9: "SPEED_200GB", 400e9: "SPEED_400GB",
}

// speedName is the identity of a speed in bits/s; SPEED_UNKNOWN when it is
// none of them (a port shaped to another rate, a link reporting none).
func speedName(bps uint64) string {
	if n, ok := speedNames[bps]; ok {
		return n
	}
	return "SPEED_UNKNOWN"
}
