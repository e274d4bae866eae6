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
	ActionSteerToBuffer     = "IngressPipeImpl.steering.steer_to_buffer"
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

// P4 names of the UPF (include/upf.p4, include/firewall.p4).
const (
	TableUpfInterfaces        = "IngressPipeImpl.upf_classifier.interfaces"
	TableFirewall             = "IngressPipeImpl.firewall.rules"
	TableUplinkSessions       = "IngressPipeImpl.upf.uplink_sessions"
	TableDownlinkSessions     = "IngressPipeImpl.upf.downlink_sessions"
	TableApplications         = "IngressPipeImpl.upf.applications"
	TableUplinkTerminations   = "IngressPipeImpl.upf.uplink_terminations"
	TableDownlinkTerminations = "IngressPipeImpl.upf.downlink_terminations"
	TableTunnelPeers          = "IngressPipeImpl.upf.tunnel_peers"
	TableUpfQueues            = "IngressPipeImpl.upf.queues"

	ActionIfaceAccess           = "IngressPipeImpl.upf_classifier.iface_access"
	ActionIfaceCore             = "IngressPipeImpl.upf_classifier.iface_core"
	ActionFirewallAllow         = "IngressPipeImpl.firewall.allow"
	ActionFirewallDeny          = "IngressPipeImpl.firewall.deny"
	ActionSetUplinkSession      = "IngressPipeImpl.upf.set_uplink_session"
	ActionUplinkSessionDrop     = "IngressPipeImpl.upf.uplink_session_drop"
	ActionSetDownlinkSession    = "IngressPipeImpl.upf.set_downlink_session"
	ActionSetDownlinkSessionBuf = "IngressPipeImpl.upf.set_downlink_session_buf"
	ActionDownlinkSessionDrop   = "IngressPipeImpl.upf.downlink_session_drop"
	ActionSetAppID              = "IngressPipeImpl.upf.set_app_id"
	ActionUplinkTermFwd         = "IngressPipeImpl.upf.uplink_term_fwd"
	ActionDownlinkTermFwd       = "IngressPipeImpl.upf.downlink_term_fwd"
	ActionTermDrop              = "IngressPipeImpl.upf.term_drop"
	ActionSetTunnelPeer         = "IngressPipeImpl.upf.set_tunnel_peer"
	ActionSetQueue              = "IngressPipeImpl.upf.set_queue"

	CounterUpfSessions     = "IngressPipeImpl.upf.session_counter"
	CounterUpfTerminations = "IngressPipeImpl.upf.termination_counter"
	CounterUpfDrops        = "IngressPipeImpl.upf.drops"
	MeterUpfSession        = "IngressPipeImpl.upf.session_meter"
	MeterUpfApp            = "IngressPipeImpl.upf.app_meter"
)

// UpfDrop* are the cells of CounterUpfDrops (UPF_DROP_* in include/defines.p4).
const (
	UpfDropMalformedGTPU = iota
	UpfDropUplinkSessionMiss
	UpfDropDownlinkSessionMiss
	UpfDropSessionDrop
	UpfDropTerminationMiss
	UpfDropTerminationDrop
	UpfDropTunnelPeerMiss
	UpfDropSessionMeter
	UpfDropAppMeter
	UpfDropFirewall
	UpfDropGTPUToUE
	UpfDropReasons
)

// CPUCloneSession is CPU_CLONE_SESSION_ID (include/defines.p4): the clone
// session the controller configures to receive copy_to_cpu copies.
const CPUCloneSession = 99

// DefaultCPUPort is CPU_PORT (include/defines.p4).
const DefaultCPUPort = 255
