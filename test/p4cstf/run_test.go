// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The runner's run step on the FlowBuf pipeconf's committed p4c output (no
// p4c needed): names bound by suffix, unicast, multicast, and mismatches.
const (
	flowbufJSON   = "../../pipeconf/p4src/build/bmv2.json"
	flowbufP4Info = "../../pipeconf/p4src/build/p4info.txt"
)

func runSTF(t *testing.T, stf string) result {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x.stf")
	if err := os.WriteFile(p, []byte(stf), 0o644); err != nil {
		t.Fatal(err)
	}
	return runProgram(flowbufJSON, flowbufP4Info, p)
}

// frame: Ethernet to 02:00:00:00:00:bb, from :aa, EtherType 0x88b5, payload.
const frame = "0200000000bb 0200000000aa 88b5 00112233445566778899aabbccddeeff"

func TestRunUnicastAndMulticastPass(t *testing.T) {
	r := runSTF(t, `
add l2_exact eth_dst:0x0200000000bb set_egress_port(port:2)
add l2_exact eth_dst:0x0200000000cc forwarding.set_mcast_group(group_id:7)
mc_mgrp_create 7
mc_node_create 0 3
mc_node_create 1 4
mc_node_associate 7 0
mc_node_associate 7 1
packet 1 `+frame+`
expect 2 0200000000bb 0200000000aa 88b5 ****
packet 1 0200000000cc 0200000000aa 88b5 0011
expect 3 0200000000cc 0200000000aa 88b5 0011 $
expect 4 0200000000cc ** `+"\n")
	if r.Status != statusPass {
		t.Fatalf("%+v", r)
	}
}

func TestRunReportsTheFirstMismatch(t *testing.T) {
	r := runSTF(t, `
add l2_exact eth_dst:0x0200000000bb set_egress_port(port:2)
packet 1 `+frame+`
expect 2 0200000000bb 0200000000ab
`)
	if r.Status != statusFail || !strings.Contains(r.Reason, "port 2 packet 0 differs at byte 11") {
		t.Fatalf("%+v", r)
	}
	// A packet where none is expected: port 1 is named, so it is watched.
	r = runSTF(t, `
add l2_exact eth_dst:0x0200000000bb set_egress_port(port:1)
packet 1 `+frame+`
`)
	if r.Status != statusFail || !strings.Contains(r.Reason, "port 1: expected 0 packets, got 1") {
		t.Fatalf("%+v", r)
	}
}

func TestRunClassifiesSTFProblems(t *testing.T) {
	r := runSTF(t, "packet 1 "+frame+"\nmeter_frobnicate x\n")
	if r.Status != statusUnsupported || !strings.Contains(r.Reason, "meter_frobnicate (line 2)") {
		t.Fatalf("unknown command: %+v", r)
	}
	r = runSTF(t, "add no_such_table k:1 a()\n")
	if r.Status != statusFail || !strings.Contains(r.Reason, "stf line 1: table no_such_table: not found") {
		t.Fatalf("unknown table: %+v", r)
	}
	// simple_switch_CLI refuses a value wider than the field; the run goes
	// on without the entry, with a note.
	r = runSTF(t, "add l2_exact eth_dst:0x10200000000bb set_egress_port(port:2)\npacket 1 "+frame+"\n")
	if r.Status != statusPass || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "does not fit 48 bits") {
		t.Fatalf("refused entry: %+v", r)
	}
}

// An empty packet runs (the parser finds it too short) and the run goes
// on: the frame after it is forwarded as usual.
func TestRunSendsAnEmptyPacket(t *testing.T) {
	r := runSTF(t, `
add l2_exact eth_dst:0x0200000000bb set_egress_port(port:2)
packet 1
packet 1 `+frame+`
expect 2 `+frame+`
`)
	if r.Status != statusPass {
		t.Fatalf("%+v", r)
	}
}
