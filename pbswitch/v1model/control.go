// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"encoding/binary"
	"encoding/json"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// node is a control-flow node: a table or a conditional. run returns the
// next node (nil: the end of the control).
type node interface {
	run(s *phv) node
}

// condNode is a conditional whose expression has no specialised node
// (conds.go): it runs the expression's closure.
type condNode struct {
	cond func(*phv) bool
	branch
}

func (n *condNode) run(s *phv) node {
	if n.cond(s) {
		return n.onTrue
	}
	return n.onFalse
}

// tableNode applies a match-action table bound to its pipeline.Table.
type tableNode struct {
	name         string
	t            *pipeline.Table
	keys         []keyElem
	acts         []boundAction // by p4info action id
	hit          node          // __HIT__ / __MISS__ successors, when used
	miss         node
	byHit        bool
	counts       bool               // direct counters
	meter        func(*phv, uint64) // the direct meter's colour destination
	meterPackets bool
	// A table with an action profile: entries name members or groups,
	// the selector's hash picks a group's member.
	profile  *pipeline.ActionProfile
	selector *calculation
	baseNext node // after an empty group
}

// boundAction is one of a table's actions with the node after it.
type boundAction struct {
	p4id uint32
	a    *action
	next node
}

// keyElem reads one key field into the lookup key: a header field on
// whole bytes is copied from hdr[src:] (read nil), the rest go through read.
type keyElem struct {
	off, bytes int
	src        int
	read       func(s *phv, dst []byte)
	mask       []byte // static mask, nil: none
	// slot is the metadata word read gives (-1: another read), which
	// generated key building stores directly.
	slot int
}

// boundCall is one of the table's actions with its data decoded, what the
// table's binder makes of every action written (pipeline.Hit.Bound).
type boundCall struct {
	ba    *boundAction // nil: not one of the node's actions
	words []uint64
	// packed: the action's parameters are written at the byte widths of
	// its JSON runtime data, so a slab record's parameter bytes
	// (Table.LookupSlab) are where generated code decodes them.
	packed bool
}

// NoOp reports whether the call does nothing: one of the node's actions,
// without primitives (runDefault skips it). pipeline.Table.EmptyNoOp reads
// it from the default's form.
func (b *boundCall) NoOp() bool { return b.ba != nil && b.ba.a.empty }

// bind is the table's pipeline.Binder.
func (n *tableNode) bind(a pipeline.Action) any {
	ba := n.find(a.ID)
	if ba == nil {
		return &boundCall{}
	}
	return &boundCall{ba: ba, words: ba.a.decoded(a.Params), packed: ba.a.packedAs(a.Params)}
}

// packedAs reports whether params are a's runtime data at their byte
// widths, each at most 64 bits (slabParamAt's layout).
func (a *action) packedAs(params [][]byte) bool {
	if len(params) != len(a.params) {
		return false
	}
	for i, p := range a.params {
		if p.width > 64 || len(params[i]) != (p.width+7)/8 {
			return false
		}
	}
	return true
}

// buildKey writes the lookup key into s.key.
func (n *tableNode) buildKey(s *phv) []byte {
	key := s.key[:n.t.KeyWidth()]
	for i := range n.keys {
		k := &n.keys[i]
		dst := key[k.off : k.off+k.bytes]
		if k.read == nil {
			copy(dst, s.hdr[k.src:k.src+k.bytes])
		} else {
			k.read(s, dst)
		}
		for j, m := range k.mask {
			dst[j] &= m
		}
	}
	return key
}

func (n *tableNode) run(s *phv) node {
	if h := n.t.EmptyDefault(); h != nil {
		return n.runDefault(s, h)
	}
	var found pipeline.Hit
	n.t.LookupHit(n.buildKey(s), &found, s.paramBuf)
	return n.apply(s, &found)
}

// runDefault is an empty table's apply: its bound default action (skipped
// when it does nothing), no key, no lookup and nothing to count. A default
// without a bound form takes apply's general path.
func (n *tableNode) runDefault(s *phv, h *pipeline.Hit) node {
	bc, ok := h.Bound.(*boundCall)
	if !ok || bc.ba == nil {
		return n.apply(s, h)
	}
	if a := bc.ba.a; !a.empty {
		s.params = bc.words
		a.exec(s)
		if s.exited {
			return nil
		}
	}
	if n.byHit {
		return n.miss
	}
	return bc.ba.next
}

// apply runs what a lookup selected: the action (resolved through the
// action profile in a table with one), the direct counter and meter, and
// picks the next node.
func (n *tableNode) apply(s *phv, h *pipeline.Hit) node {
	var ba *boundAction
	if bc, ok := h.Bound.(*boundCall); ok {
		ba = bc.ba
		s.params = bc.words
		if h.Words != nil { // a slab table's entry: its own words
			s.params = h.Words
		}
	} else {
		act := h.Action
		if h.Matched && n.profile != nil {
			var hash uint32
			if h.Ref.Group != nil && n.selector != nil {
				hash = uint32(n.selector.compute(s))
			}
			var ok bool
			if act, ok = n.profile.Resolve(h.Ref, hash); !ok {
				n.account(s, h)
				return n.emptyGroup()
			}
		}
		if ba = n.find(act.ID); ba != nil {
			ba.a.setParams(s, act.Params)
		}
	}
	if h.Matched {
		n.account(s, h)
	}
	if ba != nil && !ba.a.empty {
		ba.a.exec(s)
		if s.exited {
			return nil
		}
	}
	if n.byHit {
		if h.Matched {
			return n.hit
		}
		return n.miss
	}
	if ba == nil {
		return nil
	}
	return ba.next
}

// account counts and meters a hit in the table's direct counter and
// meter.
func (n *tableNode) account(s *phv, h *pipeline.Hit) {
	if n.counts && h.Counter != nil {
		h.Counter.Count(s.ingressLen)
	}
	if n.meter != nil {
		color := uint64(pipeline.Green)
		if h.Meter != nil {
			size := int64(s.ingressLen)
			if n.meterPackets {
				size = 1
			}
			color = uint64(h.Meter.ExecuteNow(size))
		}
		n.meter(s, color)
	}
}

// emptyGroup is a hit on an entry whose group has no members (counted and
// metered as a hit): BMv2 runs no action (it logs "yielded empty group")
// and leaves the next node unset; here the control goes on as after a hit,
// to the table's default next node when the successor depends on the
// action.
func (n *tableNode) emptyGroup() node {
	if n.byHit {
		return n.hit
	}
	return n.baseNext
}

func (n *tableNode) find(id uint32) *boundAction {
	for i := range n.acts {
		if n.acts[i].p4id == id {
			return &n.acts[i]
		}
	}
	return nil
}

// fixedNode is a table the compiler made for a direct action call: no key,
// no control-plane presence, always its const default action.
type fixedNode struct {
	a     *action
	words []uint64 // its data, decoded at load
	next  node
	// one is the body when it is a single primitive that holds no
	// register lock and reads no data (the commonest: one assignment).
	one func(*phv)
}

// fixedOne is the single primitive a fixed node runs directly (nil: none).
func fixedOne(a *action, words []uint64) func(*phv) {
	if a.registers != nil || a.exits || len(a.straight) != 1 || len(words) != 0 {
		return nil
	}
	return a.straight[0]
}

func (n *fixedNode) run(s *phv) node {
	if n.one != nil {
		n.one(s)
		return n.next
	}
	s.params = n.words
	if n.a.registers == nil && n.a.straight != nil {
		runStraight(n.a, s) // the commonest body, without exec's checks
	} else {
		n.a.exec(s)
	}
	if s.exited {
		return nil
	}
	return n.next
}

// runControl runs a control from its first node. exit() ends it: the
// node whose action exited returns nil (if-nodes run no action).
func runControl(first node, s *phv) {
	s.exited = false
	for n := first; n != nil; {
		n = n.run(s)
	}
	s.exited = false
}

// control compiles one pipeline.
func (c *compiler) control(jp *bmv2json.Pipeline) (node, error) {
	c.profiles = map[string]*bmv2json.ActionProfile{}
	for i := range jp.ActionProfiles {
		c.profiles[jp.ActionProfiles[i].Name] = &jp.ActionProfiles[i]
	}
	nodes := map[string]node{}
	type link func() error
	var links []link
	lookup := func(name *string) (node, error) {
		if name == nil {
			return nil, nil
		}
		n, ok := nodes[*name]
		if !ok {
			return nil, invalid(nil, "control %s: unknown node %s", jp.Name, *name)
		}
		return n, nil
	}
	for i := range jp.Conditionals {
		jc := &jp.Conditionals[i]
		n, setNext, err := c.ifNode(&jc.Expression, &exprCtx{si: jc.SourceInfo})
		if err != nil {
			return nil, err
		}
		nodes[jc.Name] = n
		links = append(links, func() error {
			onTrue, err := lookup(jc.TrueNext)
			if err != nil {
				return err
			}
			onFalse, err := lookup(jc.FalseNext)
			if err != nil {
				return err
			}
			setNext(onTrue, onFalse)
			return nil
		})
	}
	for i := range jp.Tables {
		jt := &jp.Tables[i]
		n, link, err := c.table(jt, lookup)
		if err != nil {
			return nil, err
		}
		nodes[jt.Name] = n
		links = append(links, link)
	}
	if len(jp.ActionCalls) > 0 {
		return nil, unsupported("a direct action call node", nil)
	}
	for _, l := range links {
		if err := l(); err != nil {
			return nil, err
		}
	}
	return lookup(jp.InitTable)
}

func (c *compiler) table(jt *bmv2json.Table, lookup func(*string) (node, error)) (node, func() error, error) {
	if jt.Type != "" && jt.Type != "simple" && jt.Type != "indirect" && jt.Type != "indirect_ws" {
		return nil, nil, unsupported("a table of type "+jt.Type+" ("+jt.Name+")", jt.SourceInfo)
	}
	t, inInfo := c.tables[jt.Name]
	if !inInfo && (jt.Type == "indirect" || jt.Type == "indirect_ws") {
		return nil, nil, unsupported("a hidden table with an action profile ("+jt.Name+")", jt.SourceInfo)
	}
	switch {
	case !inInfo && len(jt.Key) == 0 && len(jt.Entries) == 0:
		return c.fixedTable(jt, lookup)
	case !inInfo:
		// A table the p4info leaves out is hidden from the control plane
		// (@hidden, or one p4c made): it runs, as on BMv2, with its const
		// entries and default action, and P4Runtime cannot reach it.
		var err error
		if t, err = c.privateTable(jt); err != nil {
			return nil, nil, err
		}
	}
	n := &tableNode{name: jt.Name, t: t, counts: jt.WithCounters}
	if err := c.bindProfile(jt, n); err != nil {
		return nil, nil, err
	}
	if err := c.tableKey(jt, n); err != nil {
		return nil, nil, err
	}
	if len(jt.Entries) > 0 {
		if err := c.constEntries(jt, t); err != nil {
			return nil, nil, err
		}
	}
	if jt.DirectMeters != nil {
		m, ok := c.meterArrays[*jt.DirectMeters]
		if !ok || len(m.ResultTarget) != 2 {
			return nil, nil, invalid(jt.SourceInfo, "table %s: direct meter %s", jt.Name, *jt.DirectMeters)
		}
		f, ok := c.l.field(m.ResultTarget[0], m.ResultTarget[1])
		if !ok || f.words != 1 {
			return nil, nil, invalid(jt.SourceInfo, "table %s: meter result field", jt.Name)
		}
		n.meter = f.setU()
		n.meterPackets = m.Type == "packets"
	}
	for i, id := range jt.ActionIDs {
		a, ok := c.actions[id]
		if !ok {
			return nil, nil, invalid(jt.SourceInfo, "table %s: unknown action id %d", jt.Name, id)
		}
		if _, ok := t.Actions[a.p4id]; !ok {
			return nil, nil, invalid(jt.SourceInfo, "table %s: action %s is not one of its actions in the p4info", jt.Name, a.name)
		}
		_ = i
		if a.words != len(a.params) {
			// a parameter wider than 64 bits: a slab's one word per
			// parameter is not this action's layout
			t.UseGeneric()
		}
		n.acts = append(n.acts, boundAction{p4id: a.p4id, a: a})
	}
	if err := c.initialDefault(jt, t); err != nil {
		return nil, nil, err
	}
	t.SetBinder(n.bind)
	_, n.byHit = jt.NextTables["__HIT__"]
	if _, miss := jt.NextTables["__MISS__"]; miss {
		n.byHit = true
	}
	link := func() error {
		var err error
		if n.byHit {
			if n.hit, err = lookup(jt.NextTables["__HIT__"]); err != nil {
				return err
			}
			n.miss, err = lookup(jt.NextTables["__MISS__"])
			return err
		}
		if n.baseNext, err = lookup(jt.BaseNext); err != nil {
			return err
		}
		for i := range n.acts {
			next, ok := jt.NextTables[n.acts[i].a.name]
			if !ok {
				next = jt.BaseNext
			}
			if n.acts[i].next, err = lookup(next); err != nil {
				return err
			}
		}
		return nil
	}
	return n, link, nil
}

// bindProfile binds a table of type indirect or indirect_ws to its p4info
// action profile and compiles its selector's hash.
func (c *compiler) bindProfile(jt *bmv2json.Table, n *tableNode) error {
	indirect := jt.Type == "indirect" || jt.Type == "indirect_ws"
	switch {
	case !indirect && n.t.Profile != nil:
		return invalid(jt.SourceInfo, "table %s has action profile %s in the p4info and none in the JSON", jt.Name, n.t.Profile.Name)
	case !indirect:
		return nil
	case n.t.Profile == nil || n.t.Profile.Name != jt.ActionProfile:
		return invalid(jt.SourceInfo, "table %s: action profile %s is not its implementation in the p4info", jt.Name, jt.ActionProfile)
	}
	jap, ok := c.profiles[jt.ActionProfile]
	if !ok {
		return invalid(jt.SourceInfo, "table %s: unknown action profile %s", jt.Name, jt.ActionProfile)
	}
	withSelector := jt.Type == "indirect_ws"
	if withSelector != (jap.Selector != nil) || withSelector != n.t.Profile.WithSelector {
		return invalid(jt.SourceInfo, "table %s: action profile %s with and without a selector", jt.Name, jt.ActionProfile)
	}
	n.profile = n.t.Profile
	if jap.Selector != nil {
		calc, err := c.calculation(&bmv2json.Calculation{Name: jap.Name, Algo: jap.Selector.Algo, Input: jap.Selector.Input, SourceInfo: jt.SourceInfo})
		if err != nil {
			return err
		}
		n.selector = calc
	}
	return nil
}

// privateTable builds a table the p4info does not list: a @hidden table of
// the source, or one p4c makes with const entries for a switch statement on
// a value. Only the engine sees it.
func (c *compiler) privateTable(jt *bmv2json.Table) (*pipeline.Table, error) {
	kinds := map[string]pipeline.MatchKind{"exact": pipeline.Exact, "lpm": pipeline.LPM, "ternary": pipeline.Ternary,
		"range": pipeline.Range, "optional": pipeline.Optional}
	var fields []pipeline.KeyField
	for i, k := range jt.Key {
		kind, ok := kinds[k.MatchType]
		if !ok {
			return nil, unsupported("a "+k.MatchType+" match key", jt.SourceInfo)
		}
		var hf []string
		if err := json.Unmarshal(k.Target, &hf); err != nil || len(hf) != 2 {
			return nil, invalid(jt.SourceInfo, "table %s key target %s", jt.Name, k.Target)
		}
		v, err := c.fieldValue(hf[0], hf[1], &exprCtx{si: jt.SourceInfo})
		if err != nil {
			return nil, err
		}
		if v.kind == kVarbit {
			return nil, unsupported("a varbit match field ("+k.Name+" in "+jt.Name+")", jt.SourceInfo)
		}
		fields = append(fields, pipeline.KeyField{ID: uint32(i + 1), Name: k.Name, Bits: v.width, Kind: kind})
	}
	actions := map[uint32]pipeline.ActionSpec{}
	for _, id := range jt.ActionIDs {
		a, ok := c.actions[id]
		if !ok {
			return nil, invalid(jt.SourceInfo, "table %s: unknown action id %d", jt.Name, id)
		}
		var bits []int
		for _, p := range a.params {
			bits = append(bits, p.width)
		}
		actions[a.p4id] = pipeline.ActionSpec{ParamBits: bits}
	}
	t := pipeline.NewTable(0, jt.Name, fields, max(jt.MaxSize, len(jt.Entries), 1), actions, pipeline.Action{}, false)
	c.tables[jt.Name] = t
	return t, nil
}

// fixedTable compiles a table that is not in the p4info: p4c makes one
// for each action called directly from a control. It has no key and a
// const default action.
func (c *compiler) fixedTable(jt *bmv2json.Table, lookup func(*string) (node, error)) (node, func() error, error) {
	if len(jt.Key) > 0 || jt.DefaultEntry == nil {
		return nil, nil, invalid(jt.SourceInfo, "table %s is not in the p4info", jt.Name)
	}
	a, ok := c.actions[jt.DefaultEntry.ActionID]
	if !ok {
		return nil, nil, invalid(jt.SourceInfo, "table %s: unknown default action %d", jt.Name, jt.DefaultEntry.ActionID)
	}
	data, err := hexParams(jt.DefaultEntry.ActionData, a)
	if err != nil {
		return nil, nil, invalid(jt.SourceInfo, "table %s: %v", jt.Name, err)
	}
	n := &fixedNode{a: a, words: a.decoded(data)}
	n.one = fixedOne(a, n.words)
	return n, func() error {
		next, ok := jt.NextTables[a.name]
		if !ok {
			next = jt.BaseNext
		}
		var err error
		n.next, err = lookup(next)
		return err
	}, nil
}

// hexParams turns JSON action data into full-width byte strings.
func hexParams(data []string, a *action) ([][]byte, error) {
	if len(data) != len(a.params) {
		return nil, &ProgramError{What: "action data does not match " + a.name + "'s parameters"}
	}
	out := make([][]byte, len(data))
	for i, h := range data {
		k, err := bmv2json.Hex(h)
		if err != nil {
			return nil, err
		}
		w := pipeline.Width(a.params[i].width)
		b := k.FillBytes(make([]byte, max(w, len(k.Bytes()))))
		out[i] = b[len(b)-w:]
	}
	return out, nil
}

// initialDefault installs the program's default action (with its data).
func (c *compiler) initialDefault(jt *bmv2json.Table, t *pipeline.Table) error {
	if jt.DefaultEntry == nil {
		return nil
	}
	a, ok := c.actions[jt.DefaultEntry.ActionID]
	if _, known := t.Actions[a.p4id]; !ok || !known {
		return invalid(jt.SourceInfo, "table %s: default action %d not in the p4info", jt.Name, jt.DefaultEntry.ActionID)
	}
	data, err := hexParams(jt.DefaultEntry.ActionData, a)
	if err != nil {
		return invalid(jt.SourceInfo, "table %s: %v", jt.Name, err)
	}
	t.SetInitialDefault(pipeline.Action{ID: a.p4id, Params: data})
	return nil
}

// tableKey binds the JSON key to the p4info match fields, in order.
func (c *compiler) tableKey(jt *bmv2json.Table, n *tableNode) error {
	t := n.t
	if len(jt.Key) != len(t.Fields) {
		return invalid(jt.SourceInfo, "table %s has %d key fields in the JSON and %d in the p4info", jt.Name, len(jt.Key), len(t.Fields))
	}
	for i := range jt.Key {
		k := &jt.Key[i]
		f := t.Fields[i]
		if k.Name != "" && f.Name != k.Name {
			return invalid(jt.SourceInfo, "table %s key field %d is %s in the JSON and %s in the p4info", jt.Name, i, k.Name, f.Name)
		}
		if k.MatchType == "valid" {
			return unsupported("a valid match key (P4_14)", jt.SourceInfo)
		}
		var hf []string
		if err := json.Unmarshal(k.Target, &hf); err != nil || len(hf) != 2 {
			return invalid(jt.SourceInfo, "table %s key target %s", jt.Name, k.Target)
		}
		v, err := c.fieldValue(hf[0], hf[1], &exprCtx{si: jt.SourceInfo})
		if err != nil {
			return err
		}
		if v.kind == kVarbit {
			return unsupported("a varbit match field ("+k.Name+" in "+jt.Name+")", jt.SourceInfo)
		}
		if f.Translated != nil {
			if err := translatedKey(jt, t, i, v.width); err != nil {
				return err
			}
			f = t.Fields[i]
		}
		if f.Bits == 0 {
			return unsupported("a match field of a type that is not bit<W> ("+f.Name+" in "+jt.Name+")", jt.SourceInfo)
		}
		if v.width != f.Bits {
			return invalid(jt.SourceInfo, "table %s key %s is %d bits in the JSON and %d in the p4info", jt.Name, f.Name, v.width, f.Bits)
		}
		ke := keyElem{off: t.FieldOffset(i), bytes: pipeline.Width(f.Bits), slot: -1}
		if lv := v.lv; hf[1] != "$valid$" && lv != nil && lv.bit >= 0 && lv.dyn == nil && lv.bit%8 == 0 && lv.width%8 == 0 {
			ke.src = lv.bit / 8 // copied as it sits in the packet
		} else {
			ke.read = keyReader(v, hf[1] == "$valid$")
			if hf[1] != "$valid$" && lv != nil && lv.slot >= 0 && lv.dyn == nil && lv.words == 1 {
				ke.slot = lv.slot
			}
		}
		if k.Mask != nil {
			m, err := bmv2json.Hex(*k.Mask)
			if err != nil {
				return invalid(jt.SourceInfo, "table %s key mask: %v", jt.Name, err)
			}
			ke.mask = m.FillBytes(make([]byte, ke.bytes))
		}
		n.keys = append(n.keys, ke)
	}
	return nil
}

// translatedKey binds key field i of a @p4runtime_translation type: the
// table takes the data plane's width (the JSON's, bits), the p4info's is
// the controller's (see pipeline.Translation).
func translatedKey(jt *bmv2json.Table, t *pipeline.Table, i, bits int) error {
	f := t.Fields[i]
	what := "match field " + f.Name + " in " + jt.Name + " of @p4runtime_translation type " + f.Translated.URI
	switch {
	case f.Translated.SDNString:
		return unsupported("a "+what+" translated to a string (sdn_string)", jt.SourceInfo)
	case f.Kind != pipeline.Exact && f.Kind != pipeline.Optional:
		return unsupported("a "+f.Kind.String()+" "+what+" (translated keys are exact or optional)", jt.SourceInfo)
	}
	t.SetFieldBits(i, bits)
	return nil
}

// keyReader writes a field's value big-endian into its key bytes. A
// header field on whole bytes is copied as it sits in the packet; the rest
// go through the field's reader.
func keyReader(v val, validity bool) func(*phv, []byte) {
	lv := v.lv
	switch {
	case validity || lv == nil:
		u, m := v.u, mask64(v.width)
		return func(s *phv, dst []byte) { pipeline.PutUint(dst, u(s)&m) }
	case lv.bit >= 0 && lv.dyn == nil && lv.bit%8 == 0 && lv.width%8 == 0:
		b, n := lv.bit/8, lv.width/8
		return func(s *phv, dst []byte) { copy(dst, s.hdr[b:b+n]) }
	case lv.slot >= 0 && lv.width <= 8:
		slot := lv.slot
		return func(s *phv, dst []byte) { dst[0] = byte(s.slots[slot]) }
	case lv.slot >= 0 && lv.width <= 16:
		slot := lv.slot
		return func(s *phv, dst []byte) { binary.BigEndian.PutUint16(dst, uint16(s.slots[slot])) }
	case lv.width <= 64:
		get := lv.getU()
		return func(s *phv, dst []byte) { pipeline.PutUint(dst, get(s)) }
	}
	return func(s *phv, dst []byte) {
		var buf [4]uint64
		words := buf[:0]
		if lv.words > len(buf) {
			words = make([]uint64, lv.words)
		}
		words = words[:lv.words]
		lv.load(s, words)
		for j := range dst {
			bit := (len(dst) - 1 - j) * 8
			dst[j] = byte(words[bit/64] >> (bit % 64))
		}
	}
}
