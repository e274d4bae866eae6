// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"math/big"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ValueSet is a parser value set (P4's value_set<T>(size)): the control
// plane replaces its members as a whole (P4Runtime's ValueSetEntry MODIFY);
// the parser matches a select key against them. A member is one match per
// field of T, in field order, as a table entry's match.
type ValueSet struct {
	ID     uint32
	Name   string
	Fields []KeyField
	Size   int

	mu      sync.Mutex // serialises writers
	members [][]FieldMatch
	snap    atomic.Pointer[VSetMembers]
}

// VSetMembers is an immutable snapshot of a value set's members in the
// parser's key layout: every field's value right-aligned in its whole
// bytes, the fields concatenated. Narrow is set when that key fits 64
// bits, Wide otherwise.
type VSetMembers struct {
	Narrow []VSetWord
	Wide   []VSetBig
}

// VSetWord is a member of a narrow value set: a key k is in it when
// k&Mask == Value.
type VSetWord struct{ Value, Mask uint64 }

// VSetBig is a member of a wide value set.
type VSetBig struct{ Value, Mask *big.Int }

// NewValueSet makes an empty value set.
func NewValueSet(id uint32, name string, fields []KeyField, size int) *ValueSet {
	v := &ValueSet{ID: id, Name: name, Fields: fields, Size: size}
	v.snap.Store(&VSetMembers{})
	return v
}

// KeyBytes is the byte length of the parser key the set's members are laid
// out for.
func (v *ValueSet) KeyBytes() int {
	n := 0
	for _, f := range v.Fields {
		n += Width(f.Bits)
	}
	return n
}

// Current is the members the parser matches against now; it never blocks.
func (v *ValueSet) Current() *VSetMembers { return v.snap.Load() }

// Members returns the members as written (full-width values), in order.
func (v *ValueSet) Members() [][]FieldMatch {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.members
}

// Replace makes members the set's members. Each member must give a match
// for every field (don't care for the ternary, LPM and optional fields
// marked Wildcard), values full width. INVALID_ARGUMENT for a malformed
// member, ALREADY_EXISTS for a duplicate, RESOURCE_EXHAUSTED beyond Size;
// on error the set is unchanged.
func (v *ValueSet) Replace(members [][]FieldMatch) error {
	if len(members) > v.Size {
		return status.Errorf(codes.ResourceExhausted, "value set %s: %d members, its size is %d", v.Name, len(members), v.Size)
	}
	kb := v.KeyBytes()
	seen := map[string]bool{}
	next := &VSetMembers{}
	for i, m := range members {
		if len(m) != len(v.Fields) {
			return status.Errorf(codes.InvalidArgument, "value set %s member %d: %d matches, want %d", v.Name, i, len(m), len(v.Fields))
		}
		value, mask := make([]byte, 0, kb), make([]byte, 0, kb)
		for j, f := range v.Fields {
			fm := &m[j]
			if f.Kind == Range {
				return status.Errorf(codes.Unimplemented, "value set %s field %s: range matches are not supported", v.Name, f.Name)
			}
			if err := checkField(f, fm); err != nil {
				return status.Errorf(codes.InvalidArgument, "value set %s member %d field %s: %v", v.Name, i, f.Name, err)
			}
			w := Width(f.Bits)
			switch {
			case fm.Wildcard:
				value, mask = append(value, make([]byte, w)...), append(mask, make([]byte, w)...)
			case f.Kind == LPM || f.Kind == Ternary:
				value, mask = append(value, fm.Value...), append(mask, fm.Mask...)
			default:
				value, mask = append(value, fm.Value...), append(mask, prefixMask(f.Bits, f.Bits)...)
			}
		}
		id := string(value) + "/" + string(mask)
		if seen[id] {
			return status.Errorf(codes.AlreadyExists, "value set %s: member %d is a duplicate", v.Name, i)
		}
		seen[id] = true
		if kb <= 8 {
			next.Narrow = append(next.Narrow, VSetWord{Value: Uint(value), Mask: Uint(mask)})
		} else {
			next.Wide = append(next.Wide, VSetBig{Value: new(big.Int).SetBytes(value), Mask: new(big.Int).SetBytes(mask)})
		}
	}
	stored := make([][]FieldMatch, len(members))
	for i, m := range members {
		stored[i] = append([]FieldMatch(nil), m...)
	}
	v.mu.Lock()
	v.members = stored
	v.snap.Store(next)
	v.mu.Unlock()
	return nil
}

// Clear empties the set.
func (v *ValueSet) Clear() {
	v.mu.Lock()
	v.members = nil
	v.snap.Store(&VSetMembers{})
	v.mu.Unlock()
}

// ContainsNarrow reports whether key k, masked by caseMask (the select
// case's own mask, all ones when it has none), is a member.
func (m *VSetMembers) ContainsNarrow(k, caseMask uint64) bool {
	for _, w := range m.Narrow {
		if k&caseMask&w.Mask == w.Value&caseMask {
			return true
		}
	}
	return false
}

// ContainsWide is ContainsNarrow for keys wider than 64 bits (caseMask nil:
// none).
func (m *VSetMembers) ContainsWide(k, caseMask *big.Int) bool {
	var a, b big.Int
	for _, w := range m.Wide {
		a.And(k, w.Mask)
		b.Set(w.Value)
		if caseMask != nil {
			a.And(&a, caseMask)
			b.And(&b, caseMask)
		}
		if a.Cmp(&b) == 0 {
			return true
		}
	}
	return false
}
