// SPDX-License-Identifier: Apache-2.0

package hashalg

import (
	"math/bits"
	"strconv"
	"strings"
)

// CRCConfig parameterizes a CRC in the Rocksoft/Williams model, as BMv2's
// crc_config_t does: the register starts at InitialRemainder, each input
// byte is bit-reversed first when DataReflected, the final register is
// bit-reversed when RemainderReflected, then XORed with FinalXor.
// Polynomial omits the leading x^width term. NewCustomCRC truncates all three
// values to the CRC's width, as BMv2's fixed-width fields do.
type CRCConfig struct {
	Polynomial, InitialRemainder, FinalXor uint64
	DataReflected, RemainderReflected      bool
}

// defaultCRC holds the configs BMv2's crc8_custom ... crc64_custom start with.
var defaultCRC = map[int]CRCConfig{
	8:  {Polynomial: 0x07},
	16: {Polynomial: 0x8005, DataReflected: true, RemainderReflected: true},
	32: {Polynomial: 0x04c11db7, InitialRemainder: 0xffffffff, FinalXor: 0xffffffff, DataReflected: true, RemainderReflected: true},
	64: {Polynomial: 0x1b, DataReflected: true, RemainderReflected: true},
}

// DefaultCRCConfig returns the config BMv2's crc<width>_custom algorithm
// starts with (false unless width is 8, 16, 32 or 64).
func DefaultCRCConfig(width int) (CRCConfig, bool) {
	c, ok := defaultCRC[width]
	return c, ok
}

type crc struct {
	shift uint   // width - 8
	mask  uint64 // width ones
	cfg   CRCConfig
	table [256]uint64
}

// NewCustomCRC returns the CRC of the given width (8, 16, 32 or 64; it panics
// otherwise) and config, as BMv2's crc<width>_custom after
// CustomCrcMgr::update_config(cfg). Its table is computed here, once.
func NewCustomCRC(width int, cfg CRCConfig) Func {
	if width != 8 && width != 16 && width != 32 && width != 64 {
		panic("hashalg: CRC width must be 8, 16, 32 or 64, not " + strconv.Itoa(width))
	}
	c := &crc{shift: uint(width - 8), mask: ^uint64(0) >> (64 - width), cfg: cfg}
	c.cfg.Polynomial &= c.mask
	c.cfg.InitialRemainder &= c.mask
	c.cfg.FinalXor &= c.mask
	top := uint64(1) << (width - 1)
	for i := range c.table {
		r := uint64(i) << c.shift
		for range 8 {
			if r&top != 0 {
				r = r<<1 ^ c.cfg.Polynomial
			} else {
				r <<= 1
			}
		}
		c.table[i] = r & c.mask
	}
	return c.sum
}

// sum runs the register MSB first; reflected input bytes are reversed
// before they enter it.
func (c *crc) sum(buf []byte) uint64 {
	r := c.cfg.InitialRemainder
	for _, b := range buf {
		if c.cfg.DataReflected {
			b = bits.Reverse8(b)
		}
		r = (c.table[byte(r>>c.shift)^b] ^ r<<8) & c.mask
	}
	if c.cfg.RemainderReflected {
		r = bits.Reverse64(r) >> (56 - c.shift)
	}
	return r ^ c.cfg.FinalXor
}

type namedCRC struct {
	width int
	cfg   CRCConfig
}

// namedCRCs is the catalogue of BMv2's src/bm_sim/crc_map.cpp, which BMv2
// also accepts as an algorithm name.
var namedCRCs = map[string]namedCRC{
	"crc_8":        {8, CRCConfig{0x07, 0x00, 0x00, false, false}},
	"crc_8_darc":   {8, CRCConfig{0x39, 0x00, 0x00, true, true}},
	"crc_8_i_code": {8, CRCConfig{0x1d, 0xfd, 0x00, false, false}},
	"crc_8_itu":    {8, CRCConfig{0x07, 0x00, 0x55, false, false}},
	"crc_8_maxim":  {8, CRCConfig{0x31, 0x00, 0x00, true, true}},
	"crc_8_rohc":   {8, CRCConfig{0x07, 0xff, 0x00, true, true}},
	"crc_8_wcdma":  {8, CRCConfig{0x9b, 0x00, 0x00, true, true}},

	"crc_16":          {16, CRCConfig{0x8005, 0x0000, 0x0000, true, true}},
	"crc_16_buypass":  {16, CRCConfig{0x8005, 0x0000, 0x0000, false, false}},
	"crc_16_dds_110":  {16, CRCConfig{0x8005, 0x800d, 0x0000, false, false}},
	"crc_16_dect":     {16, CRCConfig{0x0589, 0x0000, 0x0001, false, false}},
	"crc_16_dnp":      {16, CRCConfig{0x3d65, 0x0000, 0xffff, true, true}},
	"crc_16_en_13757": {16, CRCConfig{0x3d65, 0x0000, 0xffff, false, false}},
	"crc_16_genibus":  {16, CRCConfig{0x1021, 0xffff, 0xffff, false, false}},
	"crc_16_maxim":    {16, CRCConfig{0x8005, 0x0000, 0xffff, true, true}},
	"crc_16_mcrf4xx":  {16, CRCConfig{0x1021, 0xffff, 0x0000, true, true}},
	"crc_16_riello":   {16, CRCConfig{0x1021, 0xb2aa, 0x0000, true, true}},
	"crc_16_t10_dif":  {16, CRCConfig{0x8bb7, 0x0000, 0x0000, false, false}},
	"crc_16_teledisk": {16, CRCConfig{0xa097, 0x0000, 0x0000, false, false}},
	"crc_16_usb":      {16, CRCConfig{0x8005, 0xffff, 0xffff, true, true}},
	"x_25":            {16, CRCConfig{0x1021, 0xffff, 0xffff, true, true}},
	"xmodem":          {16, CRCConfig{0x1021, 0x0000, 0x0000, false, false}},
	"modbus":          {16, CRCConfig{0x8005, 0xffff, 0x0000, true, true}},
	"kermit":          {16, CRCConfig{0x1021, 0x0000, 0x0000, true, true}},
	"crc_ccitt_false": {16, CRCConfig{0x1021, 0xffff, 0x0000, false, false}},
	"crc_aug_ccitt":   {16, CRCConfig{0x1021, 0x1d0f, 0x0000, false, false}},

	"crc_32":       {32, CRCConfig{0x04c11db7, 0xffffffff, 0xffffffff, true, true}},
	"crc_32_bzip2": {32, CRCConfig{0x04c11db7, 0xffffffff, 0xffffffff, false, false}},
	"crc_32c":      {32, CRCConfig{0x1edc6f41, 0xffffffff, 0xffffffff, true, true}},
	"crc_32d":      {32, CRCConfig{0xa833982b, 0xffffffff, 0xffffffff, true, true}},
	"crc_32_mpeg":  {32, CRCConfig{0x04c11db7, 0xffffffff, 0x00000000, false, false}},
	"posix":        {32, CRCConfig{0x04c11db7, 0x00000000, 0xffffffff, false, false}},
	"crc_32q":      {32, CRCConfig{0x814141ab, 0x00000000, 0x00000000, false, false}},
	"jamcrc":       {32, CRCConfig{0x04c11db7, 0xffffffff, 0x00000000, true, true}},
	"xfer":         {32, CRCConfig{0x000000af, 0x00000000, 0x00000000, false, false}},

	"crc_64":       {64, CRCConfig{0x000000000000001b, 0, 0, true, true}},
	"crc_64_we":    {64, CRCConfig{0x42f0e1eba9ea3693, 0xffffffffffffffff, 0xffffffffffffffff, false, false}},
	"crc_64_jones": {64, CRCConfig{0xad93d23594c935a9, 0xffffffffffffffff, 0x0000000000000000, true, true}},
}

// parseCustomCRC reads BMv2's custom CRC strings (CrcMap::
// get_copy_from_custom_str): '_'-separated tokens "poly" <hex>, "init" <hex>,
// "xout" <hex> and "not" "rev" (both reflections off; they default to on),
// read up to the first empty token. The polynomial is written with its
// leading term, "0x1" followed by 2, 4, 8 or 16 hex digits, which give the
// width. init and xout default to 0. Values that do not fit the width are
// rejected (BMv2's conversion of them is not specified here).
func parseCustomCRC(s string) (Func, bool) {
	toks := strings.Split(s, "_")
	next := func() string {
		if len(toks) == 0 {
			return ""
		}
		t := toks[0]
		toks = toks[1:]
		return t
	}
	var poly, init, xout string
	cfg := CRCConfig{DataReflected: true, RemainderReflected: true}
	for {
		tok := next()
		if tok == "" {
			break
		}
		var dst *string
		switch tok {
		case "poly":
			dst = &poly
		case "init":
			dst = &init
		case "xout":
			dst = &xout
		case "not":
			if next() != "rev" {
				return nil, false
			}
			cfg.DataReflected, cfg.RemainderReflected = false, false
			continue
		default: // including BMv2's unimplemented "lsb", "msb", "extend"
			return nil, false
		}
		if *dst = next(); *dst == "" {
			return nil, false
		}
	}
	if len(poly) < 3 || !strings.HasPrefix(poly, "0x1") {
		return nil, false
	}
	width := (len(poly) - 3) * 4
	if width != 8 && width != 16 && width != 32 && width != 64 {
		return nil, false
	}
	var ok [3]bool
	cfg.Polynomial, ok[0] = parseHex(poly[3:], width)
	cfg.InitialRemainder, ok[1] = parseHex(init, width)
	cfg.FinalXor, ok[2] = parseHex(xout, width)
	if !ok[0] || !ok[1] || !ok[2] {
		return nil, false
	}
	return NewCustomCRC(width, cfg), true
}

// parseHex reads hex digits, with an optional "0x" prefix, as BMv2's Data
// does; "" is 0. The value must fit in width bits.
func parseHex(s string, width int) (uint64, bool) {
	if s == "" {
		return 0, true
	}
	s = strings.TrimPrefix(s, "0x")
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 16, width)
	return v, err == nil
}
