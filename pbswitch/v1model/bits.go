// SPDX-License-Identifier: Apache-2.0

package v1model

// readBits reads w (1..64) bits starting at bit off of b, big-endian.
func readBits(b []byte, off, w int) uint64 {
	if off&7 == 0 && w&7 == 0 {
		var v uint64
		for _, c := range b[off>>3 : (off+w)>>3] {
			v = v<<8 | uint64(c)
		}
		return v
	}
	var v uint64
	for i := 0; i < w; {
		bit := (off + i) & 7
		take := min(8-bit, w-i)
		c := uint64(b[(off+i)>>3]) >> (8 - bit - take) & (1<<take - 1)
		v = v<<take | c
		i += take
	}
	return v
}

// writeBits writes the low w (1..64) bits of v at bit off of b, big-endian,
// leaving the bits around them alone.
func writeBits(b []byte, off, w int, v uint64) {
	if off&7 == 0 && w&7 == 0 {
		bs := b[off>>3 : (off+w)>>3]
		for i := len(bs) - 1; i >= 0; i-- {
			bs[i] = byte(v)
			v >>= 8
		}
		return
	}
	for i := w; i > 0; {
		// Write the lowest remaining bits, which end at bit off+i-1.
		end := off + i // exclusive
		bit := end & 7 // bits of the last byte used: [0, bit) when bit > 0
		byteI := (end - 1) >> 3
		var take, shift int
		if bit == 0 {
			take, shift = min(8, i), 0
		} else {
			take, shift = min(bit, i), 8-bit
		}
		mask := byte((1<<take - 1) << shift)
		b[byteI] = b[byteI]&^mask | byte(v<<shift)&mask
		v >>= take
		i -= take
	}
}

// readWide reads a field of w > 64 bits into words (little-endian words:
// words[0] holds the lowest 64 bits).
func readWide(b []byte, off, w int, words []uint64) {
	n := len(words)
	top := w - 64*(n-1)
	words[n-1] = readBits(b, off, top)
	off += top
	for i := n - 2; i >= 0; i-- {
		words[i] = readBits(b, off, 64)
		off += 64
	}
}

// writeWide is readWide's inverse.
func writeWide(b []byte, off, w int, words []uint64) {
	n := len(words)
	top := w - 64*(n-1)
	writeBits(b, off, top, words[n-1])
	off += top
	for i := n - 2; i >= 0; i-- {
		writeBits(b, off, 64, words[i])
		off += 64
	}
}

// mask64 has the low w bits set (w in 0..64).
func mask64(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// signExtend reads the low w bits of v as a two's complement number.
func signExtend(v uint64, w int) uint64 {
	if w >= 64 || w <= 0 {
		return v
	}
	s := 64 - w
	return uint64(int64(v<<s) >> s)
}
