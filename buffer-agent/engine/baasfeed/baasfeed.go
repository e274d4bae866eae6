// SPDX-License-Identifier: Apache-2.0

// Package baasfeed builds the traffic a gNodeB cell's buffer-as-a-service
// (PDCP ARQ) buffer takes, for the engine's benchmark and bench-agent:
// 128-byte data clones with running sequence numbers, in batches of 56,
// and per 8 of them a status acknowledging as one range the 8 sent a
// batch earlier (across the SN wrap too).
package baasfeed

import (
	"encoding/binary"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

const (
	// FrameBytes is the size of a data clone.
	FrameBytes = 128
	// AckEvery is how many data PDUs one status acknowledges.
	AckEvery = 8
	// BatchData is the data PDUs of a batch (+ 7 statuses = 63 frames).
	BatchData = 56
)

// Feeder builds one cell's batches from the engine's frame pool.
type Feeder struct {
	teid  uint32
	sent  uint64 // data PDUs so far; the SN is this modulo the SN space
	data  []byte
	batch [][]byte
}

// New returns the feeder of the bearer teid.
func New(teid uint32) *Feeder {
	return &Feeder{teid: teid, data: engine.PDCPDataFrame(teid, 0, make([]byte, FrameBytes-24)),
		batch: make([][]byte, 0, BatchData+BatchData/AckEvery)}
}

// Next returns the next batch (its frames are the pool's: the engine
// takes them). The slice is reused by the next call.
func (fd *Feeder) Next() [][]byte {
	fd.batch = fd.batch[:cap(fd.batch)]
	engine.GetFrames(fd.batch, FrameBytes) // the statuses are shorter: cut below
	k := 0
	for i := 0; i < BatchData; i++ {
		f := fd.batch[k]
		copy(f, fd.data)
		binary.BigEndian.PutUint32(f[20:], 1<<31|uint32(fd.sent%engine.PDCPSNSpace)) // PDCP word: D/C = data, SN
		k++
		fd.sent++
		if fd.sent%AckEvery == 0 && fd.sent >= BatchData+AckEvery {
			// Acknowledge the group sent one batch earlier.
			first := uint32((fd.sent - BatchData - AckEvery) % engine.PDCPSNSpace)
			st := engine.PDCPStatusFrame(engine.PDCPStatus{TEID: fd.teid, First: first, Last: first + AckEvery - 1})
			fd.batch[k] = fd.batch[k][:copy(fd.batch[k], st)]
			k++
		}
	}
	engine.PutFrames(fd.batch[k:]) // the first batches, whose statuses have not begun
	fd.batch = fd.batch[:k]
	return fd.batch
}
