// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"reflect"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

const (
	actSession = 1 // (ctr_idx 16, meter_idx 16, peer 16), like set_downlink_session
	actDrop    = 2 // (ctr_idx 16)
	actSessMis = 3 // default only
)

var sessionActions = map[uint32]ActionSpec{
	actSession: {ParamBits: []int{16, 16, 16}},
	actDrop:    {ParamBits: []int{16}},
	actSessMis: {DefaultOnly: true},
}

// sessionTable is a downlink-session-like table: a 32-bit exact key.
func sessionTable(size int, slab bool) *Table {
	tb := NewTable(20, "sessions", []KeyField{{ID: 1, Name: "ue", Bits: 32, Kind: Exact}}, size, sessionActions, Action{ID: actSessMis}, true)
	if slab && !tb.UseSlab(true) {
		panic("sessions table refused a slab")
	}
	return tb
}

func ue(i uint32) []FieldMatch {
	v := make([]byte, 4)
	binary.BigEndian.PutUint32(v, i)
	return []FieldMatch{{Value: v}}
}

func session(i uint32, ctr, peer uint64) *Entry {
	p := func(x uint64) []byte { b := make([]byte, 2); PutUint(b, x); return b }
	return &Entry{Match: ue(i), Action: Action{ID: actSession, Params: [][]byte{p(ctr), p(0), p(peer)}}, Cookie: uint64(i) * 3}
}

func hitWords(t *testing.T, tb *Table, key uint32) (Hit, []uint64) {
	t.Helper()
	var h Hit
	words := make([]uint64, 8)
	k := make([]byte, 4)
	binary.BigEndian.PutUint32(k, key)
	tb.LookupHit(k, &h, words)
	return h, h.Words
}

func TestSlabRoundTrip(t *testing.T) {
	tb := sessionTable(16, true)
	if !tb.UsesSlab() {
		t.Fatal("not a slab")
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tb.Insert(session(7, 70, 3)))
	h, w := hitWords(t, tb, 7)
	if !h.Matched || h.Entry != nil || h.Action.ID != actSession || !reflect.DeepEqual(w, []uint64{70, 0, 3}) || h.Counter == nil {
		t.Fatalf("hit %+v words %v", h, w)
	}
	h.Counter.Count(100)
	got := tb.Find(&Entry{Match: ue(7)})
	want := session(7, 70, 3)
	if got == nil || !reflect.DeepEqual(got.Action, want.Action) || got.Cookie != 21 {
		t.Fatalf("read %+v, want %+v", got, want)
	}
	if p, b := got.Counter.Read(); p != 1 || b != 100 {
		t.Fatalf("counter %d/%d, want 1/100", p, b)
	}
	// Modify keeps the counter, replaces action and cookie.
	m := &Entry{Match: ue(7), Action: Action{ID: actDrop, Params: [][]byte{{0, 9}}}, Cookie: 0}
	must(tb.Modify(m))
	got = tb.Find(&Entry{Match: ue(7)})
	if !reflect.DeepEqual(got.Action, m.Action) || got.Cookie != 0 {
		t.Fatalf("after modify %+v", got)
	}
	if p, _ := got.Counter.Read(); p != 1 {
		t.Fatalf("modify reset the counter: %d", p)
	}
	if h, w := hitWords(t, tb, 7); h.Action.ID != actDrop || !reflect.DeepEqual(w, []uint64{9}) {
		t.Fatalf("hit after modify %+v %v", h, w)
	}
	must(tb.SetCounter(&Entry{Match: ue(7)}, 5, 6))
	if p, b := tb.Find(&Entry{Match: ue(7)}).Counter.Read(); p != 5 || b != 6 {
		t.Fatalf("counter write: %d/%d", p, b)
	}
	mt, err := NewMeter(MeterConfig{CIR: 10, CBurst: 10, PIR: 20, PBurst: 20})
	must(err)
	must(tb.SetMeter(&Entry{Match: ue(7)}, mt))
	if h, _ := hitWords(t, tb, 7); h.Meter != mt {
		t.Fatal("the direct meter is not the hit's")
	}
	if tb.Find(&Entry{Match: ue(7)}).Meter != mt {
		t.Fatal("the direct meter does not read back")
	}
	wantCode(t, tb.Insert(session(7, 1, 1)), codes.AlreadyExists)
	wantCode(t, tb.Modify(session(8, 1, 1)), codes.NotFound)
	wantCode(t, tb.Delete(&Entry{Match: ue(8)}), codes.NotFound)
	wantCode(t, tb.SetCounter(&Entry{Match: ue(8)}, 1, 1), codes.NotFound)
	wantCode(t, tb.SetMeter(&Entry{Match: ue(8)}, nil), codes.NotFound)
	must(tb.Delete(&Entry{Match: ue(7)}))
	if h, _ := hitWords(t, tb, 7); h.Matched || h.Action.ID != actSessMis {
		t.Fatalf("deleted entry still hits: %+v", h)
	}
	// Deleted then inserted again: a fresh entry, counter and meter gone.
	must(tb.Insert(session(7, 71, 4)))
	got = tb.Find(&Entry{Match: ue(7)})
	if p, _ := got.Counter.Read(); p != 0 || got.Meter != nil || got.Cookie != 21 {
		t.Fatalf("reinserted entry keeps old state: %+v", got)
	}
}

func TestSlabRefusesBadWritesUnchanged(t *testing.T) {
	tb := sessionTable(4, true)
	if err := tb.Insert(session(1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, tb.Insert(&Entry{Match: ue(2), Action: Action{ID: actSessMis}}), codes.InvalidArgument)
	wantCode(t, tb.Insert(&Entry{Match: ue(2), Action: Action{ID: actDrop, Params: [][]byte{{1}}}}), codes.InvalidArgument)
	wantCode(t, tb.Insert(&Entry{Match: []FieldMatch{{Value: []byte{1, 2}}}, Action: Action{ID: actDrop, Params: [][]byte{{0, 1}}}}), codes.InvalidArgument)
	wantCode(t, tb.Modify(&Entry{Match: ue(1), Action: Action{ID: 99}}), codes.InvalidArgument)
	if tb.Len() != 1 || !reflect.DeepEqual(tb.Find(&Entry{Match: ue(1)}).Action, session(1, 1, 1).Action) {
		t.Fatal("a refused write changed the table")
	}
}

func TestSlabFullTable(t *testing.T) {
	tb := sessionTable(100, true)
	for i := uint32(0); i < 100; i++ {
		if err := tb.Insert(session(i, uint64(i), 1)); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, tb.Insert(session(100, 1, 1)), codes.ResourceExhausted)
	if err := tb.Delete(&Entry{Match: ue(50)}); err != nil {
		t.Fatal(err)
	}
	if err := tb.Insert(session(100, 1, 1)); err != nil {
		t.Fatalf("a freed slot is not reused: %v", err)
	}
	wantCode(t, tb.Insert(session(101, 1, 1)), codes.ResourceExhausted)
}

// TestSlabCollisions puts every key in one probe chain (a constant hash),
// then deletes from its middle: backward-shift deletion must keep every
// other key reachable.
func TestSlabCollisions(t *testing.T) {
	for _, hash := range map[string]func([]byte) uint64{
		"one chain":  func([]byte) uint64 { return 5 },
		"two chains": func(k []byte) uint64 { return uint64(k[3] & 1) },
	} {
		tb := sessionTable(1000, true)
		tb.slab.hashKey = hash
		const n = 300
		for i := uint32(0); i < n; i++ {
			if err := tb.Insert(session(i, uint64(i), 0)); err != nil {
				t.Fatal(err)
			}
		}
		rng := rand.New(rand.NewSource(1))
		live := map[uint32]bool{}
		for i := uint32(0); i < n; i++ {
			live[i] = true
		}
		for _, i := range rng.Perm(n)[:n/2] {
			if err := tb.Delete(&Entry{Match: ue(uint32(i))}); err != nil {
				t.Fatal(err)
			}
			delete(live, uint32(i))
		}
		for i := uint32(0); i < n; i++ {
			h, w := hitWords(t, tb, i)
			if h.Matched != live[i] || (live[i] && w[0] != uint64(i)) {
				t.Fatalf("key %d: matched %v words %v, live %v", i, h.Matched, w, live[i])
			}
		}
	}
}

// TestSlabAgainstGeneric runs the same random writes on a slab table and
// on the generic store (the reference) and compares every status, lookup
// and read.
func TestSlabAgainstGeneric(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		slabVsGeneric(t, seed, 2000, 64)
	}
}

func slabVsGeneric(t *testing.T, seed int64, ops, keys int) {
	t.Helper()
	ref, got := sessionTable(keys/2, false), sessionTable(keys/2, true)
	for _, tb := range []*Table{ref, got} {
		tb.SetBinder(func(a Action) any { return a.ID })
	}
	rng := rand.New(rand.NewSource(seed))
	words, plainWords := make([]uint64, 8), make([]uint64, 8)
	var slabBytes [SlabParamBytes]byte
	for op := 0; op < ops; op++ {
		k := uint32(rng.Intn(keys))
		var e func() *Entry
		switch rng.Intn(3) {
		case 0:
			e = func() *Entry { return session(k, uint64(op), uint64(op%7)) }
		case 1:
			e = func() *Entry {
				return &Entry{Match: ue(k), Action: Action{ID: actDrop, Params: [][]byte{{byte(op), 1}}}}
			}
		default:
			e = func() *Entry { return &Entry{Match: ue(k), Action: Action{ID: actSessMis}} }
		}
		var errRef, errGot error
		switch rng.Intn(3) {
		case 0:
			errRef, errGot = ref.Insert(e()), got.Insert(e())
		case 1:
			errRef, errGot = ref.Modify(e()), got.Modify(e())
		default:
			errRef, errGot = ref.Delete(e()), got.Delete(e())
		}
		if status.Code(errRef) != status.Code(errGot) {
			t.Fatalf("seed %d op %d: generic %v, slab %v", seed, op, errRef, errGot)
		}
		var hr, hg Hit
		key := ue(k)[0].Value
		ref.LookupHit(key, &hr, nil)
		got.LookupHit(key, &hg, words)
		// LookupPlain answers as LookupHit on both stores.
		for i, tb := range []*Table{ref, got} {
			h := []Hit{hr, hg}[i]
			b, w, m := tb.LookupPlain(key, plainWords)
			if b != h.Bound || m != h.Matched || !slices.Equal(w, h.Words) || (w == nil) != (h.Words == nil) {
				t.Fatalf("seed %d op %d: LookupPlain %v %v %v, LookupHit %+v", seed, op, b, w, m, h)
			}
		}
		if hr.Matched != hg.Matched || hr.Action.ID != hg.Action.ID {
			t.Fatalf("seed %d op %d: lookup generic %+v, slab %+v", seed, op, hr, hg)
		}
		// LookupSlab too, its parameter bytes those LookupHit decodes.
		if _, _, ok := ref.LookupSlab(key, &slabBytes); ok {
			t.Fatalf("seed %d op %d: LookupSlab answered for the generic store", seed, op)
		}
		if b, m, ok := got.LookupSlab(key, &slabBytes); ok != (got.Len() != 0) || (ok && (b != hg.Bound || m != hg.Matched)) {
			t.Fatalf("seed %d op %d: LookupSlab %v %v %v, LookupHit %+v", seed, op, b, m, ok, hg)
		} else if ok && m && !slices.Equal(packedWords(slabBytes[:], sessionActions[hg.Action.ID].ParamBits), hg.Words) {
			t.Fatalf("seed %d op %d: LookupSlab's bytes %x, LookupHit's words %v", seed, op, slabBytes, hg.Words)
		}
		for i, p := range hr.Action.Params {
			if Uint(p) != hg.Words[i] {
				t.Fatalf("seed %d op %d: parameter %d generic %x, slab %d", seed, op, i, p, hg.Words[i])
			}
		}
	}
	re, ge := ref.Entries(), got.Entries()
	if len(re) != len(ge) {
		t.Fatalf("seed %d: %d entries, slab %d", seed, len(re), len(ge))
	}
	for i := range re {
		if !bytes.Equal(re[i].Match[0].Value, ge[i].Match[0].Value) || !reflect.DeepEqual(re[i].Action, ge[i].Action) || re[i].Cookie != ge[i].Cookie {
			t.Fatalf("seed %d entry %d: generic %+v, slab %+v", seed, i, re[i], ge[i])
		}
	}
}

// packedWords decodes parameters packed at their byte widths.
func packedWords(b []byte, bits []int) []uint64 {
	var w []uint64
	for _, n := range bits {
		w = append(w, Uint(b[:Width(n)]))
		b = b[Width(n):]
	}
	return w
}

// FuzzSlabAgainstGeneric is TestSlabAgainstGeneric from fuzzed seeds and
// sizes.
func FuzzSlabAgainstGeneric(f *testing.F) {
	f.Add(int64(7), uint16(500), uint8(16))
	f.Add(int64(42), uint16(3000), uint8(200))
	f.Fuzz(func(t *testing.T, seed int64, ops uint16, keys uint8) {
		slabVsGeneric(t, seed, int(ops), int(keys)+2)
	})
}

func TestSlabEligibility(t *testing.T) {
	if ternaryTable().UseSlab(false) {
		t.Fatal("a ternary table took a slab")
	}
	wide := NewTable(21, "wide", []KeyField{{ID: 1, Name: "k", Bits: 8, Kind: Exact}}, 4,
		map[uint32]ActionSpec{1: {ParamBits: []int{128}}}, Action{}, false)
	if wide.UseSlab(false) {
		t.Fatal("a table with a 128-bit parameter took a slab")
	}
	// UseGeneric moves entries out with their state.
	tb := sessionTable(8, true)
	if err := tb.Insert(session(3, 30, 2)); err != nil {
		t.Fatal(err)
	}
	tb.UseGeneric()
	if tb.UsesSlab() {
		t.Fatal("still a slab")
	}
	if e := tb.Find(&Entry{Match: ue(3)}); e == nil || e.Cookie != 9 || !reflect.DeepEqual(e.Action, session(3, 30, 2).Action) {
		t.Fatalf("after UseGeneric: %+v", e)
	}
}

// A slab hit's words are copied under the lock: a Modify at the same time
// never gives a packet one action's ID with another's parameters.
func TestSlabHitDuringModifies(t *testing.T) {
	tb := sessionTable(4, true)
	tb.SetBinder(func(a Action) any { return a.ID })
	if err := tb.Insert(session(7, 1, 1)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := uint64(0); i < 3000; i++ {
			e := session(7, i%500, i%500) // ctr_idx == peer
			if i%3 == 0 {
				e.Action = Action{ID: actDrop, Params: [][]byte{{0, 0xaa}}}
			}
			if err := tb.Modify(e); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for {
		select {
		case <-done:
			return
		default:
		}
		h, w := hitWords(t, tb, 7)
		if id, _ := h.Bound.(uint32); id != h.Action.ID {
			t.Fatalf("bound %v for action %d", h.Bound, h.Action.ID)
		}
		switch h.Action.ID {
		case actSession:
			if len(w) != 3 || w[0] != w[2] || w[1] != 0 {
				t.Fatalf("torn session words %v", w)
			}
		case actDrop:
			if len(w) != 1 || w[0] != 0xaa {
				t.Fatalf("torn drop words %v", w)
			}
		default:
			t.Fatalf("a miss while the entry is there: %+v", h)
		}
	}
}

// LookupSlab copies a hit's parameter bytes under the lock: a Modify at
// the same time never gives a packet one action with another's bytes, or
// half of one write's bytes and half of another's.
func TestLookupSlabDuringModifies(t *testing.T) {
	tb := sessionTable(4, true)
	tb.SetBinder(func(a Action) any { return a.ID })
	if err := tb.Insert(session(7, 0x101, 0x101)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := uint64(0); i < 3000; i++ {
			v := 0x101 * (i % 200) // both bytes equal
			e := session(7, v, v)  // ctr_idx == peer
			if i%3 == 0 {
				e.Action = Action{ID: actDrop, Params: [][]byte{{0xaa, 0xaa}}}
			}
			if err := tb.Modify(e); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	key := ue(7)[0].Value
	var b [SlabParamBytes]byte
	for {
		select {
		case <-done:
			return
		default:
		}
		bound, matched, ok := tb.LookupSlab(key, &b)
		if !ok || !matched {
			t.Fatalf("LookupSlab %v %v while the entry is there", matched, ok)
		}
		switch bound {
		case uint32(actSession):
			if b[0] != b[1] || b[0] != b[4] || b[4] != b[5] || b[2] != 0 || b[3] != 0 {
				t.Fatalf("torn session bytes %x", b[:6])
			}
		case uint32(actDrop):
			if b[0] != 0xaa || b[1] != 0xaa {
				t.Fatalf("torn drop bytes %x", b[:2])
			}
		default:
			t.Fatalf("bound %v", bound)
		}
	}
}

// A hit decodes every parameter width (1 to 64 bits, odd byte counts
// included) to the value written, for entries all through a chunk, its
// last record (whose 8-byte loads run into the chunk's slack) and the
// next chunk's first.
func TestSlabDecodesEveryWidth(t *testing.T) {
	bits := []int{1, 9, 24, 48, 64, 40, 56, 8, 0, 17}
	tb := NewTable(21, "widths", []KeyField{{ID: 1, Name: "k", Bits: 32, Kind: Exact}}, 2*slabChunk,
		map[uint32]ActionSpec{1: {ParamBits: bits}, 2: {ParamBits: []int{7}}}, Action{ID: 2, Params: [][]byte{{0}}}, false)
	if !tb.UseSlab(true) {
		t.Fatal("the table refused a slab")
	}
	r := rand.New(rand.NewSource(5))
	want := map[uint32][]uint64{}
	for k := uint32(0); k < slabChunk+2; k++ {
		var params [][]byte
		var vals []uint64
		for _, b := range bits {
			v := r.Uint64() & (1<<b - 1)
			if b == 64 {
				v = r.Uint64() | 1<<63
			}
			p := make([]byte, Width(b))
			PutUint(p, v)
			params, vals = append(params, p), append(vals, v)
		}
		if err := tb.Insert(&Entry{Match: ue(k), Action: Action{ID: 1, Params: params}}); err != nil {
			t.Fatal(err)
		}
		want[k] = vals
	}
	words := make([]uint64, len(bits))
	for _, k := range []uint32{0, 1, slabChunk / 2, slabChunk - 2, slabChunk - 1, slabChunk, slabChunk + 1} {
		_, got, matched := tb.LookupPlain(ue(k)[0].Value, words)
		if !matched || !slices.Equal(got, want[k]) {
			t.Fatalf("key %d: %x, want %x", k, got, want[k])
		}
	}
}

// A slab hashes and compares keys of at most 8 bytes as one word: for
// every key width from 1 to 10 bytes (one field, and two fields), keys
// that differ in a single byte (first, middle or last) are told apart, and
// every lookup, present or not, answers as the generic store does after
// random inserts and deletes.
func TestSlabShortKeysOfEveryWidth(t *testing.T) {
	acts := map[uint32]ActionSpec{1: {ParamBits: []int{32}}, 2: {DefaultOnly: true}}
	for width := 1; width <= 10; width++ {
		for _, fields := range [][]KeyField{
			{{ID: 1, Name: "k", Bits: 8 * width, Kind: Exact}},
			{{ID: 1, Name: "a", Bits: 8 * ((width + 1) / 2), Kind: Exact}, {ID: 2, Name: "b", Bits: 8 * (width / 2), Kind: Exact}},
		} {
			if fields[len(fields)-1].Bits == 0 {
				fields = fields[:1]
			}
			ref := NewTable(30, "short", fields, 400, acts, Action{ID: 2}, true)
			got := NewTable(30, "short", fields, 400, acts, Action{ID: 2}, true)
			if !got.UseSlab(false) {
				t.Fatal("the table refused a slab")
			}
			split := func(k []byte) []FieldMatch {
				var m []FieldMatch
				for i := range fields {
					o := ref.FieldOffset(i)
					m = append(m, FieldMatch{Value: slices.Clone(k[o : o+Width(fields[i].Bits)])})
				}
				return m
			}
			rng := rand.New(rand.NewSource(int64(width)))
			var keys [][]byte
			for len(keys) < 150 {
				k := make([]byte, width)
				rng.Read(k)
				keys = append(keys, k)
				// Its neighbours: one byte changed at the start, middle, end.
				for _, at := range []int{0, width / 2, width - 1} {
					n := slices.Clone(k)
					n[at] ^= byte(1 + rng.Intn(255))
					keys = append(keys, n)
				}
			}
			for i, k := range keys {
				e := func() *Entry {
					return &Entry{Match: split(k), Action: Action{ID: 1, Params: [][]byte{binary.BigEndian.AppendUint32(nil, uint32(i))}}}
				}
				if rng.Intn(3) == 0 {
					continue // never inserted: must miss
				}
				errRef, errGot := ref.Insert(e()), got.Insert(e())
				if status.Code(errRef) != status.Code(errGot) {
					t.Fatalf("width %d key %x: generic %v, slab %v", width, k, errRef, errGot)
				}
				if rng.Intn(4) == 0 {
					if err := got.Delete(e()); err != nil {
						t.Fatal(err)
					}
					if err := ref.Delete(e()); err != nil {
						t.Fatal(err)
					}
				}
			}
			words := make([]uint64, 1)
			for _, k := range keys {
				var hr Hit
				ref.LookupHit(k, &hr, nil)
				_, w, m := got.LookupPlain(k, words)
				if m != hr.Matched || (m && w[0] != Uint(hr.Action.Params[0])) {
					t.Fatalf("width %d (%d fields) key %x: slab matched %v %v, generic %v %x", width, len(fields), k, m, w, hr.Matched, hr.Action.Params)
				}
			}
		}
	}
}

// LookupSlab's fixed-size move of a hit's parameter bytes stays in the
// chunk for its last record (it reads into the chunk's slack) and gives
// every record's own bytes, through two chunks.
func TestLookupSlabAtChunkEnds(t *testing.T) {
	tb := sessionTable(2*slabChunk, true)
	tb.SetBinder(func(a Action) any { return a.ID })
	for k := uint32(0); k < slabChunk+2; k++ {
		if err := tb.Insert(session(k, uint64(k), uint64(k)^0xffff)); err != nil {
			t.Fatal(err)
		}
	}
	var b [SlabParamBytes]byte
	for _, k := range []uint32{0, 1, slabChunk - 2, slabChunk - 1, slabChunk, slabChunk + 1} {
		bound, matched, ok := tb.LookupSlab(ue(k)[0].Value, &b)
		want := []uint64{uint64(k), 0, uint64(k) ^ 0xffff}
		if !ok || !matched || bound != uint32(actSession) || !slices.Equal(packedWords(b[:6], []int{16, 16, 16}), want) {
			t.Fatalf("key %d: %v %v %v %x, want %v", k, bound, matched, ok, b[:6], want)
		}
	}
}
