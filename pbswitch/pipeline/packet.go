// SPDX-License-Identifier: Apache-2.0

package pipeline

// StdMeta mirrors the fields of v1model's standard_metadata_t that a
// program reads or writes.
type StdMeta struct {
	IngressPort uint32
	// EgressSpec is where ingress sends the packet; EgressPort is the port
	// egress is running for (a multicast replica's own port).
	EgressSpec uint32
	EgressPort uint32
	McastGrp   uint16
	// CloneSession is the I2E clone session requested by ingress (0: none).
	CloneSession uint32
	// InstanceType is 0 for the original packet, InstanceClone for a clone
	// and InstanceReplica for a multicast replica (v1model's values).
	InstanceType uint32
	EgressRid    uint16
	// Traffic manager figures, filled in before egress runs, as BMv2's
	// simple_switch sets them (targets/simple_switch/simple_switch.cpp):
	// EnqTimestampUs is the switch clock (microseconds since it started,
	// in 32 bits) when the packet entered its queue; EnqQdepth and
	// DeqQdepth are the packets in that queue (its port and priority)
	// ahead of it as it entered and behind it as it left; DeqTimedeltaUs
	// is the time from enqueue to the start of egress.
	EnqTimestampUs uint32
	EnqQdepth      uint32
	DeqTimedeltaUs uint32
	DeqQdepth      uint32
	// EgressUs is the switch clock when egress started for this copy:
	// egress_global_timestamp.
	EgressUs uint64
	// Priority is the queue the traffic manager puts the packet in
	// (v1model's priority, 0 lowest).
	Priority uint8
	// CloneIngressPort is the ingress port a clone carries to the CPU
	// (the field list preserved by clone_preserving_field_list).
	CloneIngressPort uint32
	// TruncateTo cuts the frame to this many bytes as it leaves (a clone
	// session's truncation, or truncate()); 0: whole.
	TruncateTo int
	// EgressClone is the E2E clone session egress requested (0: none).
	EgressClone uint32
	// Recirculate sends the packet, as egress deparsed it, back to
	// ingress instead of out of its port; Recirculations counts the trips.
	Recirculate    bool
	Recirculations int
	// IngressUs is when the packet arrived at the switch (its clock, in
	// microseconds): ingress_global_timestamp. As on BMv2 it is 0 for a
	// recirculated packet (its metadata is reset; a field list may
	// carry the old value).
	IngressUs uint64
}

// DropPort is v1model's drop port: mark_to_drop sets egress_spec to it.
const DropPort = 511

// CtrlMeta is one field of a packet_in or packet_out controller header.
type CtrlMeta struct {
	ID    uint32
	Value []byte
}

// Packet is a frame on its way through the pipeline with its metadata.
// The pipeline may rewrite Frame in place; whoever holds the Packet owns it.
type Packet struct {
	Frame []byte
	Meta  StdMeta
	// PacketOut holds the packet_out header of a frame from the controller
	// (nil for frames from ports); PacketIn is filled by egress for frames
	// leaving on the CPU port.
	PacketOut []CtrlMeta
	PacketIn  []CtrlMeta
	// Key is scratch space for building lookup keys. It lives in the
	// (pooled) packet so that a lookup allocates nothing per packet.
	Key [64]byte
	// State is the running program's per-packet state (a P4 engine's
	// headers and metadata), carried from ingress to egress; nil when the
	// program keeps none.
	State PacketState
}

// PacketState is a program's per-packet state. The switch keeps it with
// the packet when the packet goes back to the switch's pool, for the
// program to reuse (it must reset it on Ingress); Release returns it to its
// owner when the packet is to carry other state (a copy made by the
// traffic manager).
type PacketState interface {
	Release()
}

// CopyKind says what a copy of a packet is for.
type CopyKind int

// The traffic manager's copies of a packet.
const (
	// CopyReplica is a multicast replica: the original's headers and
	// metadata.
	CopyReplica CopyKind = iota
	// CopyIngressClone is an ingress-to-egress clone: the packet as it
	// arrived, with only the clone's field list of metadata.
	CopyIngressClone
	// CopyEgressClone is an egress-to-egress clone: the headers as egress
	// left them, with only the clone's field list of metadata.
	CopyEgressClone
)

// v1model instance types.
const (
	InstanceNormal      = 0
	InstanceClone       = 1
	InstanceEgressClone = 2
	InstanceRecirculate = 4
	InstanceReplica     = 5
)
