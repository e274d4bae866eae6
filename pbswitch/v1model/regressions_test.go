// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"testing"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// Regressions found by p4c's STF samples (make test-p4c-stf), each pinned
// by testdata/regressions.p4 without needing p4c:
//   - a bool field is declared [name, 1, 0] (gauntlet_various_ops-bmv2);
//   - a parser state may call a primitive (assign_header_stack, array-copy-bmv2);
//   - an expression may wrap a stack_field (stack_complex-bmv2);
//   - setValid on a union member invalidates the others (issue561-3-bmv2);
//   - switch on a value is a table with const entries that the p4info does
//     not list (invalid-hdr-warnings3-bmv2), and its key sizes the scratch key;
//   - lookahead past the end is PacketTooShort (issue1768-bmv2).
func TestRegressionsFromTheSTFSamples(t *testing.T) {
	tp := loadTestProgram(t, "regressions")
	for _, c := range []struct {
		name string
		in   []byte
		out  []byte // nil: dropped
	}{
		{"union a, switch 1, ternary entry masked", []byte{1 << 1, 5, 6, 0xaa, 0xaa},
			[]byte{1 << 1, 0xaa, 0xaa, 5, 6, 10, 1, 6, 6}},
		{"setValid b drops a, switch 2, second entry", []byte{2<<1 | 1, 7, 8, 0xaa, 0xaa},
			[]byte{2<<1 | 1, 0xbb, 0xbb, 7, 8, 20, 2, 8, 8}},
		{"switch default, no entry, payload kept", []byte{5 << 1, 1, 2, 0, 0},
			[]byte{5 << 1, 1, 2, 99, 0, 2, 2, 0, 0}},
		{"lookahead past the end", []byte{3 << 1, 1, 2, 0xaa}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			pk, ok := tp.run(c.in)
			if c.out == nil {
				if ok || pk.Meta.EgressSpec != pipeline.DropPort {
					t.Fatalf("not dropped: %x", pk.Frame)
				}
				return
			}
			if !ok || !bytes.Equal(pk.Frame, c.out) {
				t.Fatalf("out %x (forwarded %v), want %x", pk.Frame, ok, c.out)
			}
		})
	}
}

// p4c may write a const entry's key with bits outside its mask or prefix;
// BMv2 ignores them, and P4Runtime's table wants them zero.
func TestConstEntryKeysAreMasked(t *testing.T) {
	fm, err := constMatch("ternary", "0x1111", "0x000f", "", "", 0, 16)
	if err != nil || !bytes.Equal(fm.Value, []byte{0, 1}) {
		t.Fatalf("ternary %x, %v", fm.Value, err)
	}
	fm, err = constMatch("lpm", "0x0a0b0c0d", "", "", "", 16, 32)
	if err != nil || !bytes.Equal(fm.Value, []byte{10, 11, 0, 0}) || fm.PrefixLen != 16 {
		t.Fatalf("lpm %x/%d, %v", fm.Value, fm.PrefixLen, err)
	}
	if fm, _ := constMatch("lpm", "0x0a000000", "", "", "", 0, 32); !fm.Wildcard {
		t.Fatal("a /0 prefix is not a wildcard")
	}
}
