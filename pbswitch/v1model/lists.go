// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// fieldList compiles a list of field references (clone, resubmit and
// digest field lists).
func (c *compiler) fieldList(name string, elems []bmv2json.TypedValue) ([]*lvalue, error) {
	var out []*lvalue
	for i := range elems {
		e := &elems[i]
		if e.Type != "field" {
			return nil, unsupported("a "+e.Type+" in field list "+name, nil)
		}
		h, f, err := e.FieldRef()
		if err != nil {
			return nil, invalid(nil, "field list %s: %v", name, err)
		}
		lv, ok := c.l.field(h, f)
		if !ok {
			return nil, invalid(nil, "field list %s: unknown field %s.%s", name, h, f)
		}
		if lv.vl != nil {
			return nil, unsupported("the varbit field "+lv.name+" in field list "+name, nil)
		}
		if lv.slot >= 0 && lv.slot == c.std.checksumError {
			c.readsChecksumError = true
		}
		out = append(out, lv)
	}
	return out, nil
}

// saveList copies a field list's values out of s.
func saveList(s *phv, list []*lvalue, into []uint64) []uint64 {
	into = into[:0]
	for _, lv := range list {
		n := len(into)
		for range lv.words {
			into = append(into, 0)
		}
		lv.load(s, into[n:])
	}
	return into
}

func restoreList(s *phv, list []*lvalue, from []uint64) {
	for _, lv := range list {
		lv.store(s, from[:lv.words])
		from = from[lv.words:]
	}
}

// learnBinding is a learn list bound to its p4info digest.
type learnBinding struct {
	digest *pipeline.Digest
	fields []*lvalue
	bytes  int
}

func (c *compiler) learnList(info *p4info.P4Info, ll *bmv2json.LearnList) (*learnBinding, error) {
	fields, err := c.fieldList(ll.Name, ll.Elements)
	if err != nil {
		return nil, err
	}
	for _, d := range info.GetDigests() {
		if d.GetPreamble().GetName() != ll.Name {
			continue
		}
		b := &learnBinding{digest: c.prog.objs.Digests[d.GetPreamble().GetId()], fields: fields}
		for _, f := range fields {
			b.bytes += (f.width + 7) / 8
		}
		return b, nil
	}
	return nil, invalid(nil, "learn list %s has no digest in the p4info", ll.Name)
}

// emit sends the list's values, each full-width, concatenated (the
// digest's P4Data bitstring).
func (b *learnBinding) emit(s *phv) {
	data := make([]byte, 0, b.bytes)
	for _, f := range b.fields {
		w := (f.width + 7) / 8
		start := len(data)
		data = append(data, make([]byte, w)...)
		words := make([]uint64, f.words)
		f.load(s, words)
		if f.words == 1 {
			pipeline.PutUint(data[start:], words[0])
			continue
		}
		for j := 0; j < w; j++ {
			bit := (w - 1 - j) * 8
			data[start+j] = byte(words[bit/64] >> (bit % 64))
		}
	}
	b.digest.Emit(now(), data)
}
