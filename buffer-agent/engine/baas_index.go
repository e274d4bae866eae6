// SPDX-License-Identifier: Apache-2.0

package engine

import "github.com/kamstrup/intmap"

// pdcpIndex finds the slab slot of a kept PDU by (TEID, SN). A bearer's
// PDUs arrive with consecutive SNs and leave in ranges, so each bearer
// keeps a ring indexed by the SN's low bits: keeping, finding and
// acknowledging a PDU is one array access, and acknowledging a range
// walks consecutive ring positions, instead of hashing every SN into a
// table shared by all bearers (which was half of the service's CPU).
//
// A ring position holds one PDU. When a new PDU's position is taken by
// another SN, the ring doubles while it stays dense (at most ringDensity
// positions per kept PDU, and at most maxRingLen): the PDUs in flight then
// span more SNs than the ring, the usual cause. Otherwise (SNs far apart,
// which only a stuck old PDU or a misbehaving sender makes) the PDU goes
// to a spill table. Memory thus stays proportional to what is kept.
//
// A bearer leaves the index when its last PDU does; its ring is kept on a
// short free list for the next bearer. The index is guarded by the
// buffer's mutex, like the rest of baasState.
type pdcpIndex struct {
	bearers *intmap.Map[uint32, *bearerRing]
	last    *bearerRing // the bearer of the previous call: a batch is mostly one bearer's
	spill   *intmap.Map[uint64, uint32]
	free    []*bearerRing
}

// bearerRing is one bearer's ring: position sn&(len-1) holds the PDU of
// SN sn, as its slab slot + 1 (0: empty).
type bearerRing struct {
	teid uint32
	n    int // PDUs kept in the ring (spilled ones not counted)
	pos  []ringPos
}

type ringPos struct{ sn, slot1 uint32 }

const (
	minRingLen   = 64
	maxRingLen   = PDCPSNSpace
	ringDensity  = 8
	maxFreeRings = 64
)

func newPDCPIndex() pdcpIndex {
	return pdcpIndex{bearers: intmap.New[uint32, *bearerRing](16), spill: intmap.New[uint64, uint32](16)}
}

// bearer returns the ring of teid, nil when it keeps nothing.
func (x *pdcpIndex) bearer(teid uint32) *bearerRing {
	if r := x.last; r != nil && r.teid == teid {
		return r
	}
	r, _ := x.bearers.Get(teid)
	if r != nil {
		x.last = r
	}
	return r
}

// get returns the slot of id.
func (x *pdcpIndex) get(id PDCPID) (uint32, bool) {
	if r := x.bearer(id.TEID); r != nil {
		if p := r.pos[id.SN&uint32(len(r.pos)-1)]; p.slot1 != 0 && p.sn == id.SN {
			return p.slot1 - 1, true
		}
	}
	if x.spill.Len() == 0 {
		return 0, false
	}
	return x.spill.Get(pdcpKey(id))
}

// put files slot under id, which the index does not hold.
func (x *pdcpIndex) put(id PDCPID, slot uint32) {
	r := x.bearer(id.TEID)
	if r == nil {
		r = x.newBearer(id.TEID)
	}
	for {
		p := &r.pos[id.SN&uint32(len(r.pos)-1)]
		if p.slot1 == 0 {
			*p = ringPos{id.SN, slot + 1}
			r.n++
			return
		}
		if len(r.pos) >= maxRingLen || len(r.pos) >= ringDensity*(r.n+1) {
			x.spill.Put(pdcpKey(id), slot)
			return
		}
		r.grow()
	}
}

// del forgets id, which the index holds.
func (x *pdcpIndex) del(id PDCPID) {
	if r := x.bearer(id.TEID); r != nil {
		if p := &r.pos[id.SN&uint32(len(r.pos)-1)]; p.slot1 != 0 && p.sn == id.SN {
			*p = ringPos{}
			if r.n--; r.n == 0 {
				x.dropBearer(r)
			}
			return
		}
	}
	x.spill.Del(pdcpKey(id))
}

// forRange calls fn with the slot of each PDU of the bearer teid whose SN
// is in first..first+n-1 (modulo the SN space) that sits in its ring; fn
// may release them. It visits min(n, ring length) positions. The spilled
// PDUs of the range are spilledIn's.
func (x *pdcpIndex) forRange(teid, first, n uint32, fn func(slot uint32)) {
	if r := x.bearer(teid); r != nil {
		r.forRange(first, n, fn)
	}
}

// spilledIn returns the slots of the spilled PDUs of teid in the range
// (see forRange); idOf names a slot's PDU. Nil when nothing is spilled.
func (x *pdcpIndex) spilledIn(teid, first, n uint32, idOf func(slot uint32) PDCPID) []uint32 {
	if x.spill.Len() == 0 {
		return nil
	}
	var slots []uint32
	if int(n) <= x.spill.Len() {
		for i := uint32(0); i < n; i++ {
			if slot, ok := x.spill.Get(pdcpKey(PDCPID{teid, (first + i) & pdcpSNMask})); ok {
				slots = append(slots, slot)
			}
		}
		return slots
	}
	x.spill.ForEach(func(_ uint64, slot uint32) bool {
		if id := idOf(slot); id.TEID == teid && (id.SN-first)&pdcpSNMask < n {
			slots = append(slots, slot)
		}
		return true
	})
	return slots
}

func (r *bearerRing) forRange(first, n uint32, fn func(slot uint32)) {
	mask := uint32(len(r.pos) - 1)
	if n > uint32(len(r.pos)) {
		// Every position may hold an SN of the range: look at each once.
		for i := range r.pos {
			if p := r.pos[i]; p.slot1 != 0 && (p.sn-first)&pdcpSNMask < n {
				fn(p.slot1 - 1)
			}
		}
		return
	}
	for i := uint32(0); i < n; i++ {
		sn := (first + i) & pdcpSNMask
		if p := r.pos[sn&mask]; p.slot1 != 0 && p.sn == sn {
			fn(p.slot1 - 1)
		}
	}
}

// grow doubles the ring; positions stay distinct (p moves to p or p+len).
func (r *bearerRing) grow() {
	pos := make([]ringPos, 2*len(r.pos))
	mask := uint32(len(pos) - 1)
	for _, p := range r.pos {
		if p.slot1 != 0 {
			pos[p.sn&mask] = p
		}
	}
	r.pos = pos
}

func (x *pdcpIndex) newBearer(teid uint32) *bearerRing {
	var r *bearerRing
	if k := len(x.free); k > 0 {
		r = x.free[k-1]
		x.free = x.free[:k-1]
	} else {
		r = &bearerRing{pos: make([]ringPos, minRingLen)}
	}
	r.teid = teid
	x.bearers.Put(teid, r)
	x.last = r
	return r
}

// dropBearer takes an empty bearer out; a ring of the first size goes on
// the free list (a grown one is left to the collector, so that memory
// follows what is kept).
func (x *pdcpIndex) dropBearer(r *bearerRing) {
	x.bearers.Del(r.teid)
	if x.last == r {
		x.last = nil
	}
	if len(r.pos) == minRingLen && len(x.free) < maxFreeRings {
		x.free = append(x.free, r)
	}
}

// pdcpKey is the spill table's key of id: bearer and SN in one word, mixed
// by murmur3's finalizer (a bijection, so keys stay unique) since the
// table hashes with a multiply that would leave the TEID out of its low
// bits.
func pdcpKey(id PDCPID) uint64 {
	k := uint64(id.TEID)<<32 | uint64(id.SN)
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
