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
