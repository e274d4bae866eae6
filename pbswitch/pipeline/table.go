// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// MatchKind is how a key field matches.
type MatchKind int

// Match kinds (P4Runtime's MatchField.MatchType).
const (
	Exact MatchKind = iota + 1
	LPM
	Ternary
	Range
	Optional
)

func (k MatchKind) String() string {
	return [...]string{"?", "EXACT", "LPM", "TERNARY", "RANGE", "OPTIONAL"}[k]
}

// KeyField describes one field of a table key.
type KeyField struct {
	ID   uint32
	Name string
	Bits int // in the data plane
	Kind MatchKind
	// Translated is set for a field of a @p4runtime_translation type: the
	// controller gives its values in the SDN form (nil: as they are).
	Translated *Translation
}

// FieldMatch is one field of an entry's match. An omitted (don't care)
// field of a ternary, LPM, range or optional field has Wildcard set.
type FieldMatch struct {
	Wildcard  bool
	Value     []byte // exact, LPM, ternary, optional
	Mask      []byte // ternary; LPM's prefix as a mask
	PrefixLen int    // LPM
	Low, High []byte // range
}

// Action is a call of an action with its parameters (full width).
type Action struct {
	ID     uint32
	Params [][]byte
}

// Entry is a table entry. Its match and priority identify it.
type Entry struct {
	Match    []FieldMatch
	Priority int32
	Action   Action
	// Cookie is the controller's opaque value, returned on read.
	Cookie uint64
	// Counter is the entry's direct counter cell (kept when the entry is
	// modified, as P4Runtime requires).
	Counter CounterCell
	// Meter is the entry's direct meter (nil: not configured, all green).
	Meter *Meter
	// In a table with an action profile, the entry names a member
	// (MemberID) or, with a selector, a group (GroupID, IsGroup) instead
	// of an action; Ref is what it resolved to.
	MemberID, GroupID uint32
	IsGroup           bool
	// OneShot is the entry's one-shot action set, when it has one instead
	// of a member or group.
	OneShot []OneShotAction
	Ref     ProfileRef
	// key is the entry's identity (match + priority).
	key string
	// bound is the table's Binder's form of Action.
	bound any
}

// Table is a match-action table. Lookups take a read lock, so they run
// concurrently with each other and never see a half-applied write.
type Table struct {
	ID     uint32
	Name   string
	Fields []KeyField
	Size   int
	// Actions lists the action ids the table accepts; DefaultOnly those
	// only allowed as the default action.
	Actions      map[uint32]ActionSpec
	ConstDefault bool
	// ConstEntries: the P4 program declared the entries; the control
	// plane can read them but not change them.
	ConstEntries bool
	// Profile is the table's action profile or selector (nil: entries
	// carry their action).
	Profile *ActionProfile

	mu       sync.RWMutex
	entries  map[string]*Entry
	index    matcher
	def      Action
	offsets  []int
	keyWidth int

	// slab holds the entries instead of entries and index when the table
	// is exact-match (UseSlab); slabBound is the binder's form of each of
	// its actions, by the slab's action index.
	slab          *exactSlab
	slabBound     []any
	directCounter bool

	// binder prepares every action written for the data plane (nil: none).
	binder Binder
	// count is len(entries), and defHit the default action with its bound
	// form, both written under mu: a lookup in an empty table reads them
	// without taking the lock.
	count  atomic.Int64
	defHit atomic.Pointer[Hit]
}

// Binder turns an action into the form the data plane runs, once, when the
// action is written (the engine decodes its parameters there instead of
// per packet). Lookups hand it back as Hit.Bound.
type Binder func(Action) any

// Hit is what a lookup selected: whether an entry matched (Matched; nil
// Entry and false: the default action), the entry (nil in a slab table,
// which keeps no Entry objects), its action, or its member or group in a
// table with an action profile (Ref, Action unset), and the binder's form
// of the action (nil without a binder, and for a member or group). A slab
// table's hit gives its parameters as words instead (Words; Action has
// only the ID) and the binder's form of the action with no parameters.
// Counter and Meter are the hit entry's direct counter cell and meter
// (nil: none).
type Hit struct {
	Entry   *Entry
	Matched bool
	Action  Action
	Ref     ProfileRef
	Bound   any
	Words   []uint64
	Counter *CounterCell
	Meter   *Meter

	// noOp: the default's Hit (EmptyDefault's) whose bound form says it
	// does nothing (NoOper).
	noOp bool
}

// NoOper is a binder's form of an action that can tell it does nothing:
// an empty table whose default's form does nothing is skipped whole by
// EmptyNoOp's callers.
type NoOper interface{ NoOp() bool }

// ActionSpec says where an action may be used in a table and the widths of
// its parameters.
type ActionSpec struct {
	ParamBits   []int
	TableOnly   bool
	DefaultOnly bool
}

// NewTable makes an empty table; def is its initial default action.
func NewTable(id uint32, name string, fields []KeyField, size int, actions map[uint32]ActionSpec, def Action, constDefault bool) *Table {
	t := &Table{ID: id, Name: name, Fields: fields, Size: size, Actions: actions,
		ConstDefault: constDefault, entries: map[string]*Entry{}, def: def}
	t.defHit.Store(&Hit{Action: def})
	for _, f := range fields {
		t.offsets = append(t.offsets, t.keyWidth)
		t.keyWidth += Width(f.Bits)
	}
	t.index = newMatcher(fields, t.offsets, t.keyWidth)
	return t
}

// SetFieldBits sets the data-plane width of field i, a field of a
// translated type whose width only the program knows. Call it before the
// table has entries.
func (t *Table) SetFieldBits(i, bits int) {
	t.Fields[i].Bits = bits
	t.offsets, t.keyWidth = t.offsets[:0], 0
	for _, f := range t.Fields {
		t.offsets = append(t.offsets, t.keyWidth)
		t.keyWidth += Width(f.Bits)
	}
	t.index = newMatcher(t.Fields, t.offsets, t.keyWidth)
	if t.slab != nil {
		t.slab = newExactSlab(t, t.directCounter)
	}
}

// UseSlab makes the (empty) table keep its entries in a slab when it is
// exact-match (every key field exact, no action profile, no parameter
// over 64 bits); counted says whether it has a direct counter. It reports
// whether the table uses a slab.
func (t *Table) UseSlab(counted bool) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.entries) != 0 || !slabEligible(t) {
		return false
	}
	t.directCounter = counted
	t.slab = newExactSlab(t, counted)
	t.bindSlab()
	return true
}

// UseGeneric moves a slab table's entries into Go objects (the generic
// store), which every table can use.
func (t *Table) UseGeneric() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.slab == nil {
		return
	}
	s := t.slab
	t.slab, t.slabBound = nil, nil
	s.each(func(slot uint32) {
		e := s.entry(slot, t.Fields, t.offsets)
		t.bind(e)
		t.entries[e.key] = e
		t.index.add(e)
	})
}

// UsesSlab reports whether the table keeps its entries in a slab.
func (t *Table) UsesSlab() bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.slab != nil
}

// StorageBytes is the memory a slab table's storage holds (0 for a table
// without a slab).
func (t *Table) StorageBytes() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.slab == nil {
		return 0
	}
	return t.slab.bytes()
}

// KeyWidth is the byte length of a lookup key: the fields' full-width
// values concatenated in field order.
func (t *Table) KeyWidth() int { return t.keyWidth }

// FieldOffset is where field i starts in a lookup key.
func (t *Table) FieldOffset(i int) int { return t.offsets[i] }

// NeedsPriority reports whether entries carry a priority (any ternary,
// range or optional field).
func (t *Table) NeedsPriority() bool {
	for _, f := range t.Fields {
		if f.Kind == Ternary || f.Kind == Range || f.Kind == Optional {
			return true
		}
	}
	return false
}

// Lookup returns the action for key and the entry that matched (nil: the
// default action). Its direct counter is not touched; the caller counts.
func (t *Table) Lookup(key []byte) (Action, *Entry) {
	a, _, e := t.LookupRef(key)
	return a, e
}

// LookupRef is Lookup for a table with an action profile too: a matching
// entry's member or group comes back in ref (to resolve with the
// profile's Resolve), its action unset.
func (t *Table) LookupRef(key []byte) (Action, ProfileRef, *Entry) {
	t.mu.RLock()
	if t.slab != nil {
		defer t.mu.RUnlock()
		if slot, ok := t.slab.lookup(key); ok {
			e := t.slab.entry(slot, t.Fields, t.offsets)
			return e.Action, ProfileRef{}, e
		}
		return t.def, ProfileRef{}, nil
	}
	a := t.def
	var ref ProfileRef
	e := t.index.lookup(key)
	if e != nil {
		a, ref = e.Action, e.Ref // read under the lock: Modify replaces them
	}
	t.mu.RUnlock()
	return a, ref, e
}

// LookupHit is the data plane's lookup: it fills h with what key selects.
// An empty table answers from its default without taking the lock. A slab
// table copies the hit entry's parameter words into words (the caller's
// buffer, at least ParamWords long) under the lock, so that a Modify at
// the same time cannot tear them.
func (t *Table) LookupHit(key []byte, h *Hit, words []uint64) {
	if d := t.EmptyDefault(); d != nil {
		*h = *d
		return
	}
	t.mu.RLock()
	if t.slab != nil {
		t.slabHit(key, h, words)
	} else if e := t.index.lookup(key); e != nil {
		// read under the lock: Modify replaces them
		*h = Hit{Entry: e, Matched: true, Action: e.Action, Ref: e.Ref, Bound: e.bound, Counter: &e.Counter, Meter: e.Meter}
	} else {
		*h = *t.defHit.Load()
	}
	t.mu.RUnlock()
}

// LookupPlain is LookupHit for a caller that needs of the hit only its
// bound action, its parameter words and whether an entry matched (what a
// table without action profile, direct counter or direct meter runs):
// the same answer, without filling a Hit. A slab table's entry decodes
// its parameters into words under the lock; params is nil for other
// tables' entries and for the default (as Hit.Words is).
func (t *Table) LookupPlain(key []byte, words []uint64) (bound any, params []uint64, matched bool) {
	if d := t.EmptyDefault(); d != nil {
		return d.Bound, d.Words, d.Matched
	}
	t.mu.RLock()
	if s := t.slab; s != nil {
		if rec := s.lookupRecord(key); rec != nil {
			ai := int(rec[s.keyWidth]) - 1
			bound, params, matched = t.slabBound[ai], s.decodeRecord(rec, words), true
		} else {
			d := t.defHit.Load()
			bound, params, matched = d.Bound, d.Words, d.Matched
		}
	} else if e := t.index.lookup(key); e != nil {
		bound, matched = e.bound, true // read under the lock: Modify replaces it
	} else {
		d := t.defHit.Load()
		bound, params, matched = d.Bound, d.Words, d.Matched
	}
	t.mu.RUnlock()
	return bound, params, matched
}

// SlabParamBytes is the most parameter bytes LookupSlab copies.
const SlabParamBytes = 48

// LookupSlab is LookupPlain for a slab table whose caller decodes the hit
// entry's parameters itself: under the read lock it copies the entry's
// parameter bytes (packed in order at their byte widths, as Insert got
// them) into params and returns its action's bound form with matched
// true; a miss returns the default's bound form (whose data, if any, the
// caller takes from it) with matched false. ok is false, and nothing else
// set, when the table keeps no slab, is empty, or its entries' parameters
// need more than SlabParamBytes: the caller looks up with LookupPlain.
func (t *Table) LookupSlab(key []byte, params *[SlabParamBytes]byte) (bound any, matched, ok bool) {
	if t.count.Load() == 0 {
		return nil, false, false
	}
	t.mu.RLock()
	s := t.slab
	if s == nil || s.paramBytes > SlabParamBytes {
		t.mu.RUnlock()
		return nil, false, false
	}
	if rec := s.lookupRecord(key); rec != nil {
		kw := s.keyWidth
		bound, matched = t.slabBound[int(rec[kw])-1], true
		if s.paramBytes <= 16 {
			// One fixed-size move (the bytes after the parameters are the
			// next record's or the chunk's slack, which no one decodes).
			*(*[16]byte)(params[:]) = [16]byte(rec[kw+1 : kw+17])
		} else {
			copy(params[:], rec[kw+1:])
		}
	} else {
		bound = t.defHit.Load().Bound
	}
	t.mu.RUnlock()
	return bound, matched, true
}

// slabHit is LookupHit in a slab (under the read lock).
func (t *Table) slabHit(key []byte, h *Hit, words []uint64) {
	s := t.slab
	slot, ok := s.lookup(key)
	if !ok {
		*h = *t.defHit.Load()
		return
	}
	ai := s.actionOf(slot)
	*h = Hit{Matched: true, Action: Action{ID: s.actions[ai]}, Bound: t.slabBound[ai], Words: s.decode(slot, words)}
	if s.counted {
		h.Counter = s.counter(slot)
	}
	if len(s.meters) != 0 {
		h.Meter = s.meters[slot]
	}
}

// ParamWords is the most parameter words a slab table's hit copies.
func (t *Table) ParamWords() int {
	if t.slab == nil {
		return 0
	}
	return t.slab.stride
}

// EmptyDefault is the default action's Hit when the table has no entries
// (nil when it has some), read without the lock: a caller need not build
// a key nothing could match. The Hit is shared: read it, do not change it.
func (t *Table) EmptyDefault() *Hit {
	if t.count.Load() != 0 {
		return nil
	}
	return t.defHit.Load()
}

// EmptyNoOp reports whether the table has no entries and its default
// action's bound form does nothing (NoOper), read without the lock like
// EmptyDefault: applying the table would change nothing, so a caller whose
// apply goes to the same place on a hit and a miss may skip it. A default
// set at runtime to an action that does something makes it false at once.
func (t *Table) EmptyNoOp() bool {
	return t.count.Load() == 0 && t.defHit.Load().noOp
}

// SetBinder makes b prepare the table's actions: the default, the entries
// it holds and every one written from now on.
func (t *Table) SetBinder(b Binder) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.binder = b
	t.storeDefault()
	for _, e := range t.entries {
		t.bind(e)
	}
	t.bindSlab()
}

// bindSlab prepares each of a slab table's actions, without parameters:
// a hit gives them as words (under the write lock).
func (t *Table) bindSlab() {
	if t.slab == nil {
		return
	}
	t.slabBound = make([]any, len(t.slab.actions))
	if t.binder == nil {
		return
	}
	for i, id := range t.slab.actions {
		a := Action{ID: id, Params: make([][]byte, len(t.slab.bits[i]))}
		for j, b := range t.slab.bits[i] {
			a.Params[j] = make([]byte, Width(b))
		}
		t.slabBound[i] = t.binder(a)
	}
}

// bind prepares e's action (the caller holds the write lock).
func (t *Table) bind(e *Entry) {
	e.bound = nil
	if t.binder != nil && t.Profile == nil {
		e.bound = t.binder(e.Action)
	}
}

// storeDefault publishes t.def for lock-free lookups (under the write lock).
func (t *Table) storeDefault() {
	h := &Hit{Action: t.def}
	if t.binder != nil {
		h.Bound = t.binder(t.def)
		if n, ok := h.Bound.(NoOper); ok {
			h.noOp = n.NoOp()
		}
	}
	t.defHit.Store(h)
}

// acquire binds an entry of a table with an action profile to its member
// or group.
func (t *Table) acquire(e *Entry) error {
	if t.Profile == nil {
		return nil
	}
	var ref ProfileRef
	var err error
	if e.OneShot != nil {
		ref, err = t.Profile.acquireOneShot(e.OneShot)
	} else {
		ref, err = t.Profile.acquire(e.MemberID, e.GroupID, e.IsGroup)
	}
	e.Ref = ref
	return err
}

func (t *Table) release(e *Entry) {
	if t.Profile != nil {
		t.Profile.release(e.Ref)
	}
}

// SetMeter replaces the direct meter of the entry with e's match (nil:
// none). NOT_FOUND when there is none.
func (t *Table) SetMeter(e *Entry, m *Meter) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.slab != nil {
		b, slot := t.slab.find(concatValues(e))
		if b < 0 || t.slab.n == 0 {
			return t.errNoEntry()
		}
		if m == nil {
			delete(t.slab.meters, slot)
		} else {
			t.slab.meters[slot] = m
		}
		return nil
	}
	old, ok := t.entries[entryKey(e)]
	if !ok {
		return t.errNoEntry()
	}
	old.Meter = m
	return nil
}

// SetCounter overwrites the direct counter cell of the entry with e's
// match (a P4Runtime direct counter write). NOT_FOUND when there is none.
func (t *Table) SetCounter(e *Entry, packets, bytes uint64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.slab != nil {
		b, slot := t.slab.find(concatValues(e))
		if b < 0 || t.slab.n == 0 {
			return t.errNoEntry()
		}
		if t.slab.counted {
			t.slab.counter(slot).Set(packets, bytes)
		}
		return nil
	}
	old, ok := t.entries[entryKey(e)]
	if !ok {
		return t.errNoEntry()
	}
	old.Counter.Set(packets, bytes)
	return nil
}

// The errors of the table's writes, one function each: every path a
// write may take (Insert or InsertExact, Modify or ModifyExact, into the
// generic store or a slab) answers the same to the byte.

func (t *Table) errConstEntries() error {
	return status.Errorf(codes.PermissionDenied, "table %s: its entries are const in the P4 program", t.Name)
}

func (t *Table) errNoEntry() error {
	return status.Errorf(codes.NotFound, "table %s: no such entry", t.Name)
}

func (t *Table) errAlreadyExists() error {
	return status.Errorf(codes.AlreadyExists, "table %s: entry already exists", t.Name)
}

func (t *Table) errFull() error {
	return status.Errorf(codes.ResourceExhausted, "table %s: full (%d entries)", t.Name, t.Size)
}

func (t *Table) errNoEntryToModify() error {
	return status.Errorf(codes.NotFound, "table %s: no such entry to modify", t.Name)
}

func (t *Table) errNoEntryToDelete() error {
	return status.Errorf(codes.NotFound, "table %s: no such entry to delete", t.Name)
}

// Insert adds e. ALREADY_EXISTS when an entry with the same match and
// priority exists, RESOURCE_EXHAUSTED when the table is full.
func (t *Table) Insert(e *Entry) error {
	if t.ConstEntries {
		return t.errConstEntries()
	}
	if err := t.validate(e); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.slab != nil {
		return t.slabInsert(e)
	}
	e.key = entryKey(e)
	if _, dup := t.entries[e.key]; dup {
		return t.errAlreadyExists()
	}
	if len(t.entries) >= t.Size {
		return t.errFull()
	}
	if err := t.acquire(e); err != nil {
		return err
	}
	t.bind(e)
	t.entries[e.key] = e
	t.index.add(e)
	t.count.Store(int64(len(t.entries)))
	return nil
}

// slabInsert is Insert in a slab (under the write lock).
func (t *Table) slabInsert(e *Entry) error {
	key := concatValues(e)
	if err := t.slabInsertRecord(key, e.Action, e.Cookie); err != nil {
		return err
	}
	if e.Meter != nil {
		_, slot := t.slab.find(key)
		t.slab.meters[slot] = e.Meter
	}
	return nil
}

// Modify replaces the action (and cookie, meter) of the entry matching e.
// NOT_FOUND when there is none.
func (t *Table) Modify(e *Entry) error {
	if t.ConstEntries {
		return t.errConstEntries()
	}
	if err := t.validate(e); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.slab != nil {
		return t.slabModify(e)
	}
	old, ok := t.entries[entryKey(e)]
	if !ok {
		return t.errNoEntryToModify()
	}
	if err := t.acquire(e); err != nil {
		return err
	}
	t.release(old)
	old.MemberID, old.GroupID, old.IsGroup, old.OneShot, old.Ref = e.MemberID, e.GroupID, e.IsGroup, e.OneShot, e.Ref
	old.Action = e.Action
	t.bind(old)
	old.Cookie = e.Cookie
	if e.Meter != nil {
		old.Meter = e.Meter
	}
	return nil
}

// slabModify is Modify in a slab (under the write lock): the action,
// cookie and a given meter change, the counter stays.
func (t *Table) slabModify(e *Entry) error {
	slot, err := t.slabModifyRecord(concatValues(e), e.Action, e.Cookie)
	if err != nil {
		return err
	}
	if e.Meter != nil {
		t.slab.meters[slot] = e.Meter
	}
	return nil
}

// Delete removes the entry matching e's match and priority. NOT_FOUND when
// there is none.
func (t *Table) Delete(e *Entry) error {
	if t.ConstEntries {
		return t.errConstEntries()
	}
	if err := t.validateMatch(e); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.slab != nil {
		return t.slabDelete(e)
	}
	key := entryKey(e)
	old, ok := t.entries[key]
	if !ok {
		return t.errNoEntryToDelete()
	}
	delete(t.entries, key)
	t.index.remove(old)
	t.count.Store(int64(len(t.entries)))
	t.release(old)
	return nil
}

// slabDelete is Delete in a slab (under the write lock).
func (t *Table) slabDelete(e *Entry) error {
	s := t.slab
	b, slot := -1, uint32(0)
	if s.n > 0 {
		b, slot = s.find(concatValues(e))
	}
	if b < 0 {
		return t.errNoEntryToDelete()
	}
	s.remove(b, slot)
	t.count.Store(int64(s.n))
	return nil
}

// Find returns the stored entry with e's match and priority, or nil. In a
// slab table it is a copy: change the entry with Modify, SetCounter and
// SetMeter.
func (t *Table) Find(e *Entry) *Entry {
	if t.validateMatch(e) != nil {
		return nil
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.slab != nil {
		if slot, ok := t.slab.lookup(concatValues(e)); ok {
			return t.slab.entry(slot, t.Fields, t.offsets)
		}
		return nil
	}
	return t.entries[entryKey(e)]
}

// SetDefault changes the default action. PERMISSION_DENIED when the P4
// program declared it const.
func (t *Table) SetDefault(a Action) error {
	if t.ConstDefault {
		return status.Errorf(codes.PermissionDenied, "table %s: the default action is const", t.Name)
	}
	if err := t.validateAction(a, true); err != nil {
		return err
	}
	t.mu.Lock()
	t.def = a
	t.storeDefault()
	t.mu.Unlock()
	return nil
}

// SetInitialDefault installs the default action the P4 program declares
// (const or not); the control plane's SetDefault may change a non-const one.
func (t *Table) SetInitialDefault(a Action) {
	t.mu.Lock()
	t.def = a
	t.storeDefault()
	t.mu.Unlock()
}

// InsertConst adds an entry the P4 program declares (const entries) and
// marks the table's entries immutable.
func (t *Table) InsertConst(e *Entry) error {
	t.ConstEntries = false
	err := t.Insert(e)
	t.ConstEntries = true
	return err
}

// Default returns the default action.
func (t *Table) Default() Action {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.def
}

// Entries returns the entries in a stable order (priority, then key).
func (t *Table) Entries() []*Entry {
	t.mu.RLock()
	out := make([]*Entry, 0, len(t.entries))
	for _, e := range t.entries {
		out = append(out, e)
	}
	if t.slab != nil {
		t.slab.each(func(slot uint32) { out = append(out, t.slab.entry(slot, t.Fields, t.offsets)) })
	}
	t.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].Priority != out[j].Priority {
			return out[i].Priority > out[j].Priority
		}
		return out[i].key < out[j].key
	})
	return out
}

// Len is the number of entries.
func (t *Table) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.slab != nil {
		return t.slab.n
	}
	return len(t.entries)
}

// Clear removes every entry (a new pipeline, or a delete-all).
func (t *Table) Clear() {
	t.mu.Lock()
	for _, e := range t.entries {
		t.release(e)
	}
	t.entries = map[string]*Entry{}
	t.index = newMatcher(t.Fields, t.offsets, t.keyWidth)
	if t.slab != nil {
		t.slab = newExactSlab(t, t.directCounter)
	}
	t.count.Store(0)
	t.mu.Unlock()
}

func (t *Table) validate(e *Entry) error {
	if err := t.validateMatch(e); err != nil {
		return err
	}
	if t.Profile != nil {
		return nil // the profile checks its members' actions
	}
	return t.validateAction(e.Action, false)
}

func (t *Table) validateMatch(e *Entry) error {
	if len(e.Match) != len(t.Fields) {
		return status.Errorf(codes.InvalidArgument, "table %s: match has %d fields, want %d", t.Name, len(e.Match), len(t.Fields))
	}
	if t.NeedsPriority() != (e.Priority != 0) {
		if e.Priority == 0 {
			return status.Errorf(codes.InvalidArgument, "table %s: ternary, range or optional match needs a priority > 0", t.Name)
		}
		return status.Errorf(codes.InvalidArgument, "table %s: exact/LPM table takes no priority", t.Name)
	}
	if e.Priority < 0 {
		return status.Errorf(codes.InvalidArgument, "table %s: negative priority %d", t.Name, e.Priority)
	}
	for i, f := range t.Fields {
		if err := checkField(f, &e.Match[i]); err != nil {
			return status.Errorf(codes.InvalidArgument, "table %s field %s: %v", t.Name, f.Name, err)
		}
	}
	return nil
}

func checkField(f KeyField, m *FieldMatch) error {
	w := Width(f.Bits)
	if m.Wildcard {
		if f.Kind == Exact {
			return fmt.Errorf("an exact field cannot be omitted")
		}
		return nil
	}
	switch f.Kind {
	case Exact, Optional:
		if len(m.Value) != w {
			return fmt.Errorf("value is %d bytes, want %d", len(m.Value), w)
		}
	case LPM:
		if m.PrefixLen <= 0 || m.PrefixLen > f.Bits {
			return fmt.Errorf("prefix length %d outside [1, %d]", m.PrefixLen, f.Bits)
		}
		m.Mask = prefixMask(f.Bits, m.PrefixLen)
		return checkMasked(m.Value, m.Mask, w)
	case Ternary:
		if isZero(m.Mask) {
			return fmt.Errorf("all-zero mask: omit the field instead")
		}
		return checkMasked(m.Value, m.Mask, w)
	case Range:
		if len(m.Low) != w || len(m.High) != w {
			return fmt.Errorf("range bounds must be %d bytes", w)
		}
		if bytes.Compare(m.Low, m.High) > 0 {
			return fmt.Errorf("low bound above high bound")
		}
	}
	return nil
}

func checkMasked(v, mask []byte, w int) error {
	if len(v) != w || len(mask) != w {
		return fmt.Errorf("value and mask must be %d bytes", w)
	}
	for i := range v {
		if v[i]&^mask[i] != 0 {
			return fmt.Errorf("value 0x%x has bits outside mask 0x%x", v, mask)
		}
	}
	return nil
}

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

func (t *Table) validateAction(a Action, asDefault bool) error {
	spec, ok := t.Actions[a.ID]
	if !ok {
		return status.Errorf(codes.InvalidArgument, "table %s: action %d is not one of its actions", t.Name, a.ID)
	}
	if asDefault && spec.TableOnly {
		return status.Errorf(codes.InvalidArgument, "table %s: action %d cannot be the default action", t.Name, a.ID)
	}
	if !asDefault && spec.DefaultOnly {
		return status.Errorf(codes.InvalidArgument, "table %s: action %d is only allowed as the default action", t.Name, a.ID)
	}
	return spec.checkParams("table", t.Name, a)
}

// checkParams refuses an action whose parameters are not the spec's, in
// number or width (INVALID_ARGUMENT naming the owner: kind "table" or
// "action profile", and its name; joined only on error, as this runs for
// every entry written).
func (spec ActionSpec) checkParams(kind, name string, a Action) error {
	i := spec.paramMisfit(a)
	switch {
	case i < 0:
		return nil
	case i == len(spec.ParamBits):
		return status.Errorf(codes.InvalidArgument, "%s %s: action %d takes %d parameters, got %d", kind, name, a.ID, len(spec.ParamBits), len(a.Params))
	}
	return status.Errorf(codes.InvalidArgument, "%s %s: action %d parameter %d is %d bytes, want %d", kind, name, a.ID, i+1, len(a.Params[i]), Width(spec.ParamBits[i]))
}

// paramMisfit is checkParams without an error (InsertExact's check, which
// must refuse what checkParams would): -1 when a's parameters fit the
// spec, len(spec.ParamBits) when a has not as many, else the index of the
// first one not at its full width.
func (spec ActionSpec) paramMisfit(a Action) int {
	if len(a.Params) != len(spec.ParamBits) {
		return len(spec.ParamBits)
	}
	for i, bits := range spec.ParamBits {
		if len(a.Params[i]) != Width(bits) {
			return i
		}
	}
	return -1
}

// entryKey encodes an entry's identity: every field's match plus priority.
func entryKey(e *Entry) string {
	var b bytes.Buffer
	for _, m := range e.Match {
		switch {
		case m.Wildcard:
			b.WriteByte('*')
		case m.Low != nil:
			b.WriteByte('r')
			b.Write(m.Low)
			b.Write(m.High)
		default:
			b.WriteByte('v')
			b.Write(m.Value)
			b.Write(m.Mask)
		}
	}
	fmt.Fprintf(&b, "@%d", e.Priority)
	return b.String()
}
