// SPDX-License-Identifier: Apache-2.0

// Package pipeline holds the building blocks of a fixed-function P4 target:
// match-action tables (exact, LPM, ternary, range and optional fields, with
// priorities, default actions and direct counters/meters), indexed counters,
// meters (two-rate three-colour), registers, digests, and the packet
// replication engine (multicast groups and clone sessions). The v1model
// engine (package v1model) binds a compiled P4 program to them; package p4rt
// exposes them over P4Runtime.
//
// Values are big-endian byte strings of the field's full width
// ((bits+7)/8 bytes). Errors are gRPC status errors with the code P4Runtime
// prescribes (ALREADY_EXISTS, NOT_FOUND, INVALID_ARGUMENT, ...), so the
// P4Runtime server returns them per update unchanged. Every mutation either
// fully applies or changes nothing.
package pipeline
