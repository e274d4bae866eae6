// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// ctrlHeader is a controller header (packet_in / packet_out) bound to the
// header instance the program carries it in.
type ctrlHeader struct {
	hdr    int
	bytes  int
	fields []ctrlField
}

type ctrlField struct {
	id    uint32
	off   int // bit offset in the header
	width int
}

// bindCtrlHeader finds the header instance whose type has exactly the
// controller header's fields (names and widths, in order). A program
// without that controller header gets nil.
func (c *compiler) bindCtrlHeader(info *p4info.P4Info, name string) (*ctrlHeader, error) {
	var meta *p4info.ControllerPacketMetadata
	for _, m := range info.GetControllerPacketMetadata() {
		if m.GetPreamble().GetName() == name {
			meta = m
		}
	}
	if meta == nil {
		return nil, nil
	}
	for hi, h := range c.l.headers {
		if h.metadata {
			continue
		}
		t := c.l.types[h.typ]
		if len(t.fields) != len(meta.GetMetadata()) {
			continue
		}
		ch := &ctrlHeader{hdr: hi, bytes: t.bits / 8}
		off, match := 0, true
		for i, m := range meta.GetMetadata() {
			f := t.fields[i]
			if f.Name != m.GetName() || f.Width != int(m.GetBitwidth()) || f.Width > 64 {
				match = false
				break
			}
			ch.fields = append(ch.fields, ctrlField{id: m.GetId(), off: off, width: f.Width})
			off += f.Width
		}
		if match {
			return ch, nil
		}
	}
	for _, m := range meta.GetMetadata() {
		if tr := pipeline.TranslationOf(info, m.GetTypeName()); tr != nil {
			return nil, unsupported(name+" metadata "+m.GetName()+" of @p4runtime_translation type "+tr.URI, nil)
		}
	}
	return nil, invalid(nil, "no header carries the p4info's %s controller header", name)
}

// prepend builds packet_out header bytes from the controller's metadata in
// front of frame.
func (ch *ctrlHeader) prepend(frame []byte, meta []pipeline.CtrlMeta) []byte {
	out := make([]byte, ch.bytes+len(frame))
	for _, f := range ch.fields {
		for _, m := range meta {
			if m.ID == f.id {
				writeBits(out, f.off, f.width, pipeline.Uint(m.Value)&mask64(f.width))
			}
		}
	}
	copy(out[ch.bytes:], frame)
	return out
}

// split reads the packet_in header off the front of frame into metadata
// (full-width values) and returns the rest.
func (ch *ctrlHeader) split(frame []byte, meta []pipeline.CtrlMeta) ([]byte, []pipeline.CtrlMeta) {
	if len(frame) < ch.bytes {
		return frame, meta
	}
	for _, f := range ch.fields {
		v := make([]byte, pipeline.Width(f.width))
		pipeline.PutUint(v, readBits(frame, f.off, f.width))
		meta = append(meta, pipeline.CtrlMeta{ID: f.id, Value: v})
	}
	return frame[ch.bytes:], meta
}
