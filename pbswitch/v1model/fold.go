// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"math/big"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// Constant folding: an expression whose every leaf is a literal (p4c
// leaves many, such as `b2d(true)` for each `meta.flag = true` on a bool
// field) is evaluated once at load and becomes a constant. Its value is
// the one its closure would compute on every packet (BMv2's expressions
// are pure), and as a constant it takes the writers' and conditions'
// constant shortcuts (fusedWriter's single store, constant masked writes).

// foldableOps are the operators whose value depends on their operands
// only: no header, stack or packet state.
var foldableOps = map[string]bool{
	"and": true, "or": true, "not": true, "d2b": true, "b2d": true,
	"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true,
	"?": true, "two_comp_mod": true, "sat_cast": true, "usat_cast": true,
	"+": true, "-": true, "*": true, "/": true, "%": true, "<<": true, ">>": true,
	"&": true, "|": true, "^": true, "~": true,
}

// overConstants says whether e is a foldable operator whose operands all
// compiled to constants.
func (c *compiler) overConstants(e *bmv2json.Expr) bool {
	if !foldableOps[e.Op] {
		return false
	}
	for _, o := range []*bmv2json.TypedValue{e.Left, e.Right, e.Cond} {
		if o != nil && !c.konst[o] {
			return false
		}
	}
	return true
}

// fold evaluates v, an expression over literals only, into a constant of
// the same kind, width and signedness. A value it cannot evaluate without
// a packet (a wide one, or one whose closure touches the PHV after all)
// is returned as it is.
func fold(v val) (folded val) {
	if v.wide || (v.kind != kData && v.kind != kBool) {
		return v
	}
	defer func() {
		if recover() != nil { // the closure read packet state: keep it
			folded = v
		}
	}()
	var scratch phv
	switch v.kind {
	case kBool:
		b := v.b(&scratch)
		v.b = func(*phv) bool { return b }
		v.isK, v.k = true, big.NewInt(0)
		if b {
			v.k = big.NewInt(1)
		}
		return v
	}
	x := v.u(&scratch)
	v.u = func(*phv) uint64 { return x }
	v.isK, v.lv, v.param = true, nil, 0
	if v.signed {
		v.k = big.NewInt(int64(x))
	} else {
		v.k = new(big.Int).SetUint64(x)
	}
	return v
}
