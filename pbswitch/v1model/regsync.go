// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"slices"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// registerSet is the register arrays an action or a parser operation
// accesses. BMv2 runs each of them holding the locks of all of those
// arrays (its RegisterSync), so a read-modify-write of a register in one
// action is atomic against the packets other threads process at the same
// time; pbswitch does the same. Locks are taken in id order, so two
// actions sharing arrays cannot deadlock.
type registerSet []*pipeline.RegisterArray

func (rs *registerSet) add(r *pipeline.RegisterArray) {
	if !slices.Contains(*rs, r) {
		*rs = append(*rs, r)
	}
}

// take returns the set collected so far, sorted for locking, and starts
// a new one.
func (rs *registerSet) take() registerSet {
	out := *rs
	*rs = nil
	slices.SortFunc(out, func(a, b *pipeline.RegisterArray) int { return int(a.ID) - int(b.ID) })
	return out
}

func (rs registerSet) lock() {
	for _, r := range rs {
		r.Lock()
	}
}

func (rs registerSet) unlock() {
	for _, r := range rs {
		r.Unlock()
	}
}

// holding wraps run so that it holds the set's locks while it runs.
func (rs registerSet) holding(run func(*phv)) func(*phv) {
	if len(rs) == 0 {
		return run
	}
	return func(s *phv) {
		rs.lock()
		run(s)
		rs.unlock()
	}
}
