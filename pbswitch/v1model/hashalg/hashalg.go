// SPDX-License-Identifier: Apache-2.0

package hashalg

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
)

// Func computes a hash over buf (BMv2 feeds the bytes of the concatenated,
// bit-packed input fields). The result is zero-extended to 64 bits.
type Func func(buf []byte) uint64

// registered holds the stateless algorithms of BMv2's calculations.cpp.
// Their Funcs are immutable and shared.
var registered = map[string]Func{
	"crc16":        NewCustomCRC(16, CRCConfig{Polynomial: 0x8005, DataReflected: true, RemainderReflected: true}),
	"crc32":        crc32IEEE,
	"crcCCITT":     NewCustomCRC(16, CRCConfig{Polynomial: 0x1021, InitialRemainder: 0xffff}),
	"cksum16":      cksum16,
	"csum16":       cksum16,
	"xor16":        xor16,
	"xor32":        xor32,
	"identity":     identity,
	"xxh64":        xxhash.Sum64, // BMv2: XXH64(buf, len, 0); Sum64 is XXH64 with seed 0
	"toeplitz":     zeroToeplitz,
	"crc8_custom":  NewCustomCRC(8, defaultCRC[8]),
	"crc16_custom": NewCustomCRC(16, defaultCRC[16]),
	"crc32_custom": NewCustomCRC(32, defaultCRC[32]),
	"crc64_custom": NewCustomCRC(64, defaultCRC[64]),
}

// stateful holds the algorithms that keep per-instance state.
var stateful = map[string]func() Func{
	"round_robin":            newRoundRobin,
	"round_robin_consistent": newRoundRobinConsistent,
}

// Lookup returns the algorithm registered under name (false when BMv2 has no
// such algorithm or this package does not implement it). It accepts the names
// BMv2 registers in calculations.cpp, the named CRCs of BMv2's crc_map.cpp and
// custom CRC strings ("poly_0x1<hex>[_init_<hex>][_xout_<hex>][_not_rev]").
// Stateful algorithms (round_robin*) get a new instance on every call.
func Lookup(name string) (Func, bool) {
	if f, ok := registered[name]; ok {
		return f, true
	}
	if mk, ok := stateful[name]; ok {
		return mk(), true
	}
	if c, ok := namedCRCs[name]; ok {
		return NewCustomCRC(c.width, c.cfg), true
	}
	return parseCustomCRC(name)
}

// Names lists the implemented names, sorted. Custom CRC strings, which
// Lookup also accepts, are not listed.
func Names() []string {
	names := make([]string, 0, len(registered)+len(stateful)+len(namedCRCs))
	for n := range registered {
		names = append(names, n)
	}
	for n := range stateful {
		names = append(names, n)
	}
	for n := range namedCRCs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// crc32IEEE is BMv2's crc32: reflected CRC-32 with polynomial 0x04c11db7,
// initial remainder and final XOR 0xffffffff, which is exactly hash/crc32's
// IEEE checksum.
func crc32IEEE(buf []byte) uint64 { return uint64(crc32.ChecksumIEEE(buf)) }

// cksum16 is the Internet checksum (RFC 1071).
func cksum16(buf []byte) uint64 {
	sum := Cksum16Add(0, buf[:len(buf)&^1])
	if len(buf)%2 == 1 {
		sum += uint64(buf[len(buf)-1]) << 8
	}
	return Cksum16Fold(sum)
}

// Cksum16Add adds buf, of an even length, to an Internet checksum's
// running sum. Summing big-endian 32-bit words is congruent, modulo 0xffff,
// to summing the 16-bit words, so a checksum over several even-length
// spans is the fold of their sums.
func Cksum16Add(sum uint64, buf []byte) uint64 {
	for len(buf) >= 4 {
		sum += uint64(binary.BigEndian.Uint32(buf))
		buf = buf[4:]
	}
	if len(buf) >= 2 {
		sum += uint64(binary.BigEndian.Uint16(buf))
	}
	return sum
}

// Cksum16Fold is the Internet checksum of a running sum.
func Cksum16Fold(sum uint64) uint64 {
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return uint64(^uint16(sum))
}

func xor16(buf []byte) uint64 {
	var x uint16
	for len(buf) >= 2 {
		x ^= binary.BigEndian.Uint16(buf)
		buf = buf[2:]
	}
	if len(buf) == 1 {
		x ^= uint16(buf[0]) << 8
	}
	return uint64(x)
}

func xor32(buf []byte) uint64 {
	var x uint32
	for len(buf) >= 4 {
		x ^= binary.BigEndian.Uint32(buf)
		buf = buf[4:]
	}
	if len(buf) > 0 {
		var tail [4]byte
		copy(tail[:], buf)
		x ^= binary.BigEndian.Uint32(tail[:])
	}
	return uint64(x)
}

// identity is the first up-to-8 bytes as a big-endian integer (no padding).
func identity(buf []byte) uint64 {
	var r uint64
	for i := 0; i < len(buf) && i < 8; i++ {
		r = r<<8 | uint64(buf[i])
	}
	return r
}

func zeroToeplitz([]byte) uint64 { return 0 }

// NewToeplitz returns the Toeplitz hash with the given key, as BMv2's toeplitz
// after ToeplitzMgr::update_key(key). The key must be a non-empty multiple of
// 4 bytes; it is reused cyclically, a 32-bit word at a time, for inputs longer
// than the key. The input is read as big-endian 32-bit words, the last one
// zero-padded on the right.
func NewToeplitz(key []byte) (Func, error) {
	if len(key) < 4 || len(key)%4 != 0 {
		return nil, errors.New("hashalg: toeplitz key must be a non-empty multiple of 4 bytes")
	}
	words := make([]uint32, len(key)/4)
	for i := range words {
		words[i] = binary.BigEndian.Uint32(key[4*i:])
	}
	return func(buf []byte) uint64 {
		var h uint32
		for i := 0; len(buf) > 0; i++ {
			var w uint32
			if len(buf) >= 4 {
				w = binary.BigEndian.Uint32(buf)
				buf = buf[4:]
			} else {
				var tail [4]byte
				copy(tail[:], buf)
				w = binary.BigEndian.Uint32(tail[:])
				buf = nil
			}
			// The 64 key bits starting at word i; input bit b (0 = MSB of
			// w) selects the 32-bit key window starting at bit b.
			window := uint64(words[i%len(words)])<<32 | uint64(words[(i+1)%len(words)])
			for ; w != 0; w &= w - 1 {
				b := 31 - bits.TrailingZeros32(w)
				h ^= uint32(window >> (32 - b))
			}
		}
		return uint64(h)
	}, nil
}

// newRoundRobin returns 0, 1, 2, ... on successive calls, whatever the input.
func newRoundRobin() Func {
	var next atomic.Uint64
	return func([]byte) uint64 { return next.Add(1) - 1 }
}

// newRoundRobinConsistent is round_robin, except that an input seen before
// gets the value it got the first time.
func newRoundRobinConsistent() Func {
	var mu sync.Mutex
	seen := make(map[string]uint64)
	return func(buf []byte) uint64 {
		mu.Lock()
		defer mu.Unlock()
		if v, ok := seen[string(buf)]; ok {
			return v
		}
		v := uint64(len(seen))
		seen[string(buf)] = v
		return v
	}
}
