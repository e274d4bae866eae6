// SPDX-License-Identifier: Apache-2.0

package engine

import "sync/atomic"

// vport is one virtual port. The packet path reads mode, rate and the bound
// buffer atomically; control calls change them under Engine.mu.
type vport struct {
	// Hot: read or counted on every batch.
	mode               atomic.Int32
	rateBps            atomic.Uint64
	buf                atomic.Pointer[buffer]
	backend            Backend
	rxPackets, rxBytes atomic.Uint64
	txPackets, txBytes atomic.Uint64

	txErrors  atomic.Uint64
	drops     [numDropCauses]struct{ packets, bytes atomic.Uint64 }
	id, owner string
	cfg       VportConfig // as created, for idempotent create
	e         *Engine
	app       *appUsage
	rx        atomic.Pointer[rxCounter] // with a state directory: frames taken in, persisted
}

func newVport(e *Engine, owner, id string, cfg VportConfig) *vport {
	v := &vport{id: id, owner: owner, cfg: cfg, e: e}
	v.mode.Store(int32(cfg.Mode))
	v.rateBps.Store(cfg.TxRateBps)
	return v
}

// Mode is the vport's current mode.
func (v *vport) Mode() VportMode { return VportMode(v.mode.Load()) }

// Receive implements Ingress: frames the switch sent to this vport.
func (v *vport) Receive(frames [][]byte) {
	if len(frames) == 0 {
		return
	}
	var bytes uint64
	for _, f := range frames {
		bytes += uint64(len(f))
	}
	v.rxPackets.Add(uint64(len(frames)))
	v.rxBytes.Add(bytes)
	if c := v.rx.Load(); c != nil {
		c.consumed.Add(uint64(len(frames)))
	}
	if !v.Mode().RX() {
		v.dropAll(frames, DropTxMode)
		return
	}
	b := v.buf.Load()
	if b == nil || !b.receive(frames) {
		v.dropAll(frames, DropUnbound)
	}
}

func (v *vport) dropAll(frames [][]byte, c DropCause) {
	var bytes uint64
	for _, f := range frames {
		bytes += uint64(len(f))
		PutFrame(f)
	}
	v.drops[c].packets.Add(uint64(len(frames)))
	v.drops[c].bytes.Add(bytes)
}

// transmit hands frames to the backend; sizes are read first because the
// frames belong to the backend once Transmit is called.
func (v *vport) transmit(frames [][]byte) {
	var bytes uint64
	for _, f := range frames {
		bytes += uint64(len(f))
	}
	if err := v.backend.Transmit(frames); err != nil {
		v.txErrors.Add(uint64(len(frames)))
		return
	}
	v.txPackets.Add(uint64(len(frames)))
	v.txBytes.Add(bytes)
}

func (v *vport) info() VportInfo {
	cfg := v.cfg
	cfg.Mode = v.Mode()
	cfg.TxRateBps = v.rateBps.Load()
	var bufID string
	if b := v.buf.Load(); b != nil {
		bufID = b.id
	}
	var drops []DropCounter
	for c := DropOverflow; c < numDropCauses; c++ {
		if p := v.drops[c].packets.Load(); p > 0 {
			drops = append(drops, DropCounter{Cause: c, Packets: p, Bytes: v.drops[c].bytes.Load()})
		}
	}
	return VportInfo{
		ID: v.id, Owner: v.owner, Config: cfg, BufferID: bufID,
		Stats: VportStats{
			RxPackets: v.rxPackets.Load(), RxBytes: v.rxBytes.Load(),
			TxPackets: v.txPackets.Load(), TxBytes: v.txBytes.Load(),
			TxErrors: v.txErrors.Load(),
			Drops:    drops,
		},
	}
}
