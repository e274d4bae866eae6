// SPDX-License-Identifier: Apache-2.0

package engine

import "time"

// EventKind is what an event rule watches for.
type EventKind int

// Event kinds, mirroring flowbuf.buffer.v1.EventKind.
const (
	EventOccupancyAbove EventKind = iota + 1
	EventOccupancyBelow
	EventDrained
	EventFirstPacket
	EventDropped
	EventMarkerSeen
	EventStateChanged
)

// MarkerMatch matches a frame when frame[Offset+i]&Mask[i] == Value[i] for
// every i. An empty Mask means all ones.
type MarkerMatch struct {
	Offset uint32
	Value  []byte
	Mask   []byte
}

// Matches reports whether frame carries the marker.
func (m *MarkerMatch) Matches(frame []byte) bool {
	end := int(m.Offset) + len(m.Value)
	if end > len(frame) {
		return false
	}
	for i, v := range m.Value {
		b := frame[int(m.Offset)+i]
		if len(m.Mask) > 0 {
			b &= m.Mask[i]
		}
		if b != v {
			return false
		}
	}
	return true
}

// EventRule asks for events of one kind on one buffer ("*": every buffer of
// the subscriber, including those created later).
type EventRule struct {
	RuleID           string
	BufferID         string
	Kind             EventKind
	ThresholdPackets uint64 // OCCUPANCY_*: exactly one threshold is set
	ThresholdBytes   uint64
	Marker           MarkerMatch // MARKER_SEEN
}

// Event is one rule firing.
type Event struct {
	RuleID           string
	BufferID         string
	Kind             EventKind
	Time             time.Time
	OccupancyPackets uint64
	OccupancyBytes   uint64
	Dropped          DropCounter // DROPPED: drops since the rule's last event
	State            State       // STATE_CHANGED: the new state
	PacketID         PacketID    // MARKER_SEEN, when HasPacketID
	HasPacketID      bool
}
