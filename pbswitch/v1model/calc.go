// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"fmt"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/v1model/hashalg"
)

// calculation is a named hash over a list of inputs, bit-packed in order as
// BMv2 builds its input buffer: fields and headers of invalid headers are
// skipped, and payload appends the packet's unparsed bytes.
type calculation struct {
	name   string
	algo   hashalg.Func
	inputs []calcInput
	// sumSpans is set for an Internet checksum over even-length byte spans
	// of one header (IPv4's, GTP-U's outer IPv4's): computed from the
	// header's bytes in place, without building the input buffer.
	sumSpans [][2]int
	sumHdr   int
}

// calcInput is one input, or a run of adjacent fields of one header merged
// into a span of its bytes (the common case: a checksum over a header's
// fields but the checksum itself is two byte copies).
type calcInput struct {
	hdr     int     // the header whose validity decides; -1: always present
	lv      *lvalue // a field (nil for spans, constants and payload)
	span    []int   // [first byte, end) in phv.hdr
	width   int
	k       uint64 // constant
	payload bool
	// A varbit field (vlf) or a header with one (vlh): its current bytes,
	// of a width known per packet.
	vlf *vlField
	vlh *vlHeader
}

func (c *compiler) calculation(jc *bmv2json.Calculation) (*calculation, error) {
	algo, ok := hashalg.Lookup(jc.Algo)
	if !ok {
		return nil, unsupported(fmt.Sprintf("the hash algorithm %q", jc.Algo), jc.SourceInfo)
	}
	calc := &calculation{name: jc.Name, algo: algo}
	for i := range jc.Input {
		in := &jc.Input[i]
		switch in.Type {
		case "field":
			h, f, err := in.FieldRef()
			if err != nil {
				return nil, invalid(jc.SourceInfo, "%v", err)
			}
			lv, ok := c.l.field(h, f)
			if !ok {
				return nil, invalid(jc.SourceInfo, "calculation %s: unknown field %s.%s", jc.Name, h, f)
			}
			if lv.vl != nil {
				calc.add(calcInput{hdr: lv.hdr, vlf: lv.vl})
				continue
			}
			calc.add(calcInput{hdr: lv.hdr, lv: lv, width: lv.width})
		case "header":
			name, err := in.String()
			if err != nil {
				return nil, invalid(jc.SourceInfo, "%v", err)
			}
			h, ok := c.l.header(name)
			if !ok || c.l.headers[h].metadata {
				return nil, invalid(jc.SourceInfo, "calculation %s: unknown header %s", jc.Name, name)
			}
			hi := c.l.headers[h]
			if v := c.l.vlHeaderOf(h); v != nil {
				calc.add(calcInput{hdr: h, vlh: v})
				continue
			}
			calc.add(calcInput{hdr: h, span: []int{hi.byteOff, hi.byteOff + hi.bits/8}, width: hi.bits})
		case "hexstr":
			k, err := in.HexValue()
			if err != nil || in.Bitwidth <= 0 || in.Bitwidth > 64 || k.Sign() < 0 {
				return nil, unsupported("a calculation constant that is not 1 to 64 bits wide", jc.SourceInfo)
			}
			calc.add(calcInput{hdr: -1, k: k.Uint64(), width: in.Bitwidth})
		case "payload":
			calc.add(calcInput{hdr: -1, payload: true})
		default:
			return nil, unsupported("a calculation input of type "+in.Type, jc.SourceInfo)
		}
	}
	calc.sumSpans, calc.sumHdr = spansOfOneHeader(jc.Algo, calc.inputs)
	return calc, nil
}

// spansOfOneHeader is the calculation's byte spans and their header when
// it is an Internet checksum over even-length spans of one header (nil:
// not this shape).
func spansOfOneHeader(algo string, inputs []calcInput) ([][2]int, int) {
	if (algo != "csum16" && algo != "cksum16") || len(inputs) == 0 {
		return nil, -1
	}
	var spans [][2]int
	for _, in := range inputs {
		if in.span == nil || in.hdr < 0 || in.hdr != inputs[0].hdr || (in.span[1]-in.span[0])%2 != 0 {
			return nil, -1
		}
		spans = append(spans, [2]int{in.span[0], in.span[1]})
	}
	return spans, inputs[0].hdr
}

// add appends an input. Adjacent fields of one header that together start
// and end on bytes become a span of its bytes, copied whole.
func (calc *calculation) add(in calcInput) {
	calc.inputs = append(calc.inputs, in)
	for calc.mergeLast() {
	}
}

// mergeLast merges the last input into the one before it when both are
// fixed fields or spans of the same header and the bits are contiguous;
// the result becomes a span once it starts and ends on bytes.
func (calc *calculation) mergeLast() bool {
	n := len(calc.inputs)
	if n == 0 {
		return false
	}
	last := &calc.inputs[n-1]
	if last.span == nil && isFixedHeaderField(last.lv) && last.lv.bit%8 == 0 && last.width%8 == 0 {
		*last = calcInput{hdr: last.hdr, span: []int{last.lv.bit / 8, (last.lv.bit + last.width) / 8}, width: last.width}
	}
	if n < 2 {
		return false
	}
	prev := &calc.inputs[n-2]
	if prev.hdr != last.hdr || prev.hdr < 0 {
		return false
	}
	ps, pe, ok1 := bitRange(prev)
	ls, le, ok2 := bitRange(last)
	if !ok1 || !ok2 || pe != ls {
		return false
	}
	if ps%8 != 0 || le%8 != 0 {
		// Keep sub-byte runs apart until they reach a byte boundary.
		if prev.span == nil && last.span == nil && ps%8 == 0 && le-ps <= 64 {
			*prev = calcInput{hdr: prev.hdr, lv: &lvalue{hdr: prev.hdr, bit: ps, width: le - ps, words: 1, slot: -1}, width: le - ps}
			calc.inputs = calc.inputs[:n-1]
			return true
		}
		return false
	}
	*prev = calcInput{hdr: prev.hdr, span: []int{ps / 8, le / 8}, width: le - ps}
	calc.inputs = calc.inputs[:n-1]
	return true
}

func isFixedHeaderField(lv *lvalue) bool { return lv != nil && lv.bit >= 0 && lv.dyn == nil }

// bitRange is where an input's bits sit in phv.hdr.
func bitRange(in *calcInput) (start, end int, ok bool) {
	switch {
	case in.span != nil:
		return in.span[0] * 8, in.span[1] * 8, true
	case isFixedHeaderField(in.lv) && in.width <= 64:
		return in.lv.bit, in.lv.bit + in.width, true
	}
	return 0, 0, false
}

// compute is the calculation's value for s.
func (calc *calculation) compute(s *phv) uint64 {
	if calc.sumSpans != nil && s.valid[calc.sumHdr] {
		var sum uint64
		for _, sp := range calc.sumSpans {
			sum = hashalg.Cksum16Add(sum, s.hdr[sp[0]:sp[1]])
		}
		return hashalg.Cksum16Fold(sum)
	}
	return calc.computeAny(s)
}

// computeAny builds the input buffer in s's scratch space and hashes it:
// the reference the shortcut in compute is tested against.
func (calc *calculation) computeAny(s *phv) uint64 {
	bits := 0
	for i := range calc.inputs {
		in := &calc.inputs[i]
		switch {
		case in.payload:
			bits = (bits+7)/8*8 + 8*(len(s.data)-s.pos)
		case in.hdr >= 0 && !s.valid[in.hdr]:
		case in.vlf != nil:
			bits += 8 * s.vlLen[in.vlf.hdr]
		case in.vlh != nil:
			bits += 8 * in.vlh.size(s)
		default:
			bits += in.width
		}
	}
	n := (bits + 7) / 8
	if cap(s.calc) < n {
		s.calc = make([]byte, n)
	}
	buf := s.calc[:n]
	if n > 0 {
		buf[n-1] = 0 // bits past the last input
	}
	off := 0
	for i := range calc.inputs {
		in := &calc.inputs[i]
		switch {
		case in.payload:
			off = (off + 7) / 8 * 8
			off += 8 * copy(buf[off/8:], s.data[s.pos:])
			continue
		case in.hdr >= 0 && !s.valid[in.hdr]:
			continue
		case in.vlf != nil:
			n := 8 * s.vlLen[in.vlf.hdr]
			copyBits(buf, off, s.hdr, 8*in.vlf.off, n)
			off += n
			continue
		case in.vlh != nil:
			in.vlh.toWire(s, buf, off)
			off += 8 * in.vlh.size(s)
			continue
		case in.span != nil && off%8 == 0:
			copy(buf[off/8:], s.hdr[in.span[0]:in.span[1]])
		case in.span != nil:
			for j, b := range s.hdr[in.span[0]:in.span[1]] {
				writeBits(buf, off+8*j, 8, uint64(b))
			}
		case in.lv == nil:
			writeBits(buf, off, in.width, in.k)
		case in.lv.words == 1:
			var w [1]uint64
			in.lv.load(s, w[:])
			writeBits(buf, off, in.width, w[0])
		default:
			words := make([]uint64, in.lv.words)
			in.lv.load(s, words)
			writeWide(buf, off, in.width, words)
		}
		off += in.width
	}
	return calc.algo(buf)
}
