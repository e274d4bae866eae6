// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// binder turns STF names and values into pipeline entries the way
// bmv2stf.py turns them into simple_switch_CLI commands: tables, their
// key fields and actions are found in the bmv2 JSON (full name, else a
// unique suffix), then bound to the p4info object of the same name.
//
// Two kinds of error: an stfError is where bmv2stf.py itself raises (the
// test fails in p4c too); any other error is a command simple_switch_CLI
// refuses, which bmv2stf.py ignores (the run goes on without it).
type binder struct {
	tables   []*bmv2json.Table
	actions  map[int]*bmv2json.Action
	objs     *pipeline.Objects
	p4tables map[string]*pipeline.Table
	p4acts   map[string]*p4info.Action
}

type stfError struct{ msg string }

func (e *stfError) Error() string { return e.msg }

func stfErrorf(format string, args ...any) error { return &stfError{fmt.Sprintf(format, args...)} }

func newBinder(jp *bmv2json.Program, objs *pipeline.Objects) *binder {
	b := &binder{actions: map[int]*bmv2json.Action{}, objs: objs,
		p4tables: map[string]*pipeline.Table{}, p4acts: map[string]*p4info.Action{}}
	// bmv2stf.py reads the tables of pipelines[0] and [1] (ingress, egress).
	for i := range jp.Pipelines {
		for j := range jp.Pipelines[i].Tables {
			b.tables = append(b.tables, &jp.Pipelines[i].Tables[j])
		}
	}
	for i := range jp.Actions {
		b.actions[jp.Actions[i].ID] = &jp.Actions[i]
	}
	for _, t := range objs.Tables {
		b.p4tables[t.Name] = t
	}
	for _, a := range objs.Info.GetActions() {
		b.p4acts[a.GetPreamble().GetName()] = a
	}
	return b
}

// bySuffix picks the one name equal to want, else the one ending with it
// (bmv2stf.py's rule); when several end with it, the one ending with
// "."+want if unique (where bmv2stf.py would call it ambiguous).
func bySuffix(names []string, want string) (int, error) {
	for i, n := range names {
		if n == want {
			return i, nil
		}
	}
	var cands, dotted []int
	for i, n := range names {
		if strings.HasSuffix(n, want) {
			cands = append(cands, i)
			if strings.HasSuffix(n, "."+want) {
				dotted = append(dotted, i)
			}
		}
	}
	switch {
	case len(cands) == 1:
		return cands[0], nil
	case len(cands) == 0:
		return -1, fmt.Errorf("not found")
	case len(dotted) == 1:
		return dotted[0], nil
	}
	var amb []string
	for _, i := range cands {
		amb = append(amb, names[i])
	}
	return -1, fmt.Errorf("ambiguous (%s)", strings.Join(amb, ", "))
}

// table finds the JSON table the STF names and its pipeline object.
func (b *binder) table(name string) (*bmv2json.Table, *pipeline.Table, error) {
	names := make([]string, len(b.tables))
	for i, t := range b.tables {
		names[i] = t.Name
	}
	i, err := bySuffix(names, name)
	if err != nil {
		return nil, nil, stfErrorf("table %s: %v", name, err)
	}
	jt := b.tables[i]
	pt, ok := b.p4tables[jt.Name]
	if !ok {
		return nil, nil, stfErrorf("table %s: not in the p4info", jt.Name)
	}
	if len(pt.Fields) != len(jt.Key) {
		return nil, nil, stfErrorf("table %s: the JSON has %d key fields, the p4info %d", jt.Name, len(jt.Key), len(pt.Fields))
	}
	return jt, pt, nil
}

// action finds the table's action the STF names (full name, else a unique
// suffix) and builds its call: every parameter must be given, by name.
func (b *binder) action(jt *bmv2json.Table, pt *pipeline.Table, name string, args []KeyArg) (pipeline.Action, error) {
	var cands []*bmv2json.Action
	var names []string
	for _, id := range jt.ActionIDs {
		if a, ok := b.actions[id]; ok {
			cands = append(cands, a)
			names = append(names, a.Name)
		}
	}
	i, err := bySuffix(names, name)
	if err != nil {
		return pipeline.Action{}, stfErrorf("action %s in table %s: %v", name, jt.Name, err)
	}
	ja := cands[i]
	pa, ok := b.p4acts[ja.Name]
	if !ok {
		return pipeline.Action{}, stfErrorf("action %s: not in the p4info", ja.Name)
	}
	given := map[string]string{}
	for _, a := range args {
		found := false
		for _, rd := range ja.RuntimeData {
			found = found || rd.Name == a.Name
		}
		if !found {
			return pipeline.Action{}, stfErrorf("action %s has no argument %s", ja.Name, a.Name)
		}
		given[a.Name] = a.Value
	}
	params := append([]*p4info.Action_Param(nil), pa.GetParams()...)
	sort.Slice(params, func(i, j int) bool { return params[i].GetId() < params[j].GetId() })
	act := pipeline.Action{ID: pa.GetPreamble().GetId()}
	for _, p := range params {
		v, ok := given[p.GetName()]
		if !ok {
			return pipeline.Action{}, stfErrorf("action %s: argument %s not given", ja.Name, p.GetName())
		}
		bits := int(p.GetBitwidth())
		n, err := parseNumber(v)
		if err != nil {
			return pipeline.Action{}, fmt.Errorf("action %s argument %s: %v", ja.Name, p.GetName(), err)
		}
		val, err := toBytes(n, bits)
		if err != nil {
			return pipeline.Action{}, fmt.Errorf("action %s argument %s: %v", ja.Name, p.GetName(), err)
		}
		act.Params = append(act.Params, val)
	}
	_ = pt
	return act, nil
}

// keyName is a JSON key element's name as bmv2stf.py reads it: "name",
// else the target joined with '.'.
func keyName(k bmv2json.TableKey) string {
	if k.Name != "" {
		return k.Name
	}
	var s string
	if json.Unmarshal(k.Target, &s) == nil {
		return s
	}
	var parts []string
	if json.Unmarshal(k.Target, &parts) == nil {
		return strings.Join(parts, ".")
	}
	return string(k.Target)
}

var stackIndex = regexp.MustCompile(`^(.*)\$([0-9]+)(.*)$`)

// keyField finds the key element an STF key name means, with
// bmv2stf.py's TableKeyInstance.set rules (h$0.f is h[0].f; a header's
// validity is h.$valid$, written h, h.valid or valid; else a field whose
// name ends with "."+name).
func keyField(fields []string, key string) (int, error) {
	if m := stackIndex.FindStringSubmatch(key); m != nil {
		key = m[1] + "[" + m[2] + "]" + m[3]
	}
	index := func(n string) int {
		for i, f := range fields {
			if f == n {
				return i
			}
		}
		return -1
	}
	if i := index(key); i >= 0 {
		return i, nil
	}
	if i := index(key + "$"); i >= 0 {
		return i, nil
	}
	if i := index(key + ".$valid$"); i >= 0 {
		return i, nil
	}
	if strings.HasSuffix(key, ".valid") {
		if i := index(key[:len(key)-5] + "$valid$"); i >= 0 {
			return i, nil
		}
	}
	found := -1
	for i, f := range fields {
		if strings.HasSuffix(f, "."+key) || strings.HasSuffix(f, "."+key+"$") {
			found = i
		} else if key == "valid" && strings.HasSuffix(f, ".$valid$") {
			found = i
		}
	}
	if found >= 0 {
		return found, nil
	}
	if key == "valid" {
		if i := index("$valid$"); i >= 0 {
			return i, nil
		}
	}
	return -1, stfErrorf("unexpected key field %s (fields: %s)", key, strings.Join(fields, ", "))
}

// entry builds an add command's entry.
func (b *binder) entry(c *Command) (*pipeline.Table, *pipeline.Entry, error) {
	jt, pt, err := b.table(c.Table)
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, len(jt.Key))
	for i, k := range jt.Key {
		names[i] = keyName(k)
	}
	// Fields the STF leaves out: ternary and LPM match anything, exact
	// (and validity) match 0 (bmv2stf.py's TableKeyInstance defaults).
	vals := make([]string, len(jt.Key))
	set := make([]bool, len(jt.Key))
	for _, k := range c.Keys {
		i, err := keyField(names, k.Name)
		if err != nil {
			return nil, nil, fmt.Errorf("table %s: %w", jt.Name, err)
		}
		vals[i], set[i] = k.Value, true
	}
	e := &pipeline.Entry{}
	for i, k := range jt.Key {
		f := pt.Fields[i]
		fm, err := matchValue(k.MatchType, f, vals[i], set[i])
		if err != nil {
			return nil, nil, fmt.Errorf("table %s key %s: %w", jt.Name, names[i], err)
		}
		e.Match = append(e.Match, fm)
	}
	// bmv2stf.py passes BMv2 the priority 10000-PRIO for a ternary table:
	// a larger STF priority wins, as a larger P4Runtime priority does.
	if pt.NeedsPriority() {
		if c.Priority < 0 {
			if jt.MatchType == "ternary" {
				return nil, nil, stfErrorf("table %s is ternary and the add has no priority", jt.Name)
			}
			c.Priority = 0
		}
		if c.Priority >= 10000 {
			return nil, nil, fmt.Errorf("priority %d: BMv2 gets a negative priority", c.Priority)
		}
		e.Priority = int32(c.Priority + 1)
	}
	e.Action, err = b.action(jt, pt, c.Action, c.Args)
	if err != nil {
		return nil, nil, err
	}
	return pt, e, nil
}

// defaultAction builds a setdefault command's action.
func (b *binder) defaultAction(c *Command) (*pipeline.Table, pipeline.Action, error) {
	jt, pt, err := b.table(c.Table)
	if err != nil {
		return nil, pipeline.Action{}, err
	}
	a, err := b.action(jt, pt, c.Action, c.Args)
	return pt, a, err
}

// matchValue converts one key field's STF value (bmv2stf.py's makeMask and
// makeLpm, then simple_switch_CLI's parsing) into a field match.
func matchValue(jsonKind string, f pipeline.KeyField, v string, given bool) (pipeline.FieldMatch, error) {
	var fm pipeline.FieldMatch
	switch jsonKind {
	case "exact", "valid":
		if !given {
			v = "0"
		}
		n, err := parseNumber(v)
		if err != nil {
			return fm, err
		}
		fm.Value, err = toBytes(n, f.Bits)
		return fm, err
	case "ternary":
		if !given {
			return pipeline.FieldMatch{Wildcard: true}, nil
		}
		val, mask, err := ternaryValue(v)
		if err != nil {
			return fm, err
		}
		if fm.Value, err = toBytes(val, f.Bits); err != nil {
			return fm, err
		}
		if fm.Mask, err = toBytes(mask, f.Bits); err != nil {
			return fm, err
		}
		for i := range fm.Value {
			fm.Value[i] &= fm.Mask[i]
		}
		if isZero(fm.Mask) {
			return pipeline.FieldMatch{Wildcard: true}, nil
		}
		return fm, nil
	case "lpm":
		if !given {
			return pipeline.FieldMatch{Wildcard: true}, nil
		}
		val, plen, err := lpmValue(v)
		if err != nil {
			return fm, err
		}
		if plen > f.Bits {
			return fm, fmt.Errorf("prefix length %d above the field's %d bits", plen, f.Bits)
		}
		if plen == 0 {
			return pipeline.FieldMatch{Wildcard: true}, nil
		}
		if fm.Value, err = toBytes(val, f.Bits); err != nil {
			return fm, err
		}
		mask := new(big.Int).Lsh(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(plen)), big.NewInt(1)), uint(f.Bits-plen))
		mb, _ := toBytes(mask, f.Bits)
		for i := range fm.Value {
			fm.Value[i] &= mb[i]
		}
		fm.PrefixLen = plen
		return fm, nil
	case "range":
		// bmv2stf.py has no default for a range field and no syntax for a
		// range; LO->HI is this runner's.
		lo, hi, ok := strings.Cut(v, "->")
		if !given || !ok {
			return fm, stfErrorf("range key field (bmv2stf.py cannot add to a range table)")
		}
		l, err := parseNumber(lo)
		if err != nil {
			return fm, err
		}
		h, err := parseNumber(hi)
		if err != nil {
			return fm, err
		}
		if fm.Low, err = toBytes(l, f.Bits); err != nil {
			return fm, err
		}
		fm.High, err = toBytes(h, f.Bits)
		return fm, err
	case "optional":
		if !given {
			return pipeline.FieldMatch{Wildcard: true}, nil
		}
		n, err := parseNumber(v)
		if err != nil {
			return fm, err
		}
		fm.Value, err = toBytes(n, f.Bits)
		return fm, err
	}
	return fm, stfErrorf("match type %s", jsonKind)
}

// ternaryValue is bmv2stf.py's makeMask: every written digit is matched,
// '*' digits are not, digits not written (above the value) are not either;
// a decimal value is an error. V&&&M is taken as is.
func ternaryValue(v string) (*big.Int, *big.Int, error) {
	if a, m, ok := strings.Cut(v, "&&&"); ok {
		val, err := parseNumber(a)
		if err != nil {
			return nil, nil, err
		}
		mask, err := parseNumber(m)
		return val, mask, err
	}
	prefix, digits, base, maskDigit := splitBase(v)
	if prefix == "" {
		return nil, nil, stfErrorf("decimal value %s for a ternary key (bmv2stf.py refuses it)", v)
	}
	var vs, ms strings.Builder
	for _, r := range digits {
		if r == '*' {
			vs.WriteByte('0')
			ms.WriteByte('0')
		} else {
			vs.WriteRune(r)
			ms.WriteByte(maskDigit)
		}
	}
	val, ok1 := new(big.Int).SetString(vs.String(), base)
	mask, ok2 := new(big.Int).SetString(ms.String(), base)
	if !ok1 || !ok2 {
		return nil, nil, fmt.Errorf("invalid number %s", v)
	}
	return val, mask, nil
}

// lpmValue is bmv2stf.py's makeLpm: V/LEN as written, else the prefix is
// every written digit ('*' digits are zeros outside it).
func lpmValue(v string) (*big.Int, int, error) {
	if a, l, ok := strings.Cut(v, "/"); ok {
		val, err := parseNumber(a)
		if err != nil {
			return nil, 0, err
		}
		plen, err := strconv.Atoi(l)
		if err != nil {
			return nil, 0, fmt.Errorf("prefix length %s", l)
		}
		return val, plen, nil
	}
	prefix, digits, base, _ := splitBase(v)
	if prefix == "" {
		// bmv2stf.py writes "0x"+hex(int(v)), i.e. 0x0x..., which the CLI
		// cannot read: the entry is not added.
		return nil, 0, fmt.Errorf("decimal LPM value %s (bmv2stf.py mangles it; simple_switch_CLI refuses the entry)", v)
	}
	bitsPerDigit := map[int]int{16: 4, 2: 1, 8: 3}[base]
	n := len(digits) - strings.Count(digits, "*")
	val, ok := new(big.Int).SetString(strings.ReplaceAll(digits, "*", "0"), base)
	if !ok {
		return nil, 0, fmt.Errorf("invalid number %s", v)
	}
	return val, n * bitsPerDigit, nil
}

func splitBase(v string) (prefix, digits string, base int, maskDigit byte) {
	if len(v) > 2 && v[0] == '0' {
		switch v[1] {
		case 'x', 'X':
			return v[:2], v[2:], 16, 'F'
		case 'b', 'B':
			return v[:2], v[2:], 2, '1'
		case 'o', 'O':
			return v[:2], v[2:], 8, '7'
		}
	}
	return "", v, 10, 0
}

// parseNumber reads a number as simple_switch_CLI does (Python's int(v,
// 0)): 0x, 0b, 0o or decimal; '*' digits are not numbers.
func parseNumber(v string) (*big.Int, error) {
	prefix, digits, base, _ := splitBase(v)
	_ = prefix
	if strings.Contains(digits, "*") {
		return nil, fmt.Errorf("%s: '*' digits only make sense in a ternary or LPM key", v)
	}
	n, ok := new(big.Int).SetString(digits, base)
	if !ok {
		return nil, fmt.Errorf("invalid number %s", v)
	}
	return n, nil
}

// toBytes encodes n in a bits-wide field's bytes. Like simple_switch_CLI
// it refuses a value wider than the field's bytes; bits above the width
// within its last byte are dropped, as BMv2 truncates to the bit width.
func toBytes(n *big.Int, bits int) ([]byte, error) {
	w := pipeline.Width(bits)
	if n.Sign() < 0 || n.BitLen() > w*8 {
		return nil, fmt.Errorf("value %s does not fit %d bits", n.Text(16), bits)
	}
	b := n.FillBytes(make([]byte, w))
	if extra := w*8 - bits; extra > 0 {
		b[0] &= 0xff >> extra
	}
	return b, nil
}

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// byName finds a named extern (register, counter, meter) by full name,
// else by a unique suffix after a '.', as simple_switch_CLI resolves names.
func byName[T any](objs map[uint32]T, name func(T) string, want string) (T, error) {
	var zero T
	var names []string
	var vals []T
	for _, o := range objs {
		names = append(names, name(o))
		vals = append(vals, o)
	}
	for i, n := range names {
		if n == want {
			return vals[i], nil
		}
	}
	var found []int
	for i, n := range names {
		if strings.HasSuffix(n, "."+want) {
			found = append(found, i)
		}
	}
	if len(found) == 1 {
		return vals[found[0]], nil
	}
	if len(found) == 0 {
		return zero, fmt.Errorf("%s: no such object", want)
	}
	return zero, fmt.Errorf("%s: ambiguous", want)
}
