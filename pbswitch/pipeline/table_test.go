// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

const (
	actHit  = 1
	actMiss = 2
)

var oneParamAction = map[uint32]ActionSpec{actHit: {ParamBits: []int{9}}, actMiss: {DefaultOnly: true}}

func hit(port uint64) Action {
	p := make([]byte, 2)
	PutUint(p, port)
	return Action{ID: actHit, Params: [][]byte{p}}
}

func portOf(t *testing.T, tb *Table, key []byte) int {
	t.Helper()
	a, e := tb.Lookup(key)
	if e == nil {
		if a.ID != actMiss {
			t.Fatalf("miss returned action %d, want the default %d", a.ID, actMiss)
		}
		return -1
	}
	return int(Uint(a.Params[0]))
}

func wantCode(t *testing.T, err error, c codes.Code) {
	t.Helper()
	if status.Code(err) != c {
		t.Fatalf("got %v, want code %v", err, c)
	}
}

func TestLPMLongestPrefixWins(t *testing.T) {
	tb := NewTable(10, "routes", []KeyField{{ID: 1, Name: "dst", Bits: 32, Kind: LPM}}, 16, oneParamAction, Action{ID: actMiss}, false)
	add := func(v []byte, plen int, port uint64) {
		if err := tb.Insert(&Entry{Match: []FieldMatch{{Value: v, PrefixLen: plen}}, Action: hit(port)}); err != nil {
			t.Fatal(err)
		}
	}
	add([]byte{10, 0, 0, 0}, 8, 1)
	add([]byte{10, 1, 0, 0}, 16, 2)
	add([]byte{10, 1, 2, 0}, 24, 3)
	if err := tb.Insert(&Entry{Match: []FieldMatch{{Wildcard: true}}, Action: hit(9)}); err != nil {
		t.Fatal(err)
	}
	cases := map[[4]byte]int{
		{10, 1, 2, 3}: 3, {10, 1, 9, 9}: 2, {10, 7, 7, 7}: 1, {192, 168, 0, 1}: 9,
	}
	for ip, want := range cases {
		if got := portOf(t, tb, ip[:]); got != want {
			t.Errorf("%v -> port %d, want %d", ip, got, want)
		}
	}
	// Removing the /24 falls back to the /16.
	if err := tb.Delete(&Entry{Match: []FieldMatch{{Value: []byte{10, 1, 2, 0}, PrefixLen: 24}}}); err != nil {
		t.Fatal(err)
	}
	if got := portOf(t, tb, []byte{10, 1, 2, 3}); got != 2 {
		t.Errorf("after delete: port %d, want 2", got)
	}
	// Host bits set beyond the prefix are refused.
	err := tb.Insert(&Entry{Match: []FieldMatch{{Value: []byte{10, 1, 2, 3}, PrefixLen: 24}}, Action: hit(1)})
	wantCode(t, err, codes.InvalidArgument)
}

func ternaryTable() *Table {
	return NewTable(11, "acl", []KeyField{
		{ID: 1, Name: "port", Bits: 9, Kind: Ternary},
		{ID: 2, Name: "proto", Bits: 8, Kind: Ternary},
		{ID: 3, Name: "dport", Bits: 16, Kind: Range},
		{ID: 4, Name: "vid", Bits: 12, Kind: Optional},
	}, 16, oneParamAction, Action{ID: actMiss}, false)
}

// key: port(2) proto(1) dport(2) vid(2)
func aclKey(port, proto, dport, vid uint64) []byte {
	k := make([]byte, 7)
	PutUint(k[0:2], port)
	PutUint(k[2:3], proto)
	PutUint(k[3:5], dport)
	PutUint(k[5:7], vid)
	return k
}

func TestTernaryHighestPriorityWins(t *testing.T) {
	tb := ternaryTable()
	any := FieldMatch{Wildcard: true}
	udp := FieldMatch{Value: []byte{17}, Mask: []byte{0xff}}
	dports := FieldMatch{Low: []byte{0, 100}, High: []byte{0, 200}}
	vid7 := FieldMatch{Value: []byte{0, 7}}
	entries := []*Entry{
		{Match: []FieldMatch{any, udp, any, any}, Priority: 10, Action: hit(1)},
		{Match: []FieldMatch{any, udp, dports, any}, Priority: 20, Action: hit(2)},
		{Match: []FieldMatch{any, any, any, vid7}, Priority: 30, Action: hit(3)},
		{Match: []FieldMatch{{Value: []byte{0, 4}, Mask: []byte{0x01, 0xfc}}, any, any, any}, Priority: 5, Action: hit(4)},
	}
	for _, e := range entries {
		if err := tb.Insert(e); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		key  []byte
		want int
	}{
		{aclKey(1, 17, 50, 0), 1},
		{aclKey(1, 17, 150, 0), 2},
		{aclKey(1, 17, 150, 7), 3},
		{aclKey(5, 6, 150, 0), 4}, // 5 & 0x1fc == 4
		{aclKey(8, 6, 150, 0), -1},
	}
	for _, c := range cases {
		if got := portOf(t, tb, c.key); got != c.want {
			t.Errorf("key %x -> %d, want %d", c.key, got, c.want)
		}
	}
	// Same match, other priority: a distinct entry. Same priority: a duplicate.
	dup := &Entry{Match: []FieldMatch{any, udp, any, any}, Priority: 10, Action: hit(7)}
	wantCode(t, tb.Insert(dup), codes.AlreadyExists)
	other := &Entry{Match: []FieldMatch{any, udp, any, any}, Priority: 40, Action: hit(7)}
	if err := tb.Insert(other); err != nil {
		t.Fatal(err)
	}
	if got := portOf(t, tb, aclKey(1, 17, 150, 7)); got != 7 {
		t.Errorf("priority 40 entry did not win: %d", got)
	}
}

func TestTableErrorsChangeNothing(t *testing.T) {
	tb := ternaryTable()
	any := FieldMatch{Wildcard: true}
	ok := &Entry{Match: []FieldMatch{any, any, any, any}, Priority: 1, Action: hit(1)}
	wantCode(t, tb.Modify(ok), codes.NotFound)
	wantCode(t, tb.Delete(ok), codes.NotFound)
	noPrio := &Entry{Match: []FieldMatch{any, any, any, any}, Action: hit(1)}
	wantCode(t, tb.Insert(noPrio), codes.InvalidArgument)
	badAction := &Entry{Match: []FieldMatch{any, any, any, any}, Priority: 1, Action: Action{ID: 99}}
	wantCode(t, tb.Insert(badAction), codes.InvalidArgument)
	defaultOnly := &Entry{Match: []FieldMatch{any, any, any, any}, Priority: 1, Action: Action{ID: actMiss}}
	wantCode(t, tb.Insert(defaultOnly), codes.InvalidArgument)
	tooWide := &Entry{Match: []FieldMatch{any, any, any, any}, Priority: 1, Action: Action{ID: actHit, Params: [][]byte{{0, 1, 2}}}}
	wantCode(t, tb.Insert(tooWide), codes.InvalidArgument)
	zeroMask := &Entry{Match: []FieldMatch{{Value: []byte{0, 0}, Mask: []byte{0, 0}}, any, any, any}, Priority: 1, Action: hit(1)}
	wantCode(t, tb.Insert(zeroMask), codes.InvalidArgument)
	if tb.Len() != 0 {
		t.Fatalf("failed writes left %d entries", tb.Len())
	}
}

func TestExactTableModifyKeepsCounterAndFull(t *testing.T) {
	tb := NewTable(12, "l2", []KeyField{{ID: 1, Name: "mac", Bits: 48, Kind: Exact}}, 2, oneParamAction, Action{ID: actMiss}, true)
	mac := []byte{2, 0, 0, 0, 0, 1}
	e := &Entry{Match: []FieldMatch{{Value: mac}}, Action: hit(1)}
	if err := tb.Insert(e); err != nil {
		t.Fatal(err)
	}
	_, got := tb.Lookup(mac)
	got.Counter.Count(100)
	if err := tb.Modify(&Entry{Match: []FieldMatch{{Value: mac}}, Action: hit(2)}); err != nil {
		t.Fatal(err)
	}
	a, after := tb.Lookup(mac)
	if Uint(a.Params[0]) != 2 {
		t.Fatalf("modify not applied")
	}
	if p, b := after.Counter.Read(); p != 1 || b != 100 {
		t.Fatalf("direct counter lost on modify: %d/%d", p, b)
	}
	if err := tb.Insert(&Entry{Match: []FieldMatch{{Value: []byte{2, 0, 0, 0, 0, 2}}}, Action: hit(1)}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, tb.Insert(&Entry{Match: []FieldMatch{{Value: []byte{2, 0, 0, 0, 0, 3}}}, Action: hit(1)}), codes.ResourceExhausted)
	wantCode(t, tb.SetDefault(hit(1)), codes.PermissionDenied)
	wantCode(t, tb.Insert(&Entry{Match: []FieldMatch{{Value: mac}}, Priority: 3, Action: hit(1)}), codes.InvalidArgument)
}

func TestFitValue(t *testing.T) {
	if v, err := FitValue([]byte{1, 0xff}, 9); err != nil || Uint(v) != 511 {
		t.Fatalf("511 in 9 bits: %x %v", v, err)
	}
	if _, err := FitValue([]byte{2, 0}, 9); err == nil {
		t.Fatal("512 accepted in 9 bits")
	}
	if v, err := FitValue([]byte{0, 0, 5}, 16); err != nil || len(v) != 2 || v[1] != 5 {
		t.Fatalf("leading zeros: %x %v", v, err)
	}
	if c := Canonical([]byte{0, 0, 0}); len(c) != 1 || c[0] != 0 {
		t.Fatalf("canonical zero %x", c)
	}
}

// The binder's form of an action follows every write: insert, modify,
// delete, default change and clear; an empty table answers its default
// (with its bound form) without an entry.
func TestLookupHitReturnsTheBoundAction(t *testing.T) {
	tb := NewTable(1, "t", []KeyField{{ID: 1, Name: "k", Bits: 8, Kind: Exact}}, 4, oneParamAction, Action{ID: actMiss}, false)
	bound := func(h *Hit) string { s, _ := h.Bound.(string); return s }
	tb.SetBinder(func(a Action) any {
		if a.ID == actMiss {
			return "miss"
		}
		return "port " + string(rune('0'+Uint(a.Params[0])))
	})
	var h Hit
	tb.LookupHit([]byte{7}, &h, nil)
	if h.Entry != nil || h.Action.ID != actMiss || bound(&h) != "miss" {
		t.Fatalf("empty table: %+v", h)
	}
	e := &Entry{Match: []FieldMatch{{Value: []byte{7}}}, Action: hit(3)}
	if err := tb.Insert(e); err != nil {
		t.Fatal(err)
	}
	tb.LookupHit([]byte{7}, &h, nil)
	if h.Entry == nil || bound(&h) != "port 3" {
		t.Fatalf("after insert: %+v", h)
	}
	if err := tb.Modify(&Entry{Match: []FieldMatch{{Value: []byte{7}}}, Action: hit(5)}); err != nil {
		t.Fatal(err)
	}
	tb.LookupHit([]byte{7}, &h, nil)
	if bound(&h) != "port 5" || Uint(h.Action.Params[0]) != 5 {
		t.Fatalf("after modify: %+v", h)
	}
	tb.LookupHit([]byte{8}, &h, nil)
	if h.Entry != nil || bound(&h) != "miss" {
		t.Fatalf("miss in a table with entries: %+v", h)
	}
	if err := tb.SetDefault(hit(1)); err != nil {
		t.Fatal(err)
	}
	tb.LookupHit([]byte{8}, &h, nil)
	if h.Entry != nil || bound(&h) != "port 1" {
		t.Fatalf("after a default change: %+v", h)
	}
	tb.Clear()
	tb.LookupHit([]byte{7}, &h, nil)
	if h.Entry != nil || bound(&h) != "port 1" {
		t.Fatalf("after clear: %+v", h)
	}
	if err := tb.Insert(&Entry{Match: []FieldMatch{{Value: []byte{9}}}, Action: hit(2)}); err != nil {
		t.Fatal(err)
	}
	if err := tb.Delete(&Entry{Match: []FieldMatch{{Value: []byte{9}}}}); err != nil {
		t.Fatal(err)
	}
	tb.LookupHit([]byte{9}, &h, nil)
	if h.Entry != nil {
		t.Fatalf("after delete: %+v", h)
	}
}

// Lookups run while entries come and go and the default changes: each
// answer is a whole one (a hit on the entry with its action and bound form,
// or the default of the moment), never a mix. Run with -race.
func TestLookupHitDuringWrites(t *testing.T) {
	tb := NewTable(1, "t", []KeyField{{ID: 1, Name: "k", Bits: 8, Kind: Exact}}, 4, oneParamAction, Action{ID: actMiss}, false)
	tb.SetBinder(func(a Action) any { return a.ID })
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 2000; i++ {
			e := &Entry{Match: []FieldMatch{{Value: []byte{7}}}, Action: hit(uint64(i % 4))}
			if err := tb.Insert(e); err != nil {
				t.Error(err)
				return
			}
			if err := tb.SetDefault(Action{ID: actMiss}); err != nil {
				t.Error(err)
				return
			}
			if err := tb.Delete(&Entry{Match: []FieldMatch{{Value: []byte{7}}}}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var h Hit
	for {
		select {
		case <-done:
			return
		default:
		}
		tb.LookupHit([]byte{7}, &h, nil)
		if id, _ := h.Bound.(uint32); id != h.Action.ID || (h.Entry != nil) != (id == actHit) {
			t.Fatalf("a torn answer: %+v", h)
		}
	}
}
