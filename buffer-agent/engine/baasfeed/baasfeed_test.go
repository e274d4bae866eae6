// SPDX-License-Identifier: Apache-2.0

package baasfeed

import (
	"encoding/binary"
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// The first batch only sends (its acks would name SNs not yet a batch
// old); from the second on, each 8 data PDUs are followed by a status for
// the 8 sent a batch earlier, and the SNs run on across batches.
func TestBatchesCarryRunningSNsAndTrailingAcks(t *testing.T) {
	fd := New(0x1000)
	first := fd.Next()
	if len(first) != BatchData {
		t.Fatalf("first batch: %d frames, want %d data PDUs only", len(first), BatchData)
	}
	for i, f := range first {
		if len(f) != FrameBytes || binary.BigEndian.Uint32(f[20:]) != 1<<31|uint32(i) {
			t.Fatalf("frame %d: %d bytes, PDCP word %#x", i, len(f), binary.BigEndian.Uint32(f[20:]))
		}
	}
	engine.PutFrames(first)
	second := fd.Next()
	if len(second) != BatchData+BatchData/AckEvery {
		t.Fatalf("second batch: %d frames, want %d", len(second), BatchData+BatchData/AckEvery)
	}
	data, statuses := 0, 0
	for _, f := range second {
		if len(f) == FrameBytes {
			if sn := binary.BigEndian.Uint32(f[20:]) &^ (1 << 31); sn != uint32(BatchData+data) {
				t.Fatalf("data PDU %d of the second batch has SN %d", data, sn)
			}
			data++
		} else {
			statuses++
		}
	}
	if data != BatchData || statuses != BatchData/AckEvery {
		t.Fatalf("second batch: %d data, %d statuses", data, statuses)
	}
	engine.PutFrames(second)
}
