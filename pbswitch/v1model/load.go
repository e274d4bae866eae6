// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"fmt"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// compiler holds what Load resolves by name, so that nothing is looked up
// by name once packets run.
type compiler struct {
	prog               *Program
	l                  *layout
	std                stdFields
	hdrOff             []int // each header's first byte in phv.hdr
	readsChecksumError bool
	tables             map[string]*pipeline.Table
	actions            map[int]*action // by JSON action id
	counters           map[string]*pipeline.CounterArray
	meters             map[string]*pipeline.MeterArray
	meterArrays        map[string]*bmv2json.MeterArray
	registers          map[string]*pipeline.RegisterArray
	vsets              map[string]*pipeline.ValueSet
	profiles           map[string]*bmv2json.ActionProfile // the pipeline's
	calcs              map[string]*calculation
	fieldLists         map[int][]*lvalue
	learnLists         map[int]*learnBinding
	maxParamWords      int
	// konst are the operands compiled to constants (fold.go).
	konst map[*bmv2json.TypedValue]bool
	// touched collects the register arrays the action (or parser
	// operation) being compiled accesses: it runs holding their locks.
	touched registerSet
}

// Load compiles the bmv2 JSON bmv2 against info. It refuses a JSON that is
// malformed (*ProgramError), that uses something the engine does not
// implement (*UnsupportedError), or whose tables and actions the p4info
// does not name.
func Load(bmv2 []byte, info *p4info.P4Info, opts Options) (*Program, error) {
	jp, err := bmv2json.Parse(bmv2)
	if err != nil {
		return nil, &ProgramError{What: err.Error()}
	}
	owns := opts.Frames != nil
	if !owns {
		opts.Frames = heapFrames{}
	}
	objs, err := pipeline.Build(info, opts.DigestOut)
	if err != nil {
		return nil, &ProgramError{What: err.Error()}
	}
	if !opts.GenericTables {
		objs.UseSlabs()
	}
	l, err := newLayout(jp)
	if err != nil {
		return nil, err
	}
	p := &Program{objs: objs, layout: l, opts: opts, ownsFrames: owns}
	c := &compiler{prog: p, l: l, tables: map[string]*pipeline.Table{}, actions: map[int]*action{},
		counters: map[string]*pipeline.CounterArray{}, meters: map[string]*pipeline.MeterArray{},
		meterArrays: map[string]*bmv2json.MeterArray{}, registers: map[string]*pipeline.RegisterArray{}, vsets: map[string]*pipeline.ValueSet{},
		calcs: map[string]*calculation{}, fieldLists: map[int][]*lvalue{}, learnLists: map[int]*learnBinding{}}
	if err := c.compile(jp, info); err != nil {
		return nil, err
	}
	p.bindGenerated(bmv2, generatedByHash)
	p.pool.New = func() any { return p.newPHV() }
	return p, nil
}

func (c *compiler) compile(jp *bmv2json.Program, info *p4info.P4Info) error {
	p := c.prog
	for _, h := range c.l.headers {
		c.hdrOff = append(c.hdrOff, h.byteOff)
	}
	if err := c.bindStd(); err != nil {
		return err
	}
	p.std = c.std
	c.bindObjects(jp)
	if err := c.bindErrors(jp); err != nil {
		return err
	}
	for i := range jp.FieldLists {
		fl := &jp.FieldLists[i]
		list, err := c.fieldList(fl.Name, fl.Elements)
		if err != nil {
			return err
		}
		c.fieldLists[fl.ID] = list
	}
	p.fieldLists = c.fieldLists
	for i := range jp.LearnLists {
		b, err := c.learnList(info, &jp.LearnLists[i])
		if err != nil {
			return err
		}
		c.learnLists[jp.LearnLists[i].ID] = b
	}
	p.learn = c.learnLists
	for i := range jp.Calculations {
		calc, err := c.calculation(&jp.Calculations[i])
		if err != nil {
			return err
		}
		c.calcs[calc.name] = calc
	}
	if err := c.bindActions(jp, info); err != nil {
		return err
	}
	if err := c.checksums(jp.Checksums); err != nil {
		return err
	}
	if err := c.pipelines(jp); err != nil {
		return err
	}
	if len(jp.Parsers) != 1 || len(jp.Deparsers) != 1 {
		return unsupported(fmt.Sprintf("%d parsers and %d deparsers (v1model has one of each)", len(jp.Parsers), len(jp.Deparsers)), nil)
	}
	start, err := c.parser(&jp.Parsers[0])
	if err != nil {
		return err
	}
	p.start = start
	if err := c.deparser(&jp.Deparsers[0]); err != nil {
		return err
	}
	// verify_checksum only sets checksum_error: when nothing reads it, the
	// verification has no effect and is not run.
	if !c.readsChecksumError {
		p.verify = nil
	}
	if p.packetIn, err = c.bindCtrlHeader(info, "packet_in"); err != nil {
		return err
	}
	if p.packetOut, err = c.bindCtrlHeader(info, "packet_out"); err != nil {
		return err
	}
	p.paramWords = max(c.maxParamWords, 1)
	p.maxKey = 1
	for _, t := range c.tables { // the p4info's and the compiler's own
		p.maxKey = max(p.maxKey, t.KeyWidth())
	}
	return nil
}

// bindObjects maps the JSON's tables and externs to the runtime objects
// built from the p4info, by name.
func (c *compiler) bindObjects(jp *bmv2json.Program) {
	for _, t := range c.prog.objs.Tables {
		c.tables[t.Name] = t
	}
	for _, a := range c.prog.objs.Counters {
		c.counters[a.Name] = a
	}
	for _, m := range c.prog.objs.Meters {
		c.meters[m.Name] = m
	}
	for _, r := range c.prog.objs.Registers {
		c.registers[r.Name] = r
	}
	for _, vs := range c.prog.objs.ValueSets {
		c.vsets[vs.Name] = vs
	}
	for i := range jp.MeterArrays {
		c.meterArrays[jp.MeterArrays[i].Name] = &jp.MeterArrays[i]
	}
	// Externs the p4info leaves out still run, with state of their own.
	for _, ca := range jp.CounterArrays {
		if _, ok := c.counters[ca.Name]; !ok && !ca.IsDirect {
			c.counters[ca.Name] = pipeline.NewCounterArray(0, ca.Name, ca.Size)
		}
	}
	for _, ra := range jp.RegisterArrays {
		if _, ok := c.registers[ra.Name]; !ok {
			c.registers[ra.Name] = pipeline.NewRegisterArray(0, ra.Name, ra.Size, ra.Bitwidth)
		}
	}
	for _, ma := range jp.MeterArrays {
		if _, ok := c.meters[ma.Name]; !ok && !ma.IsDirect {
			c.meters[ma.Name] = pipeline.NewMeterArray(0, ma.Name, ma.Size, ma.Type == "packets")
		}
	}
}

func (c *compiler) bindErrors(jp *bmv2json.Program) error {
	codes := map[string]uint64{}
	for _, e := range jp.Errors {
		codes[e.Name] = uint64(e.Value)
	}
	pe := &c.prog.perr
	pe.tooShort, pe.noMatch, pe.stackOutOfBounds = codes["PacketTooShort"], codes["NoMatch"], codes["StackOutOfBounds"]
	pe.headerTooShort, pe.invalidArgument = codes["HeaderTooShort"], codes["ParserInvalidArgument"]
	pe.slot = c.std.parserError
	return nil
}

// bindActions compiles every action and finds its p4info id by name
// (compiler-made actions have none).
func (c *compiler) bindActions(jp *bmv2json.Program, info *p4info.P4Info) error {
	ids := map[string]uint32{}
	for _, a := range info.GetActions() {
		ids[a.GetPreamble().GetName()] = a.GetPreamble().GetId()
	}
	for i := range jp.Actions {
		a, err := c.action(&jp.Actions[i])
		if err != nil {
			return err
		}
		a.p4id, a.inInfo = ids[a.name], true
		if a.p4id != 0 {
			if err := c.bindParams(a, &jp.Actions[i]); err != nil {
				return err
			}
		}
		if a.p4id == 0 {
			// Compiler-made actions get ids of their own, outside p4c's
			// action prefix (0x01), for the tables only the engine sees.
			a.p4id, a.inInfo = privateActionID|uint32(jp.Actions[i].ID), false
		}
		c.actions[jp.Actions[i].ID] = a
		a.index = len(c.prog.actions)
		c.prog.actions = append(c.prog.actions, a)
	}
	return nil
}

// bindParams checks an action's parameters against its p4info action and
// sets the data-plane width of those of a @p4runtime_translation type
// (pipeline.Translation): the p4info gives the controller's.
func (c *compiler) bindParams(a *action, ja *bmv2json.Action) error {
	objs := c.prog.objs
	bits, trs := objs.ActionParams[a.p4id], objs.ParamTranslations[a.p4id]
	if len(bits) != len(a.params) {
		return invalid(nil, "action %s has %d parameters in the JSON and %d in the p4info", a.name, len(a.params), len(bits))
	}
	for i, p := range a.params {
		tr := trs[i]
		switch {
		case tr != nil && tr.SDNString:
			return unsupported("parameter "+ja.RuntimeData[i].Name+" of action "+a.name+" of @p4runtime_translation type "+tr.URI+
				" translated to a string (sdn_string)", firstSource(ja))
		case tr != nil:
			bits[i] = p.width // shared with the tables' and profiles' ActionSpecs
		case p.width != bits[i]:
			return invalid(firstSource(ja), "action %s parameter %s is %d bits in the JSON and %d in the p4info", a.name, ja.RuntimeData[i].Name, p.width, bits[i])
		}
	}
	return nil
}

// firstSource is where an action starts in the P4 source, as near as the
// JSON tells (its first primitive's line).
func firstSource(ja *bmv2json.Action) *bmv2json.SourceInfo {
	for i := range ja.Primitives {
		if si := ja.Primitives[i].SourceInfo; si != nil {
			return si
		}
	}
	return nil
}

func (c *compiler) pipelines(jp *bmv2json.Program) error {
	for i := range jp.Pipelines {
		pl := &jp.Pipelines[i]
		first, err := c.control(pl)
		if err != nil {
			return err
		}
		switch pl.Name {
		case "ingress":
			c.prog.ingress = first
		case "egress":
			c.prog.egress = first
		default:
			return unsupported("a pipeline named "+pl.Name+" (v1model has ingress and egress)", pl.SourceInfo)
		}
	}
	return nil
}

func (c *compiler) deparser(d *bmv2json.Deparser) error {
	for _, name := range d.Order {
		h, ok := c.l.header(name)
		if !ok {
			return invalid(nil, "deparser emits unknown header %s", name)
		}
		if c.l.headers[h].metadata {
			return invalid(nil, "deparser emits metadata %s", name)
		}
		c.prog.emit = append(c.prog.emit, emitHeader{hdr: h, off: c.l.headers[h].byteOff, bytes: c.l.headers[h].bits / 8,
			vl: c.l.vlHeaderOf(h)})
	}
	c.prog.emitFixed = len(c.prog.emit) <= 64
	for _, e := range c.prog.emit {
		if e.vl != nil {
			c.prog.emitFixed = false
		}
	}
	return nil
}

// constEntries installs the table's entries from the P4 source.
func (c *compiler) constEntries(jt *bmv2json.Table, t *pipeline.Table) error {
	for _, je := range jt.Entries {
		a, ok := c.actions[je.ActionEntry.ActionID]
		if !ok || a.p4id == 0 {
			return invalid(jt.SourceInfo, "table %s: const entry action %d", jt.Name, je.ActionEntry.ActionID)
		}
		data, err := hexParams(je.ActionEntry.ActionData, a)
		if err != nil {
			return invalid(jt.SourceInfo, "table %s: %v", jt.Name, err)
		}
		e := &pipeline.Entry{Action: pipeline.Action{ID: a.p4id, Params: data}, Priority: int32(je.Priority)}
		if len(je.MatchKey) != len(t.Fields) {
			return invalid(jt.SourceInfo, "table %s: const entry key", jt.Name)
		}
		for i, mk := range je.MatchKey {
			fm, err := constMatch(mk.MatchType, mk.Key, mk.Mask, mk.Start, mk.End, mk.PrefixLength, t.Fields[i].Bits)
			if err != nil {
				return invalid(jt.SourceInfo, "table %s const entry: %v", jt.Name, err)
			}
			e.Match = append(e.Match, fm)
		}
		if t.NeedsPriority() {
			// BMv2: a lower number is a higher priority; P4Runtime: higher wins.
			e.Priority = int32(1<<24 - je.Priority)
		} else {
			e.Priority = 0
		}
		if err := t.InsertConst(e); err != nil {
			return invalid(jt.SourceInfo, "table %s const entry: %v", jt.Name, err)
		}
	}
	return nil
}

func constMatch(kind, key, mask, start, end string, plen, bits int) (pipeline.FieldMatch, error) {
	w := pipeline.Width(bits)
	bytesOf := func(h string) ([]byte, error) {
		k, err := bmv2json.Hex(h)
		if err != nil {
			return nil, err
		}
		if k.Sign() < 0 || k.BitLen() > w*8 {
			return nil, fmt.Errorf("value %s does not fit %d bits", h, bits)
		}
		return k.FillBytes(make([]byte, w)), nil
	}
	var fm pipeline.FieldMatch
	var err error
	switch kind {
	case "exact":
		fm.Value, err = bytesOf(key)
	case "lpm":
		if fm.Value, err = bytesOf(key); err == nil {
			fm.PrefixLen = plen
			fm.Mask = prefixMask(bits, plen)
			andInto(fm.Value, fm.Mask)
			if plen == 0 {
				fm.Wildcard, fm.Value, fm.Mask = true, nil, nil
			}
		}
	case "ternary", "optional":
		if fm.Value, err = bytesOf(key); err == nil {
			fm.Mask, err = bytesOf(mask)
			if err == nil {
				andInto(fm.Value, fm.Mask) // BMv2 ignores the bits outside the mask
			}
			if err == nil && isZero(fm.Mask) {
				fm.Wildcard, fm.Value, fm.Mask = true, nil, nil
			}
		}
	case "range":
		if fm.Low, err = bytesOf(start); err == nil {
			fm.High, err = bytesOf(end)
		}
	default:
		return fm, fmt.Errorf("match type %s", kind)
	}
	return fm, err
}

func prefixMask(bits, plen int) []byte {
	w := pipeline.Width(bits)
	m := make([]byte, w)
	for i := w*8 - bits; i < w*8-bits+plen; i++ {
		m[i/8] |= 0x80 >> (i % 8)
	}
	return m
}

func andInto(v, mask []byte) {
	for i := range v {
		v[i] &= mask[i]
	}
}

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}
