// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"testing"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

func exactMatch(id uint32, v []byte) *p4.FieldMatch {
	return &p4.FieldMatch{FieldId: id, FieldMatchType: &p4.FieldMatch_Exact_{Exact: &p4.FieldMatch_Exact{Value: v}}}
}

func directAction(id uint32, params ...[]byte) *p4.TableAction {
	a := &p4.Action{ActionId: id}
	for i, v := range params {
		a.Params = append(a.Params, &p4.Action_Param{ParamId: uint32(i + 1), Value: v})
	}
	return &p4.TableAction{Type: &p4.TableAction_Action{Action: a}}
}

func tableUpdate(typ p4.Update_Type, te *p4.TableEntry) *p4.Update {
	return &p4.Update{Type: typ, Entity: &p4.Entity{Entity: &p4.Entity_TableEntry{TableEntry: te}}}
}

// fastRequests are Writes the fast decoder takes.
func fastRequests() []*p4.WriteRequest {
	session := &p4.TableEntry{TableId: 7, Match: []*p4.FieldMatch{exactMatch(1, []byte{10, 64, 0, 1})},
		Action: directAction(3, []byte{1}, []byte{0}, []byte{0, 5})}
	all := &p4.TableEntry{TableId: 9, Priority: -3, ControllerMetadata: 1 << 60, IdleTimeoutNs: -1, Metadata: []byte("m"), IsConst: true,
		Match: []*p4.FieldMatch{
			{FieldId: 1, FieldMatchType: &p4.FieldMatch_Lpm{Lpm: &p4.FieldMatch_LPM{Value: []byte{10}, PrefixLen: 8}}},
			{FieldId: 2, FieldMatchType: &p4.FieldMatch_Ternary_{Ternary: &p4.FieldMatch_Ternary{Value: []byte{1}, Mask: []byte{3}}}},
			{FieldId: 3, FieldMatchType: &p4.FieldMatch_Optional_{Optional: &p4.FieldMatch_Optional{Value: []byte{4}}}},
			{FieldId: 4},
			exactMatch(5, []byte{}),
		},
		Action: &p4.TableAction{}}
	defaultEntry := &p4.TableEntry{TableId: 7, IsDefaultAction: true, Action: directAction(4)}
	return []*p4.WriteRequest{
		{},
		{DeviceId: 1, ElectionId: &p4.Uint128{Low: 1}, Updates: []*p4.Update{tableUpdate(p4.Update_INSERT, session)}},
		{DeviceId: 1 << 40, RoleId: 3, Role: "upf", ElectionId: &p4.Uint128{High: 2, Low: 9}, Atomicity: p4.WriteRequest_ROLLBACK_ON_ERROR,
			Updates: []*p4.Update{
				tableUpdate(p4.Update_MODIFY, all), tableUpdate(p4.Update_MODIFY, defaultEntry), tableUpdate(p4.Update_DELETE, session),
				{Type: p4.Update_INSERT}, {Entity: &p4.Entity{}}, tableUpdate(p4.Update_INSERT, &p4.TableEntry{}),
				{Type: p4.Update_Type(42), Entity: &p4.Entity{Entity: &p4.Entity_TableEntry{TableEntry: session}}},
			}},
	}
}

// slowRequests are Writes the fast decoder leaves to proto.Unmarshal.
func slowRequests() []*p4.WriteRequest {
	other, _ := anypb.New(&p4.Uint128{})
	entity := func(e *p4.Entity) *p4.WriteRequest {
		return &p4.WriteRequest{Updates: []*p4.Update{{Type: p4.Update_INSERT, Entity: e}}}
	}
	entry := func(te *p4.TableEntry) *p4.WriteRequest {
		return entity(&p4.Entity{Entity: &p4.Entity_TableEntry{TableEntry: te}})
	}
	return []*p4.WriteRequest{
		entity(&p4.Entity{Entity: &p4.Entity_CounterEntry{CounterEntry: &p4.CounterEntry{CounterId: 1}}}),
		entity(&p4.Entity{Entity: &p4.Entity_PacketReplicationEngineEntry{PacketReplicationEngineEntry: &p4.PacketReplicationEngineEntry{}}}),
		entry(&p4.TableEntry{MeterConfig: &p4.MeterConfig{Cir: 1}}),
		entry(&p4.TableEntry{CounterData: &p4.CounterData{}}),
		entry(&p4.TableEntry{Action: &p4.TableAction{Type: &p4.TableAction_ActionProfileMemberId{ActionProfileMemberId: 1}}}),
		entry(&p4.TableEntry{Match: []*p4.FieldMatch{{FieldId: 1, FieldMatchType: &p4.FieldMatch_Range_{Range: &p4.FieldMatch_Range{Low: []byte{1}}}}}}),
		entry(&p4.TableEntry{Match: []*p4.FieldMatch{{FieldId: 1, FieldMatchType: &p4.FieldMatch_Other{Other: other}}}}),
	}
}

func decodeFast(t *testing.T, raw []byte) (*p4.WriteRequest, bool) {
	t.Helper()
	req := &p4.WriteRequest{}
	return req, (&writeDecoder{}).request(raw, req)
}

func TestWriteDecoderMatchesProto(t *testing.T) {
	for i, want := range fastRequests() {
		raw, err := proto.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := decodeFast(t, raw)
		if !ok {
			t.Fatalf("request %d: the fast decoder refused %v", i, want)
		}
		if !proto.Equal(got, want) {
			t.Fatalf("request %d: decoded %v, want %v", i, got, want)
		}
	}
	for i, req := range slowRequests() {
		raw, err := proto.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := decodeFast(t, raw); ok {
			t.Errorf("slow request %d: the fast decoder took %v", i, req)
		}
	}
}

// TestWriteDecoderRefusesWhatProtoMerges checks the wire forms protobuf
// gives a meaning the decoder does not model: a singular message given
// twice (merged), a known field with another wire type (an unknown field),
// invalid UTF-8 in the role (an error), truncated data (an error).
func TestWriteDecoderRefusesWhatProtoMerges(t *testing.T) {
	election := protowire.AppendTag(nil, 3, protowire.BytesType)
	election = protowire.AppendBytes(election, protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), 1))
	valid, _ := proto.Marshal(fastRequests()[1])
	cases := map[string][]byte{
		"election twice":     append(append([]byte{}, election...), election...),
		"device id as bytes": protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte{1}),
		"role not UTF-8":     protowire.AppendBytes(protowire.AppendTag(nil, 6, protowire.BytesType), []byte{0xff}),
		"truncated":          valid[:len(valid)-1],
		"fixed32 field":      protowire.AppendFixed32(protowire.AppendTag(nil, 1, protowire.Fixed32Type), 1),
		"unknown field":      protowire.AppendVarint(protowire.AppendTag(nil, 99, protowire.VarintType), 1),
	}
	for name, raw := range cases {
		if _, ok := decodeFast(t, raw); ok {
			t.Errorf("%s: the fast decoder took it", name)
		}
	}
}

// FuzzWriteDecoder: whatever the fast decoder takes, proto.Unmarshal
// decodes to an equal message.
func FuzzWriteDecoder(f *testing.F) {
	for _, req := range append(fastRequests(), slowRequests()...) {
		raw, err := proto.Marshal(req)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := decodeFast(t, raw)
		if !ok {
			return
		}
		want := &p4.WriteRequest{}
		if err := proto.Unmarshal(raw, want); err != nil {
			t.Fatalf("the fast decoder took what proto.Unmarshal refuses (%v): %v", err, got)
		}
		if !proto.Equal(got, want) {
			t.Fatalf("decoded %v, proto.Unmarshal %v", got, want)
		}
	})
}

// TestValuesShareOneBufferSafely: an entry's fitted values come from one
// buffer, each capped at its width (appending to one cannot overwrite the
// next), and a value that does not fit is refused as FitValue refuses it.
func TestValuesShareOneBufferSafely(t *testing.T) {
	v := &values{buf: make([]byte, 0, 6)}
	a, err := v.fit([]byte{1}, nil, 16)
	if err != nil {
		t.Fatal(err)
	}
	b, err := v.fit([]byte{0, 0, 2}, nil, 9)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != "\x00\x01" || string(b) != "\x00\x02" || cap(a) != 2 {
		t.Fatalf("values %x %x (cap %d)", a, b, cap(a))
	}
	_ = append(a, 0xff)
	if string(b) != "\x00\x02" {
		t.Fatalf("appending to one value changed the next: %x", b)
	}
	if _, err := v.fit([]byte{2, 0}, nil, 9); err == nil {
		t.Fatal("0x200 fitted in 9 bits")
	}
	c, err := v.fit([]byte{7, 7, 7}, nil, 24) // no room left: its own allocation
	if err != nil || string(c) != "\x07\x07\x07" || string(a)+string(b) != "\x00\x01\x00\x02" {
		t.Fatalf("value past the room: %x, %v", c, err)
	}
}

// sessionWrite is a Write of n UPF-like sessions: a one-field exact entry
// with three parameters and a two-field one with four, as upfbench writes.
func sessionWrite(n int) []byte {
	req := &p4.WriteRequest{DeviceId: 1, ElectionId: &p4.Uint128{Low: 1}}
	for i := range n {
		ue := []byte{10, 64, byte(i >> 8), byte(i)}
		req.Updates = append(req.Updates,
			tableUpdate(p4.Update_INSERT, &p4.TableEntry{TableId: 7, Match: []*p4.FieldMatch{exactMatch(1, ue)},
				Action: directAction(3, []byte{byte(i)}, []byte{0}, []byte{1})}),
			tableUpdate(p4.Update_INSERT, &p4.TableEntry{TableId: 8, Match: []*p4.FieldMatch{exactMatch(1, ue), exactMatch(2, []byte{0})},
				Action: directAction(4, []byte{byte(i)}, []byte{0}, []byte{0x20, 0, byte(i)}, []byte{9})}))
	}
	raw, err := proto.Marshal(req)
	if err != nil {
		panic(err)
	}
	return raw
}

// BenchmarkDecodeWrite decodes a Write of 1,000 sessions with
// proto.Unmarshal and with the fast decoder (b.N Writes; divide by 1,000
// for a session).
func BenchmarkDecodeWrite(b *testing.B) {
	raw := sessionWrite(1000)
	b.Run("proto", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if err := proto.Unmarshal(raw, &p4.WriteRequest{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if !(&writeDecoder{}).request(raw, &p4.WriteRequest{}) {
				b.Fatal("refused")
			}
		}
	})
}
