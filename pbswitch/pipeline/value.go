// SPDX-License-Identifier: Apache-2.0

package pipeline

import "fmt"

// Width is the byte width of a field of bits bits.
func Width(bits int) int { return (bits + 7) / 8 }

// FitValue right-aligns v into a new slice of the full width of a bits-wide
// field. It fails when v carries a 1 above bit bits-1 (P4Runtime's rule for
// values out of range).
func FitValue(v []byte, bits int) ([]byte, error) {
	return AppendFit(make([]byte, 0, Width(bits)), v, bits)
}

// AppendFit appends v fitted as FitValue does (Width(bits) bytes) to dst
// and returns the extended slice; nil and an error when v does not fit.
func AppendFit(dst, v []byte, bits int) ([]byte, error) {
	// P4Runtime 1.4 section 8.4: a bytestring is never empty, not even for 0.
	if len(v) == 0 {
		return nil, fmt.Errorf("empty value for a %d-bit field (0 is encoded as one zero byte)", bits)
	}
	w := Width(bits)
	for len(v) > w {
		if v[0] != 0 {
			return nil, fmt.Errorf("value 0x%x does not fit in %d bits", v, bits)
		}
		v = v[1:]
	}
	n := len(dst)
	dst = append(dst, make([]byte, w)...)
	out := dst[n:]
	copy(out[w-len(v):], v)
	if extra := w*8 - bits; extra > 0 && out[0]>>(8-extra) != 0 {
		return nil, fmt.Errorf("value 0x%x does not fit in %d bits", v, bits)
	}
	return dst, nil
}

// Canonical strips leading zero bytes (keeping one), the shortest form
// P4Runtime servers return values in.
func Canonical(v []byte) []byte {
	for len(v) > 1 && v[0] == 0 {
		v = v[1:]
	}
	return append([]byte(nil), v...)
}

// Uint decodes a big-endian value of up to 8 bytes.
func Uint(v []byte) uint64 {
	var x uint64
	for _, b := range v {
		x = x<<8 | uint64(b)
	}
	return x
}

// PutUint writes x big-endian into dst (its whole length).
func PutUint(dst []byte, x uint64) {
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = byte(x)
		x >>= 8
	}
}

// prefixMask returns the full-width mask of a bits-wide field with its top
// plen bits set (the field is right-aligned, so padding bits stay clear).
func prefixMask(bits, plen int) []byte {
	w := Width(bits)
	m := make([]byte, w)
	for i := w*8 - bits; i < w*8-bits+plen; i++ {
		m[i/8] |= 0x80 >> (i % 8)
	}
	return m
}
