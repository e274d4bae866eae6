// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
	"github.com/flowbuf/flowbuf/pbswitch/v1model/hashalg"
)

// cmd is testdata/externs.p4's cmd header (20 bytes); stk is the stack
// entry after it, extra the optional header between.
type cmd struct {
	op, arg    byte
	idx        uint16
	val        uint32
	out1, out2 uint32
	flags      byte
	hm, sw     byte
	kinds      byte
}

func (c cmd) frame(extra bool, stk byte) []byte {
	f := make([]byte, 20)
	f[0], f[1] = c.op, c.arg
	binary.BigEndian.PutUint16(f[2:], c.idx)
	binary.BigEndian.PutUint32(f[4:], c.val)
	if extra {
		f[16] = 1
		f = append(f, 0x01, 0x02, 0x03, 0x04)
	}
	return append(f, stk)
}

func readCmd(f []byte) cmd {
	return cmd{op: f[0], arg: f[1], idx: binary.BigEndian.Uint16(f[2:]), val: binary.BigEndian.Uint32(f[4:]),
		out1: binary.BigEndian.Uint32(f[8:]), out2: binary.BigEndian.Uint32(f[12:]), flags: f[16], hm: f[17],
		sw: f[18], kinds: f[19]}
}

// externsFixture has dispatch's op -> action entries installed.
func externsFixture(t *testing.T) *testProgram {
	tp := loadTestProgram(t, "externs")
	ops := map[byte]string{1: "reg_write", 2: "reg_read", 3: "count_it", 4: "hashes", 5: "meter_it", 6: "send_digest",
		7: "clone_it", 8: "resubmit_it", 9: "truncate_it", 10: "exit_it", 11: "assert_it", 12: "add_extra",
		13: "remove_extra", 14: "push", 15: "pop", 16: "branch", 17: "rand", 18: "drop", 19: "reg_add"}
	for op, a := range ops {
		tp.insert("I.dispatch", &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{op}}},
			Action: pipeline.Action{ID: tp.id("I." + a)}})
	}
	return tp
}

func (tp *testProgram) send(c cmd) (cmd, *pipeline.Packet, bool) {
	tp.t.Helper()
	pk, ok := tp.run(c.frame(false, 0x11))
	if !ok {
		return cmd{}, pk, false
	}
	return readCmd(pk.Frame), pk, true
}

func TestRegistersCountersAndTheDirectCounter(t *testing.T) {
	tp := externsFixture(t)
	tp.send(cmd{op: 1, idx: 3, val: 0x1234})
	if got, _, _ := tp.send(cmd{op: 2, idx: 3}); got.out1 != 0x1234 {
		t.Fatalf("register read %#x, want 0x1234", got.out1)
	}
	if got, _, _ := tp.send(cmd{op: 2, idx: 4}); got.out1 != 0 {
		t.Fatalf("untouched register cell %#x", got.out1)
	}
	tp.send(cmd{op: 3, idx: 2})
	tp.send(cmd{op: 3, idx: 2})
	cell, _ := tp.prog.objs.Counters[tp.id("I.ctr")].Cell(2)
	if p, b := cell.Read(); p != 2 || b != 2*21 {
		t.Fatalf("counter %d packets %d bytes, want 2 and 42", p, b)
	}
	_, e := tp.table("I.dispatch").Lookup([]byte{3})
	if p, _ := e.Counter.Read(); p != 2 {
		t.Fatalf("dispatch's direct counter %d for op 3, want 2", p)
	}
}

// TestAnActionsRegisterReadModifyWriteIsAtomic: BMv2 runs an action
// holding the locks of the register arrays it accesses, so increments
// from packets processed at the same time (reg_add reads, adds, writes)
// are never lost; a control-plane read meanwhile sees a whole value.
func TestAnActionsRegisterReadModifyWriteIsAtomic(t *testing.T) {
	tp := externsFixture(t)
	const workers, each = 4, 5000
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				tp.prog.Ingress(&pipeline.Packet{Frame: cmd{op: 19, idx: 7, val: 1}.frame(false, 0x11),
					Meta: pipeline.StdMeta{IngressPort: 1}})
			}
		}()
	}
	wg.Wait()
	if v, _ := tp.prog.objs.Registers[tp.id("I.reg")].ReadUint(7); v != workers*each {
		t.Fatalf("register after %d concurrent increments: %d (lost %d)", workers*each, v, workers*each-int(v))
	}
}

// Counters count the length the packet had when it entered the pipeline
// (BMv2's ingress_length), while egress's packet_length follows the headers
// add_header/remove_header add and remove (BMv2's packet length register).
func TestCountersCountTheIngressLength(t *testing.T) {
	tp := externsFixture(t)
	got, pk, ok := tp.send(cmd{op: 36, idx: 5})
	if !ok || len(pk.Frame) != 25 {
		t.Fatalf("forwarded %v, %d bytes; want 25 (extra added)", ok, len(pk.Frame))
	}
	if got.out2 != 25 {
		t.Errorf("egress packet_length %d, want 25", got.out2)
	}
	cell, _ := tp.prog.objs.Counters[tp.id("I.ctr")].Cell(5)
	if p, b := cell.Read(); p != 1 || b != 21 {
		t.Errorf("counter %d packets %d bytes, want 1 and 21", p, b)
	}
}

func TestHashesMatchBMv2Algorithms(t *testing.T) {
	tp := externsFixture(t)
	got, _, _ := tp.send(cmd{op: 4, val: 0x01020304})
	in := []byte{1, 2, 3, 4}
	crc16, _ := hashalg.Lookup("crc16")
	csum16, _ := hashalg.Lookup("csum16")
	if got.out1 != crc32.ChecksumIEEE(in) {
		t.Errorf("crc32 %#x, want %#x", got.out1, crc32.ChecksumIEEE(in))
	}
	if want := uint32(crc16(in))<<16 | uint32(csum16(in)); got.out2 != want {
		t.Errorf("crc16 ++ csum16 %#x, want %#x", got.out2, want)
	}
}

func TestMetersColourGreenYellowRed(t *testing.T) {
	tp := externsFixture(t)
	cell, err := tp.prog.objs.Meters[tp.id("I.mtr")].Cell(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := cell.Configure(pipeline.MeterConfig{CIR: 1, CBurst: 1, PIR: 1, PBurst: 2}); err != nil {
		t.Fatal(err)
	}
	var colours []uint32
	for range 3 {
		got, _, _ := tp.send(cmd{op: 5, idx: 1})
		colours = append(colours, got.out1)
	}
	if colours[0] != 0 || colours[1] != 1 || colours[2] != 2 {
		t.Fatalf("indexed meter colours %v, want [0 1 2]", colours)
	}
	// A direct meter colours by the entry that matched.
	e := tp.insert("I.metered", &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{9}}}, Action: pipeline.Action{ID: tp.id("I.color_it")}})
	m, _ := pipeline.NewMeter(pipeline.MeterConfig{CIR: 1, CBurst: 1, PIR: 1, PBurst: 1})
	tp.table("I.metered").SetMeter(e, m)
	colours = colours[:0]
	for range 2 {
		got, _, _ := tp.send(cmd{op: 30, arg: 9})
		colours = append(colours, got.out2)
	}
	if colours[0] != 0 || colours[1] != 2 {
		t.Fatalf("direct meter colours %v, want [0 2]", colours)
	}
}

func TestDigestCarriesItsFieldList(t *testing.T) {
	tp := externsFixture(t)
	d := tp.prog.objs.Digests[tp.id("digest_t")]
	tp.send(cmd{op: 6, val: 0xa1b2c3d4, idx: 0x0506}) // not configured: dropped, as P4Runtime says
	if err := d.Configure(pipeline.DigestConfig{MaxListSize: 1}); err != nil {
		t.Fatal(err)
	}
	tp.send(cmd{op: 6, val: 0xa1b2c3d4, idx: 0x0506})
	if len(tp.digest) != 1 || len(tp.digest[0].Data) != 1 ||
		!bytes.Equal(tp.digest[0].Data[0], []byte{0xa1, 0xb2, 0xc3, 0xd4, 0x05, 0x06}) {
		t.Fatalf("digests %+v", tp.digest)
	}
}

func TestCloneResubmitRecirculateAndEgressClone(t *testing.T) {
	tp := externsFixture(t)
	// I2E clone: the original leaves with ingress's change, the clone is
	// the packet as it arrived with only the field list (meta.tag).
	in := cmd{op: 7, arg: 0x42}.frame(false, 0x11)
	pk := &pipeline.Packet{Frame: append([]byte(nil), in...), Meta: pipeline.StdMeta{IngressPort: 1}}
	tp.prog.Ingress(pk)
	if pk.Meta.CloneSession != 5 {
		t.Fatalf("clone session %d, want 5", pk.Meta.CloneSession)
	}
	clone := &pipeline.Packet{Frame: append([]byte(nil), pk.Frame...),
		Meta: pipeline.StdMeta{EgressPort: 7, InstanceType: pipeline.InstanceClone}}
	tp.prog.Replicate(clone, pk, pipeline.CopyIngressClone)
	pk.Meta.EgressPort = pk.Meta.EgressSpec
	if !tp.prog.Egress(pk) || readCmd(pk.Frame).kinds != 0x77 {
		t.Fatalf("original %+v", readCmd(pk.Frame))
	}
	if !tp.prog.Egress(clone) {
		t.Fatal("clone dropped")
	}
	if c := readCmd(clone.Frame); c.kinds != 0 || c.out2 != 0x42 || c.out1 != 7 {
		t.Fatalf("clone %+v: want kinds 0 (as arrived), out2 0x42 (the field list), out1 7 (its port)", c)
	}

	// Resubmit: ingress runs again on the packet as it arrived, with the
	// field list and instance type 6.
	if got, _, _ := tp.send(cmd{op: 8, arg: 41}); got.out1 != 42 {
		t.Fatalf("resubmitted pass wrote out1 %d, want 42", got.out1)
	}

	// Recirculate (egress): the deparsed packet comes back to ingress with
	// the field list and instance type 4, as the traffic manager sends it.
	pk, ok := tp.run(cmd{op: 19, arg: 5}.frame(false, 0x11))
	if !ok || !pk.Meta.Recirculate {
		t.Fatalf("recirculation not requested: %v %+v", ok, pk.Meta)
	}
	pk.Meta = pipeline.StdMeta{IngressPort: 1, InstanceType: pipeline.InstanceRecirculate}
	tp.prog.Ingress(pk)
	pk.Meta.EgressPort = pk.Meta.EgressSpec
	if !tp.prog.Egress(pk) || pk.Meta.Recirculate || readCmd(pk.Frame).out1 != 105 {
		t.Fatalf("recirculated pass %+v, recirculate again %v", readCmd(pk.Frame), pk.Meta.Recirculate)
	}

	// E2E clone: egress asks for it; the copy carries the headers as egress
	// left them and the field list, and runs egress again.
	pk, ok = tp.run(cmd{op: 20}.frame(false, 0x11))
	if !ok || pk.Meta.EgressClone != 6 {
		t.Fatalf("egress clone session %d, want 6", pk.Meta.EgressClone)
	}
	e2e := &pipeline.Packet{Frame: append([]byte(nil), pk.Frame...),
		Meta: pipeline.StdMeta{EgressPort: 8, InstanceType: pipeline.InstanceEgressClone}}
	tp.prog.Replicate(e2e, pk, pipeline.CopyEgressClone)
	if !tp.prog.Egress(e2e) {
		t.Fatal("E2E clone dropped")
	}
	if c := readCmd(e2e.Frame); c.kinds != 0x20 || c.out2 != 0x56 || c.out1 != 8 || c.hm != 0 {
		t.Fatalf("E2E clone %+v: want kinds 0x20, out2 0x56 (the field list), out1 8, hm 0 (metadata reset)", c)
	}
}

func TestTruncateExitAssertDropAndRandom(t *testing.T) {
	tp := externsFixture(t)
	if _, pk, _ := tp.send(cmd{op: 9}); len(pk.Frame) != 20 {
		t.Fatalf("truncated to %d bytes, want 20", len(pk.Frame))
	}
	if _, pk, _ := tp.send(cmd{op: 10}); pk.Meta.EgressSpec != 3 {
		t.Fatalf("exit: egress %d, want 3 (set before exit)", pk.Meta.EgressSpec)
	}
	if _, _, ok := tp.send(cmd{op: 11, val: 7}); !ok {
		t.Fatal("a true assert dropped the packet")
	}
	if _, _, ok := tp.send(cmd{op: 11, val: 8}); ok || tp.prog.AssertFailures() != 1 {
		t.Fatalf("a false assert: forwarded %v, failures %d", ok, tp.prog.AssertFailures())
	}
	if _, pk, ok := tp.send(cmd{op: 18}); ok || pk.Meta.EgressSpec != pipeline.DropPort {
		t.Fatalf("mark_to_drop: egress %d", pk.Meta.EgressSpec)
	}
	seen := map[uint32]bool{}
	for range 60 {
		got, _, _ := tp.send(cmd{op: 17})
		if got.out1 < 10 || got.out1 > 20 {
			t.Fatalf("random %d outside [10, 20]", got.out1)
		}
		seen[got.out1] = true
	}
	if len(seen) < 3 {
		t.Fatalf("random gave only %v in 60 draws", seen)
	}
}

func TestHeaderValidityAndStacks(t *testing.T) {
	tp := externsFixture(t)
	pk, _ := tp.run(cmd{op: 12}.frame(false, 0x11))
	if want := append(cmd{op: 12}.frame(false, 0)[:20:20], 0xfe, 0xed, 0xf0, 0x0d, 0x11); !bytes.Equal(pk.Frame[20:], want[20:]) {
		t.Fatalf("setValid: %x, want the new header before the stack: %x", pk.Frame[20:], want[20:])
	}
	pk, _ = tp.run(cmd{op: 13}.frame(true, 0x11))
	if len(pk.Frame) != 21 || pk.Frame[20] != 0x11 {
		t.Fatalf("setInvalid: %x", pk.Frame)
	}
	pk, _ = tp.run(cmd{op: 14}.frame(false, 0x11))
	if !bytes.Equal(pk.Frame[20:], []byte{0xaa, 0x11}) {
		t.Fatalf("push_front: stack %x, want aa 11", pk.Frame[20:])
	}
	pk, _ = tp.run(cmd{op: 15}.frame(false, 0x11))
	if len(pk.Frame) != 20 {
		t.Fatalf("pop_front: %x, want the stack gone", pk.Frame)
	}
}

func TestTablesConstEntriesDefaultsBranchesSwitchAndHitMiss(t *testing.T) {
	tp := externsFixture(t)
	for arg, want := range map[byte]uint32{0x10: 0x1010, 0x20: 0x2020, 0x30: 0xdefa} {
		if got, _, _ := tp.send(cmd{op: 31, arg: arg}); got.out2 != want {
			t.Errorf("consts arg %#x: out2 %#x, want %#x", arg, got.out2, want)
		}
	}
	err := tp.table("I.consts").Insert(&pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{0x40}}},
		Action: pipeline.Action{ID: tp.id("I.set_out2"), Params: [][]byte{{0, 0, 0, 1}}}})
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("writing a const table: %v", err)
	}
	if got, _, _ := tp.send(cmd{op: 16, val: 200}); got.out1 != 1 {
		t.Errorf("if in an action, val 200: out1 %d, want 1", got.out1)
	}
	if got, _, _ := tp.send(cmd{op: 16, val: 50}); got.out1 != 2 {
		t.Errorf("if in an action, val 50: out1 %d, want 2", got.out1)
	}
	tp.insert("I.sw_tbl", &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{5}}}, Action: pipeline.Action{ID: tp.id("I.a1")}})
	if got, _, _ := tp.send(cmd{op: 32, arg: 5}); got.sw != 1 {
		t.Errorf("switch on a1: sw %d", got.sw)
	}
	if got, _, _ := tp.send(cmd{op: 32, arg: 6}); got.sw != 2 {
		t.Errorf("switch on the default a2: sw %d", got.sw)
	}
	tp.insert("I.hit_miss", &pipeline.Entry{Match: []pipeline.FieldMatch{{Value: []byte{0, 9}}}, Action: pipeline.Action{ID: tp.id("NoAction")}})
	if got, _, _ := tp.send(cmd{op: 33, idx: 9}); got.hm != 1 {
		t.Errorf("hit: hm %d", got.hm)
	}
	if got, _, _ := tp.send(cmd{op: 33, idx: 8}); got.hm != 2 {
		t.Errorf("miss: hm %d", got.hm)
	}
}

func TestRangeTernaryOptionalAndLPMKeys(t *testing.T) {
	tp := externsFixture(t)
	kind := func(k byte) pipeline.Action { return pipeline.Action{ID: tp.id("I.kind"), Params: [][]byte{{k}}} }
	tp.insert("I.kinds", &pipeline.Entry{Priority: 20, Action: kind(1), Match: []pipeline.FieldMatch{
		{Low: []byte{0, 10}, High: []byte{0, 20}}, {Value: []byte{0, 0xff, 0, 0}, Mask: []byte{0, 0xff, 0, 0}}, {Value: []byte{3}}}})
	tp.insert("I.kinds", &pipeline.Entry{Priority: 10, Action: kind(2), Match: []pipeline.FieldMatch{
		{Low: []byte{0, 10}, High: []byte{0, 20}}, {Wildcard: true}, {Wildcard: true}}})
	for _, c := range []struct {
		idx  uint16
		val  uint32
		arg  byte
		want byte
	}{{15, 0x00ff1234, 3, 1}, {15, 0x00ff1234, 4, 2}, {15, 0x00fe1234, 3, 2}, {21, 0x00ff1234, 3, 0}, {10, 0x00ff0000, 3, 1}} {
		if got, _, _ := tp.send(cmd{op: 34, idx: c.idx, val: c.val, arg: c.arg}); got.kinds != c.want {
			t.Errorf("kinds idx %d val %#x arg %d: %d, want %d", c.idx, c.val, c.arg, got.kinds, c.want)
		}
	}
	tp.insert("I.lpm_tbl", &pipeline.Entry{Action: kind(8), Match: []pipeline.FieldMatch{{Value: []byte{10, 0, 0, 0}, PrefixLen: 8, Mask: []byte{255, 0, 0, 0}}}})
	tp.insert("I.lpm_tbl", &pipeline.Entry{Action: kind(16), Match: []pipeline.FieldMatch{{Value: []byte{10, 1, 0, 0}, PrefixLen: 16, Mask: []byte{255, 255, 0, 0}}}})
	for val, want := range map[uint32]byte{0x0a010203: 16, 0x0a020000: 8, 0x0b000000: 0} {
		if got, _, _ := tp.send(cmd{op: 35, val: val}); got.kinds != want {
			t.Errorf("lpm %#x: %d, want %d", val, got.kinds, want)
		}
	}
}
