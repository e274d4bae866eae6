// SPDX-License-Identifier: Apache-2.0

package pipeline

// ExactWrite is an INSERT or MODIFY of an exact-match entry in the form a
// slab stores: the key (every field's full-width value, in field order,
// KeyWidth bytes), the action and its full-width parameters, the cookie.
// A writer builds it in buffers of its own, reused from entry to entry:
// the slab copies what it keeps, so no Entry, match or value is allocated.
type ExactWrite struct {
	Key    []byte
	Action Action
	Cookie uint64
}

// InsertExact is Insert for a write a slab table can take as it is. It
// reports handled false, changing nothing, when the table does not keep
// its entries in a slab, its entries are const, the key is not KeyWidth
// bytes or the action or its parameters are not the table's: then the
// caller builds an Entry and calls Insert, which gives the precise error.
// Otherwise the answers are Insert's: ALREADY_EXISTS, RESOURCE_EXHAUSTED.
func (t *Table) InsertExact(w *ExactWrite) (handled bool, err error) {
	return t.writeExact(w, false)
}

// ModifyExact is Modify for a write a slab table can take as it is, with
// InsertExact's handled; NOT_FOUND when no entry has the key. The entry's
// counter and meter stay.
func (t *Table) ModifyExact(w *ExactWrite) (handled bool, err error) {
	return t.writeExact(w, true)
}

// writeExact is ModifyExact when modify is set, else InsertExact.
func (t *Table) writeExact(w *ExactWrite, modify bool) (handled bool, err error) {
	if !t.exactWritable(w) {
		return false, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.slab == nil {
		return false, nil
	}
	if modify {
		_, err = t.slabModifyRecord(w.Key, w.Action, w.Cookie)
	} else {
		err = t.slabInsertRecord(w.Key, w.Action, w.Cookie)
	}
	return true, err
}

// slabInsertRecord adds key's record with action a and cookie to the slab
// (under the write lock): Insert's slab path and InsertExact, whose
// checks and answers must be the same.
func (t *Table) slabInsertRecord(key []byte, a Action, cookie uint64) error {
	s := t.slab
	if s.n > 0 {
		if b, _ := s.find(key); b >= 0 {
			return t.errAlreadyExists()
		}
	}
	if s.n >= t.Size {
		return t.errFull()
	}
	s.insert(key, s.actionIndex(a.ID), a.Params, cookie)
	t.count.Store(int64(s.n))
	return nil
}

// slabModifyRecord sets the action a and cookie of key's record in the
// slab (under the write lock), and gives its slot: Modify's slab path and
// ModifyExact. The counter stays.
func (t *Table) slabModifyRecord(key []byte, a Action, cookie uint64) (slot uint32, err error) {
	s := t.slab
	b := -1
	if s.n > 0 {
		b, slot = s.find(key)
	}
	if b < 0 {
		return 0, t.errNoEntryToModify()
	}
	s.set(slot, s.actionIndex(a.ID), a.Params, cookie)
	return slot, nil
}

// exactWritable checks what Insert's validation would (the key's width,
// the action's use and parameters) without building an error: a failure
// sends the write to the path that explains it. The slab itself is
// checked again under the lock.
func (t *Table) exactWritable(w *ExactWrite) bool {
	if t.ConstEntries || len(w.Key) != t.keyWidth {
		return false
	}
	spec, ok := t.Actions[w.Action.ID]
	return ok && !spec.DefaultOnly && spec.paramMisfit(w.Action) < 0
}
