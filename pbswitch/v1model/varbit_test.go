// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// varbitIPv4 is an IPv4 header with opts as its options (ihl follows), ttl
// 64, and its checksum right or wrong.
func varbitIPv4(opts []byte, goodChecksum bool) []byte {
	h := make([]byte, 20, 20+len(opts))
	h = append(h, opts...)
	h[0] = 0x40 | byte(len(h)/4)
	binary.BigEndian.PutUint16(h[2:], uint16(len(h)+2))
	h[8], h[9] = 64, 17
	copy(h[12:], []byte{10, 0, 0, 1, 10, 0, 0, 2})
	ck := ^uint16(onesSum(h, 0))
	if !goodChecksum {
		ck ^= 0x0101
	}
	binary.BigEndian.PutUint16(h[10:], ck)
	return h
}

// ttlDecremented is h as it leaves: ttl one less, checksum recomputed
// over all of it, options included.
func ttlDecremented(h []byte) []byte {
	o := append([]byte(nil), h...)
	o[8]--
	o[10], o[11] = 0, 0
	binary.BigEndian.PutUint16(o[10:], ^uint16(onesSum(o, 0)))
	return o
}

// varbitReport is testdata/varbit.p4's report header.
func varbitReport(perr, flags byte, pktlen int, hash uint16) []byte {
	r := []byte{perr, flags}
	r = binary.BigEndian.AppendUint16(r, uint16(pktlen))
	return binary.BigEndian.AppendUint16(r, hash)
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestVarbitFields runs testdata/varbit.p4: extract_VL with lengths from
// the packet (IPv4 options by ihl, a field, a lookahead, a length in
// bits), BMv2's three parser errors in its order, a varbit field that does
// not start on a byte, stacks of varbit headers (extract, overflow,
// pop_front swapping elements with their widths), assign_VL into a header made
// valid in ingress, == on varbit fields and on headers (values compared,
// not widths, as BMv2 does), setValid of a varbit header never extracted
// (empty) or extracted before (its width kept), the IPv4 checksum over the options, a hash over a header copy
// with a varbit field, and packet_length as varbit headers come and go.
func TestVarbitFields(t *testing.T) {
	tp := loadTestProgram(t, "varbit")
	pay := []byte{0xde, 0xad}
	opts := []byte{0x01, 0x01, 0x01, 0x00, 0x94, 0x04, 0x00, 0x00} // NOP NOP NOP EOL, router alert
	ip6 := varbitIPv4(opts[:4], true)
	ip7 := varbitIPv4(opts, true)
	ip5 := varbitIPv4(nil, true)
	bad := varbitIPv4(opts[:4], false)
	top := func(mode, l, l2 byte) []byte { return []byte{mode, l, l2} }
	// mid_t: a nibble, the varbit bytes, a nibble.
	mid := func(a byte, v []byte, b byte) []byte {
		w := append([]byte{a << 4}, make([]byte, len(v))...)
		for i, x := range v {
			w[i] |= x >> 4
			w[i+1] = x << 4
		}
		w[len(v)] |= b & 0xf
		return w
	}
	hash := func(wire []byte) uint16 { return ^uint16(onesSum(wire, 0)) }
	for _, c := range []struct {
		name string
		in   []byte
		out  []byte
	}{
		{"IPv4 with 4 bytes of options: checksum over them, verified and updated",
			cat(top(1, 0, 0), ip6, pay),
			cat(varbitReport(0, 0, 3+24+2+6, 0), top(1, 0, 0), ttlDecremented(ip6), pay)},
		{"IPv4 with 8 bytes of options", cat(top(1, 0, 0), ip7, pay),
			cat(varbitReport(0, 0, 3+28+2+6, 0), top(1, 0, 0), ttlDecremented(ip7), pay)},
		{"IPv4 without options: an empty varbit field", cat(top(1, 0, 0), ip5, pay),
			cat(varbitReport(0, 0, 3+20+2+6, 0), top(1, 0, 0), ttlDecremented(ip5), pay)},
		{"a wrong checksum over the options is checksum_error", cat(top(1, 0, 0), bad, pay),
			cat(varbitReport(0, 4, 3+24+2+6, 0), top(1, 0, 0), ttlDecremented(bad), pay)},
		{"IPv4 options past the end: PacketTooShort, the header left in the payload",
			cat(top(1, 0, 0), ip7[:26]),
			cat(varbitReport(1, 0, 3+26+6, 0), top(1, 0, 0), ip7[:26])},
		// mode 2: mid1, mid2; cp = mid1.v (assign_VL), mid2 removed.
		{"equal varbit fields and headers; the copy takes the width",
			cat(top(2, 2, 2), mid(0xa, []byte{0x12, 0x34}, 0xb), mid(0xa, []byte{0x12, 0x34}, 0xb), pay),
			cat(varbitReport(0, 3, 3+3+3+2+6+1-3, hash(mid(0xa, []byte{0x12, 0x34}, 0xb))), top(2, 2, 2),
				mid(0xa, []byte{0x12, 0x34}, 0xb), []byte{0xc1, 0x12, 0x34}, pay)},
		{"== compares values, not widths",
			cat(top(2, 3, 1), mid(1, []byte{0, 0, 0x34}, 2), mid(1, []byte{0x34}, 2), pay),
			cat(varbitReport(0, 3, 3+4+2+2+6+1-2, hash(mid(1, []byte{0, 0, 0x34}, 2))), top(2, 3, 1),
				mid(1, []byte{0, 0, 0x34}, 2), []byte{0xc1, 0, 0, 0x34}, pay)},
		{"headers differing after the varbit field",
			cat(top(2, 1, 1), mid(1, []byte{0x56}, 2), mid(1, []byte{0x56}, 3), pay),
			cat(varbitReport(0, 1, 3+2+2+2+6+1-2, hash(mid(1, []byte{0x56}, 2))), top(2, 1, 1),
				mid(1, []byte{0x56}, 2), []byte{0xc1, 0x56}, pay)},
		{"varbit fields differing",
			cat(top(2, 1, 0), mid(1, []byte{0x56}, 2), mid(1, nil, 2), pay),
			cat(varbitReport(0, 0, 3+2+1+2+6+1-1, hash(mid(1, []byte{0x56}, 2))), top(2, 1, 0),
				mid(1, []byte{0x56}, 2), []byte{0xc1, 0x56}, pay)},
		{"past max_length is HeaderTooShort",
			cat(top(2, 5, 0), []byte{1, 2, 3, 4, 5, 6, 7, 8}),
			cat(varbitReport(4, 0, 3+8+6, 0), top(2, 5, 0), []byte{1, 2, 3, 4, 5, 6, 7, 8})},
		{"mid2 past the end is PacketTooShort, mid1 kept",
			cat(top(2, 1, 4), mid(1, []byte{0x56}, 2), []byte{1, 2, 3}),
			cat(varbitReport(1, 0, 3+2+3+6, 0), top(2, 1, 4), mid(1, []byte{0x56}, 2), []byte{1, 2, 3})},
		// mode 3: a stack of varbit headers, popped once; cp made valid, empty.
		{"a stack of varbit headers, popped: each keeps its width, the vacated one opts[0]'s",
			cat(top(3, 0, 0), []byte{2, 0xaa, 0xbb, 1, 0xcc, 0}, pay),
			cat(varbitReport(0, 0, 3+6+2+6+1+3, 0), top(3, 0, 0), []byte{0xc3}, []byte{1, 0xcc, 0, 0, 0, 0}, pay)},
		{"equal stack elements",
			cat(top(3, 0, 0), []byte{1, 0xcc, 1, 0xcc, 0}, pay),
			cat(varbitReport(0, 8, 3+5+2+6+1+2, 0), top(3, 0, 0), []byte{0xc3}, []byte{1, 0xcc, 0, 0, 0}, pay)},
		{"a fourth element is StackOutOfBounds",
			cat(top(3, 0, 0), []byte{1, 0x11, 1, 0x22, 1, 0x33, 1, 0x44}),
			cat(varbitReport(3, 0, 3+8+6+1+2, 0), top(3, 0, 0), []byte{0xc3}, []byte{1, 0x22, 1, 0x33, 0, 0}, []byte{1, 0x44})},
		{"an element past max_length is HeaderTooShort",
			cat(top(3, 0, 0), []byte{1, 0x11, 3, 1, 2, 3, 0}),
			cat(varbitReport(4, 0, 3+7+6+1+2, 0), top(3, 0, 0), []byte{0xc3}, []byte{0, 0}, []byte{3, 1, 2, 3, 0})},
		// mode 4: raw's varbit length in bits, straight from the packet.
		{"16 bits", cat(top(4, 16, 0), []byte{0x77, 0x88, 0x99}, pay),
			cat(varbitReport(0, 16, 3+3+2+6, 0), top(4, 16, 0), []byte{0x77, 0x88, 0x99}, pay)},
		{"0 bits", cat(top(4, 0, 0), []byte{0x77}, pay),
			cat(varbitReport(0, 16, 3+1+2+6, 0), top(4, 0, 0), []byte{0x77}, pay)},
		{"12 bits is ParserInvalidArgument", cat(top(4, 12, 0), []byte{0x77, 0x88, 0x99}, pay),
			cat(varbitReport(6, 0, 3+3+2+6, 0), top(4, 12, 0), []byte{0x77, 0x88, 0x99}, pay)},
		{"12 bits on a short packet is still ParserInvalidArgument", cat(top(4, 12, 0)),
			cat(varbitReport(6, 0, 3+6, 0), top(4, 12, 0))},
		{"24 bits on a short packet is PacketTooShort", cat(top(4, 24, 0), []byte{0x77, 0x88}),
			cat(varbitReport(1, 0, 3+2+6, 0), top(4, 24, 0), []byte{0x77, 0x88})},
		{"32 bits is HeaderTooShort", cat(top(4, 32, 0), []byte{0x77, 1, 2, 3, 4, 5}),
			cat(varbitReport(4, 0, 3+6+6, 0), top(4, 32, 0), []byte{0x77, 1, 2, 3, 4, 5})},
		{"40 bits on a short packet: PacketTooShort comes before HeaderTooShort", cat(top(4, 40, 0), []byte{0x77, 1, 2}),
			cat(varbitReport(1, 0, 3+3+6, 0), top(4, 40, 0), []byte{0x77, 1, 2})},
		{"removed and added again: the value zeroed, the width kept (BMv2's add_header)",
			cat(top(5, 16, 0), []byte{0x77, 0x88, 0x99}, pay),
			cat(varbitReport(0, 16, 3+3+2+6, 0), top(5, 16, 0), []byte{0x55, 0, 0}, pay)},
	} {
		t.Run(c.name, func(t *testing.T) {
			pk, ok := tp.run(c.in)
			if !ok {
				t.Fatal("dropped")
			}
			if !bytes.Equal(pk.Frame, c.out) {
				t.Errorf("out  %x\nwant %x", pk.Frame, c.out)
			}
		})
	}
}

// TestVarbitWidthsDoNotLeakBetweenPackets: a PHV reused for the next
// packet starts with every varbit field empty, and a multicast replica's
// PHV carries the widths.
func TestVarbitWidthsDoNotLeakBetweenPackets(t *testing.T) {
	tp := loadTestProgram(t, "varbit")
	pay := []byte{0xde, 0xad}
	in := cat([]byte{3, 0, 0}, []byte{2, 0xaa, 0xbb, 1, 0xcc, 0}, pay)
	want := cat(varbitReport(0, 0, 3+6+2+6+1+3, 0), []byte{3, 0, 0}, []byte{0xc3}, []byte{1, 0xcc, 0, 0, 0, 0}, pay)
	for i := 0; i < 3; i++ {
		pk, ok := tp.run(in)
		if !ok || !bytes.Equal(pk.Frame, want) {
			t.Fatalf("run %d: out %x, want %x", i, pk.Frame, want)
		}
		pk.State.Release()
	}
	// The same packet object, reused: cp's varbit field was set by mode 2.
	pk, _ := tp.run(cat([]byte{2, 2, 2}, []byte{0xa1, 0x23, 0x4b, 0xa1, 0x23, 0x4b}, pay))
	pk.Frame = append([]byte(nil), in...)
	pk.Meta.EgressSpec, pk.Meta.EgressPort = 0, 0
	tp.prog.Ingress(pk)
	pk.Meta.EgressPort = pk.Meta.EgressSpec
	if !tp.prog.Egress(pk) || !bytes.Equal(pk.Frame, want) {
		t.Fatalf("reused PHV: out %x, want %x", pk.Frame, want)
	}
	// A replica's PHV is a copy, widths included: egress emits cp with
	// mid1's two bytes on both.
	mode2 := cat([]byte{2, 2, 2}, []byte{0xa1, 0x23, 0x4b, 0xa1, 0x23, 0x4b}, pay)
	orig := &pipeline.Packet{Frame: append([]byte(nil), mode2...), Meta: pipeline.StdMeta{IngressPort: 1}}
	tp.prog.Ingress(orig)
	rep := &pipeline.Packet{Frame: append([]byte(nil), orig.Frame...), Meta: pipeline.StdMeta{EgressPort: 3}}
	tp.prog.Replicate(rep, orig, pipeline.CopyReplica)
	orig.State.(*phv).reset() // the original's PHV no longer matters
	wantRep := cat(varbitReport(0, 3, 3+6+2+6+1-3, ^uint16(onesSum([]byte{0xa1, 0x23, 0x4b}, 0))), []byte{2, 2, 2},
		[]byte{0xa1, 0x23, 0x4b}, []byte{0xc1, 0x12, 0x34}, pay)
	if !tp.prog.Egress(rep) || !bytes.Equal(rep.Frame, wantRep) {
		t.Fatalf("replica: out %x, want %x", rep.Frame, wantRep)
	}
}

// mutateVarbit loads testdata/varbit.json after edit changes it.
func mutateVarbit(t *testing.T, edit func(doc map[string]any)) error {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "varbit.json"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join("testdata", "varbit.p4info.txt"))
	if err != nil {
		t.Fatal(err)
	}
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal(text, info); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load(out, info, Options{CPUPort: 64})
	return err
}

// walk calls f on every JSON object in v.
func walk(v any, f func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		f(x)
		for _, e := range x {
			walk(e, f)
		}
	case []any:
		for _, e := range x {
			walk(e, f)
		}
	}
}

// What the engine does not do with varbit fields is refused by name.
func TestVarbitRefusals(t *testing.T) {
	headerType := func(doc map[string]any, name string) map[string]any {
		for _, h := range list(doc, "header_types") {
			if obj(h)["name"] == name {
				return obj(h)
			}
		}
		panic("no header type " + name)
	}
	wantUnsupported(t, mutateVarbit(t, func(doc map[string]any) {
		delete(headerType(doc, "raw_t"), "max_length")
	}), "raw_t.v without a max_length", "")
	wantUnsupported(t, mutateVarbit(t, func(doc map[string]any) {
		ht := headerType(doc, "raw_t")
		ht["fields"] = append(ht["fields"].([]any), []any{"w", "*"})
	}), "two variable-length fields in header type raw_t", "")
	wantUnsupported(t, mutateVarbit(t, func(doc map[string]any) {
		walk(doc, func(o map[string]any) {
			if o["op"] == "extract_VL" && obj(o["parameters"].([]any)[0])["value"] == "raw" {
				o["op"], o["parameters"] = "extract", o["parameters"].([]any)[:1]
			}
		})
	}), "extract of the varbit header raw without a length", "")
	wantUnsupported(t, mutateVarbit(t, func(doc map[string]any) {
		walk(doc, func(o map[string]any) {
			if l, ok := o["left"].(map[string]any); ok && o["op"] == "==" && l["type"] == "field" {
				if f := l["value"].([]any); f[0] == "mid1" && f[1] == "v" {
					o["op"] = "<"
				}
			}
		})
	}), "a varbit field in the comparison <", "varbit.p4:")
	wantUnsupported(t, mutateVarbit(t, func(doc map[string]any) {
		walk(doc, func(o map[string]any) {
			if l, ok := o["left"].(map[string]any); ok && o["op"] == "==" && l["type"] == "field" {
				if f := l["value"].([]any); f[0] == "mid1" && f[1] == "v" {
					o["op"] = "+"
				}
			}
		})
	}), "a varbit field in an expression", "varbit.p4:")
}

// framePool recycles frames, so that a packet's run can be checked for
// allocations when the deparser needs a new frame.
type framePool struct{ free [][]byte }

func (f *framePool) Get(n int) []byte {
	if k := len(f.free); k > 0 {
		b := f.free[k-1]
		f.free = f.free[:k-1]
		if cap(b) >= n {
			return b[:n]
		}
	}
	return make([]byte, n, 256)
}

func (f *framePool) Put(b []byte) { f.free = append(f.free, b) }

// Varbit fields cost no allocation per packet: extract_VL, the checksum
// over options, ==, assign_VL, a hash over a header copy, stack pops.
func TestVarbitPacketsDoNotAllocate(t *testing.T) {
	tp := loadTestProgram(t, "varbit")
	pool := &framePool{free: make([][]byte, 0, 16)}
	tp.prog.opts.Frames, tp.prog.ownsFrames = pool, true // as Load with Options.Frames
	pay := []byte{0xde, 0xad}
	ins := [][]byte{
		cat([]byte{1, 0, 0}, varbitIPv4([]byte{1, 1, 1, 0}, true), pay),
		cat([]byte{2, 2, 2}, []byte{0xa1, 0x23, 0x4b, 0xa1, 0x23, 0x4b}, pay),
		cat([]byte{3, 0, 0}, []byte{2, 0xaa, 0xbb, 1, 0xcc, 0}, pay),
		cat([]byte{5, 16, 0}, []byte{0x77, 0x88, 0x99}, pay),
	}
	pk := &pipeline.Packet{}
	i := 0
	run := func() {
		in := ins[i%len(ins)]
		i++
		f := pool.Get(len(in))
		copy(f, in)
		pk.Frame, pk.Meta = f, pipeline.StdMeta{IngressPort: 1}
		tp.prog.Ingress(pk)
		pk.Meta.EgressPort = pk.Meta.EgressSpec
		if !tp.prog.Egress(pk) {
			t.Fatal("dropped")
		}
		pool.Put(pk.Frame)
	}
	for range 8 {
		run()
	}
	if allocs := testing.AllocsPerRun(200, run); allocs != 0 {
		t.Fatalf("%.1f allocations per packet, want 0", allocs)
	}
}
