// SPDX-License-Identifier: Apache-2.0

package main

import (
	"strings"
	"testing"
)

func TestMatchPacketWildcardsAndLength(t *testing.T) {
	frame := []byte{0xde, 0xad, 0xbe, 0xef, 0x01}
	for _, c := range []struct {
		pattern string
		match   bool
	}{
		{"DEADBEEF01", true},
		{"deadbeef01", true},        // case-insensitive
		{"DEADBEEF", true},          // a longer frame matches a prefix
		{"DEADBEEF01$", true},       // exact length
		{"DEADBEEF$", false},        // '$': no byte more
		{"D*AD****01", true},        // '*' is any nibble
		{"DEADBEEF0100", false},     // frame too short
		{"DEADBEEF02", false},       // a differing nibble
		{"****************", false}, // wildcards still need the bytes
	} {
		why := MatchPacket(c.pattern, frame)
		if (why == "") != c.match {
			t.Errorf("%s: match %v (%s), want %v", c.pattern, why == "", why, c.match)
		}
	}
}

func TestCheckOutputsPerPortInOrder(t *testing.T) {
	a, b := []byte{0xaa}, []byte{0xbb}
	expected := map[uint32]*portExpect{1: {pkts: []string{"AA", "BB"}}, 2: {any: true}}
	ports := []uint32{2, 1, 3}
	ok := map[uint32][][]byte{1: {a, b}, 2: {a, a, a}}
	if why := CheckOutputs(ports, expected, ok); why != "" {
		t.Fatalf("matching outputs: %s", why)
	}
	for name, c := range map[string]struct {
		got  map[uint32][][]byte
		want string
	}{
		"reordered":       {map[uint32][][]byte{1: {b, a}}, "port 1 packet 0 differs"},
		"missing":         {map[uint32][][]byte{1: {a}}, "port 1: expected 2 packets, got 1"},
		"extra":           {map[uint32][][]byte{1: {a, b, b}}, "port 1: expected 2 packets, got 3"},
		"unexpected port": {map[uint32][][]byte{1: {a, b}, 3: {a}}, "port 3: expected 0 packets, got 1"},
	} {
		why := CheckOutputs(ports, expected, c.got)
		if !strings.Contains(why, c.want) {
			t.Errorf("%s: %q, want %q", name, why, c.want)
		}
	}
}

func TestCheckOutputsNamesTheOtherPortsThatDiffer(t *testing.T) {
	expected := map[uint32]*portExpect{1: {pkts: []string{"AA"}}, 2: {pkts: []string{"BB"}}, 3: {pkts: []string{"CC"}}}
	why := CheckOutputs([]uint32{3, 2, 1}, expected, map[uint32][][]byte{2: {{0xbb}}})
	want := "port 1: expected 1 packets, got 0 (first missing: AA); port(s) 3 differ too"
	if why != want {
		t.Fatalf("%q, want %q", why, want)
	}
}
