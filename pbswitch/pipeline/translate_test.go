// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"bytes"
	"strings"
	"testing"
)

func TestFitTranslatedTakesSDNWidthAndMapsByIdentity(t *testing.T) {
	tr := &Translation{URI: "x/port", SDNBits: 32}
	for _, c := range []struct {
		in   []byte
		want []byte
		err  string
	}{
		{in: []byte{0, 0, 1, 2}, want: []byte{1, 2}},             // padded to the SDN width
		{in: []byte{7}, want: []byte{0, 7}},                      // canonical
		{in: []byte{0, 1, 0, 0}, err: "has no data-plane value"}, // fits 32 bits, not 16
		{in: []byte{1, 0, 0, 0, 0}, err: "does not fit in 32 bits"},
		{in: nil, err: "empty value"},
	} {
		got, err := FitTranslated(c.in, tr, 16)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%x: %v, want an error saying %q", c.in, err, c.err)
		case c.err == "" && (err != nil || !bytes.Equal(got, c.want)):
			t.Errorf("%x: %x, %v; want %x", c.in, got, err, c.want)
		}
	}
	// Untranslated: the plain P4Runtime rule, no wider than the field.
	if _, err := FitTranslated([]byte{0, 0, 1, 2}, nil, 16); err != nil {
		t.Errorf("leading zero bytes refused: %v", err)
	}
	if _, err := FitTranslated([]byte{1, 0, 0}, nil, 16); err == nil {
		t.Error("an untranslated value wider than its field accepted")
	}
}
