// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"testing"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// stdSlot reads a standard_metadata field of pk's PHV as the program last
// left it.
func stdSlot(t *testing.T, tp *testProgram, pk *pipeline.Packet, slot int) uint64 {
	t.Helper()
	s, ok := pk.State.(*phv)
	if !ok {
		t.Fatal("the packet carries no PHV")
	}
	if slot < 0 {
		t.Fatal("the program does not declare the field")
	}
	return s.getStd(slot)
}

// TestEgressSeesTheTrafficManagerAsBMv2: egress reads what the traffic
// manager measured, cut to v1model's widths as BMv2's Field::set cuts
// (enq_qdepth is 19 bits), and egress_global_timestamp is the 48-bit clock
// when egress started, not the 32-bit enqueue time plus the delta (which
// falls back to a small number once the clock passed 2^32 µs, 71 minutes).
func TestEgressSeesTheTrafficManagerAsBMv2(t *testing.T) {
	tp := externsFixture(t)
	var start uint64 = 1<<40 + 7 // the switch has run for 12.7 days
	pk := &pipeline.Packet{Frame: cmd{op: 99}.frame(false, 0x11), Meta: pipeline.StdMeta{IngressPort: 1, IngressUs: start}}
	tp.prog.Ingress(pk)
	if got := stdSlot(t, tp, pk, tp.prog.std.ingressTS); got != start {
		t.Fatalf("ingress_global_timestamp %d in ingress, want %d", got, start)
	}
	m := &pk.Meta
	m.EgressPort = m.EgressSpec
	m.EnqTimestampUs = uint32(start + 40)
	m.EnqQdepth = 1<<19 + 3 // wider than the field: BMv2 keeps the low 19 bits
	m.DeqTimedeltaUs = 1500
	m.DeqQdepth = 5
	m.EgressUs = start + 40 + 1500
	if !tp.prog.Egress(pk) {
		t.Fatal("egress dropped the packet")
	}
	for _, c := range []struct {
		name string
		slot int
		want uint64
	}{
		{"ingress_global_timestamp", tp.prog.std.ingressTS, start},
		{"enq_timestamp", tp.prog.std.enqTimestamp, uint64(uint32(start + 40))},
		{"enq_qdepth", tp.prog.std.enqQdepth, 3},
		{"deq_timedelta", tp.prog.std.deqTimedelta, 1500},
		{"deq_qdepth", tp.prog.std.deqQdepth, 5},
		{"egress_global_timestamp", tp.prog.std.egressTS, start + 40 + 1500},
	} {
		if got := stdSlot(t, tp, pk, c.slot); got != c.want {
			t.Errorf("%s %d, want %d", c.name, got, c.want)
		}
	}
}

// TestResubmittedPassHasNoIngressTimestamp: BMv2 resets a resubmitted
// packet's metadata (simple_switch.cpp, copy_field_list_and_set_type), so
// its second pass reads ingress_global_timestamp 0 unless a field list
// carries it; the first pass reads the arrival time.
func TestResubmittedPassHasNoIngressTimestamp(t *testing.T) {
	tp := externsFixture(t)
	pk := &pipeline.Packet{Frame: cmd{op: 8, arg: 41}.frame(false, 0x11), Meta: pipeline.StdMeta{IngressPort: 1, IngressUs: 777}}
	tp.prog.Ingress(pk)
	if got := stdSlot(t, tp, pk, tp.prog.std.instanceType); got != instanceResubmit {
		t.Fatalf("instance_type %d after ingress, want the resubmitted pass (%d)", got, instanceResubmit)
	}
	if got := stdSlot(t, tp, pk, tp.prog.std.ingressTS); got != 0 {
		t.Fatalf("the resubmitted pass reads ingress_global_timestamp %d, want 0 as on BMv2", got)
	}
	pk = &pipeline.Packet{Frame: cmd{op: 99}.frame(false, 0x11), Meta: pipeline.StdMeta{IngressPort: 1, IngressUs: 777}}
	tp.prog.Ingress(pk)
	if got := stdSlot(t, tp, pk, tp.prog.std.ingressTS); got != 777 {
		t.Fatalf("a normal pass reads ingress_global_timestamp %d, want 777", got)
	}
}
