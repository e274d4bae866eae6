// SPDX-License-Identifier: Apache-2.0

package hashalg

import (
	"encoding/hex"
	"hash/crc32"
	"math/rand/v2"
	"slices"
	"testing"
)

func mustLookup(t *testing.T, name string) Func {
	t.Helper()
	f, ok := Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q) not found", name)
	}
	return f
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var check = []byte("123456789")

// Expected values from BMv2's tests/test_calculations.cpp (test names given)
// unless noted otherwise.
func TestKnownValues(t *testing.T) {
	for _, tc := range []struct {
		algo, in string // in is hex
		want     uint64
	}{
		{"identity", "0102030405", 0x0102030405},                        // HashTest.Identity
		{"identity", "0ffff9fd", 0x0ffff9fd},                            // CalculationTest.WithConstantNonAligned (4 zero bits, 0xffff, 0x9fd)
		{"identity", "f4f80200", 0xf4f80200},                            // CalculationTest.Extra (0x3d:6, 0x3e:8, 1:9, 0:9)
		{"xor16", "0bb81f90", 0x1428},                                   // HashTest.Xor16WithEvenBytes
		{"xor16", "0bb81f905a", 0x4e28},                                 // HashTest.Xor16WithOddBytes
		{"xor32", "0b0bb8b81f1f9090", 0x14142828},                       // HashTest.Xor32With8Bytes
		{"xor32", "0b0bb8b81f1f90905a", 0x4e142828},                     // HashTest.Xor32With9Bytes
		{"xor32", "0b0bb8b81f1f90905a5a", 0x4e4e2828},                   // HashTest.Xor32With10Bytes
		{"xor32", "0b0bb8b81f1f90905a5abd", 0x4e4e9528},                 // HashTest.Xor32With11Bytes
		{"cksum16", "450000730000400040110000c0a80001c0a800c7", 0xb861}, // HashTest.Cksum16
		{"csum16", "450000730000400040110000c0a80001c0a800c7", 0xb861},  // same function in BMv2
		{"crc16", "0bb81f90", 0x5d8a},                                   // HashTest.Crc16
		{"crc16_custom", "0bb81f90", 0x5d8a},                            // HashTest.Crc16Custom (default config)
		{"crcCCITT", "0bb81f90", 0x5d75},                                // HashTest.CrcCCITT
		{"crc32", "0bb81f90", 0x005d6a6f},                               // HashTest.Crc32
		{"crc32_custom", "0bb81f90", 0x005d6a6f},                        // HashTest.Crc32Custom (default config)
		// tests/test_checksums.cpp, fixture ChecksumTest: IPv4 header checksum
		// 0x3508 (IPv4ChecksumUpdate; computed with the checksum field zeroed)
		// and the TCP checksum 0x13cd computed by a CalcBasedChecksum using
		// "cksum16" over pseudo-header, TCP header without its checksum field,
		// and payload (TCPChecksumVerify).
		{"csum16", "450000347090400040060000" + "0a36c1214e287bac", 0x3508},
		{"cksum16", "0a36c1214e287bac" + "00" + "06" + "0020" +
			"a29700507fc24c803977ecd980100044" + "0000" + "0101080a00c36d86a820219b", 0x13cd},
		// Edge cases, derived from BMv2's code (little-endian host).
		{"cksum16", "", 0xffff},
		{"cksum16", "00", 0xffff},
		{"cksum16", "ffff", 0x0000},
		{"cksum16", "01", 0xfeff},         // odd byte is the high byte of a zero-padded word
		{"cksum16", "123456", 0x97cb},     // ^(0x1234 + 0x5600)
		{"cksum16", "ffffffffff", 0x00ff}, // 0xffff+0xffff+0xff00 folds to 0xff00
		{"identity", "", 0},
		{"identity", "abcd", 0xabcd},
		{"identity", "0102030405060708090a", 0x0102030405060708},
		{"xor16", "", 0},
		{"xor16", "ab", 0xab00},
		{"xor32", "abcdef", 0xabcdef00},
		{"crc32", "", 0},
		{"crc16", "", 0},
		{"crcCCITT", "", 0xffff},
		{"toeplitz", "0102030405", 0}, // default key is 4 zero bytes
		// xxHash reference values, XXH64 with seed 0 (BMv2 links the system
		// libxxhash and calls XXH64(buf, len, 0)): "", "a", "abc".
		{"xxh64", "", 0xef46db3751d8e999},
		{"xxh64", "61", 0xd24ec4f1a98c6e5b},
		{"xxh64", "616263", 0x44bc2cf5ad770999},
	} {
		if got := mustLookup(t, tc.algo)(unhex(t, tc.in)); got != tc.want {
			t.Errorf("%s(%s) = %#x, want %#x", tc.algo, tc.in, got, tc.want)
		}
	}
}

// Check values for "123456789" (the CRC catalogue's "check" field).
func TestCheckValues(t *testing.T) {
	for algo, want := range map[string]uint64{
		"crc16":        0xbb3d, // CRC-16/ARC
		"crc16_custom": 0xbb3d,
		"crcCCITT":     0x29b1, // CRC-16/CCITT-FALSE (IBM-3740)
		"crc32":        0xcbf43926,
		"crc32_custom": 0xcbf43926,
		"crc8_custom":  0xf4,               // CRC-8 (SMBUS)
		"crc64_custom": 0x46a5a9388a5beffe, // CRC-64/GO-ISO
	} {
		if got := mustLookup(t, algo)(check); got != want {
			t.Errorf("%s(123456789) = %#x, want %#x", algo, got, want)
		}
	}
}

// BMv2 tests/test_calculations.cpp, CrcCheckMap and TEST_P(CrcMapTest, Check):
// every named CRC of crc_map.cpp over "123456789".
func TestNamedCRCs(t *testing.T) {
	want := map[string]uint64{
		"crc_8": 0xf4, "crc_8_darc": 0x15, "crc_8_i_code": 0x7e,
		"crc_8_itu": 0xa1, "crc_8_maxim": 0xa1, "crc_8_rohc": 0xd0,
		"crc_8_wcdma": 0x25,
		"crc_16":      0xbb3d, "crc_16_buypass": 0xfee8, "crc_16_dds_110": 0x9ecf,
		"crc_16_dect": 0x007e, "crc_16_dnp": 0xea82,
		"crc_16_en_13757": 0xc2b7, "crc_16_genibus": 0xd64e,
		"crc_16_maxim": 0x44c2, "crc_16_mcrf4xx": 0x6f91,
		"crc_16_riello": 0x63d0, "crc_16_t10_dif": 0xd0db,
		"crc_16_teledisk": 0x0fb3, "crc_16_usb": 0xb4c8, "x_25": 0x906e,
		"xmodem": 0x31c3, "modbus": 0x4b37, "kermit": 0x2189,
		"crc_ccitt_false": 0x29b1, "crc_aug_ccitt": 0xe5cc,
		"crc_32": 0xcbf43926, "crc_32_bzip2": 0xfc891918,
		"crc_32c": 0xe3069283, "crc_32d": 0x87315576,
		"crc_32_mpeg": 0x0376e6e7, "posix": 0x765e7680,
		"crc_32q": 0x3010bf7f, "jamcrc": 0x340bc6d9, "xfer": 0xbd0be338,
		"crc_64":       0x46a5a9388a5beffe,
		"crc_64_we":    0x62ec59e3f1a4f00a,
		"crc_64_jones": 0xcaa717168609f281,
	}
	if len(want) != len(namedCRCs) {
		t.Errorf("%d named CRCs, %d check values", len(namedCRCs), len(want))
	}
	for name, w := range want {
		if got := mustLookup(t, name)(check); got != w {
			t.Errorf("%s(123456789) = %#x, want %#x", name, got, w)
		}
	}
}

// BMv2 tests/test_calculations.cpp, HashTest.Crc16Custom and
// HashTest.Crc32Custom: reconfigured custom CRCs.
func TestCustomCRC(t *testing.T) {
	in := []byte{0x0b, 0xb8, 0x1f, 0x90}
	for _, tc := range []struct {
		width int
		cfg   CRCConfig
		want  uint64
	}{
		{16, CRCConfig{0x8005, 0x0000, 0x0000, true, true}, 0x5d8a},                  // crc16
		{16, CRCConfig{0x1021, 0xffff, 0x0000, false, false}, 0x5d75},                // crcCCITT
		{16, CRCConfig{0x1021, 0x0000, 0x0000, false, false}, 0xd9b5},                // XMODEM
		{32, CRCConfig{0x4c11db7, 0xffffffff, 0xffffffff, true, true}, 0x005d6a6f},   // crc32
		{32, CRCConfig{0x4c11db7, 0xffffffff, 0x00000000, false, false}, 0x125e1592}, // MPEG-2
	} {
		if got := NewCustomCRC(tc.width, tc.cfg)(in); got != tc.want {
			t.Errorf("crc%d %+v = %#x, want %#x", tc.width, tc.cfg, got, tc.want)
		}
	}
	// Values wider than the CRC are truncated, as in BMv2's uint16_t config.
	if got := NewCustomCRC(16, CRCConfig{Polynomial: 0xf1021, InitialRemainder: 0x1ffff})(check); got != 0x29b1 {
		t.Errorf("truncated config: got %#x", got)
	}
	for w, want := range map[int]CRCConfig{
		8:  {0x07, 0x00, 0x00, false, false},
		16: {0x8005, 0x0000, 0x0000, true, true},
		32: {0x04c11db7, 0xffffffff, 0xffffffff, true, true},
		64: {0x1b, 0, 0, true, true},
	} {
		if got, ok := DefaultCRCConfig(w); !ok || got != want {
			t.Errorf("DefaultCRCConfig(%d) = %+v, %v", w, got, ok)
		}
	}
	if _, ok := DefaultCRCConfig(24); ok {
		t.Error("DefaultCRCConfig(24) found")
	}
}

// BMv2 tests/test_calculations.cpp, TEST(CrcMapCustomStr, Crc32Bzip2), plus
// the parsing rules of crc_map.cpp's get_copy_from_custom_str.
func TestCustomCRCString(t *testing.T) {
	for s, want := range map[string]uint64{
		"poly_0x104c11db7_init_0xffffffff_xout_0xffffffff_not_rev": 0xfc891918, // CRC-32/BZIP2
		"poly_0x104c11db7_init_0xffffffff_xout_0xffffffff":         0xcbf43926, // reflected by default
		"poly_0x107_not_rev":                               0xf4,               // CRC-8, init/xout default to 0
		"xout_ffff_poly_0x11021_init_ffff":                 0x906e,             // X-25; no "0x" needed
		"poly_0x11021_init_0xffff_not_rev":                 0x29b1,             // CCITT-FALSE
		"poly_0x11021_init_0xffff_not_rev__junk":           0x29b1,             // tokens end at the first empty one
		"poly_0x1ad93d23594c935a9_init_0xffffffffffffffff": 0xcaa717168609f281, // CRC-64/JONES
	} {
		f, ok := Lookup(s)
		if !ok {
			t.Errorf("Lookup(%q) not found", s)
			continue
		}
		if got := f(check); got != want {
			t.Errorf("%s(123456789) = %#x, want %#x", s, got, want)
		}
	}
	for _, s := range []string{
		"", "poly", "poly_", "poly_0x1", "poly_0x107_init", "poly_0x1007", "poly_0x207",
		"poly_0x107_not_really", "poly_0x107_lsb", "poly_0x107_msb", "poly_0x107_extend",
		"poly_0x107_init_0x100", "poly_0x1zz", "init_0x00", "poly_0x107_bogus_1",
		"random", "crc", "CRC32",
	} {
		if _, ok := Lookup(s); ok {
			t.Errorf("Lookup(%q) found", s)
		}
	}
}

// BMv2 tests/test_calculations.cpp, HashTest.Toeplitz (DPDK's test vector).
func TestToeplitz(t *testing.T) {
	key := unhex(t, "6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa")
	f, err := NewToeplitz(key)
	if err != nil {
		t.Fatal(err)
	}
	// 66.9.149.187 -> 161.142.100.80, ports 2794 -> 1766
	l3l4 := []byte{66, 9, 149, 187, 161, 142, 100, 80, 0x0a, 0xea, 0x06, 0xe6}
	if got := f(l3l4); got != 0x51ccc178 {
		t.Errorf("toeplitz l3l4 = %#x, want 0x51ccc178", got)
	}
	if got := f(l3l4[:8]); got != 0x323e8fc2 { // hash_l3 in the same test's comment
		t.Errorf("toeplitz l3 = %#x, want 0x323e8fc2", got)
	}
	for _, k := range [][]byte{nil, {1, 2, 3}, {1, 2, 3, 4, 5}} {
		if _, err := NewToeplitz(k); err == nil {
			t.Errorf("NewToeplitz(%x) accepted", k)
		}
	}
}

// BMv2 tests/test_calculations.cpp, HashTest.RoundRobin and
// HashTest.RoundRobinConsistent.
func TestRoundRobin(t *testing.T) {
	in := []byte{1, 2, 3, 4, 5}
	r1, r2 := mustLookup(t, "round_robin"), mustLookup(t, "round_robin")
	for i := range uint64(64) {
		if got := r1(in); got != i {
			t.Fatalf("r1 call %d = %d", i, got)
		}
		if got := r2(in); got != i {
			t.Fatalf("r2 call %d = %d", i, got)
		}
	}
	c := mustLookup(t, "round_robin_consistent")
	in2 := []byte{1, 2, 3, 4, 6}
	if a, b, a2 := c(in), c(in2), c(in); a != 0 || b != 1 || a2 != 0 {
		t.Errorf("round_robin_consistent = %d %d %d, want 0 1 0", a, b, a2)
	}
}

// The generic CRC agrees with hash/crc32 (crc32) and Castagnoli.
func TestCRCAgainstStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ieee := NewCustomCRC(32, CRCConfig{0x04c11db7, 0xffffffff, 0xffffffff, true, true})
	castagnoli := mustLookup(t, "crc_32c")
	ct := crc32.MakeTable(crc32.Castagnoli)
	for n := range 200 {
		buf := make([]byte, n)
		for i := range buf {
			buf[i] = byte(r.Uint32())
		}
		if a, b := ieee(buf), mustLookup(t, "crc32")(buf); a != b {
			t.Fatalf("len %d: generic %#x, crc32 %#x", n, a, b)
		}
		if a, b := castagnoli(buf), uint64(crc32.Checksum(buf, ct)); a != b {
			t.Fatalf("len %d: crc_32c %#x, stdlib %#x", n, a, b)
		}
	}
}

func TestNames(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) {
		t.Error("Names not sorted")
	}
	for _, n := range []string{
		"cksum16", "crc16", "crc16_custom", "crc32", "crc32_custom", "crc64_custom",
		"crc8_custom", "crcCCITT", "csum16", "identity", "round_robin",
		"round_robin_consistent", "toeplitz", "xor16", "xor32", "xxh64", "crc_64_jones",
	} {
		if !slices.Contains(names, n) {
			t.Errorf("Names lacks %q", n)
		}
	}
	for _, n := range names {
		if _, ok := Lookup(n); !ok {
			t.Errorf("Lookup(%q) of a listed name failed", n)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	buf := make([]byte, 61)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	tz, _ := NewToeplitz(make([]byte, 40))
	funcs := map[string]Func{"toeplitz(key)": tz}
	for _, n := range Names() {
		funcs[n] = mustLookup(t, n)
	}
	rrc := funcs["round_robin_consistent"]
	rrc(buf) // only a first-seen input allocates
	for name, f := range funcs {
		if a := testing.AllocsPerRun(100, func() { f(buf) }); a != 0 {
			t.Errorf("%s: %v allocs per call", name, a)
		}
	}
}

func BenchmarkHash(b *testing.B) {
	buf := make([]byte, 64)
	for _, n := range []string{"crc16", "crc32", "crc32_custom", "crcCCITT", "csum16", "xxh64", "identity"} {
		f, _ := Lookup(n)
		b.Run(n, func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				f(buf)
			}
		})
	}
}
