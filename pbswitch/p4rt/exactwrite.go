// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	p4 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// exactWriter turns a Write's INSERT and MODIFY updates of exact-match
// entries straight into the slab's form (pipeline.ExactWrite) in buffers
// reused from update to update: no pipeline.Entry, match slice or value
// is allocated per entry, the table's checks run once on the finished
// record. It takes only entries it can prove valid; anything else (an
// error to explain, a meter config, a table not in a slab) goes to the
// general path, which answers exactly as before.
type exactWriter struct {
	w      pipeline.ExactWrite
	seen   []bool
	vals   []byte // the fitted parameters
	params [][]byte
}

// write applies typ of te when it can; handled false: not attempted,
// nothing changed.
func (x *exactWriter) write(objs *pipeline.Objects, typ p4.Update_Type, te *p4.TableEntry) (handled bool, err error) {
	if typ != p4.Update_INSERT && typ != p4.Update_MODIFY {
		return false, nil
	}
	if te.GetIsDefaultAction() || te.GetPriority() != 0 || te.GetMeterConfig() != nil {
		return false, nil
	}
	tb, ok := objs.Tables[te.GetTableId()]
	if !ok || !x.key(tb, te.GetMatch()) || !x.action(objs, te.GetAction().GetAction()) {
		return false, nil
	}
	x.w.Cookie = te.GetControllerMetadata()
	if typ == p4.Update_INSERT {
		return tb.InsertExact(&x.w)
	}
	return tb.ModifyExact(&x.w)
}

// key fits every field's value at its offset in the key: each field once,
// exact, fitting its width (translated where its type is).
func (x *exactWriter) key(tb *pipeline.Table, ms []*p4.FieldMatch) bool {
	if len(ms) != len(tb.Fields) {
		return false // an exact field omitted, or one given twice
	}
	x.w.Key = grow(x.w.Key, tb.KeyWidth())
	x.seen = x.seen[:0]
	for range tb.Fields {
		x.seen = append(x.seen, false)
	}
	for _, m := range ms {
		i := fieldIndex(tb.Fields, m.GetFieldId())
		exact := m.GetExact()
		if i < 0 || x.seen[i] || exact == nil || tb.Fields[i].Kind != pipeline.Exact {
			return false
		}
		x.seen[i] = true
		f := tb.Fields[i]
		at := tb.FieldOffset(i)
		out, err := pipeline.AppendFitTranslated(x.w.Key[:at], exact.GetValue(), f.Translated, f.Bits)
		if err != nil || len(out) != at+pipeline.Width(f.Bits) {
			return false
		}
	}
	return true
}

// action fits act's parameters, in the p4info's order, into x.vals.
func (x *exactWriter) action(objs *pipeline.Objects, act *p4.Action) bool {
	if act == nil {
		return false
	}
	id := act.GetActionId()
	bits, ok := objs.ActionParams[id]
	if !ok || len(act.GetParams()) != len(bits) {
		return false // unknown action, or a parameter missing or repeated
	}
	ids, trs := objs.ParamIDs[id], objs.ParamTranslations[id]
	n := 0
	for _, b := range bits {
		n += pipeline.Width(b)
	}
	x.vals = grow(x.vals, n)[:0]
	x.params = x.params[:0]
	for range bits {
		x.params = append(x.params, nil)
	}
	for _, p := range act.GetParams() {
		i := paramIndex(ids, p.GetParamId())
		if i < 0 || x.params[i] != nil {
			return false
		}
		at := len(x.vals)
		out, err := pipeline.AppendFitTranslated(x.vals, p.GetValue(), trs[i], bits[i])
		if err != nil || len(out) != at+pipeline.Width(bits[i]) {
			return false
		}
		x.vals = out
		x.params[i] = out[at:len(out):len(out)]
	}
	x.w.Action = pipeline.Action{ID: id, Params: x.params}
	return true
}

// grow is b with length n, reusing its array when large enough.
func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

func fieldIndex(fields []pipeline.KeyField, id uint32) int {
	for i := range fields {
		if fields[i].ID == id {
			return i
		}
	}
	return -1
}

func paramIndex(ids []uint32, id uint32) int {
	for i, v := range ids {
		if v == id {
			return i
		}
	}
	return -1
}
