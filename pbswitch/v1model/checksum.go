// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// checksum is a verify_checksum or update_checksum call: a calculation
// whose result is checked against, or written into, a field when its
// condition holds.
type checksum struct {
	calc  *calculation
	width int
	get   func(*phv) uint64
	set   func(*phv, uint64)
	cond  func(*phv) bool // nil: always
}

func (c *compiler) checksums(list []bmv2json.Checksum) error {
	for i := range list {
		jc := &list[i]
		calc, ok := c.calcs[jc.Calculation]
		if !ok {
			return invalid(jc.SourceInfo, "checksum %s: unknown calculation %s", jc.Name, jc.Calculation)
		}
		if len(jc.Target) != 2 {
			return invalid(jc.SourceInfo, "checksum %s: target", jc.Name)
		}
		f, ok := c.l.field(jc.Target[0], jc.Target[1])
		if ok && f.vl != nil {
			return unsupported("a checksum written into the varbit field "+f.name, jc.SourceInfo)
		}
		if !ok || f.words != 1 {
			return invalid(jc.SourceInfo, "checksum %s: target field %v", jc.Name, jc.Target)
		}
		ck := &checksum{calc: calc, width: f.width, get: f.getU(), set: f.setU()}
		if jc.IfCond != nil {
			cond, err := c.operand(jc.IfCond, kBool, &exprCtx{si: jc.SourceInfo})
			if err != nil {
				return err
			}
			ck.cond = cond.b
		}
		if jc.Verify == nil || *jc.Verify {
			c.prog.verify = append(c.prog.verify, ck)
		}
		if jc.Update == nil || *jc.Update {
			c.prog.update = append(c.prog.update, ck)
		}
	}
	return nil
}

func (ck *checksum) applies(s *phv) bool { return ck.cond == nil || ck.cond(s) }

func (ck *checksum) value(s *phv) uint64 {
	return ck.calc.compute(s) & mask64(ck.width)
}

// verifyChecksums sets checksum_error when a checked field is wrong.
func (p *Program) verifyChecksums(s *phv) {
	for _, ck := range p.verify {
		if ck.applies(s) && ck.value(s) != ck.get(s) {
			s.setStd(p.std.checksumError, 1)
		}
	}
}

// updateChecksums writes each updated field before the deparser emits.
func (p *Program) updateChecksums(s *phv) {
	for _, ck := range p.update {
		if ck.applies(s) {
			ck.set(s, ck.value(s))
		}
	}
}
