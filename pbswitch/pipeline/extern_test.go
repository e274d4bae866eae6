// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"
)

// Meters colour as BMv2's (bm_sim/meters.cpp with its rates reversed: the
// peak bucket first), which is RFC 2698's order.
func TestMeterColours(t *testing.T) {
	m, err := NewMeter(MeterConfig{CIR: 1000, CBurst: 100, PIR: 2000, PBurst: 200})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(100, 0)
	// Green charges both buckets, yellow only the peak one, red neither.
	got := []Color{m.Execute(t0, 100), m.Execute(t0, 100), m.Execute(t0, 100), m.Execute(t0, 1)}
	if want := []Color{Green, Yellow, Red, Red}; !equalColours(got, want) {
		t.Fatalf("colours %v, want %v", got, want)
	}
	// 100 ms refills 100 committed and 200 peak units.
	if c := m.Execute(t0.Add(100*time.Millisecond), 100); c != Green {
		t.Fatalf("after refill %v, want green", c)
	}
	// With CIR = PIR and equal bursts, over the rate is red.
	m, _ = NewMeter(MeterConfig{CIR: 1000, CBurst: 200, PIR: 1000, PBurst: 200})
	got = []Color{m.Execute(t0, 100), m.Execute(t0, 100), m.Execute(t0, 100)}
	if want := []Color{Green, Green, Red}; !equalColours(got, want) {
		t.Fatalf("colours %v, want %v", got, want)
	}

	if _, err := NewMeter(MeterConfig{CIR: 10, PIR: 5}); err == nil {
		t.Fatal("PIR < CIR accepted")
	}
	var unconfigured Meter
	if unconfigured.Execute(t0, 1<<40) != Green {
		t.Fatal("an unconfigured meter must pass everything green")
	}
}

// ExecuteNow colours as Execute at the current time: green when
// unconfigured, and a configured meter's burst is spent as with Execute.
func TestMeterExecuteNow(t *testing.T) {
	var unconfigured Meter
	if unconfigured.ExecuteNow(1<<40) != Green {
		t.Fatal("an unconfigured meter must pass everything green")
	}
	// 1 unit/s: the bursts hold 200 units, nothing refills within the test.
	m, _ := NewMeter(MeterConfig{CIR: 1, CBurst: 200, PIR: 1, PBurst: 200})
	got := []Color{m.ExecuteNow(100), m.ExecuteNow(100), m.ExecuteNow(100)}
	if want := []Color{Green, Green, Red}; !equalColours(got, want) {
		t.Fatalf("colours %v, want %v", got, want)
	}
}

// Tokens are whole units accrued from the first packet, rounded down from
// one origin, so fractions add up instead of being lost per packet.
func TestMeterAccruesWholeTokensFromOneOrigin(t *testing.T) {
	m, _ := NewMeter(MeterConfig{CIR: 3, CBurst: 1, PIR: 3, PBurst: 1})
	t0 := time.Unix(100, 0)
	at := func(us int64) Color { return m.Execute(t0.Add(time.Duration(us)*time.Microsecond), 1) }
	got := []Color{at(0), at(333_333), at(333_334), at(666_667), at(1_000_000)}
	if want := []Color{Green, Red, Green, Green, Green}; !equalColours(got, want) {
		t.Fatalf("colours %v, want %v", got, want)
	}
	// Reconfiguring fills the buckets again.
	if err := m.Configure(MeterConfig{CIR: 3, CBurst: 1, PIR: 3, PBurst: 1}); err != nil || at(1_000_001) != Green {
		t.Fatal("a reconfigured meter starts full")
	}
}

func equalColours(a, b []Color) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPREGroupsAndClones(t *testing.T) {
	p := NewPRE()
	rs := []Replica{{Port: 1, Instance: 1}, {Port: 2, Instance: 1}}
	if err := p.InsertGroup(5, rs); err != nil {
		t.Fatal(err)
	}
	wantCode(t, p.InsertGroup(5, rs), codes.AlreadyExists)
	wantCode(t, p.ModifyGroup(6, rs), codes.NotFound)
	wantCode(t, p.InsertGroup(7, []Replica{{Port: 1}, {Port: 1}}), codes.InvalidArgument)
	wantCode(t, p.InsertGroup(0, rs), codes.InvalidArgument)
	if got, ok := p.Group(5); !ok || len(got) != 2 {
		t.Fatalf("group 5: %v %v", got, ok)
	}
	if err := p.DeleteGroup(5); err != nil {
		t.Fatal(err)
	}
	wantCode(t, p.DeleteGroup(5), codes.NotFound)
	if err := p.InsertClone(CloneSession{ID: 99, Replicas: []Replica{{Port: 255}}}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, p.InsertClone(CloneSession{ID: 99}), codes.AlreadyExists)
	if s, ok := p.Clone(99); !ok || s.Replicas[0].Port != 255 {
		t.Fatalf("clone 99: %v %v", s, ok)
	}
}

func TestRegistersAndCounters(t *testing.T) {
	r := NewRegisterArray(1, "r", 4, 12)
	if err := r.Write(2, []byte{0x0f, 0xff}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, r.Write(2, []byte{0x1f, 0xff}), codes.InvalidArgument)
	wantCode(t, r.Write(4, []byte{1}), codes.OutOfRange)
	if v, _ := r.Read(2); Uint(v) != 0xfff {
		t.Fatalf("register read %x", v)
	}
	c := NewCounterArray(2, "c", 2)
	cell, err := c.Cell(1)
	if err != nil {
		t.Fatal(err)
	}
	cell.Count(64)
	cell.Count(64)
	if p, b := cell.Read(); p != 2 || b != 128 {
		t.Fatalf("counter %d/%d", p, b)
	}
	_, err = c.Cell(2)
	wantCode(t, err, codes.OutOfRange)
}

func TestDigestListsAndSuppression(t *testing.T) {
	var lists []DigestList
	d := NewDigest(7, "hh", func(l DigestList) { lists = append(lists, l) })
	t0 := time.Unix(0, 0)
	d.Emit(t0, []byte("a")) // not configured: discarded
	if err := d.Configure(DigestConfig{MaxListSize: 2, MaxTimeout: time.Second, AckTimeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	d.Emit(t0, []byte("a"))
	d.Emit(t0, []byte("b"))
	if len(lists) != 1 || len(lists[0].Data) != 2 {
		t.Fatalf("lists %v", lists)
	}
	d.Emit(t0, []byte("a")) // in an unacked list: suppressed
	d.Flush(t0.Add(2 * time.Second))
	if len(lists) != 1 {
		t.Fatalf("suppressed data was sent: %v", lists)
	}
	d.Ack(lists[0].ListID)
	d.Emit(t0, []byte("a"))
	d.Flush(t0.Add(2 * time.Second))
	if len(lists) != 2 || string(lists[1].Data[0]) != "a" {
		t.Fatalf("after ack %v", lists)
	}
	if !lists[0].Made.Equal(t0) || !lists[1].Made.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("lists made at %v and %v, want when each was cut", lists[0].Made, lists[1].Made)
	}
}
