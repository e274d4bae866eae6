// SPDX-License-Identifier: Apache-2.0

// Package flowbufprog is the FlowBuf P4 program (pipeconf/p4src/main.p4)
// implemented natively on package pipeline, the way a fixed-function target
// implements the P4 program it advertises. It is bound to a pushed p4info
// by name, so whatever ids p4c assigned work: Bind checks that every table,
// match field, action, parameter and controller header the program needs is
// there with the expected width and match kind, and refuses the p4info with
// an error naming what is missing otherwise.
//
// The control flow mirrors main.p4: packet_out -> straight to its port;
// Steering (vport_ports, then flow_steering for IPv4, matching from_vport so replays are told apart);
// Forwarding (routing_v4 when TTL > 1, then l2_exact) if nothing steered the
// packet; Acl last. Egress drops multicast replicas going back out of their
// ingress port and adds the packet_in header on the CPU port.
//
// One difference from bmv2: an I2E clone (acl copy_to_cpu) carries the frame
// as ingress left it (after routing's MAC/TTL rewrite), not as it arrived.
package flowbufprog
