// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// A merged run of constant writes leaves the header exactly as the writes
// one by one would, overlaps and bits around the fields included.
func TestConstRunIsTheWritesInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 2000; trial++ {
		hdr := make([]byte, 24)
		for i := range hdr {
			hdr[i] = byte(r.Uint32())
		}
		var ws []constWrite
		for n := 2 + r.IntN(6); n > 0; n-- {
			w := 1 + r.IntN(64)
			bit := r.IntN(len(hdr)*8 - w + 1)
			ws = append(ws, constWrite{bit: bit, width: w, v: r.Uint64() & mask64(w)})
		}
		want := bytes.Clone(hdr)
		for _, w := range ws {
			writeBits(want, w.bit, w.width, w.v)
		}
		s := &phv{hdr: hdr}
		constRun(ws)(s)
		if !bytes.Equal(s.hdr, want) {
			t.Fatalf("writes %+v: got %x, want %x", ws, s.hdr, want)
		}
	}
}

// The readers and writers compiled for a header field agree with
// readBits/writeBits wherever the field sits.
func TestFieldAccessorsAgreeWithBitFunctions(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for w := 1; w <= 64; w++ {
		for bit := 0; bit < 16; bit++ {
			lv := &lvalue{width: w, words: 1, slot: -1, bit: bit, hdr: 0}
			get, set := lv.getU(), lv.setU()
			hdr := make([]byte, 12)
			for i := range hdr {
				hdr[i] = byte(r.Uint32())
			}
			want := bytes.Clone(hdr)
			v := r.Uint64()
			writeBits(want, bit, w, v)
			s := &phv{hdr: hdr}
			set(s, v)
			if !bytes.Equal(s.hdr, want) {
				t.Fatalf("set %d bits at %d: got %x, want %x", w, bit, s.hdr, want)
			}
			if got := get(s); got != readBits(want, bit, w) || got != v&mask64(w) {
				t.Fatalf("get %d bits at %d: got %x, want %x", w, bit, got, v&mask64(w))
			}
		}
	}
}

// The fused writers (an action parameter or a metadata field into a
// metadata or whole-byte header field) store what the generic set(get())
// stores: the source cut to the destination's width.
func TestFusedWritersAgreeWithTheGenericWrite(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	srcSlot := &lvalue{width: 64, words: 1, slot: 1, bit: -1}
	sources := map[string]val{
		"param": paramValue(paramInfo{word: 2, width: 64}),
		"slot":  fieldVal(srcSlot),
	}
	var dests []*lvalue
	for _, w := range []int{1, 7, 8, 16, 32, 48, 64} {
		dests = append(dests, &lvalue{width: w, words: 1, slot: 0, bit: -1})
	}
	for _, w := range []int{8, 16, 32, 48} {
		dests = append(dests, &lvalue{width: w, words: 1, slot: -1, bit: 16})
	}
	for name, src := range sources {
		for _, lv := range dests {
			fused := writer(lv, src)
			set, get := lv.setU(), src.u
			for trial := 0; trial < 50; trial++ {
				a := &phv{slots: make([]uint64, 2), hdr: make([]byte, 12), params: make([]uint64, 3)}
				for i := range a.hdr {
					a.hdr[i] = byte(r.Uint32())
				}
				a.slots[0], a.slots[1], a.params[2] = r.Uint64(), r.Uint64(), r.Uint64()
				b := &phv{slots: append([]uint64(nil), a.slots...), hdr: bytes.Clone(a.hdr), params: append([]uint64(nil), a.params...)}
				fused(a)
				set(b, get(b))
				if !bytes.Equal(a.hdr, b.hdr) || a.slots[0] != b.slots[0] {
					t.Fatalf("%s into %+v: fused %x %x, generic %x %x", name, *lv, a.slots, a.hdr, b.slots, b.hdr)
				}
			}
		}
	}
}
