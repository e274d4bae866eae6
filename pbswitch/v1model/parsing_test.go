// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// ethFrame is testdata/parsing.p4's eth header with type typ, then rest.
func ethFrame(typ uint16, rest ...byte) []byte {
	f := make([]byte, 14, 14+len(rest))
	copy(f, []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1})
	binary.BigEndian.PutUint16(f[12:], typ)
	return append(f, rest...)
}

// parsingReport is what ingress writes into the report header.
type parsingReport struct {
	parserError uint32
	tags, last  byte
	path, peek  byte
}

func readReport(f []byte) parsingReport {
	return parsingReport{binary.BigEndian.Uint32(f), f[4], f[5], f[6], f[7]}
}

func TestParserSelectsExtractsStacksAndRaisesErrors(t *testing.T) {
	tp := loadTestProgram(t, "parsing")
	payload := []byte{0xde, 0xad, 0xbe, 0xef}
	for _, c := range []struct {
		name string
		in   []byte
		want parsingReport
		out  []byte // the frame after the 8-byte report
	}{
		{"three tags", ethFrame(0x8100, append([]byte{1, 7, 1, 8, 0, 9}, payload...)...),
			parsingReport{0, 3, 9, 1, 1}, ethFrame(0x8100, append([]byte{1, 7, 1, 8, 0, 9}, payload...)...)},
		{"a fourth tag overflows the stack", ethFrame(0x8100, 1, 1, 1, 2, 1, 3, 1, 4),
			parsingReport{3, 3, 3, 1, 1}, ethFrame(0x8100, 1, 1, 1, 2, 1, 3, 1, 4)},
		{"masked type and lookahead", ethFrame(0x0812, 0x45, 0),
			parsingReport{0, 0, 0, 2, 0x45}, ethFrame(0x0812, 0x45, 0)},
		{"lookahead mismatch falls to default", ethFrame(0x0800, 0x46, 0),
			parsingReport{0, 0, 0, 0, 0x46}, ethFrame(0x0800, 0x46, 0)},
		{"advance drops what it skips", ethFrame(0x0901, 0xaa, 0xbb, 0xcc),
			parsingReport{0, 0, 0, 3, 0xaa}, ethFrame(0x0901, 0xcc)},
		{"verify raises the program's own error", ethFrame(0xdead, 1, 2),
			parsingReport{9, 0, 0, 0, 0}, ethFrame(0xdead, 1, 2)},
		{"a short header is PacketTooShort and stays invalid", []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
			parsingReport{1, 0, 0, 0, 0}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"a cut tag is PacketTooShort", ethFrame(0x8100, 1),
			parsingReport{1, 0, 0, 1, 1}, ethFrame(0x8100, 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			pk, ok := tp.run(c.in)
			if !ok {
				t.Fatal("dropped")
			}
			if len(pk.Frame) < 8 {
				t.Fatalf("output %x has no report", pk.Frame)
			}
			if got := readReport(pk.Frame); got != c.want {
				t.Errorf("report %+v, want %+v", got, c.want)
			}
			if !bytes.Equal(pk.Frame[8:], c.out) {
				t.Errorf("after the report %x, want %x", pk.Frame[8:], c.out)
			}
		})
	}
}
