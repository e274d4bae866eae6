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
}

type calcInput struct {
	hdr     int // the field's or header's instance (-1: constant or payload)
	slot    int
	words   int
	width   int
	whole   bool // a whole header: its fields in order
	fields  []plannedField
	k       uint64 // constant
	payload bool
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
			fd, ok := c.l.field(h, f)
			if !ok {
				return nil, invalid(jc.SourceInfo, "calculation %s: unknown field %s.%s", jc.Name, h, f)
			}
			calc.inputs = append(calc.inputs, calcInput{hdr: fd.hdr, slot: fd.slot, words: fd.words, width: fd.width})
		case "header":
			name, err := in.String()
			if err != nil {
				return nil, invalid(jc.SourceInfo, "%v", err)
			}
			h, ok := c.l.header(name)
			if !ok {
				return nil, invalid(jc.SourceInfo, "calculation %s: unknown header %s", jc.Name, name)
			}
			calc.inputs = append(calc.inputs, calcInput{hdr: h, whole: true, fields: c.fieldPlan(h)})
		case "hexstr":
			k, err := in.HexValue()
			if err != nil || in.Bitwidth <= 0 || in.Bitwidth > 64 || k.Sign() < 0 {
				return nil, unsupported("a calculation constant that is not 1 to 64 bits wide", jc.SourceInfo)
			}
			calc.inputs = append(calc.inputs, calcInput{hdr: -1, k: k.Uint64(), width: in.Bitwidth})
		case "payload":
			calc.inputs = append(calc.inputs, calcInput{hdr: -1, payload: true})
		default:
			return nil, unsupported("a calculation input of type "+in.Type, jc.SourceInfo)
		}
	}
	return calc, nil
}

// compute builds the input buffer in s's scratch space and hashes it.
func (calc *calculation) compute(s *phv) uint64 {
	buf := s.calc[:0]
	nbits := 0
	grow := func(bits int) {
		nbits += bits
		for len(buf) < (nbits+7)/8 {
			buf = append(buf, 0)
		}
	}
	for i := range calc.inputs {
		in := &calc.inputs[i]
		switch {
		case in.payload:
			buf = append(buf[:(nbits+7)/8], s.data[s.pos:]...)
			nbits = len(buf) * 8
		case in.hdr < 0:
			off := nbits
			grow(in.width)
			writeBits(buf, off, in.width, in.k)
		case !s.valid[in.hdr]:
		case in.whole:
			base := nbits
			for _, f := range in.fields {
				grow(f.width)
				if f.words == 1 {
					writeBits(buf, base+f.off, f.width, s.slots[f.slot])
				} else {
					writeWide(buf, base+f.off, f.width, s.slots[f.slot:f.slot+f.words])
				}
			}
		default:
			off := nbits
			grow(in.width)
			if in.words == 1 {
				writeBits(buf, off, in.width, s.slots[in.slot])
			} else {
				writeWide(buf, off, in.width, s.slots[in.slot:in.slot+in.words])
			}
		}
	}
	s.calc = buf
	return calc.algo(buf)
}
