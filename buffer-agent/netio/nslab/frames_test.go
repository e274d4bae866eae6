// SPDX-License-Identifier: Apache-2.0

package nslab

import "testing"

func TestFrameRoundTripAndChecksum(t *testing.T) {
	f := Frame(make([]byte, 128), 100, 0x12345, 77)
	if len(f) != 100 || !IsLabFrame(f) || Seq(f) != 0x12345 || SentAt(f) != 77 {
		t.Fatalf("frame fields wrong: len %d seq %x at %d", len(f), Seq(f), SentAt(f))
	}
	if ipChecksum(f[14:34]) != 0 { // a valid header sums to zero
		t.Fatal("IPv4 header checksum is not valid")
	}
}
