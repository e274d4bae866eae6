// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"slices"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

func invalid(format string, args ...any) error {
	return status.Errorf(codes.InvalidArgument, format, args...)
}

// toEntry converts a P4Runtime table entry into the table and a pipeline
// entry, checking ids, widths and match kinds against the p4info.
func toEntry(objs *pipeline.Objects, te *p4.TableEntry, needAction bool) (*pipeline.Table, *pipeline.Entry, error) {
	tb, ok := objs.Tables[te.GetTableId()]
	if !ok {
		return nil, nil, status.Errorf(codes.NotFound, "table id %d is not in the p4info", te.GetTableId())
	}
	vals := newValues(objs, tb, te)
	match, err := toFieldMatches(tb.Fields, te.GetMatch(), "table", tb.Name, vals)
	if err != nil {
		return nil, nil, err
	}
	e := &pipeline.Entry{Match: match, Priority: te.GetPriority(), Cookie: te.GetControllerMetadata()}
	if needAction && tb.Profile != nil {
		if err := toProfileRef(objs, tb, te.GetAction(), e); err != nil {
			return nil, nil, err
		}
	} else if needAction {
		a, err := toAction(objs, tb, te.GetAction(), vals)
		if err != nil {
			return nil, nil, err
		}
		e.Action = a
	}
	if mc := te.GetMeterConfig(); mc != nil {
		m, err := pipeline.NewMeter(meterConfig(mc))
		if err != nil {
			return nil, nil, err
		}
		e.Meter = m
	}
	return tb, e, nil
}

// toFieldMatches orders fms by fields (an omitted field is a wildcard),
// checking ids, kinds and widths; kind and name name the table or value
// set in errors; the values come from vals.
func toFieldMatches(fields []pipeline.KeyField, fms []*p4.FieldMatch, kind, name string, vals *values) ([]pipeline.FieldMatch, error) {
	out := make([]pipeline.FieldMatch, len(fields))
	for i := range out {
		out[i].Wildcard = true
	}
	for _, fm := range fms {
		i := slices.IndexFunc(fields, func(f pipeline.KeyField) bool { return f.ID == fm.GetFieldId() })
		if i < 0 {
			return nil, invalid("%s %s: no match field id %d", kind, name, fm.GetFieldId())
		}
		if !out[i].Wildcard {
			return nil, invalid("%s %s: match field %d given twice", kind, name, fm.GetFieldId())
		}
		m, err := toFieldMatch(fields[i], fm, vals)
		if err != nil {
			return nil, invalid("%s %s field %s: %v", kind, name, fields[i].Name, err)
		}
		out[i] = m
	}
	return out, nil
}

func toFieldMatch(f pipeline.KeyField, fm *p4.FieldMatch, vals *values) (pipeline.FieldMatch, error) {
	var m pipeline.FieldMatch
	var err error
	fit := func(v []byte) []byte {
		if err != nil {
			return nil
		}
		var out []byte
		out, err = vals.fit(v, f.Translated, f.Bits)
		return out
	}
	switch x := fm.GetFieldMatchType().(type) {
	case *p4.FieldMatch_Exact_:
		if f.Kind != pipeline.Exact {
			return m, invalidKind(f, "exact")
		}
		m.Value = fit(x.Exact.GetValue())
	case *p4.FieldMatch_Lpm:
		if f.Kind != pipeline.LPM {
			return m, invalidKind(f, "lpm")
		}
		m.Value, m.PrefixLen = fit(x.Lpm.GetValue()), int(x.Lpm.GetPrefixLen())
	case *p4.FieldMatch_Ternary_:
		if f.Kind != pipeline.Ternary {
			return m, invalidKind(f, "ternary")
		}
		m.Value, m.Mask = fit(x.Ternary.GetValue()), fit(x.Ternary.GetMask())
	case *p4.FieldMatch_Range_:
		if f.Kind != pipeline.Range {
			return m, invalidKind(f, "range")
		}
		m.Low, m.High = fit(x.Range.GetLow()), fit(x.Range.GetHigh())
	case *p4.FieldMatch_Optional_:
		if f.Kind != pipeline.Optional {
			return m, invalidKind(f, "optional")
		}
		m.Value = fit(x.Optional.GetValue())
	default:
		return m, status.Error(codes.Unimplemented, "unsupported field match type")
	}
	return m, err
}

func invalidKind(f pipeline.KeyField, got string) error {
	return invalid("a %s match for a %v field", got, f.Kind)
}

func toAction(objs *pipeline.Objects, tb *pipeline.Table, ta *p4.TableAction, vals *values) (pipeline.Action, error) {
	act := ta.GetAction()
	if act == nil {
		if ta != nil && ta.GetType() != nil {
			return pipeline.Action{}, invalid("table %s has no action profile: its entries carry an action", tb.Name)
		}
		return pipeline.Action{}, invalid("table %s: the entry has no action", tb.Name)
	}
	return toActionCall(objs, act, vals)
}

// toProfileRef sets what an entry of a table with an action profile
// names: a member, a group of a selector, or a one-shot action set.
func toProfileRef(objs *pipeline.Objects, tb *pipeline.Table, ta *p4.TableAction, e *pipeline.Entry) error {
	switch x := ta.GetType().(type) {
	case *p4.TableAction_ActionProfileMemberId:
		e.MemberID = x.ActionProfileMemberId
	case *p4.TableAction_ActionProfileGroupId:
		e.GroupID, e.IsGroup = x.ActionProfileGroupId, true
	case *p4.TableAction_ActionProfileActionSet:
		e.OneShot = []pipeline.OneShotAction{}
		for _, pa := range x.ActionProfileActionSet.GetActionProfileActions() {
			if pa.GetWatchKind() != nil {
				return status.Errorf(codes.Unimplemented, "table %s: watch ports are not supported", tb.Name)
			}
			if pa.GetAction() == nil {
				return invalid("table %s: a one-shot action set member without an action", tb.Name)
			}
			a, err := toActionCall(objs, pa.GetAction(), nil)
			if err != nil {
				return err
			}
			e.OneShot = append(e.OneShot, pipeline.OneShotAction{Action: a, Weight: pa.GetWeight()})
		}
	case *p4.TableAction_Action:
		return invalid("table %s has action profile %s: its entries name a member or a group, not an action", tb.Name, tb.Profile.Name)
	default:
		return invalid("table %s: the entry has no action", tb.Name)
	}
	return nil
}

func toActionCall(objs *pipeline.Objects, act *p4.Action, vals *values) (pipeline.Action, error) {
	bits, ok := objs.ActionParams[act.GetActionId()]
	if !ok {
		return pipeline.Action{}, status.Errorf(codes.NotFound, "action id %d is not in the p4info", act.GetActionId())
	}
	ids := objs.ParamIDs[act.GetActionId()]
	trs := objs.ParamTranslations[act.GetActionId()]
	params := make([][]byte, len(bits))
	for _, p := range act.GetParams() {
		i := slices.Index(ids, p.GetParamId())
		if i < 0 {
			return pipeline.Action{}, invalid("action %d: no parameter id %d", act.GetActionId(), p.GetParamId())
		}
		if params[i] != nil {
			return pipeline.Action{}, invalid("action %d: parameter %d given twice", act.GetActionId(), p.GetParamId())
		}
		v, err := vals.fit(p.GetValue(), trs[i], bits[i])
		if err != nil {
			return pipeline.Action{}, invalid("action %d parameter %d: %v", act.GetActionId(), p.GetParamId(), err)
		}
		params[i] = v
	}
	for i, p := range params {
		if p == nil {
			return pipeline.Action{}, invalid("action %d: parameter #%d missing", act.GetActionId(), i+1)
		}
	}
	return pipeline.Action{ID: act.GetActionId(), Params: params}, nil
}

func meterConfig(mc *p4.MeterConfig) pipeline.MeterConfig {
	return pipeline.MeterConfig{CIR: mc.GetCir(), CBurst: mc.GetCburst(), PIR: mc.GetPir(), PBurst: mc.GetPburst()}
}

func toP4MeterConfig(c pipeline.MeterConfig) *p4.MeterConfig {
	return &p4.MeterConfig{Cir: c.CIR, Cburst: c.CBurst, Pir: c.PIR, Pburst: c.PBurst}
}

// fromEntry converts a stored entry back, values in canonical form.
func fromEntry(objs *pipeline.Objects, tb *pipeline.Table, e *pipeline.Entry, withCounter, withMeter bool) *p4.TableEntry {
	te := &p4.TableEntry{TableId: tb.ID, Priority: e.Priority, ControllerMetadata: e.Cookie,
		Action: &p4.TableAction{Type: &p4.TableAction_Action{Action: fromAction(objs, e.Action)}},
		Match:  fromMatch(tb.Fields, e.Match)}
	switch {
	case tb.Profile != nil && e.OneShot != nil:
		set := &p4.ActionProfileActionSet{}
		for _, a := range e.OneShot {
			set.ActionProfileActions = append(set.ActionProfileActions, &p4.ActionProfileAction{Action: fromAction(objs, a.Action), Weight: a.Weight})
		}
		te.Action = &p4.TableAction{Type: &p4.TableAction_ActionProfileActionSet{ActionProfileActionSet: set}}
	case tb.Profile != nil && e.IsGroup:
		te.Action = &p4.TableAction{Type: &p4.TableAction_ActionProfileGroupId{ActionProfileGroupId: e.GroupID}}
	case tb.Profile != nil:
		te.Action = &p4.TableAction{Type: &p4.TableAction_ActionProfileMemberId{ActionProfileMemberId: e.MemberID}}
	}
	if withCounter {
		p, b := e.Counter.Read()
		te.CounterData = &p4.CounterData{PacketCount: int64(p), ByteCount: int64(b)}
	}
	if withMeter && e.Meter != nil {
		if cfg, ok := e.Meter.Config(); ok {
			te.MeterConfig = toP4MeterConfig(cfg)
		}
	}
	return te
}

func fromAction(objs *pipeline.Objects, a pipeline.Action) *p4.Action {
	out := &p4.Action{ActionId: a.ID}
	ids := objs.ParamIDs[a.ID]
	for i, v := range a.Params {
		if i < len(ids) {
			out.Params = append(out.Params, &p4.Action_Param{ParamId: ids[i], Value: pipeline.Canonical(v)})
		}
	}
	return out
}

// fromMatch converts a stored match back (wildcards omitted), values in
// canonical form.
func fromMatch(fields []pipeline.KeyField, ms []pipeline.FieldMatch) []*p4.FieldMatch {
	var out []*p4.FieldMatch
	for i, m := range ms {
		if m.Wildcard {
			continue
		}
		f := fields[i]
		fm := &p4.FieldMatch{FieldId: f.ID}
		c := pipeline.Canonical
		switch f.Kind {
		case pipeline.Exact:
			fm.FieldMatchType = &p4.FieldMatch_Exact_{Exact: &p4.FieldMatch_Exact{Value: c(m.Value)}}
		case pipeline.LPM:
			fm.FieldMatchType = &p4.FieldMatch_Lpm{Lpm: &p4.FieldMatch_LPM{Value: c(m.Value), PrefixLen: int32(m.PrefixLen)}}
		case pipeline.Ternary:
			fm.FieldMatchType = &p4.FieldMatch_Ternary_{Ternary: &p4.FieldMatch_Ternary{Value: c(m.Value), Mask: c(m.Mask)}}
		case pipeline.Range:
			fm.FieldMatchType = &p4.FieldMatch_Range_{Range: &p4.FieldMatch_Range{Low: c(m.Low), High: c(m.High)}}
		case pipeline.Optional:
			fm.FieldMatchType = &p4.FieldMatch_Optional_{Optional: &p4.FieldMatch_Optional{Value: c(m.Value)}}
		}
		out = append(out, fm)
	}
	return out
}

// values hands out the fitted match and parameter values of one entry
// from one allocation sized for them: the entry keeps them all as long as
// it lives (generic store) or copies them (slabs). A nil *values, or one
// whose room ran out (a malformed entry), allocates each value.
type values struct{ buf []byte }

// newValues is room for te's values in tb: each key field at its width
// (twice for a ternary or range field) and the params of te's action.
func newValues(objs *pipeline.Objects, tb *pipeline.Table, te *p4.TableEntry) *values {
	n := 0
	for _, f := range tb.Fields {
		w := pipeline.Width(f.Bits)
		if f.Kind == pipeline.Ternary || f.Kind == pipeline.Range {
			w *= 2
		}
		n += w
	}
	for _, bits := range objs.ActionParams[te.GetAction().GetAction().GetActionId()] {
		n += pipeline.Width(bits)
	}
	return &values{buf: make([]byte, 0, n)}
}

func (v *values) fit(in []byte, tr *pipeline.Translation, bits int) ([]byte, error) {
	if v == nil || cap(v.buf)-len(v.buf) < pipeline.Width(bits) {
		return pipeline.FitTranslated(in, tr, bits)
	}
	n := len(v.buf)
	out, err := pipeline.AppendFitTranslated(v.buf, in, tr, bits)
	if err != nil {
		return nil, err
	}
	v.buf = out
	return out[n:len(out):len(out)], nil
}
