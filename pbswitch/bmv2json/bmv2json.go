// SPDX-License-Identifier: Apache-2.0

// Package bmv2json holds the types of the JSON that p4c-bm2-ss emits for a
// v1model program (BMv2's JSON format, docs/JSON_format.md of
// p4lang/behavioral-model, version 2.x). It only decodes: what the program
// means is package engine's business.
package bmv2json

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
)

// Program is a whole bmv2 JSON document.
type Program struct {
	HeaderTypes       []HeaderType    `json:"header_types"`
	Headers           []Header        `json:"headers"`
	HeaderStacks      []HeaderStack   `json:"header_stacks"`
	HeaderUnionTypes  []UnionType     `json:"header_union_types"`
	HeaderUnions      []HeaderUnion   `json:"header_unions"`
	HeaderUnionStacks []UnionStack    `json:"header_union_stacks"`
	FieldLists        []FieldList     `json:"field_lists"`
	Errors            []NamedValue    `json:"errors"`
	Enums             []Enum          `json:"enums"`
	Parsers           []Parser        `json:"parsers"`
	ParseVsets        []ParseVset     `json:"parse_vsets"`
	Deparsers         []Deparser      `json:"deparsers"`
	MeterArrays       []MeterArray    `json:"meter_arrays"`
	CounterArrays     []CounterArray  `json:"counter_arrays"`
	RegisterArrays    []RegisterArray `json:"register_arrays"`
	Calculations      []Calculation   `json:"calculations"`
	LearnLists        []LearnList     `json:"learn_lists"`
	Actions           []Action        `json:"actions"`
	Pipelines         []Pipeline      `json:"pipelines"`
	Checksums         []Checksum      `json:"checksums"`
	ExternInstances   []ExternInst    `json:"extern_instances"`
	FieldAliases      []FieldAlias    `json:"field_aliases"`
	Meta              struct {
		Version  []int  `json:"version"`
		Compiler string `json:"compiler"`
	} `json:"__meta__"`
}

// Parse decodes a bmv2 JSON document and checks its format version.
func Parse(data []byte) (*Program, error) {
	var p Program
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("bmv2 JSON: %w", err)
	}
	if len(p.Meta.Version) < 1 || p.Meta.Version[0] != 2 {
		return nil, fmt.Errorf("bmv2 JSON: format version %v, want 2.x", p.Meta.Version)
	}
	return &p, nil
}

// SourceInfo is where in the P4 source an object comes from.
type SourceInfo struct {
	Filename string `json:"filename"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Fragment string `json:"source_fragment"`
}

// String is "file:line (fragment)", or "" when unknown.
func (s *SourceInfo) String() string {
	if s == nil || s.Filename == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d (%s)", s.Filename, s.Line, s.Fragment)
}

// HeaderType is a header or metadata layout.
type HeaderType struct {
	Name      string      `json:"name"`
	ID        int         `json:"id"`
	Fields    []FieldDecl `json:"fields"`
	LengthExp *TypedValue `json:"length_exp"`
	MaxLength int         `json:"max_length"`
}

// FieldDecl is one field of a header type: [name, width, signed]. A
// variable-length field has Width -1.
type FieldDecl struct {
	Name   string
	Width  int
	Signed bool
}

// UnmarshalJSON decodes the 2- or 3-tuple form.
func (f *FieldDecl) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) < 2 {
		return fmt.Errorf("field declaration %s: want [name, width(, signed)]", b)
	}
	if err := json.Unmarshal(raw[0], &f.Name); err != nil {
		return err
	}
	if string(raw[1]) == `"*"` {
		f.Width = -1
	} else if err := json.Unmarshal(raw[1], &f.Width); err != nil {
		return fmt.Errorf("field %s: width %s", f.Name, raw[1])
	}
	if len(raw) > 2 {
		// p4c writes false for unsigned fields and 0 for bool ones.
		_ = json.Unmarshal(raw[2], &f.Signed)
	}
	return nil
}

// Header is a header or metadata instance.
type Header struct {
	Name       string `json:"name"`
	ID         int    `json:"id"`
	HeaderType string `json:"header_type"`
	Metadata   bool   `json:"metadata"`
}

// HeaderStack is an array of header instances.
type HeaderStack struct {
	Name       string `json:"name"`
	ID         int    `json:"id"`
	HeaderType string `json:"header_type"`
	Size       int    `json:"size"`
	HeaderIDs  []int  `json:"header_ids"`
}

// UnionType lists a union's members: [member name, header type].
type UnionType struct {
	Name    string     `json:"name"`
	ID      int        `json:"id"`
	Headers [][]string `json:"headers"`
}

// HeaderUnion is a union instance over header instances.
type HeaderUnion struct {
	Name      string `json:"name"`
	ID        int    `json:"id"`
	UnionType string `json:"union_type"`
	HeaderIDs []int  `json:"header_ids"`
}

// UnionStack is an array of unions.
type UnionStack struct {
	Name           string `json:"name"`
	ID             int    `json:"id"`
	UnionType      string `json:"union_type"`
	HeaderUnionIDs []int  `json:"header_union_ids"`
}

// FieldList is a named list of fields (clone, resubmit, recirculate,
// digests).
type FieldList struct {
	ID       int          `json:"id"`
	Name     string       `json:"name"`
	Elements []TypedValue `json:"elements"`
}

// NamedValue is a [name, value] pair (errors, enum members).
type NamedValue struct {
	Name  string
	Value int
}

// UnmarshalJSON decodes the pair form.
func (n *NamedValue) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 2 {
		return fmt.Errorf("named value %s: want [name, value]", b)
	}
	if err := json.Unmarshal(raw[0], &n.Name); err != nil {
		return err
	}
	return json.Unmarshal(raw[1], &n.Value)
}

// Enum is a P4 enum with its members' values.
type Enum struct {
	Name    string       `json:"name"`
	Entries []NamedValue `json:"entries"`
}

// Parser is a parser's state machine.
type Parser struct {
	Name        string       `json:"name"`
	ID          int          `json:"id"`
	InitState   string       `json:"init_state"`
	ParseStates []ParseState `json:"parse_states"`
}

// ParseState is one state: operations, then a select.
type ParseState struct {
	Name          string       `json:"name"`
	ID            int          `json:"id"`
	ParserOps     []ParserOp   `json:"parser_ops"`
	TransitionKey []TypedValue `json:"transition_key"`
	Transitions   []Transition `json:"transitions"`
}

// ParserOp is extract, extract_VL, set, verify, shift, advance or
// primitive. A primitive's one parameter is a primitive call, not a typed
// value: it is in Primitive.
type ParserOp struct {
	Op         string
	Parameters []TypedValue
	Primitive  *Primitive
	SourceInfo *SourceInfo
}

// UnmarshalJSON decodes a parser operation.
func (o *ParserOp) UnmarshalJSON(b []byte) error {
	var raw struct {
		Op         string            `json:"op"`
		Parameters []json.RawMessage `json:"parameters"`
		SourceInfo *SourceInfo       `json:"source_info"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	o.Op, o.SourceInfo = raw.Op, raw.SourceInfo
	if raw.Op == "primitive" {
		if len(raw.Parameters) != 1 {
			return fmt.Errorf("parser primitive %s: want one primitive call", b)
		}
		o.Primitive = new(Primitive)
		return json.Unmarshal(raw.Parameters[0], o.Primitive)
	}
	o.Parameters = make([]TypedValue, len(raw.Parameters))
	for i, p := range raw.Parameters {
		if err := json.Unmarshal(p, &o.Parameters[i]); err != nil {
			return err
		}
	}
	return nil
}

// Transition is one select case.
type Transition struct {
	Type      string  `json:"type"` // hexstr, default, parse_vset
	Value     *string `json:"value"`
	Mask      *string `json:"mask"`
	NextState *string `json:"next_state"`
}

// ParseVset is a parser value set the control plane fills.
type ParseVset struct {
	Name               string `json:"name"`
	ID                 int    `json:"id"`
	CompressedBitwidth int    `json:"compressed_bitwidth"`
	MaxSize            int    `json:"max_size"`
}

// Deparser lists headers in emit order.
type Deparser struct {
	Name  string   `json:"name"`
	ID    int      `json:"id"`
	Order []string `json:"order"`
}

// MeterArray is an indexed or direct meter.
type MeterArray struct {
	Name         string      `json:"name"`
	ID           int         `json:"id"`
	Type         string      `json:"type"` // bytes or packets
	RateCount    int         `json:"rate_count"`
	Size         int         `json:"size"`
	IsDirect     bool        `json:"is_direct"`
	Binding      string      `json:"binding"`
	ResultTarget []string    `json:"result_target"`
	SourceInfo   *SourceInfo `json:"source_info"`
}

// CounterArray is an indexed or direct counter.
type CounterArray struct {
	Name     string `json:"name"`
	ID       int    `json:"id"`
	Size     int    `json:"size"`
	IsDirect bool   `json:"is_direct"`
	Binding  string `json:"binding"`
}

// RegisterArray is a register extern.
type RegisterArray struct {
	Name     string `json:"name"`
	ID       int    `json:"id"`
	Size     int    `json:"size"`
	Bitwidth int    `json:"bitwidth"`
}

// Calculation is a named hash over fields (checksums, hash()).
type Calculation struct {
	Name       string       `json:"name"`
	ID         int          `json:"id"`
	Algo       string       `json:"algo"`
	Input      []TypedValue `json:"input"`
	SourceInfo *SourceInfo  `json:"source_info"`
}

// LearnList is a digest's field list.
type LearnList struct {
	ID       int          `json:"id"`
	Name     string       `json:"name"`
	Elements []TypedValue `json:"elements"`
}

// Action is an action body: primitive calls over runtime data.
type Action struct {
	Name        string        `json:"name"`
	ID          int           `json:"id"`
	RuntimeData []RuntimeData `json:"runtime_data"`
	Primitives  []Primitive   `json:"primitives"`
}

// RuntimeData is one action parameter.
type RuntimeData struct {
	Name     string `json:"name"`
	Bitwidth int    `json:"bitwidth"`
}

// Primitive is one primitive call.
type Primitive struct {
	Op         string       `json:"op"`
	Parameters []TypedValue `json:"parameters"`
	SourceInfo *SourceInfo  `json:"source_info"`
}

// Pipeline is a control: tables and conditionals linked by name.
type Pipeline struct {
	Name           string          `json:"name"`
	ID             int             `json:"id"`
	InitTable      *string         `json:"init_table"`
	ActionProfiles []ActionProfile `json:"action_profiles"`
	Tables         []Table         `json:"tables"`
	Conditionals   []Conditional   `json:"conditionals"`
	ActionCalls    []ActionCall    `json:"action_calls"`
	SourceInfo     *SourceInfo     `json:"source_info"`
}

// ActionProfile is an action profile, with a selector when dynamic.
type ActionProfile struct {
	Name     string `json:"name"`
	ID       int    `json:"id"`
	MaxSize  int    `json:"max_size"`
	Selector *struct {
		Algo  string       `json:"algo"`
		Input []TypedValue `json:"input"`
	} `json:"selector"`
}

// Table is a match-action table.
type Table struct {
	Name          string             `json:"name"`
	ID            int                `json:"id"`
	SourceInfo    *SourceInfo        `json:"source_info"`
	Key           []TableKey         `json:"key"`
	MatchType     string             `json:"match_type"`
	Type          string             `json:"type"` // simple, indirect, indirect_ws
	ActionProfile string             `json:"action_profile"`
	MaxSize       int                `json:"max_size"`
	WithCounters  bool               `json:"with_counters"`
	DirectMeters  *string            `json:"direct_meters"`
	ActionIDs     []int              `json:"action_ids"`
	Actions       []string           `json:"actions"`
	BaseNext      *string            `json:"base_default_next"`
	NextTables    map[string]*string `json:"next_tables"`
	DefaultEntry  *DefaultEntry      `json:"default_entry"`
	Entries       []TableEntry       `json:"entries"`
}

// TableKey is one key element.
type TableKey struct {
	MatchType string          `json:"match_type"`
	Name      string          `json:"name"`
	Target    json.RawMessage `json:"target"` // [header, field], or a header name for valid
	Mask      *string         `json:"mask"`
}

// DefaultEntry is the table's initial default action.
type DefaultEntry struct {
	ActionID         int      `json:"action_id"`
	ActionConst      bool     `json:"action_const"`
	ActionData       []string `json:"action_data"`
	ActionEntryConst bool     `json:"action_entry_const"`
}

// TableEntry is a const entry of the program.
type TableEntry struct {
	MatchKey []struct {
		MatchType    string `json:"match_type"`
		Key          string `json:"key"`
		Mask         string `json:"mask"`
		PrefixLength int    `json:"prefix_length"`
		Start        string `json:"start"`
		End          string `json:"end"`
	} `json:"match_key"`
	ActionEntry struct {
		ActionID   int      `json:"action_id"`
		ActionData []string `json:"action_data"`
	} `json:"action_entry"`
	Priority int `json:"priority"`
}

// Conditional is an if node.
type Conditional struct {
	Name       string      `json:"name"`
	ID         int         `json:"id"`
	SourceInfo *SourceInfo `json:"source_info"`
	Expression TypedValue  `json:"expression"`
	TrueNext   *string     `json:"true_next"`
	FalseNext  *string     `json:"false_next"`
}

// ActionCall is a direct action call node (p4c emits none: it uses
// keyless tables instead).
type ActionCall struct {
	Name     string  `json:"name"`
	ID       int     `json:"id"`
	ActionID int     `json:"action_id"`
	NextNode *string `json:"next_node"`
}

// Checksum is a verify_checksum / update_checksum call.
type Checksum struct {
	Name        string      `json:"name"`
	ID          int         `json:"id"`
	SourceInfo  *SourceInfo `json:"source_info"`
	Target      []string    `json:"target"`
	Type        string      `json:"type"`
	Calculation string      `json:"calculation"`
	Verify      *bool       `json:"verify"`
	Update      *bool       `json:"update"`
	IfCond      *TypedValue `json:"if_cond"`
}

// ExternInst is an extern instance (none of v1model's externs need one in
// p4c's output).
type ExternInst struct {
	Name string `json:"name"`
	ID   int    `json:"id"`
	Type string `json:"type"`
}

// FieldAlias maps a name a target expects to a field: [alias, [header,
// field]].
type FieldAlias struct {
	Alias  string
	Header string
	Field  string
}

// UnmarshalJSON decodes the nested tuple.
func (a *FieldAlias) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 2 {
		return fmt.Errorf("field alias %s: want [alias, [header, field]]", b)
	}
	var hf []string
	if err := json.Unmarshal(raw[0], &a.Alias); err != nil {
		return err
	}
	if err := json.Unmarshal(raw[1], &hf); err != nil || len(hf) != 2 {
		return fmt.Errorf("field alias %s: want [header, field]", raw[1])
	}
	a.Header, a.Field = hf[0], hf[1]
	return nil
}

// TypedValue is the format's {"type": ..., "value": ...} object. Value is
// kept raw: its shape depends on Type. Expressions carry Op, Left, Right
// (and Cond for "?") in the nested value.
type TypedValue struct {
	Type     string          `json:"type"`
	Value    json.RawMessage `json:"value"`
	Bitwidth int             `json:"bitwidth"` // hexstr inputs of calculations
	Mask     *string         `json:"mask"`
}

// Expr is the value of an "expression" TypedValue. access_field's right
// operand is a bare integer (the field's offset in its header): it is in
// RightInt, and Right is nil.
type Expr struct {
	Op       string
	Left     *TypedValue
	Right    *TypedValue
	RightInt int
	Cond     *TypedValue
}

// UnmarshalJSON decodes an expression node.
func (e *Expr) UnmarshalJSON(b []byte) error {
	var raw struct {
		Op    string          `json:"op"`
		Left  *TypedValue     `json:"left"`
		Right json.RawMessage `json:"right"`
		Cond  *TypedValue     `json:"cond"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	e.Op, e.Left, e.Cond = raw.Op, raw.Left, raw.Cond
	switch {
	case len(raw.Right) == 0 || string(raw.Right) == "null":
	case raw.Right[0] == '{':
		e.Right = new(TypedValue)
		return json.Unmarshal(raw.Right, e.Right)
	default:
		return json.Unmarshal(raw.Right, &e.RightInt)
	}
	return nil
}

// FieldRef decodes a "field" value: [header, field].
func (v *TypedValue) FieldRef() (header, field string, err error) {
	var hf []string
	if err := json.Unmarshal(v.Value, &hf); err != nil || len(hf) != 2 {
		return "", "", fmt.Errorf("field reference %s: want [header, field]", v.Value)
	}
	return hf[0], hf[1], nil
}

// String decodes a string value (header, calculation, counter names...).
func (v *TypedValue) String() (string, error) {
	var s string
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return "", fmt.Errorf("%s value %s: want a string", v.Type, v.Value)
	}
	return s, nil
}

// Int decodes an integer value (runtime_data, local).
func (v *TypedValue) Int() (int, error) {
	var n int
	if err := json.Unmarshal(v.Value, &n); err != nil {
		return 0, fmt.Errorf("%s value %s: want an integer", v.Type, v.Value)
	}
	return n, nil
}

// Bool decodes a bool value.
func (v *TypedValue) Bool() (bool, error) {
	var b bool
	if err := json.Unmarshal(v.Value, &b); err != nil {
		return false, fmt.Errorf("bool value %s", v.Value)
	}
	return b, nil
}

// Wrapped returns the typed value an "expression" wraps when it is not an
// operation (p4c writes {"type":"expression","value":{"type":"stack_field",...}}).
func (v *TypedValue) Wrapped() (*TypedValue, bool) {
	var probe struct {
		Type string `json:"type"`
		Op   string `json:"op"`
	}
	if json.Unmarshal(v.Value, &probe) != nil || probe.Op != "" || probe.Type == "" || probe.Type == "expression" {
		return nil, false
	}
	var inner TypedValue
	if json.Unmarshal(v.Value, &inner) != nil {
		return nil, false
	}
	return &inner, true
}

// Expression decodes an "expression" value. p4c nests it once more in
// some places ({"type":"expression","value":{"type":"expression",...}});
// both forms are accepted.
func (v *TypedValue) Expression() (*Expr, error) {
	var probe struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
		Op    string          `json:"op"`
	}
	if err := json.Unmarshal(v.Value, &probe); err != nil {
		return nil, fmt.Errorf("expression %s: %w", v.Value, err)
	}
	raw := v.Value
	if probe.Op == "" && probe.Type == "expression" {
		raw = probe.Value
	}
	var e Expr
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, fmt.Errorf("expression %s: %w", raw, err)
	}
	return &e, nil
}

// Hex decodes a hexstr value ("0x..", optionally negative) to an integer.
func Hex(s string) (*big.Int, error) {
	neg := strings.HasPrefix(s, "-")
	t := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "0x")
	n, ok := new(big.Int).SetString(t, 16)
	if !ok {
		return nil, fmt.Errorf("hexstr %q", s)
	}
	if neg {
		n.Neg(n)
	}
	return n, nil
}

// HexValue decodes a hexstr TypedValue.
func (v *TypedValue) HexValue() (*big.Int, error) {
	s, err := v.String()
	if err != nil {
		return nil, err
	}
	return Hex(s)
}
