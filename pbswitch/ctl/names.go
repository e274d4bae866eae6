// SPDX-License-Identifier: Apache-2.0

package ctl

// P4 names of the FlowBuf program, as p4c writes them into the p4info
// (pipeconf/p4src/main.p4 and include/*.p4).
const (
	TableVportPorts   = "IngressPipeImpl.steering.vport_ports"
	TableFlowSteering = "IngressPipeImpl.steering.flow_steering"
	TableL2Exact      = "IngressPipeImpl.forwarding.l2_exact"
	TableRoutingV4    = "IngressPipeImpl.forwarding.routing_v4"
	TableACL          = "IngressPipeImpl.acl.acl_table"

	ActionNoAction          = "NoAction"
	ActionMarkFromVport     = "IngressPipeImpl.steering.mark_from_vport"
	ActionSteerToPort       = "IngressPipeImpl.steering.steer_to_port"
	ActionSteerToMcastGroup = "IngressPipeImpl.steering.steer_to_mcast_group"
	ActionSetEgressPort     = "IngressPipeImpl.forwarding.set_egress_port"
	ActionSetMcastGroup     = "IngressPipeImpl.forwarding.set_mcast_group"
	ActionForwardingDrop    = "IngressPipeImpl.forwarding.drop"
	ActionRoute             = "IngressPipeImpl.forwarding.route"
	ActionPuntToCPU         = "IngressPipeImpl.acl.punt_to_cpu"
	ActionCopyToCPU         = "IngressPipeImpl.acl.copy_to_cpu"
	ActionACLDrop           = "IngressPipeImpl.acl.drop"

	HeaderPacketIn  = "packet_in"
	HeaderPacketOut = "packet_out"
)

// CPUCloneSession is CPU_CLONE_SESSION_ID (include/defines.p4): the clone
// session the controller configures to receive copy_to_cpu copies.
const CPUCloneSession = 99

// DefaultCPUPort is CPU_PORT (include/defines.p4).
const DefaultCPUPort = 255
