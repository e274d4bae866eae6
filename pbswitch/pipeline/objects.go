// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"fmt"
	"sort"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
)

// Objects are the runtime state of one pipeline built from a p4info: every
// table, extern and the replication engine, by P4Runtime id.
type Objects struct {
	Info           *p4info.P4Info
	Tables         map[uint32]*Table
	Counters       map[uint32]*CounterArray
	DirectCounters map[uint32]*Table // direct counter id -> its table
	Meters         map[uint32]*MeterArray
	DirectMeters   map[uint32]*Table
	Registers      map[uint32]*RegisterArray
	Digests        map[uint32]*Digest
	ValueSets      map[uint32]*ValueSet
	ActionProfiles map[uint32]*ActionProfile
	PRE            *PRE
	// ActionParams gives each action's parameter widths in the data plane,
	// by action id; ParamTranslations the translation of each parameter of
	// a translated type (nil for the others), by action id.
	ActionParams      map[uint32][]int
	ParamTranslations map[uint32][]*Translation
	// ParamIDs lists each action's parameter ids in that order (id order),
	// by action id.
	ParamIDs map[uint32][]uint32
}

// TableIDs lists table ids in order (reads with a wildcard table id).
func (o *Objects) TableIDs() []uint32 { return sortedKeys(o.Tables) }

// Build makes empty runtime objects for info. Digest lists go to digestOut.
func Build(info *p4info.P4Info, digestOut func(DigestList)) (*Objects, error) {
	o := &Objects{Info: info, Tables: map[uint32]*Table{}, Counters: map[uint32]*CounterArray{},
		DirectCounters: map[uint32]*Table{}, Meters: map[uint32]*MeterArray{}, DirectMeters: map[uint32]*Table{},
		Registers: map[uint32]*RegisterArray{}, Digests: map[uint32]*Digest{}, ValueSets: map[uint32]*ValueSet{}, ActionProfiles: map[uint32]*ActionProfile{}, PRE: NewPRE(),
		ActionParams: map[uint32][]int{}, ParamTranslations: map[uint32][]*Translation{}, ParamIDs: map[uint32][]uint32{}}
	noAction := uint32(0)
	for _, a := range info.GetActions() {
		var bits []int
		params := append([]*p4info.Action_Param(nil), a.GetParams()...)
		sort.Slice(params, func(i, j int) bool { return params[i].GetId() < params[j].GetId() })
		var trs []*Translation
		ids := []uint32{}
		for _, p := range params {
			bits = append(bits, int(p.GetBitwidth()))
			trs = append(trs, TranslationOf(info, p.GetTypeName()))
			ids = append(ids, p.GetId())
		}
		o.ParamIDs[a.GetPreamble().GetId()] = ids
		o.ActionParams[a.GetPreamble().GetId()] = bits
		o.ParamTranslations[a.GetPreamble().GetId()] = trs
		if a.GetPreamble().GetName() == "NoAction" {
			noAction = a.GetPreamble().GetId()
		}
	}
	for _, t := range info.GetTables() {
		tb, err := o.buildTable(info, t, noAction)
		if err != nil {
			return nil, err
		}
		o.Tables[tb.ID] = tb
	}
	for _, ap := range info.GetActionProfiles() {
		name := ap.GetPreamble().GetName()
		actions := map[uint32]ActionSpec{}
		for _, tid := range ap.GetTableIds() {
			tb, ok := o.Tables[tid]
			if !ok {
				return nil, fmt.Errorf("action profile %s: table %d not in the p4info", name, tid)
			}
			for id, spec := range tb.Actions {
				actions[id] = spec
			}
		}
		prof := NewActionProfile(ap.GetPreamble().GetId(), name, ap.GetWithSelector(), int(ap.GetSize()), int(ap.GetMaxGroupSize()), actions)
		o.ActionProfiles[prof.ID] = prof
	}
	for _, t := range info.GetTables() {
		if id := t.GetImplementationId(); id != 0 {
			prof, ok := o.ActionProfiles[id]
			if !ok {
				return nil, fmt.Errorf("table %s: implementation %d is not an action profile of the p4info", t.GetPreamble().GetName(), id)
			}
			o.Tables[t.GetPreamble().GetId()].Profile = prof
		}
	}
	for _, c := range info.GetCounters() {
		o.Counters[c.GetPreamble().GetId()] = NewCounterArray(c.GetPreamble().GetId(), c.GetPreamble().GetName(), int(c.GetSize()))
	}
	for _, c := range info.GetDirectCounters() {
		tb, ok := o.Tables[c.GetDirectTableId()]
		if !ok {
			return nil, fmt.Errorf("direct counter %s: table %d not in the p4info", c.GetPreamble().GetName(), c.GetDirectTableId())
		}
		o.DirectCounters[c.GetPreamble().GetId()] = tb
	}
	for _, m := range info.GetMeters() {
		o.Meters[m.GetPreamble().GetId()] = NewMeterArray(m.GetPreamble().GetId(), m.GetPreamble().GetName(), int(m.GetSize()),
			m.GetSpec().GetUnit() == p4info.MeterSpec_PACKETS)
	}
	for _, m := range info.GetDirectMeters() {
		tb, ok := o.Tables[m.GetDirectTableId()]
		if !ok {
			return nil, fmt.Errorf("direct meter %s: table %d not in the p4info", m.GetPreamble().GetName(), m.GetDirectTableId())
		}
		o.DirectMeters[m.GetPreamble().GetId()] = tb
	}
	for _, r := range info.GetRegisters() {
		bits := int(r.GetTypeSpec().GetBitstring().GetBit().GetBitwidth())
		if bits == 0 {
			return nil, fmt.Errorf("register %s: only bit<W> registers are supported", r.GetPreamble().GetName())
		}
		o.Registers[r.GetPreamble().GetId()] = NewRegisterArray(r.GetPreamble().GetId(), r.GetPreamble().GetName(), int(r.GetSize()), bits)
	}
	for _, d := range info.GetDigests() {
		o.Digests[d.GetPreamble().GetId()] = NewDigest(d.GetPreamble().GetId(), d.GetPreamble().GetName(), digestOut)
	}
	for _, vs := range info.GetValueSets() {
		name := vs.GetPreamble().GetName()
		var fields []KeyField
		for _, f := range vs.GetMatch() {
			kind, ok := matchKinds[f.GetMatchType()]
			if !ok {
				return nil, fmt.Errorf("value set %s field %s: match type %v not supported", name, f.GetName(), f.GetMatchType())
			}
			fields = append(fields, KeyField{ID: f.GetId(), Name: f.GetName(), Bits: int(f.GetBitwidth()), Kind: kind})
		}
		o.ValueSets[vs.GetPreamble().GetId()] = NewValueSet(vs.GetPreamble().GetId(), name, fields, int(vs.GetSize()))
	}
	return o, nil
}

var matchKinds = map[p4info.MatchField_MatchType]MatchKind{
	p4info.MatchField_EXACT: Exact, p4info.MatchField_LPM: LPM, p4info.MatchField_TERNARY: Ternary,
	p4info.MatchField_RANGE: Range, p4info.MatchField_OPTIONAL: Optional,
}

func (o *Objects) buildTable(info *p4info.P4Info, t *p4info.Table, noAction uint32) (*Table, error) {
	name := t.GetPreamble().GetName()
	var fields []KeyField
	for _, f := range t.GetMatchFields() {
		kind, ok := matchKinds[f.GetMatchType()]
		if !ok {
			return nil, fmt.Errorf("table %s field %s: match type %v not supported", name, f.GetName(), f.GetMatchType())
		}
		fields = append(fields, KeyField{ID: f.GetId(), Name: f.GetName(), Bits: int(f.GetBitwidth()), Kind: kind,
			Translated: TranslationOf(info, f.GetTypeName())})
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].ID < fields[j].ID })
	actions := map[uint32]ActionSpec{}
	for _, r := range t.GetActionRefs() {
		bits, ok := o.ActionParams[r.GetId()]
		if !ok {
			return nil, fmt.Errorf("table %s: action %d not in the p4info", name, r.GetId())
		}
		actions[r.GetId()] = ActionSpec{ParamBits: bits,
			TableOnly: r.GetScope() == p4info.ActionRef_TABLE_ONLY, DefaultOnly: r.GetScope() == p4info.ActionRef_DEFAULT_ONLY}
	}
	// The program's own default action (with its data) is installed by
	// whoever runs the program (SetInitialDefault); until then a miss runs
	// the const default or NoAction, and ID 0 (no action) without either.
	def := Action{ID: t.GetConstDefaultActionId()}
	if _, ok := actions[noAction]; def.ID == 0 && ok {
		def.ID = noAction
	}
	size := int(t.GetSize())
	if size <= 0 {
		size = 1024
	}
	return NewTable(t.GetPreamble().GetId(), name, fields, size, actions, def, t.GetConstDefaultActionId() != 0), nil
}

// UseSlabs makes every exact-match table keep its entries in a slab (see
// Table.UseSlab); call it before the tables have entries. It returns the
// names of the tables that now use one.
func (o *Objects) UseSlabs() []string {
	counted := map[uint32]bool{}
	for _, tb := range o.DirectCounters {
		counted[tb.ID] = true
	}
	var names []string
	for _, id := range o.TableIDs() {
		if tb := o.Tables[id]; tb.UseSlab(counted[id]) {
			names = append(names, tb.Name)
		}
	}
	return names
}
