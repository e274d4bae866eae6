// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// headerInst is a header or metadata instance. A header's fields live
// packed as on the wire in phv.hdr (extract and emit are copies); a
// metadata instance's fields each have words of their own in phv.slots.
type headerInst struct {
	name     string
	typ      int // index into layout.types
	metadata bool
	slot     int // metadata: first word of its first field
	byteOff  int // header: first byte in phv.hdr
	words    int // metadata: all of its fields' words
	bits     int // packed width on the wire
	stack    int // stack it belongs to, -1 if none
	union    int // union it belongs to, -1 if none
	// vlOff is the first byte of its varbit field's area in phv.hdr (the
	// field's current bytes, left-aligned; phv.vlLen says how many), -1
	// when its type has no varbit field. A header's area follows its fixed
	// fields, which keep the offsets they would have with the varbit field
	// empty.
	vlOff int
}

// headerType is a header layout: fields in wire order.
type headerType struct {
	name       string
	fields     []bmv2json.FieldDecl
	fieldWords []int // metadata: each field's word offset from the first slot
	fieldBits  []int // header: each field's bit offset from the header's start
	words      int
	bits       int // the fixed fields' width (a varbit field counts 0)
	// vl is the index of its variable-length field, -1 if none; vlBit is
	// where that field starts on the wire (after the fields before it);
	// vlMax is the most bytes it can hold (max_length less the fixed
	// fields).
	vl, vlBit, vlMax int
}

type stackInst struct {
	name    string
	headers []int // header instance indexes, [0] first
}

type unionInst struct {
	name    string
	headers []int
}

// layout places every field of every header instance in the PHV.
type layout struct {
	types   []headerType
	headers []headerInst
	stacks  []stackInst
	unions  []unionInst
	words   int // metadata words (phv.slots)
	// hdrBytes is the packed size of every header (phv.hdr).
	hdrBytes int
	// initValid is a fresh PHV's validity: metadata valid, headers not.
	initValid []bool

	typeByName   map[string]int
	headerByName map[string]int
	stackByName  map[string]int
	unionByName  map[string]int
	aliases      map[string][2]string
}

func newLayout(p *bmv2json.Program) (*layout, error) {
	l := &layout{typeByName: map[string]int{}, headerByName: map[string]int{}, stackByName: map[string]int{},
		unionByName: map[string]int{}, aliases: map[string][2]string{}}
	for _, ht := range p.HeaderTypes {
		t := headerType{name: ht.Name, fields: ht.Fields, vl: -1}
		for i, f := range ht.Fields {
			t.fieldWords = append(t.fieldWords, t.words)
			t.fieldBits = append(t.fieldBits, t.bits)
			if f.Width < 0 {
				if t.vl >= 0 {
					return nil, unsupported("two variable-length fields in header type "+ht.Name, nil)
				}
				t.vl, t.vlBit = i, t.bits
				continue
			}
			t.words += wordsOf(f.Width)
			t.bits += f.Width
		}
		if t.vl >= 0 {
			if err := t.varbitLimits(&ht); err != nil {
				return nil, err
			}
		}
		l.typeByName[ht.Name] = len(l.types)
		l.types = append(l.types, t)
	}
	byID := map[int]int{}
	for _, h := range p.Headers {
		ti, ok := l.typeByName[h.HeaderType]
		if !ok {
			return nil, invalid(nil, "header %s has unknown type %s", h.Name, h.HeaderType)
		}
		t := l.types[ti]
		if !h.Metadata && t.bits%8 != 0 {
			return nil, invalid(nil, "header %s is %d bits, not a whole number of bytes", h.Name, t.bits)
		}
		byID[h.ID] = len(l.headers)
		l.headerByName[h.Name] = len(l.headers)
		hi := headerInst{name: h.Name, typ: ti, metadata: h.Metadata, bits: t.bits, stack: -1, union: -1, vlOff: -1}
		if h.Metadata {
			hi.slot, hi.words = l.words, t.words
			l.words += t.words
		} else {
			hi.byteOff = l.hdrBytes
			l.hdrBytes += t.bits / 8
		}
		if t.vl >= 0 {
			hi.vlOff = l.hdrBytes
			l.hdrBytes += t.vlMax
		}
		l.headers = append(l.headers, hi)
	}
	for _, s := range p.HeaderStacks {
		st := stackInst{name: s.Name}
		for _, id := range s.HeaderIDs {
			hi, ok := byID[id]
			if !ok {
				return nil, invalid(nil, "header stack %s: no header with id %d", s.Name, id)
			}
			l.headers[hi].stack = len(l.stacks)
			st.headers = append(st.headers, hi)
		}
		l.stackByName[s.Name] = len(l.stacks)
		l.stacks = append(l.stacks, st)
	}
	for _, u := range p.HeaderUnions {
		un := unionInst{name: u.Name}
		for _, id := range u.HeaderIDs {
			hi, ok := byID[id]
			if !ok {
				return nil, invalid(nil, "header union %s: no header with id %d", u.Name, id)
			}
			l.headers[hi].union = len(l.unions)
			un.headers = append(un.headers, hi)
		}
		l.unionByName[u.Name] = len(l.unions)
		l.unions = append(l.unions, un)
	}
	if len(p.HeaderUnionStacks) > 0 {
		return nil, unsupported("a header union stack ("+p.HeaderUnionStacks[0].Name+")", nil)
	}
	for _, a := range p.FieldAliases {
		l.aliases[a.Alias] = [2]string{a.Header, a.Field}
	}
	for _, h := range l.headers {
		l.initValid = append(l.initValid, h.metadata)
	}
	return l, nil
}

func wordsOf(bits int) int {
	if bits <= 64 {
		return 1
	}
	return (bits + 63) / 64
}

// header resolves a header instance by name.
func (l *layout) header(name string) (int, bool) {
	h, ok := l.headerByName[name]
	return h, ok
}

// field resolves header.field. The hidden field $valid$ is not a field: see
// compiler.fieldValue.
func (l *layout) field(header, name string) (*lvalue, bool) {
	hi, ok := l.headerByName[header]
	if !ok {
		return nil, false
	}
	fi := l.fieldIndex(l.headers[hi].typ, name)
	if fi < 0 {
		return nil, false
	}
	return l.fieldOf(hi, fi), true
}

// fieldOf is field fi of header instance h.
func (l *layout) fieldOf(h, fi int) *lvalue {
	hi := l.headers[h]
	t := l.types[hi.typ]
	f := t.fields[fi]
	if fi == t.vl {
		return &lvalue{hdr: h, name: hi.name + "." + f.Name, slot: -1, bit: -1,
			vl: &vlField{hdr: h, off: hi.vlOff, max: t.vlMax}}
	}
	lv := &lvalue{hdr: h, width: f.Width, words: wordsOf(f.Width), signed: f.Signed, name: hi.name + "." + f.Name,
		slot: -1, bit: -1}
	if hi.metadata {
		lv.slot = hi.slot + t.fieldWords[fi]
	} else {
		lv.bit = hi.byteOff*8 + t.fieldBits[fi]
	}
	return lv
}

// fieldIndex is the position of a field in its header type.
func (l *layout) fieldIndex(typ int, name string) int {
	for i, f := range l.types[typ].fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// std resolves a standard_metadata field, following field aliases (BMv2
// targets name some intrinsic fields by alias).
func (l *layout) std(name string) (*lvalue, bool) {
	if f, ok := l.field("standard_metadata", name); ok {
		return f, true
	}
	for _, prefix := range []string{"intrinsic_metadata.", "queueing_metadata.", "standard_metadata."} {
		if a, ok := l.aliases[prefix+name]; ok {
			return l.field(a[0], a[1])
		}
	}
	return nil, false
}
