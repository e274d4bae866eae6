// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"bytes"
	"testing"
)

func TestFitValueFollowsP4RuntimeBytestrings(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		bits int
		want []byte
		ok   bool
	}{
		{"shortest form is padded", []byte{0x01}, 9, []byte{0x00, 0x01}, true},
		{"leading zero bytes are accepted", []byte{0, 0, 0x01, 0xff}, 9, []byte{0x01, 0xff}, true},
		{"zero is one zero byte", []byte{0}, 16, []byte{0, 0}, true},
		{"empty is refused", []byte{}, 16, nil, false},
		{"nil is refused", nil, 9, nil, false},
		{"a bit above the width is refused", []byte{0x02, 0x00}, 9, nil, false},
		{"a non-zero extra byte is refused", []byte{0x01, 0, 0}, 16, nil, false},
	}
	for _, c := range cases {
		got, err := FitValue(c.in, c.bits)
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v, want ok=%v", c.name, err, c.ok)
			continue
		}
		if c.ok && !bytes.Equal(got, c.want) {
			t.Errorf("%s: got %x, want %x", c.name, got, c.want)
		}
	}
}
