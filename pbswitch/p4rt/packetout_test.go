// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"strings"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
)

func packetOutInfo() *p4info.P4Info {
	return &p4info.P4Info{ControllerPacketMetadata: []*p4info.ControllerPacketMetadata{{
		Preamble: &p4info.Preamble{Name: "packet_out"},
		Metadata: []*p4info.ControllerPacketMetadata_Metadata{
			{Id: 1, Name: "egress_port", Bitwidth: 9},
			{Id: 2, Name: "_pad", Bitwidth: 7},
		},
	}}}
}

func TestCheckPacketOut(t *testing.T) {
	meta := func(id uint32, v ...byte) *p4.PacketMetadata {
		return &p4.PacketMetadata{MetadataId: id, Value: v}
	}
	cases := []struct {
		name    string
		meta    []*p4.PacketMetadata
		wantErr string
	}{
		{"egress port only", []*p4.PacketMetadata{meta(1, 2)}, ""},
		{"with padding", []*p4.PacketMetadata{meta(1, 1, 0xff), meta(2, 0)}, ""},
		{"no metadata", nil, `"egress_port" (id 1) is missing`},
		{"unknown id", []*p4.PacketMetadata{meta(1, 2), meta(9, 1)}, "no metadata id 9"},
		{"repeated id", []*p4.PacketMetadata{meta(1, 2), meta(1, 3)}, "given twice"},
		{"too wide", []*p4.PacketMetadata{meta(1, 2, 0)}, "does not fit"},
		{"empty value", []*p4.PacketMetadata{meta(1)}, "empty value"},
	}
	for _, c := range cases {
		err := checkPacketOut(packetOutInfo(), &p4.PacketOut{Payload: []byte{1}, Metadata: c.meta})
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: unexpected error %v", c.name, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.wantErr)
		}
	}
}
