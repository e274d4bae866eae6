// SPDX-License-Identifier: Apache-2.0

// Package v1model is pbswitch's P4 engine: it executes the bmv2 JSON that
// p4c-bm2-ss emits for a v1model program, bound by name to the p4info the
// controller pushed with it. BMv2 (simple_switch) is the semantics it
// matches.
//
// Load compiles the JSON once: every header field gets a slot in a flat
// per-packet array (one uint64 per 64 bits of width), every expression,
// parser operation and action primitive becomes a Go closure over resolved
// slot indexes, and every table is bound to its package pipeline object. A
// packet's run then does no name or map lookup, no reflection, and
// allocates nothing for fields up to 64 bits (wider arithmetic, such as on
// IPv6 addresses, goes through math/big).
//
// A construct the engine does not implement is refused at Load with an
// *UnsupportedError naming it and its P4 source line; nothing runs on a
// guess.
//
// The packet's state (its PHV) travels with it from ingress, through the
// traffic manager, to egress in pipeline.Packet.State, as on BMv2: headers
// and metadata set in ingress are what egress sees, and the frame is only
// rewritten when egress deparses it.
package v1model
