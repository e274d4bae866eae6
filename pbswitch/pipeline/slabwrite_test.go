// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"reflect"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// exactWrite is session(i, ctr, peer) in ExactWrite form.
func exactWrite(i uint32, ctr, peer uint64) *ExactWrite {
	e := session(i, ctr, peer)
	return &ExactWrite{Key: e.Match[0].Value, Action: e.Action, Cookie: e.Cookie}
}

// TestInsertExactStoresWhatInsertWould writes sessions through
// InsertExact and ModifyExact and reads back what Insert and Modify of
// the same entries give, with their codes for a duplicate, a full table
// and a missing entry.
func TestInsertExactStoresWhatInsertWould(t *testing.T) {
	viaExact, viaEntry := sessionTable(2, true), sessionTable(2, true)
	for i := uint32(1); i <= 2; i++ {
		if handled, err := viaExact.InsertExact(exactWrite(i, uint64(10*i), 1)); !handled || err != nil {
			t.Fatalf("InsertExact %d: handled %v, %v", i, handled, err)
		}
		if err := viaEntry.Insert(session(i, uint64(10*i), 1)); err != nil {
			t.Fatal(err)
		}
	}
	h, _ := hitWords(t, viaExact, 2)
	h.Counter.Count(64) // ModifyExact keeps the counter
	checks := []struct {
		name  string
		write func() (bool, error)
		entry func() error
		code  codes.Code
	}{
		{"duplicate", func() (bool, error) { return viaExact.InsertExact(exactWrite(1, 5, 5)) },
			func() error { return viaEntry.Insert(session(1, 5, 5)) }, codes.AlreadyExists},
		{"full", func() (bool, error) { return viaExact.InsertExact(exactWrite(3, 5, 5)) },
			func() error { return viaEntry.Insert(session(3, 5, 5)) }, codes.ResourceExhausted},
		{"modify", func() (bool, error) { return viaExact.ModifyExact(exactWrite(2, 7, 9)) },
			func() error { return viaEntry.Modify(session(2, 7, 9)) }, codes.OK},
		{"modify missing", func() (bool, error) { return viaExact.ModifyExact(exactWrite(4, 7, 9)) },
			func() error { return viaEntry.Modify(session(4, 7, 9)) }, codes.NotFound},
	}
	for _, c := range checks {
		handled, err := c.write()
		want := c.entry()
		if !handled || status.Code(err) != c.code || status.Convert(err).Message() != status.Convert(want).Message() {
			t.Errorf("%s: handled %v, %v; Insert/Modify said %v", c.name, handled, err, want)
		}
	}
	a, b := viaExact.Entries(), viaEntry.Entries()
	if len(a) != 2 || len(b) != 2 {
		t.Fatalf("%d and %d entries, want 2", len(a), len(b))
	}
	for i := range a {
		if !reflect.DeepEqual(a[i].Match, b[i].Match) || !reflect.DeepEqual(a[i].Action, b[i].Action) || a[i].Cookie != b[i].Cookie {
			t.Errorf("entry %d: %+v via ExactWrite, %+v via Entry", i, a[i], b[i])
		}
	}
	if p, bytes := a[1].Counter.Read(); p != 1 || bytes != 64 {
		t.Errorf("counter after ModifyExact: %d packets %d bytes, want 1, 64", p, bytes)
	}
}

// TestInsertExactLeavesTheRest checks that what InsertExact cannot take
// as it is comes back unhandled with nothing changed: the caller's
// general path then explains the error.
func TestInsertExactLeavesTheRest(t *testing.T) {
	short := exactWrite(1, 1, 1)
	short.Key = short.Key[:3]
	defaultOnly := exactWrite(1, 1, 1)
	defaultOnly.Action = Action{ID: actSessMis}
	unknown := exactWrite(1, 1, 1)
	unknown.Action.ID = 99
	narrow := exactWrite(1, 1, 1)
	narrow.Action.Params = [][]byte{{1}, {0, 0}, {0, 1}}
	fewer := exactWrite(1, 1, 1)
	fewer.Action.Params = fewer.Action.Params[:2]
	for name, w := range map[string]*ExactWrite{"short key": short, "default-only action": defaultOnly,
		"unknown action": unknown, "narrow parameter": narrow, "missing parameter": fewer} {
		tb := sessionTable(4, true)
		if handled, err := tb.InsertExact(w); handled || err != nil {
			t.Errorf("%s: handled %v, %v", name, handled, err)
		}
		if tb.Len() != 0 {
			t.Errorf("%s: %d entries", name, tb.Len())
		}
	}
	generic := sessionTable(4, false)
	if handled, _ := generic.InsertExact(exactWrite(1, 1, 1)); handled || generic.Len() != 0 {
		t.Error("a table without a slab took an ExactWrite")
	}
	constant := sessionTable(4, true)
	constant.ConstEntries = true
	if handled, _ := constant.InsertExact(exactWrite(1, 1, 1)); handled || constant.Len() != 0 {
		t.Error("a table of const entries took an ExactWrite")
	}
}

// BenchmarkSlabWrite is the table's work for one write into a slab table
// of 4,096 sessions: InsertExact, ModifyExact and their Insert/Modify of
// an Entry (the entries built outside the timer), and InsertExact's
// answer to a duplicate (ALREADY_EXISTS, an error built per write). The
// table is emptied (outside the timer) before it would fill.
func BenchmarkSlabWrite(b *testing.B) {
	const n = 4096
	writes := make([]*ExactWrite, n)
	entries := make([]*Entry, n)
	for i := range n {
		writes[i] = exactWrite(uint32(i+1), uint64(i), 1)
		entries[i] = session(uint32(i+1), uint64(i), 1)
	}
	// fill inserts every write whose index is below upto (none: 0).
	fill := func(tb *Table, upto int) {
		tb.Clear()
		for _, w := range writes[:upto] {
			if _, err := tb.InsertExact(w); err != nil {
				b.Fatal(err)
			}
		}
	}
	cases := []struct {
		name   string
		filled bool // the table holds every entry before each round
		write  func(tb *Table, i int) error
		want   codes.Code
	}{
		{"InsertExact", false, func(tb *Table, i int) error { _, err := tb.InsertExact(writes[i]); return err }, codes.OK},
		{"Insert", false, func(tb *Table, i int) error { return tb.Insert(entries[i]) }, codes.OK},
		{"ModifyExact", true, func(tb *Table, i int) error { _, err := tb.ModifyExact(writes[i]); return err }, codes.OK},
		{"Modify", true, func(tb *Table, i int) error { return tb.Modify(entries[i]) }, codes.OK},
		{"InsertExactDuplicate", true, func(tb *Table, i int) error { _, err := tb.InsertExact(writes[i]); return err }, codes.AlreadyExists},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			tb := sessionTable(n, true)
			upto := 0
			if c.filled {
				upto = n
			}
			fill(tb, upto)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				k := i % n
				if k == 0 && i > 0 && !c.filled {
					b.StopTimer()
					fill(tb, 0)
					b.StartTimer()
				}
				if err := c.write(tb, k); status.Code(err) != c.want {
					b.Fatalf("write %d: %v, want %v", k, err, c.want)
				}
			}
		})
	}
}

// TestBadParametersExplainedAndLeft pins Insert's answers to an action's
// parameters that are not the table's (checkParams), in the generic store
// and a slab, and checks that InsertExact leaves each of them to Insert:
// the same check decides both.
func TestBadParametersExplainedAndLeft(t *testing.T) {
	two := []byte{0, 1}
	for _, c := range []struct {
		name   string
		params [][]byte
		want   string
	}{
		{"missing", [][]byte{two, two}, "table sessions: action 1 takes 3 parameters, got 2"},
		{"extra", [][]byte{two, two, two, two}, "table sessions: action 1 takes 3 parameters, got 4"},
		{"narrow", [][]byte{two, {1}, two}, "table sessions: action 1 parameter 2 is 1 bytes, want 2"},
		{"wide", [][]byte{two, two, {0, 0, 1}}, "table sessions: action 1 parameter 3 is 3 bytes, want 2"},
	} {
		for _, slab := range []bool{false, true} {
			tb := sessionTable(4, slab)
			e := session(1, 1, 1)
			e.Action.Params = c.params
			if handled, err := tb.InsertExact(&ExactWrite{Key: e.Match[0].Value, Action: e.Action}); handled || err != nil {
				t.Errorf("%s (slab %v): InsertExact handled %v, %v", c.name, slab, handled, err)
			}
			err := tb.Insert(e)
			if status.Code(err) != codes.InvalidArgument || status.Convert(err).Message() != c.want {
				t.Errorf("%s (slab %v): %v, want INVALID_ARGUMENT %q", c.name, slab, err, c.want)
			}
			if tb.Len() != 0 {
				t.Errorf("%s (slab %v): %d entries", c.name, slab, tb.Len())
			}
		}
	}
}
