// SPDX-License-Identifier: Apache-2.0

// Package hashalg implements, bit for bit, the hash and checksum algorithms
// that BMv2 (p4lang/behavioral-model) offers to a P4 program, so that
// pbswitch's v1model engine computes the same values as simple_switch for
// every hash, action selector and checksum in p4c's bmv2 JSON.
//
// A Func takes the bytes BMv2 would build for the calculation (the input
// fields deparsed back to back, bit-packed, big-endian, the last byte
// zero-padded on the right) and returns the result widened to uint64.
//
// Lookup resolves an "algo" string the way BMv2's P4Objects does: first
// the algorithms registered in src/bm_sim/calculations.cpp (crc16, crc32,
// crcCCITT, cksum16, csum16, xor16, xor32, identity, xxh64, toeplitz,
// round_robin, round_robin_consistent, crc8_custom, crc16_custom,
// crc32_custom, crc64_custom), then the named CRCs of src/bm_sim/crc_map.cpp
// (crc_8 ... crc_64_jones, xmodem, modbus, ...), then a custom CRC
// described by a string such as
// "poly_0x104c11db7_init_0xffffffff_xout_0xffffffff_not_rev".
//
// Notes on BMv2's semantics:
//
//   - cksum16 and csum16 are the same function: the RFC 1071 Internet
//     checksum (ones'-complement of the ones'-complement sum of big-endian
//     16-bit words; an odd last byte is padded with a zero byte after it),
//     as BMv2 computes it on a little-endian host. Empty input gives 0xffff.
//   - identity is the first min(len, 8) bytes read as a big-endian integer,
//     not padded: {0xab, 0xcd} gives 0xabcd.
//   - xor16/xor32 XOR the big-endian 16/32-bit words; a short last word is
//     padded with zero bytes on the right: {0xab} gives 0xab00 for xor16.
//   - The crc*_custom algorithms start with the defaults of DefaultCRCConfig
//     and are reconfigured in BMv2 at run time (CustomCrcMgr::update_config);
//     here a reconfigured CRC is a new Func from NewCustomCRC. Likewise the
//     toeplitz key (ToeplitzMgr::update_key) is set with NewToeplitz; with its
//     default key, four zero bytes, toeplitz always gives 0.
//   - round_robin and round_robin_consistent are not hashes but per-instance
//     counters; every Lookup of them returns a new instance with its own
//     counter, as every BMv2 calculation gets its own copy.
//   - "random" is not a hash and is not provided; BMv2 does not register it
//     either.
//
// Every Func is safe for concurrent use. Except for a first-seen input of
// round_robin_consistent, a call allocates nothing.
package hashalg
