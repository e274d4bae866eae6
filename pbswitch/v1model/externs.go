// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// count is count(counter, index): packets and the packet's current length.
func (c *compiler) count(p *bmv2json.Primitive, x *exprCtx) (func(*phv), error) {
	if len(p.Parameters) != 2 {
		return nil, invalid(p.SourceInfo, "count takes two parameters")
	}
	name, err := p.Parameters[0].String()
	if err != nil {
		return nil, invalid(p.SourceInfo, "count: %v", err)
	}
	arr, ok := c.counters[name]
	if !ok {
		return nil, invalid(p.SourceInfo, "count on unknown counter %s", name)
	}
	idx, err := c.operand(&p.Parameters[1], kData, x)
	if err != nil {
		return nil, err
	}
	iu := idx.u
	return func(s *phv) {
		if cell, err := arr.Cell(int64(iu(s))); err == nil {
			cell.Count(s.ingressLen)
		}
	}, nil
}

// executeMeter is execute_meter(meter, index, colour destination).
func (c *compiler) executeMeter(p *bmv2json.Primitive, x *exprCtx) (func(*phv), error) {
	if len(p.Parameters) != 3 {
		return nil, invalid(p.SourceInfo, "execute_meter takes three parameters")
	}
	name, err := p.Parameters[0].String()
	if err != nil {
		return nil, invalid(p.SourceInfo, "execute_meter: %v", err)
	}
	arr, ok := c.meters[name]
	if !ok {
		return nil, invalid(p.SourceInfo, "execute_meter on unknown meter %s", name)
	}
	idx, err := c.operand(&p.Parameters[1], kData, x)
	if err != nil {
		return nil, err
	}
	dst, err := c.lvalueOf(&p.Parameters[2], x)
	if err != nil {
		return nil, err
	}
	iu := idx.u
	var color uint64
	_ = color
	return writer(dst, val{kind: kData, u: func(s *phv) uint64 {
		cell, err := arr.Cell(int64(iu(s)))
		if err != nil {
			return uint64(pipeline.Green)
		}
		size := int64(s.ingressLen)
		if arr.Packets {
			size = 1
		}
		return uint64(cell.ExecuteNow(size))
	}}), nil
}

// register is register_read(dst, register, index) and
// register_write(register, index, value).
func (c *compiler) register(p *bmv2json.Primitive, x *exprCtx) (func(*phv), error) {
	if len(p.Parameters) != 3 {
		return nil, invalid(p.SourceInfo, "%s takes three parameters", p.Op)
	}
	regArg := 1
	if p.Op == "register_write" {
		regArg = 0
	}
	name, err := p.Parameters[regArg].String()
	if err != nil {
		return nil, invalid(p.SourceInfo, "%s: %v", p.Op, err)
	}
	reg, ok := c.registers[name]
	if !ok {
		return nil, invalid(p.SourceInfo, "%s on unknown register %s", p.Op, name)
	}
	if reg.Bits > 64 {
		return nil, unsupported("a register wider than 64 bits ("+name+")", p.SourceInfo)
	}
	// The enclosing action holds the array's lock while it runs.
	c.touched.add(reg)
	if p.Op == "register_read" {
		dst, err := c.lvalueOf(&p.Parameters[0], x)
		if err != nil {
			return nil, err
		}
		idx, err := c.operand(&p.Parameters[2], kData, x)
		if err != nil {
			return nil, err
		}
		iu := idx.u
		return writer(dst, val{kind: kData, u: func(s *phv) uint64 {
			v, _ := reg.ReadUintHeld(int64(iu(s)))
			return v
		}}), nil
	}
	idx, err := c.operand(&p.Parameters[1], kData, x)
	if err != nil {
		return nil, err
	}
	v, err := c.operand(&p.Parameters[2], kData, x)
	if err != nil {
		return nil, err
	}
	iu, vu, m := idx.u, v.u, mask64(reg.Bits)
	return func(s *phv) { _ = reg.WriteUintHeld(int64(iu(s)), vu(s)&m) }, nil
}

// digest is generate_digest(receiver, learn list id): the list's fields
// are sent at the end of ingress, as BMv2 does.
func (c *compiler) digest(p *bmv2json.Primitive, x *exprCtx) (func(*phv), error) {
	if len(p.Parameters) != 2 {
		return nil, invalid(p.SourceInfo, "generate_digest takes two parameters")
	}
	k, err := p.Parameters[1].HexValue()
	if err != nil {
		return nil, invalid(p.SourceInfo, "generate_digest: %v", err)
	}
	id := int(k.Int64())
	if _, ok := c.learnLists[id]; !ok {
		return nil, invalid(p.SourceInfo, "generate_digest of unknown learn list %d", id)
	}
	return func(s *phv) { s.digestList = id }, nil
}

// hashOffset is hash(): dst = base + calc(inputs) % size.
func (c *compiler) hashOffset(p *bmv2json.Primitive, x *exprCtx) (func(*phv), error) {
	if len(p.Parameters) != 4 {
		return nil, invalid(p.SourceInfo, "modify_field_with_hash_based_offset takes four parameters")
	}
	dst, err := c.lvalueOf(&p.Parameters[0], x)
	if err != nil {
		return nil, err
	}
	base, err := c.operand(&p.Parameters[1], kData, x)
	if err != nil {
		return nil, err
	}
	name, err := p.Parameters[2].String()
	if err != nil {
		return nil, invalid(p.SourceInfo, "hash calculation: %v", err)
	}
	calc, ok := c.calcs[name]
	if !ok {
		return nil, invalid(p.SourceInfo, "unknown calculation %s", name)
	}
	size, err := c.operand(&p.Parameters[3], kData, x)
	if err != nil {
		return nil, err
	}
	bu, su := base.u, size.u
	return writer(dst, val{kind: kData, u: func(s *phv) uint64 {
		n := su(s)
		if n == 0 {
			n = 1 // as BMv2: a size of 0 counts as 1
		}
		return calc.compute(s)%n + bu(s)
	}}), nil
}

func (c *compiler) assignUnion(p *bmv2json.Primitive, x *exprCtx) (func(*phv), error) {
	if len(p.Parameters) != 2 {
		return nil, invalid(p.SourceInfo, "assign_union takes two parameters")
	}
	d, err := c.operand(&p.Parameters[0], kUnion, x)
	if err != nil {
		return nil, err
	}
	o, err := c.operand(&p.Parameters[1], kUnion, x)
	if err != nil {
		return nil, err
	}
	var copies []func(*phv)
	for i, h := range c.l.unions[d.union].headers {
		dh, oh := h, c.l.unions[o.union].headers[i]
		copies = append(copies, c.copyHeader(
			val{kind: kHeader, htype: c.l.headers[dh].typ, hdr: func(*phv) int { return dh }},
			val{kind: kHeader, htype: c.l.headers[oh].typ, hdr: func(*phv) int { return oh }}))
	}
	return func(s *phv) {
		for _, f := range copies {
			f(s)
		}
	}, nil
}

func (c *compiler) assignStack(p *bmv2json.Primitive, x *exprCtx) (func(*phv), error) {
	if len(p.Parameters) != 2 {
		return nil, invalid(p.SourceInfo, "assign_header_stack takes two parameters")
	}
	d, err := c.operand(&p.Parameters[0], kStack, x)
	if err != nil {
		return nil, err
	}
	o, err := c.operand(&p.Parameters[1], kStack, x)
	if err != nil {
		return nil, err
	}
	var copies []func(*phv)
	for i, h := range c.l.stacks[d.stack].headers {
		dh, oh := h, c.l.stacks[o.stack].headers[i]
		copies = append(copies, c.copyHeader(
			val{kind: kHeader, htype: c.l.headers[dh].typ, hdr: func(*phv) int { return dh }},
			val{kind: kHeader, htype: c.l.headers[oh].typ, hdr: func(*phv) int { return oh }}))
	}
	ds, os := d.stack, o.stack
	return func(s *phv) {
		for _, f := range copies {
			f(s)
		}
		s.stackNext[ds] = s.stackNext[os]
	}, nil
}
