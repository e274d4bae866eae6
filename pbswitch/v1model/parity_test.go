// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"errors"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// parityJSON is testdata/parity.p4 as p4c-bm2-ss lays it out, written by
// hand (trimmed to what the engine reads) so that the engine's tests of a
// @hidden table and of @p4runtime_translation types run without p4c; the
// packet tests run the compiled program.
const parityJSON = `{
 "__meta__": {"version": [2, 23], "compiler": "hand-written after p4c"},
 "header_types": [
  {"name": "scalars_0", "id": 0, "fields": [["meta.tport", 16, false], ["meta.cls", 8, false], ["tmp", 32, false]]},
  {"name": "standard_metadata", "id": 1, "fields": [["ingress_port", 9, false], ["egress_spec", 9, false], ["egress_port", 9, false],
   ["instance_type", 32, false], ["packet_length", 32, false], ["enq_timestamp", 32, false], ["enq_qdepth", 19, false],
   ["deq_timedelta", 32, false], ["deq_qdepth", 19, false], ["ingress_global_timestamp", 48, false], ["egress_global_timestamp", 48, false],
   ["mcast_grp", 16, false], ["egress_rid", 16, false], ["checksum_error", 1, false], ["parser_error", 32, false], ["priority", 3, false], ["_padding", 3, false]]},
  {"name": "eth_t", "id": 2, "fields": [["dst", 48, false], ["src", 48, false], ["type", 16, false]]},
  {"name": "tag_t", "id": 3, "fields": [["port", 16, false], ["type", 16, false]]}
 ],
 "headers": [
  {"name": "scalars", "id": 0, "header_type": "scalars_0", "metadata": true, "pi_omit": true},
  {"name": "standard_metadata", "id": 1, "header_type": "standard_metadata", "metadata": true, "pi_omit": true},
  {"name": "eth", "id": 2, "header_type": "eth_t", "metadata": false, "pi_omit": true},
  {"name": "tag", "id": 3, "header_type": "tag_t", "metadata": false, "pi_omit": true}
 ],
 "header_stacks": [], "header_union_types": [], "header_unions": [], "header_union_stacks": [], "field_lists": [],
 "errors": [["NoError", 0], ["PacketTooShort", 1], ["NoMatch", 2], ["StackOutOfBounds", 3], ["HeaderTooShort", 4], ["ParserTimeout", 5], ["ParserInvalidArgument", 6]],
 "enums": [],
 "parsers": [{"name": "parser", "id": 0, "init_state": "start", "parse_states": [
  {"name": "start", "id": 0, "parser_ops": [{"parameters": [{"type": "regular", "value": "eth"}], "op": "extract"}],
   "transitions": [{"type": "hexstr", "value": "0x88b6", "mask": null, "next_state": "parse_tag"}, {"type": "default", "value": null, "mask": null, "next_state": null}],
   "transition_key": [{"type": "field", "value": ["eth", "type"]}]},
  {"name": "parse_tag", "id": 1, "parser_ops": [{"parameters": [{"type": "regular", "value": "tag"}], "op": "extract"}],
   "transitions": [{"type": "default", "value": null, "mask": null, "next_state": null}], "transition_key": []}]}],
 "parse_vsets": [],
 "deparsers": [{"name": "deparser", "id": 0, "order": ["eth", "tag"], "primitives": []}],
 "meter_arrays": [],
 "counter_arrays": [{"name": "EgressImpl.egress_packets", "id": 0, "size": 512, "is_direct": false,
  "source_info": {"filename": "parity.p4", "line": 118, "column": 38, "source_fragment": "egress_packets"}}],
 "register_arrays": [], "calculations": [], "learn_lists": [],
 "actions": [
  {"name": "IngressImpl.set_class", "id": 0, "runtime_data": [{"name": "cls", "bitwidth": 8}], "primitives": [
   {"op": "assign", "parameters": [{"type": "field", "value": ["scalars", "meta.cls"]}, {"type": "runtime_data", "value": 0}],
    "source_info": {"filename": "parity.p4", "line": 61, "column": 8, "source_fragment": "meta.cls = cls"}}]},
  {"name": "IngressImpl.to_port", "id": 1, "runtime_data": [{"name": "port", "bitwidth": 9}], "primitives": [
   {"op": "assign", "parameters": [{"type": "field", "value": ["standard_metadata", "egress_spec"]}, {"type": "runtime_data", "value": 0}]}]},
  {"name": "IngressImpl.drop", "id": 2, "runtime_data": [], "primitives": [
   {"op": "mark_to_drop", "parameters": [{"type": "header", "value": "standard_metadata"}]}]},
  {"name": "IngressImpl.drop", "id": 3, "runtime_data": [], "primitives": [
   {"op": "mark_to_drop", "parameters": [{"type": "header", "value": "standard_metadata"}]}]},
  {"name": "IngressImpl.to_tport", "id": 4, "runtime_data": [{"name": "port", "bitwidth": 16}], "primitives": [
   {"op": "assign", "parameters": [{"type": "field", "value": ["standard_metadata", "egress_spec"]},
    {"type": "expression", "value": {"type": "expression", "value": {"op": "&", "left": {"type": "runtime_data", "value": 0}, "right": {"type": "hexstr", "value": "0x01ff"}}}}],
    "source_info": {"filename": "parity.p4", "line": 94, "column": 8, "source_fragment": "sm.egress_spec = (bit<9>)(bit<16>)port"}}]},
  {"name": "act", "id": 5, "runtime_data": [], "primitives": [
   {"op": "assign", "parameters": [{"type": "field", "value": ["scalars", "meta.tport"]}, {"type": "field", "value": ["tag", "port"]}]}]},
  {"name": "act_0", "id": 6, "runtime_data": [], "primitives": [
   {"op": "assign", "parameters": [{"type": "field", "value": ["scalars", "tmp"]},
    {"type": "expression", "value": {"type": "expression", "value": {"op": "&", "left": {"type": "field", "value": ["standard_metadata", "egress_port"]}, "right": {"type": "hexstr", "value": "0xffffffff"}}}}]},
   {"op": "count", "parameters": [{"type": "counter_array", "value": "EgressImpl.egress_packets"}, {"type": "field", "value": ["scalars", "tmp"]}]}]}
 ],
 "pipelines": [
  {"name": "ingress", "id": 0, "init_table": "node_2", "action_profiles": [],
   "tables": [
    {"name": "tbl_act", "id": 0, "key": [], "match_type": "exact", "type": "simple", "max_size": 1024, "with_counters": false, "support_timeout": false,
     "direct_meters": null, "action_ids": [5], "actions": ["act"], "base_default_next": "IngressImpl.by_tport", "next_tables": {"act": "IngressImpl.by_tport"},
     "default_entry": {"action_id": 5, "action_const": true, "action_data": [], "action_entry_const": true}},
    {"name": "IngressImpl.by_tport", "id": 1, "source_info": {"filename": "parity.p4", "line": 98, "column": 10, "source_fragment": "by_tport"},
     "key": [{"match_type": "exact", "name": "meta.tport", "target": ["scalars", "meta.tport"], "mask": null}],
     "match_type": "exact", "type": "simple", "max_size": 1024, "with_counters": false, "support_timeout": false, "direct_meters": null,
     "action_ids": [4, 3], "actions": ["IngressImpl.to_tport", "IngressImpl.drop"], "base_default_next": null,
     "next_tables": {"IngressImpl.to_tport": null, "IngressImpl.drop": null},
     "default_entry": {"action_id": 3, "action_const": false, "action_data": [], "action_entry_const": false}},
    {"name": "IngressImpl.classify", "id": 2, "source_info": {"filename": "parity.p4", "line": 66, "column": 10, "source_fragment": "classify"},
     "key": [{"match_type": "exact", "name": "hdr.eth.type", "target": ["eth", "type"], "mask": null}],
     "match_type": "exact", "type": "simple", "max_size": 1024, "with_counters": false, "support_timeout": false, "direct_meters": null,
     "action_ids": [0], "actions": ["IngressImpl.set_class"], "base_default_next": "IngressImpl.by_class",
     "next_tables": {"IngressImpl.set_class": "IngressImpl.by_class"},
     "default_entry": {"action_id": 0, "action_const": true, "action_data": ["0x03"], "action_entry_const": true},
     "entries": [
      {"match_key": [{"match_type": "exact", "key": "0x0800"}], "action_entry": {"action_id": 0, "action_data": ["0x01"]}, "priority": 1},
      {"match_key": [{"match_type": "exact", "key": "0x86dd"}], "action_entry": {"action_id": 0, "action_data": ["0x02"]}, "priority": 2}]},
    {"name": "IngressImpl.by_class", "id": 3, "source_info": {"filename": "parity.p4", "line": 84, "column": 10, "source_fragment": "by_class"},
     "key": [{"match_type": "exact", "name": "meta.cls", "target": ["scalars", "meta.cls"], "mask": null}],
     "match_type": "exact", "type": "simple", "max_size": 1024, "with_counters": false, "support_timeout": false, "direct_meters": null,
     "action_ids": [1, 2], "actions": ["IngressImpl.to_port", "IngressImpl.drop"], "base_default_next": null,
     "next_tables": {"IngressImpl.to_port": null, "IngressImpl.drop": null},
     "default_entry": {"action_id": 2, "action_const": false, "action_data": [], "action_entry_const": false}}
   ],
   "conditionals": [{"name": "node_2", "id": 0, "expression": {"type": "expression", "value": {"op": "d2b", "left": null, "right": {"type": "field", "value": ["tag", "$valid$"]}}},
    "true_next": "tbl_act", "false_next": "IngressImpl.classify"}]},
  {"name": "egress", "id": 1, "init_table": "tbl_count", "action_profiles": [],
   "tables": [{"name": "tbl_count", "id": 4, "key": [], "match_type": "exact", "type": "simple", "max_size": 1024, "with_counters": false,
    "support_timeout": false, "direct_meters": null, "action_ids": [6], "actions": ["act_0"], "base_default_next": null, "next_tables": {"act_0": null},
    "default_entry": {"action_id": 6, "action_const": true, "action_data": [], "action_entry_const": true}}],
   "conditionals": []}
 ],
 "checksums": [], "force_arith": [], "extern_instances": [], "field_aliases": [], "program": "parity.p4"
}`

// parityP4Info is p4c's p4info of testdata/parity.p4 (written by hand, as
// parityJSON): the @hidden table classify is not in it, and tport_t is a
// translated type the controller names in 32 bits.
const parityP4Info = `
tables {
  preamble { id: 33554433 name: "IngressImpl.by_class" alias: "by_class" }
  match_fields { id: 1 name: "meta.cls" bitwidth: 8 match_type: EXACT }
  action_refs { id: 16777217 }
  action_refs { id: 16777218 }
  size: 1024
}
tables {
  preamble { id: 33554434 name: "IngressImpl.by_tport" alias: "by_tport" }
  match_fields { id: 1 name: "meta.tport" bitwidth: 32 match_type: EXACT type_name { name: "tport_t" } }
  action_refs { id: 16777219 }
  action_refs { id: 16777218 }
  size: 1024
}
actions {
  preamble { id: 16777216 name: "IngressImpl.set_class" alias: "set_class" }
  params { id: 1 name: "cls" bitwidth: 8 }
}
actions {
  preamble { id: 16777217 name: "IngressImpl.to_port" alias: "to_port" }
  params { id: 1 name: "port" bitwidth: 9 }
}
actions {
  preamble { id: 16777218 name: "IngressImpl.drop" alias: "drop" }
}
actions {
  preamble { id: 16777219 name: "IngressImpl.to_tport" alias: "to_tport" }
  params { id: 1 name: "port" bitwidth: 32 type_name { name: "tport_t" } }
}
counters {
  preamble { id: 302011111 name: "EgressImpl.egress_packets" alias: "egress_packets" }
  spec { unit: PACKETS }
  size: 512
}
type_info {
  new_types {
    key: "tport_t"
    value { translated_type { uri: "flowbuf.test/tport" sdn_bitwidth: 32 } }
  }
}
`

func parityInfo(t *testing.T) *p4info.P4Info {
	t.Helper()
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal([]byte(parityP4Info), info); err != nil {
		t.Fatal(err)
	}
	return info
}

func loadParity(t *testing.T, info *p4info.P4Info) *Program {
	t.Helper()
	prog, err := Load([]byte(parityJSON), info, Options{CPUPort: 64})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

func parityFrame(ethertype uint16, tag ...byte) []byte {
	f := make([]byte, 14, 64)
	f[12], f[13] = byte(ethertype>>8), byte(ethertype)
	f = append(f, tag...)
	return append(f, make([]byte, 64-len(f))...)
}

// runTo runs frame through ingress and returns the egress_spec it chose
// (pipeline.DropPort: dropped).
func runTo(prog *Program, frame []byte) uint32 {
	pk := &pipeline.Packet{Frame: append([]byte(nil), frame...), Meta: pipeline.StdMeta{IngressPort: 1}}
	prog.Ingress(pk)
	return pk.Meta.EgressSpec
}

// A @hidden table runs as on BMv2: its const entries and default action
// decide, the control plane cannot reach it.
func TestHiddenTableRunsWithItsConstEntriesAndDefault(t *testing.T) {
	info := parityInfo(t)
	prog := loadParity(t, info)
	byClass := prog.Objects().Tables[33554433]
	for cls, port := range map[byte]byte{1: 2, 2: 3, 3: 4} {
		e := &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{cls}}},
			Action: pipeline.Action{ID: 16777217, Params: [][]byte{{0, port}}}}
		if err := byClass.Insert(e); err != nil {
			t.Fatal(err)
		}
	}
	for ethertype, want := range map[uint16]uint32{0x0800: 2, 0x86dd: 3, 0x0806: 4} {
		if got := runTo(prog, parityFrame(ethertype)); got != want {
			t.Errorf("ethertype %#04x left by port %d, want %d (the hidden table's class)", ethertype, got, want)
		}
	}
	for _, tb := range prog.Objects().Tables {
		if tb.Name == "IngressImpl.classify" {
			t.Fatal("the hidden table is among the control plane's tables")
		}
	}
}

// A key and a parameter of a @p4runtime_translation type take the data
// plane's width (16 bits) while the p4info gives the controller's (32).
func TestTranslatedTypesBindAtTheDataPlanesWidth(t *testing.T) {
	info := parityInfo(t)
	prog := loadParity(t, info)
	byTport := prog.Objects().Tables[33554434]
	if f := byTport.Fields[0]; f.Bits != 16 || f.Translated == nil || f.Translated.SDNBits != 32 {
		t.Fatalf("by_tport key: %d bits, translation %+v; want 16 bits in the data plane, 32 for the controller", f.Bits, f.Translated)
	}
	if bits := prog.Objects().ActionParams[16777219]; len(bits) != 1 || bits[0] != 16 {
		t.Fatalf("to_tport parameter widths %v, want [16]", bits)
	}
	e := &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{0x01, 0x02}}},
		Action: pipeline.Action{ID: 16777219, Params: [][]byte{{0x00, 0x05}}}}
	if err := byTport.Insert(e); err != nil {
		t.Fatal(err)
	}
	if got := runTo(prog, parityFrame(0x88b6, 0x01, 0x02, 0x08, 0x00)); got != 5 {
		t.Fatalf("tagged frame for data-plane port 0x0102 left by %d, want 5", got)
	}
	if got := runTo(prog, parityFrame(0x88b6, 0x01, 0x03, 0x08, 0x00)); got != pipeline.DropPort {
		t.Fatalf("a tag with no entry left by %d, want dropped", got)
	}
}

// What the engine does not translate is refused as unimplemented, naming
// the construct and its source line: a string translation, a ternary key.
func TestUntranslatableTypesAreUnimplemented(t *testing.T) {
	info := parityInfo(t)
	info.TypeInfo.NewTypes["tport_t"].GetTranslatedType().SdnType = &p4info.P4NewTypeTranslation_SdnString_{SdnString: &p4info.P4NewTypeTranslation_SdnString{}}
	_, err := Load([]byte(parityJSON), info, Options{CPUPort: 64})
	wantUnsupported(t, err, "translated to a string", "parity.p4:")

	info = parityInfo(t)
	info.Tables[1].MatchFields[0].Match = &p4info.MatchField_MatchType_{MatchType: p4info.MatchField_TERNARY}
	_, err = Load([]byte(parityJSON), info, Options{CPUPort: 64})
	var u *UnsupportedError
	if !errors.As(err, &u) {
		t.Fatalf("a ternary translated key: %v, want unimplemented", err)
	}
	wantUnsupported(t, err, "TERNARY match field meta.tport in IngressImpl.by_tport of @p4runtime_translation type flowbuf.test/tport", "parity.p4:98")
}

// A width mismatch on a type that is not translated is still a p4info of
// another program.
func TestAnUntranslatedWidthMismatchIsRefused(t *testing.T) {
	info := parityInfo(t)
	info.TypeInfo = nil
	_, err := Load([]byte(parityJSON), info, Options{CPUPort: 64})
	wantInvalid(t, err, "is 16 bits in the JSON and 32 in the p4info")
}

// Controller packet metadata of a translated type whose width differs
// from the header's is not translated: refused as unimplemented.
func TestTranslatedControllerMetadataIsUnimplemented(t *testing.T) {
	err := mutate(t, func(map[string]any) {}, func(info *p4info.P4Info) {
		for _, h := range info.ControllerPacketMetadata {
			if h.Preamble.Name == "packet_out" {
				h.Metadata[0].Bitwidth = 32
				h.Metadata[0].TypeName = &p4info.P4NamedType{Name: "port_sdn_t"}
			}
		}
		info.TypeInfo = &p4info.P4TypeInfo{NewTypes: map[string]*p4info.P4NewTypeSpec{"port_sdn_t": {
			Representation: &p4info.P4NewTypeSpec_TranslatedType{TranslatedType: &p4info.P4NewTypeTranslation{
				Uri: "flowbuf.test/port", SdnType: &p4info.P4NewTypeTranslation_SdnBitwidth{SdnBitwidth: 32}}}}}}
	})
	wantUnsupported(t, err, "packet_out metadata egress_port of @p4runtime_translation type flowbuf.test/port", "")
}
