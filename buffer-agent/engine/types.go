// SPDX-License-Identifier: Apache-2.0

package engine

import "time"

// QueueType selects how a buffer orders the packets it holds.
type QueueType int

// Queue types, mirroring flowbuf.buffer.v1.QueueType.
const (
	QueueFIFO QueueType = iota + 1
	QueuePriority
	QueueARQ
)

// OverflowPolicy selects which packet is lost when a buffer is full.
type OverflowPolicy int

// Overflow policies, mirroring flowbuf.buffer.v1.OverflowPolicy.
const (
	DropTail OverflowPolicy = iota + 1
	DropHead
)

// PriorityField is where a PRIORITY buffer reads a packet's class from.
type PriorityField int

// Priority fields, mirroring flowbuf.buffer.v1.PriorityField.
const (
	FieldIPDSCP PriorityField = iota + 1
	FieldVLANPCP
)

// PriorityConfig configures a PRIORITY buffer.
type PriorityConfig struct {
	Classes uint32 // 1..8; 0 means 8
	Field   PriorityField
}

// ArqConfig configures an ARQ buffer.
type ArqConfig struct {
	Buckets    uint32 // 1..1000; 0 means 10
	BucketUs   uint32 // bucket width; 0 means 1000
	MaxResends uint32 // 0 means never give up
	// Protocol names what identifies a packet and what acknowledges it;
	// 0 means ArqIPv4.
	Protocol ArqProtocol
}

// ArqProtocol is the packet identity and acknowledgement format of an ARQ
// buffer.
type ArqProtocol int

// ARQ protocols, mirroring flowbuf.buffer.v1.ArqProtocol.
const (
	// ArqIPv4: the buffer sends each packet and keeps a copy under its
	// PacketID, acknowledged by Ack or FBAK status frames (arq_status.go).
	ArqIPv4 ArqProtocol = iota + 1
	// ArqPDCP: the gNodeB's buffer-as-a-service. Packets arrive as clones
	// of radio frames the switch already sent; each is kept under its
	// (bearer TEID, PDCP SN) and resent each wheel turn until a PDCP
	// status message acknowledges it (pdcp.go, baas.go).
	ArqPDCP
)

// BufferConfig is the configuration a buffer is created with.
type BufferConfig struct {
	CapacityBytes   uint64
	CapacityPackets uint64
	Queue           QueueType      // 0 means FIFO
	Overflow        OverflowPolicy // 0 means DropTail
	Priority        PriorityConfig
	Arq             ArqConfig
}

// State is a buffer's state, always derived from its bindings and occupancy.
type State int

// Buffer states, mirroring flowbuf.buffer.v1.BufferState.
const (
	StateFree State = iota + 1
	StateBuffering
	StateServing
	StateForwarding
	StateStoring
)

var stateNames = [...]string{"", "FREE", "BUFFERING", "SERVING", "FORWARDING", "STORING"}

func (s State) String() string {
	if s < StateFree || s > StateStoring {
		return "UNKNOWN"
	}
	return stateNames[s]
}

// DeriveState is the one place where the five states are defined.
func DeriveState(rx, tx bool, occupancyPackets uint64) State {
	switch {
	case rx && tx:
		return StateForwarding
	case rx:
		return StateBuffering
	case tx:
		return StateServing
	case occupancyPackets > 0:
		return StateStoring
	default:
		return StateFree
	}
}

// DropCause says why a packet was dropped; every drop has exactly one.
type DropCause int

// Drop causes, mirroring flowbuf.buffer.v1.DropCause.
const (
	DropOverflow DropCause = iota + 1
	DropPool
	DropPurged
	DropAdmin
	DropTxMode
	DropUnbound
	DropArqExpired
	numDropCauses
)

// DropCounter counts the drops of one cause.
type DropCounter struct {
	Cause   DropCause
	Packets uint64
	Bytes   uint64
}

// BufferStats are a buffer's counters at one instant.
type BufferStats struct {
	PacketsIn, BytesIn   uint64
	PacketsOut, BytesOut uint64
	// Drops lists only the causes that have counted at least one packet.
	Drops []DropCounter
	// PoolDrops splits the POOL drops by the limit that refused them
	// (pool full, quota, DT or FB threshold, journal); only reasons that
	// counted a packet are listed. The API reports their sum as POOL.
	PoolDrops                                []PoolDropCounter
	OccupancyPackets, OccupancyBytes         uint64
	HighWatermarkPackets, HighWatermarkBytes uint64
	OldestPacketAge                          time.Duration
	ArqResent, ArqAcked                      uint64
	// PDCP ARQ buffers only: packets acknowledged after at least one
	// resend; packets given up because a new PDU reused their SN; status
	// messages refused as malformed (nothing changed); frames that were
	// no radio frame (dropped).
	ArqAckedAfterResend, ArqSuperseded uint64
	ArqBadStatus, ArqNotRadio          uint64
	// LastOutPacketID is the id of the newest packet the buffer transmitted
	// (not an ARQ resend) that has one (IPv4 TCP, UDP or ICMP): the point
	// up to which FMM purges the other buffers of the stream. Meaningful
	// only when HasLastOutPacketID.
	LastOutPacketID    PacketID
	HasLastOutPacketID bool
	// TriggerArmed says an ArmTrigger trigger waits for the next packet.
	// TriggersFired counts fires that set the armed modes, TriggerFailures
	// those that could not (a vport was removed after arming).
	TriggerArmed                   bool
	TriggersFired, TriggerFailures uint64
	// Reattached says the agent found this buffer in its state directory
	// when it started (it had crashed): ReattachedPackets were held before
	// and are held again, in their order; MissedWhileDown frames reached
	// its RX vports' interfaces while the agent was down and could not be
	// held (see Options.StateDir). The other counters restarted from zero.
	Reattached                         bool
	ReattachedPackets, MissedWhileDown uint64
	// SyncAwaits counts PurgeToSyncPoint calls that awaited a sync point
	// not received yet; of those, SyncAwaitsArrived saw it come,
	// SyncAwaitsExpired gave up at the bound and SyncAwaitsReplaced were
	// replaced by a later sync point. SyncAwaitMax is the longest one took
	// to arrive.
	SyncAwaits, SyncAwaitsArrived, SyncAwaitsExpired, SyncAwaitsReplaced uint64
	SyncAwaitMax                                                         time.Duration
	// Rewound counts frames sent again because a receive report named a
	// packet the buffer sent with more sent after it (see rewind.go).
	Rewound uint64
}

// ReportSync is what a trigger's purge to a receive report found.
type ReportSync int

// Report syncs, mirroring flowbuf.buffer.v1.ReportSync.
const (
	// ReportNone: no purge was armed.
	ReportNone ReportSync = iota
	// ReportSynced: the reported packet was held (it and every packet
	// before it were purged; when it came after the report, once it
	// arrived), or it had left the buffer lately (sent or purged), or the
	// sender reported nothing received (nothing to purge).
	ReportSynced
	// ReportUnsynced: the trigger packet carried no report, or one naming a
	// packet the buffer neither held nor let go lately and that did not
	// arrive within the wait (see ArmTrigger); nothing was purged.
	ReportUnsynced
)

// TriggerFire is the outcome of one fire of an ArmTrigger trigger.
type TriggerFire struct {
	// ModesSet: the armed modes were set (false: a vport or the buffer to
	// purge was removed after arming; then nothing changed).
	ModesSet      bool
	Report        ReportSync
	PurgedPackets uint64
}

// ArmResult is what ArmTrigger reports.
type ArmResult struct {
	// WasArmed: a trigger was armed before the call (it is replaced or
	// disarmed now).
	WasArmed bool
	// LastFire is the newest fire of the buffer's trigger, applied before
	// ArmTrigger returned; nil when it never fired.
	LastFire *TriggerFire
}

// BufferInfo is a snapshot of a buffer as the API reports it.
type BufferInfo struct {
	ID       string
	Owner    string
	Config   BufferConfig // with defaults filled in
	State    State
	VportIDs []string
	Stats    BufferStats
}

// VportMode is the bit set of directions a vport carries.
type VportMode int

// Vport modes, mirroring flowbuf.buffer.v1.VportMode.
const (
	ModeNone VportMode = iota + 1
	ModeRX
	ModeTX
	ModeRXTX
)

// RX reports whether the mode lets the switch put packets into the buffer.
func (m VportMode) RX() bool { return m == ModeRX || m == ModeRXTX }

// TX reports whether the mode lets the buffer send packets to the switch.
func (m VportMode) TX() bool { return m == ModeTX || m == ModeRXTX }

func (m VportMode) valid() bool { return m >= ModeNone && m <= ModeRXTX }

// BackendKind names where a vport's frames come from and go to.
type BackendKind int

// Backend kinds, mirroring flowbuf.buffer.v1.VportBackendKind.
const (
	BackendLinuxInterface BackendKind = iota + 1
	BackendInProcess
)

// BackendSpec says which backend carries a vport's frames. Only the fields
// of its Kind are meaningful.
type BackendSpec struct {
	Kind BackendKind
	// LinuxInterface.
	Interface      string
	CreateVethPeer string
	KeepOffloads   bool
	// InProcess: the pbswitch port number.
	Port uint32
}

// VportConfig is the configuration a vport is created with.
type VportConfig struct {
	Mode       VportMode
	Backend    BackendSpec
	SwitchPort uint32
	TxRateBps  uint64 // 0 = as fast as possible
	// Tag, when not 0, makes the vport a logical one: vports with distinct
	// tags share one backend, which tells their frames apart by the buffer
	// tag header the switch pushes (see shared.go). 0 keeps the backend to
	// this vport alone.
	Tag uint32
}

// VportStats are a vport's counters at one instant.
type VportStats struct {
	RxPackets, RxBytes uint64
	TxPackets, TxBytes uint64
	// TxErrors counts frames the backend failed to send (not in TxPackets).
	// The API has no field for it; operators see it in the agent's metrics.
	TxErrors uint64
	Drops    []DropCounter
}

// VportInfo is a snapshot of a vport as the API reports it.
type VportInfo struct {
	ID       string
	Owner    string
	Config   VportConfig
	BufferID string
	Stats    VportStats
}

// Quota bounds what one application may hold; 0 means no limit of its own.
type Quota struct {
	MaxBytes   uint64
	MaxBuffers uint32
	MaxVports  uint32
}

// Limits are the agent-wide sizes of an engine.
type Limits struct {
	PoolBytes        uint64 // hard limit of the shared packet memory
	MaxBufferBytes   uint64
	MaxBufferPackets uint64
	MaxBuffers       uint32
	MaxVports        uint32
	MaxFrameBytes    uint32
	// MaxTagsPerBackend bounds the tagged vports that share one backend.
	MaxTagsPerBackend uint32
}

// Capabilities describe what an engine offers to one application.
type Capabilities struct {
	Limits   Limits
	Queues   []QueueType
	Backends []BackendKind
	Quota    Quota
}

// PacketID identifies an IPv4 packet across buffers holding the same
// stream: the IPv4 identification plus the L4 checksum.
type PacketID struct {
	IPv4ID     uint16
	L4Checksum uint16
}

// PurgeResult is what PurgeUpTo removed.
type PurgeResult struct {
	Found         bool
	PurgedPackets uint64
	PurgedBytes   uint64
	// Awaiting: PurgeToSyncPoint did not find the sync point and drops
	// arrivals up to it.
	Awaiting bool
}
