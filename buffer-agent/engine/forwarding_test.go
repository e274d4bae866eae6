// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// TestResumeKeepsOrderAcrossCutThrough resumes a held backlog while new
// frames keep arriving: whether a batch is queued behind the backlog or
// passes straight through, the output is the input order.
func TestResumeKeepsOrderAcrossCutThrough(t *testing.T) {
	for _, noCut := range []bool{false, true} {
		fx := newFixture(t, engine.Options{NoCutThrough: noCut})
		fx.mustBuffer(t, "b", engine.BufferConfig{CapacityPackets: 10000})
		in := fx.mustVport(t, "in", engine.ModeRX)
		out := fx.mustVport(t, "out", engine.ModeNone)
		fx.mustBind(t, "b", "in")
		fx.mustBind(t, "b", "out")
		in.in.Receive(seqFrames(0, 500))
		fx.mustMode(t, "out", engine.ModeTX) // FORWARDING, backlog of 500
		for s := uint32(500); s < 5000; s += 7 {
			in.in.Receive(seqFrames(s, min(7, 5000-s)))
		}
		got := seqs(out.waitSent(t, 5000))
		for i, s := range got {
			if s != uint32(i) {
				t.Fatalf("noCutThrough=%v: position %d carries %d", noCut, i, s)
			}
		}
		st := fx.query(t, "b").Stats
		if st.PacketsIn != 5000 || st.PacketsOut != 5000 || st.OccupancyPackets != 0 || fx.e.PoolUsedBytes() != 0 {
			t.Fatalf("noCutThrough=%v: stats %+v pool %d", noCut, st, fx.e.PoolUsedBytes())
		}
	}
}
