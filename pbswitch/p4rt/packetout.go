// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"fmt"
	"strings"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// checkPacketOut checks a packet-out's metadata against the p4info's
// packet_out header (P4Runtime 1.4 section 16.1): every id is declared, no id
// repeats, every value fits its field, and every field but padding (names
// starting with "_") is present. A packet-out that fails is dropped and
// reported to its sender, never sent with guessed metadata.
func checkPacketOut(info *p4info.P4Info, pkt *p4.PacketOut) error {
	var header *p4info.ControllerPacketMetadata
	for _, h := range info.GetControllerPacketMetadata() {
		if h.GetPreamble().GetName() == "packet_out" {
			header = h
		}
	}
	if header == nil {
		return fmt.Errorf("the p4info declares no packet_out header")
	}
	fields := make(map[uint32]*p4info.ControllerPacketMetadata_Metadata, len(header.GetMetadata()))
	for _, f := range header.GetMetadata() {
		fields[f.GetId()] = f
	}
	seen := make(map[uint32]bool, len(pkt.GetMetadata()))
	for _, m := range pkt.GetMetadata() {
		f, ok := fields[m.GetMetadataId()]
		if !ok {
			return fmt.Errorf("packet_out has no metadata id %d", m.GetMetadataId())
		}
		if seen[m.GetMetadataId()] {
			return fmt.Errorf("packet_out metadata %q given twice", f.GetName())
		}
		seen[m.GetMetadataId()] = true
		if _, err := pipeline.FitValue(m.GetValue(), int(f.GetBitwidth())); err != nil {
			return fmt.Errorf("packet_out metadata %q: %v", f.GetName(), err)
		}
	}
	for id, f := range fields {
		if !seen[id] && !strings.HasPrefix(f.GetName(), "_") {
			return fmt.Errorf("packet_out metadata %q (id %d) is missing", f.GetName(), id)
		}
	}
	return nil
}
