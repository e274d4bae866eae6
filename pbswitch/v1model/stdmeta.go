// SPDX-License-Identifier: Apache-2.0

package v1model

// stdFields are the slots of standard_metadata's fields (-1: the program
// does not declare it). egress_spec is required.
type stdFields struct {
	ingressPort, egressSpec, egressPort, instanceType, packetLength int
	enqTimestamp, enqQdepth, deqTimedelta, deqQdepth                int
	ingressTS, egressTS, mcastGrp, egressRid, checksumError         int
	parserError, priority                                           int
	// The widths of the fields the traffic manager and the clock fill, as
	// masks (all ones when the field is absent).
	enqTimestampMask, enqQdepthMask, deqTimedeltaMask, deqQdepthMask uint64
	ingressTSMask, egressTSMask                                      uint64
}

func (c *compiler) bindStd() error {
	slot := func(name string) int {
		if f, ok := c.l.std(name); ok && f.slot >= 0 && f.words == 1 {
			return f.slot
		}
		return -1
	}
	c.std = stdFields{
		ingressPort: slot("ingress_port"), egressSpec: slot("egress_spec"), egressPort: slot("egress_port"),
		instanceType: slot("instance_type"), packetLength: slot("packet_length"),
		enqTimestamp: slot("enq_timestamp"), enqQdepth: slot("enq_qdepth"), deqTimedelta: slot("deq_timedelta"),
		deqQdepth: slot("deq_qdepth"), ingressTS: slot("ingress_global_timestamp"),
		egressTS: slot("egress_global_timestamp"), mcastGrp: slot("mcast_grp"), egressRid: slot("egress_rid"),
		checksumError: slot("checksum_error"), parserError: slot("parser_error"), priority: slot("priority"),
	}
	mask := func(name string) uint64 {
		if f, ok := c.l.std(name); ok && f.width > 0 && f.width < 64 {
			return 1<<f.width - 1
		}
		return ^uint64(0)
	}
	c.std.enqTimestampMask, c.std.enqQdepthMask = mask("enq_timestamp"), mask("enq_qdepth")
	c.std.deqTimedeltaMask, c.std.deqQdepthMask = mask("deq_timedelta"), mask("deq_qdepth")
	c.std.ingressTSMask, c.std.egressTSMask = mask("ingress_global_timestamp"), mask("egress_global_timestamp")
	if c.std.egressSpec < 0 || c.std.ingressPort < 0 || c.std.egressPort < 0 {
		return invalid(nil, "standard_metadata lacks ingress_port, egress_spec or egress_port")
	}
	return nil
}

// set writes v into an optional standard_metadata slot.
func (s *phv) setStd(slot int, v uint64) {
	if slot >= 0 {
		s.slots[slot] = v
	}
}

func (s *phv) getStd(slot int) uint64 {
	if slot < 0 {
		return 0
	}
	return s.slots[slot]
}

// BMv2's instance_type values.
const (
	instanceNormal       = 0
	instanceIngressClone = 1
	instanceEgressClone  = 2
	instanceRecirc       = 4
	instanceReplication  = 5
	instanceResubmit     = 6
)
