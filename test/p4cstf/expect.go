// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// portExpect is what the STF expects out of one port: its expect lines'
// packets in order, or any packets at all (an expect with no data, the last
// one written deciding, as bmv2stf.py keeps it).
type portExpect struct {
	any  bool
	pkts []string
}

// MatchPacket compares a frame with an expect pattern as p4c's
// testutils.compare_pkt does: hex digits compared case-insensitively, '*'
// matches any nibble, the frame may be longer than the pattern unless the
// pattern ends with '$'. It returns "" on a match, else why not.
func MatchPacket(pattern string, frame []byte) string {
	strict := strings.HasSuffix(pattern, "$")
	pattern = strings.ToUpper(strings.TrimSuffix(pattern, "$"))
	got := strings.ToUpper(hex.EncodeToString(frame))
	if strict && len(got) > len(pattern) {
		return fmt.Sprintf("too long: %d bytes, expected exactly %d", len(frame), len(pattern)/2)
	}
	if len(got) < len(pattern) {
		return fmt.Sprintf("too short: %d bytes, expected at least %d", len(frame), (len(pattern)+1)/2)
	}
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '*' && pattern[i] != got[i] {
			return fmt.Sprintf("differs at byte %d (nibble %d): expected %c, got %c", i/2, i, pattern[i], got[i])
		}
	}
	return ""
}

// CheckOutputs compares what left each port with the expectations, as
// bmv2stf.py's checkOutputs: on every port the STF names (packet or
// expect), the count must equal the expected count and the packets match in
// order; a port expecting "any" is not checked. It returns "" when all
// match, else the first mismatch (ports in increasing order), naming the
// other ports that differ too.
func CheckOutputs(ports []uint32, expected map[uint32]*portExpect, got map[uint32][][]byte) string {
	sorted := append([]uint32(nil), ports...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	first := ""
	var others []string
	for _, port := range sorted {
		why := checkPort(port, expected[port], got[port])
		switch {
		case why == "":
		case first == "":
			first = why
		default:
			others = append(others, fmt.Sprint(port))
		}
	}
	if len(others) > 0 {
		first += fmt.Sprintf("; port(s) %s differ too", strings.Join(others, ", "))
	}
	return first
}

// checkPort compares one port's packets with its expectation.
func checkPort(port uint32, e *portExpect, frames [][]byte) string {
	if e != nil && e.any {
		return ""
	}
	var want []string
	if e != nil {
		want = e.pkts
	}
	for i := 0; i < len(want) && i < len(frames); i++ {
		if why := MatchPacket(want[i], frames[i]); why != "" {
			return fmt.Sprintf("port %d packet %d %s (got %s)", port, i, why, short(frames[i]))
		}
	}
	switch {
	case len(frames) > len(want):
		return fmt.Sprintf("port %d: expected %d packets, got %d (first extra: %s)", port, len(want), len(frames), short(frames[len(want)]))
	case len(frames) < len(want):
		return fmt.Sprintf("port %d: expected %d packets, got %d (first missing: %s)", port, len(want), len(frames), shortPattern(want[len(frames)]))
	}
	return ""
}

// short renders a frame's first bytes for a one-line reason.
func short(f []byte) string {
	const n = 40
	if len(f) <= n {
		return hex.EncodeToString(f)
	}
	return hex.EncodeToString(f[:n]) + fmt.Sprintf("...(%d bytes)", len(f))
}

func shortPattern(p string) string {
	if len(p) <= 80 {
		return p
	}
	return p[:80] + "..."
}
