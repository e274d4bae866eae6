// SPDX-License-Identifier: Apache-2.0

// Package dataplane runs packets through a pipeline program between ports:
// ingress on the receiving goroutine, then the traffic manager (per-port
// queues with strict priorities and an optional port rate), then egress and
// transmission on one goroutine per port. Ports are Linux interfaces
// (AF_PACKET rings, batched), in-process ports (the far end is a Go
// function, e.g. a buffer of the buffer engine), and the CPU port (the
// P4Runtime stream).
//
// Frame ownership moves with the frame: Receive takes the frames it is
// given, and Sink.Send takes the frames it is given. Nothing is copied on
// the unicast path; multicast replicas and clones are copies. Every frame
// the switch does not deliver is counted by cause (Stats).
package dataplane
