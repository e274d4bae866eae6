// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"unicode/utf8"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// ServerOption gives the gRPC server that serves P4Runtime the codec that
// decodes Write requests of table entries without reflection. Every other
// message, and any Write the fast decoder does not cover, goes through
// gRPC's protobuf codec unchanged.
func ServerOption() grpc.ServerOption {
	return grpc.ForceServerCodecV2(writeCodec{encoding.GetCodecV2("proto")})
}

// writeCodec is gRPC's protobuf codec with a fast path for *p4.WriteRequest.
// Installing sessions is dominated by decoding: protobuf-go's reflective
// decoder allocates every message and oneof wrapper on its own (about 6 µs
// of a 1M-session UPF install's 11 µs per session on the server).
type writeCodec struct{ encoding.CodecV2 }

func (c writeCodec) Unmarshal(data mem.BufferSlice, v any) error {
	req, ok := v.(*p4.WriteRequest)
	if !ok {
		return c.CodecV2.Unmarshal(data, v)
	}
	// The decoded values alias buf, which gRPC does not recycle (unlike
	// the buffers in data); the server copies every value it keeps.
	buf := data.Materialize()
	proto.Reset(req)
	if (&writeDecoder{}).request(buf, req) {
		return nil
	}
	proto.Reset(req)
	return proto.Unmarshal(buf, req)
}

// writeDecoder decodes the WriteRequests table-entry updates are made of,
// exactly as proto.Unmarshal would, and answers false for anything else: a
// field it does not know (other entities, meter configs, counter data,
// range matches, action profiles, unknown fields), a repeated singular
// message field (protobuf merges those), invalid UTF-8 or malformed wire
// data. Then the caller decodes with proto.Unmarshal, the reference. The
// messages come from chunks (one allocation for many), not one by one.
type writeDecoder struct {
	updates  []p4.Update
	entities []p4.Entity
	entries  []p4.TableEntry
	tableEnt []p4.Entity_TableEntry
	matches  []p4.FieldMatch
	exacts   []p4.FieldMatch_Exact
	exactOf  []p4.FieldMatch_Exact_
	actions  []p4.TableAction
	actionOf []p4.TableAction_Action
	calls    []p4.Action
	params   []p4.Action_Param
	matchPtr []*p4.FieldMatch
	paramPtr []*p4.Action_Param
	scratchM []*p4.FieldMatch
	scratchP []*p4.Action_Param
}

const chunk = 256

// take is a zeroed *T from the chunk in *s, which gets a new chunk when
// full; earlier pointers stay valid because a full chunk is never grown.
func take[T any](s *[]T) *T {
	if len(*s) == cap(*s) {
		*s = make([]T, 0, chunk)
	}
	*s = (*s)[:len(*s)+1]
	return &(*s)[len(*s)-1]
}

// carve copies items into the chunk in *s and returns them as a slice of
// their own capacity (appending to it cannot overwrite its neighbours).
func carve[T any](s *[]T, items []T) []T {
	if len(items) == 0 {
		return nil
	}
	if cap(*s)-len(*s) < len(items) {
		*s = make([]T, 0, max(chunk, len(items)))
	}
	n := len(*s)
	*s = append(*s, items...)
	return (*s)[n : n+len(items) : n+len(items)]
}

// field is one field of a message: its number, wire type, and either its
// varint value or its bytes (aliasing the input).
type field struct {
	num   protowire.Number
	typ   protowire.Type
	value uint64
	bytes []byte
}

// next consumes the field at the start of *b; false on malformed data or a
// wire type other than varint and length-delimited (no P4Runtime field the
// decoder knows uses the others).
func next(b *[]byte) (f field, ok bool) {
	num, typ, n := protowire.ConsumeTag(*b)
	if n < 0 {
		return f, false
	}
	*b = (*b)[n:]
	f.num, f.typ = num, typ
	switch typ {
	case protowire.VarintType:
		f.value, n = protowire.ConsumeVarint(*b)
	case protowire.BytesType:
		f.bytes, n = protowire.ConsumeBytes(*b)
	default:
		return f, false
	}
	if n < 0 {
		return f, false
	}
	*b = (*b)[n:]
	return f, true
}

func (f field) isVarint() bool { return f.typ == protowire.VarintType }
func (f field) isBytes() bool  { return f.typ == protowire.BytesType }

func (d *writeDecoder) request(b []byte, req *p4.WriteRequest) bool {
	var ups []*p4.Update
	for len(b) > 0 {
		f, ok := next(&b)
		if !ok {
			return false
		}
		switch {
		case f.num == 1 && f.isVarint():
			req.DeviceId = f.value
		case f.num == 2 && f.isVarint():
			req.RoleId = f.value
		case f.num == 3 && f.isBytes() && req.ElectionId == nil:
			req.ElectionId = &p4.Uint128{}
			if !uint128(f.bytes, req.ElectionId) {
				return false
			}
		case f.num == 4 && f.isBytes():
			u := take(&d.updates)
			if !d.update(f.bytes, u) {
				return false
			}
			ups = append(ups, u)
		case f.num == 5 && f.isVarint():
			req.Atomicity = p4.WriteRequest_Atomicity(int32(f.value))
		case f.num == 6 && f.isBytes() && utf8.Valid(f.bytes):
			req.Role = string(f.bytes)
		default:
			return false
		}
	}
	req.Updates = ups
	return true
}

func uint128(b []byte, v *p4.Uint128) bool {
	for len(b) > 0 {
		f, ok := next(&b)
		switch {
		case !ok || !f.isVarint():
			return false
		case f.num == 1:
			v.High = f.value
		case f.num == 2:
			v.Low = f.value
		default:
			return false
		}
	}
	return true
}

func (d *writeDecoder) update(b []byte, u *p4.Update) bool {
	for len(b) > 0 {
		f, ok := next(&b)
		switch {
		case !ok:
			return false
		case f.num == 1 && f.isVarint():
			u.Type = p4.Update_Type(int32(f.value))
		case f.num == 2 && f.isBytes() && u.Entity == nil:
			u.Entity = take(&d.entities)
			if !d.entity(f.bytes, u.Entity) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func (d *writeDecoder) entity(b []byte, e *p4.Entity) bool {
	for len(b) > 0 {
		f, ok := next(&b)
		if !ok || f.num != 2 || !f.isBytes() || e.Entity != nil {
			return false
		}
		te := take(&d.entries)
		if !d.tableEntry(f.bytes, te) {
			return false
		}
		w := take(&d.tableEnt)
		w.TableEntry = te
		e.Entity = w
	}
	return true
}

func (d *writeDecoder) tableEntry(b []byte, te *p4.TableEntry) bool {
	d.scratchM = d.scratchM[:0]
	for len(b) > 0 {
		f, ok := next(&b)
		if !ok {
			return false
		}
		switch {
		case f.num == 1 && f.isVarint():
			te.TableId = uint32(f.value)
		case f.num == 2 && f.isBytes():
			m := take(&d.matches)
			if !d.fieldMatch(f.bytes, m) {
				return false
			}
			d.scratchM = append(d.scratchM, m)
		case f.num == 3 && f.isBytes() && te.Action == nil:
			te.Action = take(&d.actions)
			if !d.tableAction(f.bytes, te.Action) {
				return false
			}
		case f.num == 4 && f.isVarint():
			te.Priority = int32(f.value)
		case f.num == 5 && f.isVarint():
			te.ControllerMetadata = f.value
		case f.num == 8 && f.isVarint():
			te.IsDefaultAction = f.value != 0
		case f.num == 9 && f.isVarint():
			te.IdleTimeoutNs = int64(f.value)
		case f.num == 11 && f.isBytes():
			te.Metadata = f.bytes
		case f.num == 13 && f.isVarint():
			te.IsConst = f.value != 0
		default:
			return false
		}
	}
	te.Match = carve(&d.matchPtr, d.scratchM)
	return true
}

// fieldMatch decodes exact, LPM, ternary and optional matches; range
// matches go to proto.Unmarshal.
func (d *writeDecoder) fieldMatch(b []byte, m *p4.FieldMatch) bool {
	for len(b) > 0 {
		f, ok := next(&b)
		switch {
		case !ok:
			return false
		case f.num == 1 && f.isVarint():
			m.FieldId = uint32(f.value)
		case !f.isBytes() || m.FieldMatchType != nil:
			return false
		case f.num == 2:
			x := take(&d.exacts)
			if !bytesField(f.bytes, 1, &x.Value) {
				return false
			}
			w := take(&d.exactOf)
			w.Exact = x
			m.FieldMatchType = w
		case f.num == 3:
			x := &p4.FieldMatch_Ternary{}
			if !ternary(f.bytes, x) {
				return false
			}
			m.FieldMatchType = &p4.FieldMatch_Ternary_{Ternary: x}
		case f.num == 4:
			x := &p4.FieldMatch_LPM{}
			if !lpm(f.bytes, x) {
				return false
			}
			m.FieldMatchType = &p4.FieldMatch_Lpm{Lpm: x}
		case f.num == 7:
			x := &p4.FieldMatch_Optional{}
			if !bytesField(f.bytes, 1, &x.Value) {
				return false
			}
			m.FieldMatchType = &p4.FieldMatch_Optional_{Optional: x}
		default:
			return false
		}
	}
	return true
}

func ternary(b []byte, x *p4.FieldMatch_Ternary) bool {
	for len(b) > 0 {
		f, ok := next(&b)
		switch {
		case !ok || !f.isBytes():
			return false
		case f.num == 1:
			x.Value = f.bytes
		case f.num == 2:
			x.Mask = f.bytes
		default:
			return false
		}
	}
	return true
}

func lpm(b []byte, x *p4.FieldMatch_LPM) bool {
	for len(b) > 0 {
		f, ok := next(&b)
		switch {
		case !ok:
			return false
		case f.num == 1 && f.isBytes():
			x.Value = f.bytes
		case f.num == 2 && f.isVarint():
			x.PrefixLen = int32(f.value)
		default:
			return false
		}
	}
	return true
}

// bytesField decodes a message whose only field is bytes field num.
func bytesField(b []byte, num protowire.Number, v *[]byte) bool {
	for len(b) > 0 {
		f, ok := next(&b)
		if !ok || f.num != num || !f.isBytes() {
			return false
		}
		*v = f.bytes
	}
	return true
}

// tableAction decodes a direct action; action profile references go to
// proto.Unmarshal.
func (d *writeDecoder) tableAction(b []byte, ta *p4.TableAction) bool {
	for len(b) > 0 {
		f, ok := next(&b)
		if !ok || f.num != 1 || !f.isBytes() || ta.Type != nil {
			return false
		}
		a := take(&d.calls)
		if !d.action(f.bytes, a) {
			return false
		}
		w := take(&d.actionOf)
		w.Action = a
		ta.Type = w
	}
	return true
}

func (d *writeDecoder) action(b []byte, a *p4.Action) bool {
	d.scratchP = d.scratchP[:0]
	for len(b) > 0 {
		f, ok := next(&b)
		switch {
		case !ok:
			return false
		case f.num == 1 && f.isVarint():
			a.ActionId = uint32(f.value)
		case f.num == 4 && f.isBytes():
			p := take(&d.params)
			if !actionParam(f.bytes, p) {
				return false
			}
			d.scratchP = append(d.scratchP, p)
		default:
			return false
		}
	}
	a.Params = carve(&d.paramPtr, d.scratchP)
	return true
}

func actionParam(b []byte, p *p4.Action_Param) bool {
	for len(b) > 0 {
		f, ok := next(&b)
		switch {
		case !ok:
			return false
		case f.num == 2 && f.isVarint():
			p.ParamId = uint32(f.value)
		case f.num == 3 && f.isBytes():
			p.Value = f.bytes
		default:
			return false
		}
	}
	return true
}
