// SPDX-License-Identifier: Apache-2.0

package v1model

// readBits reads w (1..64) bits starting at bit off of b, big-endian.
func readBits(b []byte, off, w int) uint64 {
	start, shift := off>>3, off&7
	n := (shift + w + 7) >> 3 // bytes the field touches
	if n <= 8 {
		var win uint64
		for _, c := range b[start : start+n] {
			win = win<<8 | uint64(c)
		}
		return win >> (n*8 - shift - w) & mask64(w)
	}
	// A field of 57 to 64 bits straddling 9 bytes: its top 32 bits and
	// the rest.
	hi := readBits(b, off, 32)
	return hi<<(w-32) | readBits(b, off+32, w-32)
}

// writeBits writes the low w (1..64) bits of v at bit off of b, big-endian,
// leaving the bits around them alone.
func writeBits(b []byte, off, w int, v uint64) {
	start, shift := off>>3, off&7
	n := (shift + w + 7) >> 3
	if n > 8 {
		writeBits(b, off, 32, v>>(w-32))
		writeBits(b, off+32, w-32, v)
		return
	}
	bs := b[start : start+n]
	pos := uint(n*8 - shift - w) // bits of the window below the field
	m := mask64(w) << pos
	if shift == 0 && pos == 0 { // whole bytes: nothing around to keep
		for i := n - 1; i >= 0; i-- {
			bs[i] = byte(v)
			v >>= 8
		}
		return
	}
	var win uint64
	for _, c := range bs {
		win = win<<8 | uint64(c)
	}
	win = win&^m | v<<pos&m
	for i := n - 1; i >= 0; i-- {
		bs[i] = byte(win)
		win >>= 8
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
