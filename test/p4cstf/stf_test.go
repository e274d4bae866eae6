// SPDX-License-Identifier: Apache-2.0

package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSTFReadsEveryCommandKind(t *testing.T) {
	src := `
# a comment
add test1 503 data.f1:0x****0202 ingress.setb1(val:7, port:3)   # trailing comment
ADD ex1 extra$0.h:0x25** act1(val:0x25) = A
add c.t e:0 c.a()
add ipv4_da_lpm ipv4.dstAddr:0x0a010065/24 hdr.v:0x1&&&0xf r:1->5 ingress.do(x:0b101)
setdefault "my table" drop()
packet 0 0101 0202  03 04
expect 2 *1010101 03030303 ****  $
expect 5
mc_node_create 400 6 7
mirroring_add 5 4
wait
`
	cmds, err := ParseSTF(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 11 {
		t.Fatalf("%d commands, want 11: %+v", len(cmds), cmds)
	}
	a := cmds[0]
	if a.Kind != "add" || a.Table != "test1" || a.Priority != 503 || a.Action != "ingress.setb1" || a.Line != 3 {
		t.Fatalf("add: %+v", a)
	}
	if !reflect.DeepEqual(a.Keys, []KeyArg{{"data.f1", "0x****0202"}}) {
		t.Fatalf("keys: %+v", a.Keys)
	}
	if !reflect.DeepEqual(a.Args, []KeyArg{{"val", "7"}, {"port", "3"}}) {
		t.Fatalf("args: %+v", a.Args)
	}
	if b := cmds[1]; b.Kind != "add" || b.Priority != -1 || b.Keys[0] != (KeyArg{"extra$0.h", "0x25**"}) || b.EntryID != "A" {
		t.Fatalf("add with id: %+v", b)
	}
	if c := cmds[2]; c.Table != "c.t" || c.Action != "c.a" || len(c.Args) != 0 || c.Keys[0] != (KeyArg{"e", "0"}) {
		t.Fatalf("add without args: %+v", c)
	}
	if d := cmds[3]; !reflect.DeepEqual(d.Keys, []KeyArg{{"ipv4.dstAddr", "0x0a010065/24"}, {"hdr.v", "0x1&&&0xf"}, {"r", "1->5"}}) ||
		d.Args[0] != (KeyArg{"x", "0b101"}) {
		t.Fatalf("add with lpm, ternary and range values: %+v", d)
	}
	if s := cmds[4]; s.Kind != "setdefault" || s.Table != "my table" || s.Action != "drop" {
		t.Fatalf("setdefault: %+v", s)
	}
	if p := cmds[5]; p.Kind != "packet" || p.Port != 0 || p.Data != "01010202"+"0304" {
		t.Fatalf("packet: %+v", p)
	}
	if e := cmds[6]; e.Kind != "expect" || e.Port != 2 || e.Data != "*101010103030303****$" || !e.HasData {
		t.Fatalf("expect: %+v", e)
	}
	if e := cmds[7]; e.Kind != "expect" || e.Port != 5 || e.HasData {
		t.Fatalf("expect without data: %+v", e)
	}
	if m := cmds[8]; m.Kind != "mc_node_create" || !reflect.DeepEqual(m.Fields, []string{"400", "6", "7"}) {
		t.Fatalf("mc_node_create: %+v", m)
	}
	if m := cmds[9]; m.Kind != "mirroring_add" || !reflect.DeepEqual(m.Fields, []string{"5", "4"}) {
		t.Fatalf("mirroring_add: %+v", m)
	}
	if w := cmds[10]; w.Kind != "wait" {
		t.Fatalf("wait: %+v", w)
	}
}

func TestParseSTFRefusesWhatP4CsParserRefuses(t *testing.T) {
	for _, src := range []string{
		"packet x 00",              // port not a number
		"packet 1 00 zz",           // not hex
		"expect 1 00$ 11",          // '$' not at the end
		"add t k:0x1",              // no action
		"add t a()",                // no key
		"add t k:0x1 a(x:1 y:2)",   // missing comma
		"setdefault t a(x:1) junk", // trailing tokens
		"add t k:0x1 a(x:1) = ",    // no id after '='
		"add t k:@ a()",            // illegal character
	} {
		if _, err := ParseSTF(src); err == nil {
			t.Errorf("%q: parsed, want an error", src)
		} else if !strings.Contains(err.Error(), "line 1") {
			t.Errorf("%q: error %v does not name the line", src, err)
		}
	}
}

func TestTernaryValueFollowsMakeMask(t *testing.T) {
	for _, c := range []struct{ in, val, mask string }{
		{"0x****0101", "101", "ffff"},
		{"0x25**", "2500", "ff00"},
		{"0x01", "1", "ff"}, // unwritten high digits are not matched
		{"0b1*0", "4", "5"},
		{"0x1&&&0xf0", "1", "f0"},
	} {
		v, m, err := ternaryValue(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if v.Text(16) != c.val || m.Text(16) != c.mask {
			t.Errorf("%s: value %s mask %s, want %s %s", c.in, v.Text(16), m.Text(16), c.val, c.mask)
		}
	}
	if _, _, err := ternaryValue("17"); err == nil {
		t.Error("a decimal ternary value was taken (bmv2stf.py refuses it)")
	}
}

func TestLPMValueFollowsMakeLpm(t *testing.T) {
	for _, c := range []struct {
		in   string
		val  string
		plen int
	}{
		{"0x0a010065", "a010065", 32},
		{"0x0a01****", "a010000", 16},
		{"0x0a000000/8", "a000000", 8},
		{"0b10**", "8", 2},
	} {
		v, plen, err := lpmValue(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if v.Text(16) != c.val || plen != c.plen {
			t.Errorf("%s: %s/%d, want %s/%d", c.in, v.Text(16), plen, c.val, c.plen)
		}
	}
}

func TestKeyFieldFollowsTableKeyInstanceSet(t *testing.T) {
	fields := []string{"hdr.ethernet.dstAddr", "extra[0].h", "hdr.h.$valid$", "meta.x$"}
	for _, c := range []struct {
		key  string
		want int
	}{
		{"hdr.ethernet.dstAddr", 0},
		{"ethernet.dstAddr", 0},
		{"dstAddr", 0},
		{"extra$0.h", 1},
		{"hdr.h", 2},
		{"hdr.h.valid", 2},
		{"valid", 2},
		{"meta.x", 3},
		{"x", 3},
	} {
		got, err := keyField(fields, c.key)
		if err != nil || got != c.want {
			t.Errorf("%s: %d %v, want %d", c.key, got, err, c.want)
		}
	}
	if _, err := keyField(fields, "nope"); err == nil {
		t.Error("an unknown key field was found")
	}
}

func TestBySuffixPrefersExactThenUniqueSuffix(t *testing.T) {
	names := []string{"ingress.t", "ingress.tt", "egress.t2", "ingress.a.t"}
	if i, err := bySuffix(names, "ingress.t"); err != nil || i != 0 {
		t.Fatalf("exact: %d %v", i, err)
	}
	if i, err := bySuffix(names, "t2"); err != nil || i != 2 {
		t.Fatalf("suffix: %d %v", i, err)
	}
	if _, err := bySuffix(names, "t"); err == nil {
		t.Fatal("ambiguous suffix t resolved")
	}
	if _, err := bySuffix(names, "zz"); err == nil {
		t.Fatal("unknown name resolved")
	}
}

func TestToBytesFitsTheFieldWidth(t *testing.T) {
	n, _ := parseNumber("0x1ff")
	b, err := toBytes(n, 9)
	if err != nil || len(b) != 2 || b[0] != 1 || b[1] != 0xff {
		t.Fatalf("9 bits: %x %v", b, err)
	}
	// Above the bit width within the bytes: truncated, as BMv2 does.
	n, _ = parseNumber("0xfff")
	if b, err = toBytes(n, 9); err != nil || b[0] != 1 {
		t.Fatalf("truncation: %x %v", b, err)
	}
	// Wider than the bytes: refused, as simple_switch_CLI does.
	n, _ = parseNumber("0x10000")
	if _, err = toBytes(n, 16); err == nil {
		t.Fatal("a 17-bit value fit 16 bits")
	}
	if _, err := parseNumber("0x1*"); err == nil {
		t.Fatal("a '*' digit parsed as a number")
	}
}

// "packet PORT" with no data is an empty packet, as bmv2stf.py reads it
// (p4c's gauntlet_enum_assign sends one).
func TestParseSTFReadsAPacketWithNoDataAsAnEmptyPacket(t *testing.T) {
	cmds, err := ParseSTF("packet 0 \n")
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 1 || cmds[0].Kind != "packet" || cmds[0].Port != 0 || cmds[0].Data != "" {
		t.Fatalf("%+v", cmds)
	}
}
