// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"encoding/binary"
	"math/big"
	"testing"
)

// exprsPacket is testdata/exprs.p4's ops header (39 bytes) and a zeroed
// res header (40 bytes).
func exprsPacket(a, b byte, sa, sb int8, w uint16, n byte, big1, big2 *big.Int) []byte {
	f := make([]byte, 39+40)
	f[0], f[1], f[2], f[3] = a, b, byte(sa), byte(sb)
	binary.BigEndian.PutUint16(f[4:], w)
	f[6] = n << 4
	big1.FillBytes(f[7:23])
	big2.FillBytes(f[23:39])
	return f
}

// The expected values follow P4's rules (bit<W> wraps, int<W> is two's
// complement, |+| and |-| saturate), which BMv2 gets from p4c's masks and
// casts over its infinite-precision arithmetic.
func TestExpressionsFollowBMv2WidthAndSignSemantics(t *testing.T) {
	tp := loadTestProgram(t, "exprs")
	top := new(big.Int).Lsh(big.NewInt(1), 127)
	big1 := new(big.Int).Add(top, big.NewInt(5))
	big2 := new(big.Int).Sub(top, big.NewInt(1))
	for _, c := range []struct {
		name       string
		a, b       byte
		sa, sb     int8
		w          uint16
		n          byte
		big1, big2 *big.Int
		want       []byte // res bytes 0..18
		bigsum     *big.Int
		bigcmp     byte
		shlvar     uint32
	}{
		{name: "a>b, sa<sb", a: 200, b: 100, sa: -3, sb: 5, w: 0x0abc, n: 5, big1: big1, big2: big2,
			want:   []byte{44, 100, 32, 64, 50, 64, 236, 172, 55, 2 | 16, 0xfe, 200, 0xc8, 0x64, 0xa0, 255, 0xf8, 0xff, 0xfd},
			bigsum: big.NewInt(4), bigcmp: 1, shlvar: 32},
		{name: "a<b, sa>sb, saturation", a: 3, b: 7, sa: -100, sb: 100, w: 0xf00f, n: 15, big1: big2, big2: big1,
			want:   []byte{10, 252, 21, 24, 0, 3, 7, 4, 252, 1 | 2, 0xce, 7, 0x03, 0x07, 0x00, 10, 0x80, 0xff, 0x9c},
			bigsum: big.NewInt(4), bigcmp: 0, shlvar: 1 << 15},
		{name: "equal, sa>=sb", a: 9, b: 9, sa: 100, sb: -100, w: 0, n: 0, big1: big.NewInt(1), big2: big.NewInt(1),
			want:   []byte{18, 0, 81, 72, 2, 9, 9, 0, 246, 4 | 8 | 16, 50, 9, 0x09, 0x09, 0x00, 18, 127, 0x00, 0x64},
			bigsum: big.NewInt(2), bigcmp: 0, shlvar: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			pk, ok := tp.run(exprsPacket(c.a, c.b, c.sa, c.sb, c.w, c.n, c.big1, c.big2))
			if !ok || pk.Meta.EgressSpec != 2 {
				t.Fatalf("not forwarded: %v, egress %d", ok, pk.Meta.EgressSpec)
			}
			res := pk.Frame[39:]
			for i, want := range c.want {
				if res[i] != want {
					t.Errorf("res byte %d = %#x, want %#x", i, res[i], want)
				}
			}
			if got := new(big.Int).SetBytes(res[19:35]); got.Cmp(c.bigsum) != 0 {
				t.Errorf("128-bit sum %v, want %v", got, c.bigsum)
			}
			if res[35] != c.bigcmp {
				t.Errorf("128-bit compare %d, want %d", res[35], c.bigcmp)
			}
			if got := binary.BigEndian.Uint32(res[36:]); got != c.shlvar {
				t.Errorf("1 << n = %d, want %d", got, c.shlvar)
			}
		})
	}
}
