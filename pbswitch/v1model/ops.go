// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"math/big"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// op compiles one expression node.
func (c *compiler) op(e *bmv2json.Expr, x *exprCtx) (val, error) {
	switch e.Op {
	case "and", "or":
		return c.logic(e, x)
	case "not", "d2b", "b2d":
		return c.conversion(e, x)
	case "valid", "valid_union":
		return c.validity(e, x)
	case "==", "!=", "<", "<=", ">", ">=":
		return c.compare(e, x)
	case "?":
		return c.ternary(e, x)
	case "dereference_header_stack", "access_field", "last_stack_index", "size_stack", "access_union_header":
		return c.stackOp(e, x)
	case "two_comp_mod", "sat_cast", "usat_cast":
		return c.cast(e, x)
	case "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "~":
		return c.arith(e, x)
	}
	return val{}, unsupported("the expression operator "+e.Op, x.si)
}

func (c *compiler) operand(tv *bmv2json.TypedValue, want kind, x *exprCtx) (val, error) {
	v, err := c.expr(tv, x)
	if err != nil {
		return val{}, err
	}
	if v.kind == kVarbit && want != kVarbit {
		return val{}, unsupported("a varbit field in an expression (only ==, != and assignment take one)", x.si)
	}
	if v.kind != want {
		return val{}, invalid(x.si, "operand %s is not of the kind its operator needs", tv.Value)
	}
	return v, nil
}

func (c *compiler) logic(e *bmv2json.Expr, x *exprCtx) (val, error) {
	l, err := c.operand(e.Left, kBool, x)
	if err != nil {
		return val{}, err
	}
	r, err := c.operand(e.Right, kBool, x)
	if err != nil {
		return val{}, err
	}
	lb, rb := l.b, r.b
	if e.Op == "and" {
		return val{kind: kBool, b: func(s *phv) bool { return lb(s) && rb(s) }}, nil
	}
	return val{kind: kBool, b: func(s *phv) bool { return lb(s) || rb(s) }}, nil
}

func (c *compiler) conversion(e *bmv2json.Expr, x *exprCtx) (val, error) {
	switch e.Op {
	case "not":
		r, err := c.operand(e.Right, kBool, x)
		if err != nil {
			return val{}, err
		}
		rb := r.b
		return val{kind: kBool, b: func(s *phv) bool { return !rb(s) }}, nil
	case "d2b":
		if e.Right != nil && e.Right.Type == "field" {
			if h, f, err := e.Right.FieldRef(); err == nil && f == "$valid$" {
				if hi, ok := c.l.header(h); ok {
					return val{kind: kBool, b: func(s *phv) bool { return s.valid[hi] }}, nil
				}
			}
		}
		r, err := c.operand(e.Right, kData, x)
		if err != nil {
			return val{}, err
		}
		if r.wide {
			w := r.w
			return val{kind: kBool, b: func(s *phv) bool { return w(s).Sign() != 0 }}, nil
		}
		u := r.u
		return val{kind: kBool, b: func(s *phv) bool { return u(s) != 0 }}, nil
	}
	r, err := c.operand(e.Right, kBool, x)
	if err != nil {
		return val{}, err
	}
	rb := r.b
	return val{kind: kData, width: 1, u: func(s *phv) uint64 {
		if rb(s) {
			return 1
		}
		return 0
	}}, nil
}

func (c *compiler) validity(e *bmv2json.Expr, x *exprCtx) (val, error) {
	r, err := c.expr(e.Right, x)
	if err != nil {
		return val{}, err
	}
	switch {
	case e.Op == "valid" && r.kind == kHeader:
		hdr := r.hdr
		return val{kind: kBool, b: func(s *phv) bool {
			h := hdr(s)
			return h >= 0 && s.valid[h]
		}}, nil
	case e.Op == "valid_union" && r.kind == kUnion:
		hs := c.l.unions[r.union].headers
		return val{kind: kBool, b: func(s *phv) bool {
			for _, h := range hs {
				if s.valid[h] {
					return true
				}
			}
			return false
		}}, nil
	}
	return val{}, invalid(x.si, "%s of something that is not a header or union", e.Op)
}

func (c *compiler) compare(e *bmv2json.Expr, x *exprCtx) (val, error) {
	l, err := c.expr(e.Left, x)
	if err != nil {
		return val{}, err
	}
	r, err := c.expr(e.Right, x)
	if err != nil {
		return val{}, err
	}
	if l.kind == kBool && r.kind == kBool && (e.Op == "==" || e.Op == "!=") {
		lb, rb, eq := l.b, r.b, e.Op == "=="
		return val{kind: kBool, b: func(s *phv) bool { return (lb(s) == rb(s)) == eq }}, nil
	}
	if l.kind == kVarbit || r.kind == kVarbit {
		return c.varbitCompare(e.Op, l, r, x)
	}
	if l.kind != kData || r.kind != kData {
		return val{}, unsupported("comparing values that are not integers ("+e.Op+")", x.si)
	}
	if l.wide || r.wide {
		lw, rw := bigOf(l), bigOf(r)
		test := cmpTest(e.Op)
		return val{kind: kBool, b: func(s *phv) bool { return test(lw(s).Cmp(rw(s))) }}, nil
	}
	lu, ru := l.u, r.u
	signed := l.signed || r.signed
	switch e.Op {
	case "==":
		return val{kind: kBool, b: func(s *phv) bool { return lu(s) == ru(s) }}, nil
	case "!=":
		return val{kind: kBool, b: func(s *phv) bool { return lu(s) != ru(s) }}, nil
	}
	test := cmpTest(e.Op)
	if signed {
		return val{kind: kBool, b: func(s *phv) bool { return test(cmpInt(int64(lu(s)), int64(ru(s)))) }}, nil
	}
	return val{kind: kBool, b: func(s *phv) bool { return test(cmpUint(lu(s), ru(s))) }}, nil
}

func cmpTest(op string) func(int) bool {
	switch op {
	case "==":
		return func(c int) bool { return c == 0 }
	case "!=":
		return func(c int) bool { return c != 0 }
	case "<":
		return func(c int) bool { return c < 0 }
	case "<=":
		return func(c int) bool { return c <= 0 }
	case ">":
		return func(c int) bool { return c > 0 }
	}
	return func(c int) bool { return c >= 0 }
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (c *compiler) ternary(e *bmv2json.Expr, x *exprCtx) (val, error) {
	cond, err := c.operand(e.Cond, kBool, x)
	if err != nil {
		return val{}, err
	}
	l, err := c.expr(e.Left, x)
	if err != nil {
		return val{}, err
	}
	r, err := c.expr(e.Right, x)
	if err != nil {
		return val{}, err
	}
	cb := cond.b
	switch {
	case l.kind == kBool && r.kind == kBool:
		lb, rb := l.b, r.b
		return val{kind: kBool, b: func(s *phv) bool {
			if cb(s) {
				return lb(s)
			}
			return rb(s)
		}}, nil
	case l.kind == kHeader && r.kind == kHeader:
		lh, rh := l.hdr, r.hdr
		return val{kind: kHeader, htype: l.htype, hdr: func(s *phv) int {
			if cb(s) {
				return lh(s)
			}
			return rh(s)
		}}, nil
	case l.kind != kData || r.kind != kData:
		return val{}, unsupported("a ?: over values that are not integers", x.si)
	}
	out := val{kind: kData, signed: l.signed || r.signed, width: max(l.width, r.width)}
	if l.wide || r.wide {
		lw, rw := bigOf(l), bigOf(r)
		out.wide = true
		out.w = func(s *phv) *big.Int {
			if cb(s) {
				return lw(s)
			}
			return rw(s)
		}
		return out, nil
	}
	lu, ru := l.u, r.u
	out.u = func(s *phv) uint64 {
		if cb(s) {
			return lu(s)
		}
		return ru(s)
	}
	return out, nil
}

func (c *compiler) cast(e *bmv2json.Expr, x *exprCtx) (val, error) {
	v, err := c.operand(e.Left, kData, x)
	if err != nil {
		return val{}, err
	}
	wv, err := c.operand(e.Right, kData, x)
	if err != nil {
		return val{}, err
	}
	if !wv.isK || !wv.k.IsInt64() || wv.k.Int64() <= 0 {
		return val{}, unsupported(e.Op+" with a width that is not a positive constant", x.si)
	}
	w := int(wv.k.Int64())
	if v.wide || w > 64 {
		return c.bigCast(e.Op, v, w), nil
	}
	u, m := v.u, mask64(w)
	switch e.Op {
	case "two_comp_mod":
		return val{kind: kData, signed: true, width: w, u: func(s *phv) uint64 { return signExtend(u(s)&m, w) }}, nil
	case "usat_cast":
		signed := v.signed
		return val{kind: kData, width: w, u: func(s *phv) uint64 {
			x := u(s)
			if signed && int64(x) < 0 {
				return 0
			}
			return min(x, m)
		}}, nil
	}
	// sat_cast: clamp to [-2^(w-1), 2^(w-1)-1]
	hi, lo := int64(m>>1), -int64(m>>1)-1
	if w == 64 {
		hi, lo = 1<<63-1, -1<<63
	}
	signed := v.signed
	return val{kind: kData, signed: true, width: w, u: func(s *phv) uint64 {
		x := u(s)
		if !signed && x > uint64(hi) {
			return uint64(hi)
		}
		return uint64(max(lo, min(hi, int64(x))))
	}}, nil
}

func (c *compiler) bigCast(op string, v val, w int) val {
	src := bigOf(v)
	mod := new(big.Int).Lsh(big.NewInt(1), uint(w))
	half := new(big.Int).Rsh(mod, 1)
	out := val{kind: kData, wide: true, signed: op != "usat_cast", width: w}
	out.w = func(s *phv) *big.Int {
		x := src(s)
		switch op {
		case "two_comp_mod":
			r := new(big.Int).Mod(x, mod)
			if r.Cmp(half) >= 0 {
				r.Sub(r, mod)
			}
			return r
		case "usat_cast":
			if x.Sign() < 0 {
				return new(big.Int)
			}
			if m := new(big.Int).Sub(mod, big.NewInt(1)); x.Cmp(m) > 0 {
				return m
			}
			return x
		}
		if hi := new(big.Int).Sub(half, big.NewInt(1)); x.Cmp(hi) > 0 {
			return hi
		}
		if lo := new(big.Int).Neg(half); x.Cmp(lo) < 0 {
			return lo
		}
		return x
	}
	return out
}

func (c *compiler) arith(e *bmv2json.Expr, x *exprCtx) (val, error) {
	r, err := c.operand(e.Right, kData, x)
	if err != nil {
		return val{}, err
	}
	if e.Left == nil {
		return unaryArith(e.Op, r, x)
	}
	l, err := c.operand(e.Left, kData, x)
	if err != nil {
		return val{}, err
	}
	if l.wide || r.wide {
		return bigArith(e.Op, l, r), nil
	}
	lu, ru := l.u, r.u
	out := val{kind: kData, width: max(l.width, r.width)}
	switch e.Op {
	case "+":
		out.signed = l.signed || r.signed
		out.u = func(s *phv) uint64 { return lu(s) + ru(s) }
	case "-":
		out.signed = true
		out.u = func(s *phv) uint64 { return lu(s) - ru(s) }
	case "*":
		out.signed = l.signed || r.signed
		out.u = func(s *phv) uint64 { return lu(s) * ru(s) }
	case "/", "%":
		div := e.Op == "/"
		out.u = func(s *phv) uint64 {
			d := ru(s)
			if d == 0 {
				return 0
			}
			if div {
				return lu(s) / d
			}
			return lu(s) % d
		}
	case "<<":
		out.signed = l.signed
		out.u = func(s *phv) uint64 {
			n := ru(s)
			if n >= 64 {
				return 0
			}
			return lu(s) << n
		}
	case ">>":
		out.signed = l.signed
		if l.signed {
			out.u = func(s *phv) uint64 { return uint64(int64(lu(s)) >> min(ru(s), 63)) }
		} else {
			out.u = func(s *phv) uint64 {
				n := ru(s)
				if n >= 64 {
					return 0
				}
				return lu(s) >> n
			}
		}
	case "&":
		out.signed = l.signed && r.signed
		out.u = func(s *phv) uint64 { return lu(s) & ru(s) }
	case "|":
		out.signed = l.signed || r.signed
		out.u = func(s *phv) uint64 { return lu(s) | ru(s) }
	case "^":
		out.signed = l.signed || r.signed
		out.u = func(s *phv) uint64 { return lu(s) ^ ru(s) }
	default:
		return val{}, invalid(x.si, "binary %s", e.Op)
	}
	return out, nil
}

func unaryArith(op string, r val, x *exprCtx) (val, error) {
	out := val{kind: kData, signed: true, width: r.width}
	switch op {
	case "~":
		if r.wide {
			rw := r.w
			out.wide, out.w = true, func(s *phv) *big.Int { return new(big.Int).Not(rw(s)) }
			return out, nil
		}
		ru := r.u
		out.u = func(s *phv) uint64 { return ^ru(s) }
		return out, nil
	case "-":
		if r.wide {
			rw := r.w
			out.wide, out.w = true, func(s *phv) *big.Int { return new(big.Int).Neg(rw(s)) }
			return out, nil
		}
		ru := r.u
		out.u = func(s *phv) uint64 { return -ru(s) }
		return out, nil
	}
	return val{}, invalid(x.si, "unary %s", op)
}

func bigArith(op string, l, r val) val {
	lw, rw := bigOf(l), bigOf(r)
	out := val{kind: kData, wide: true, signed: l.signed || r.signed || op == "-", width: max(l.width, r.width)}
	out.w = func(s *phv) *big.Int {
		a, b := lw(s), rw(s)
		z := new(big.Int)
		switch op {
		case "+":
			return z.Add(a, b)
		case "-":
			return z.Sub(a, b)
		case "*":
			return z.Mul(a, b)
		case "/":
			if b.Sign() == 0 {
				return z
			}
			return z.Quo(a, b)
		case "%":
			if b.Sign() == 0 {
				return z
			}
			return z.Rem(a, b)
		case "<<":
			return z.Lsh(a, uint(b.Uint64()))
		case ">>":
			return z.Rsh(a, uint(b.Uint64()))
		case "&":
			return z.And(a, b)
		case "|":
			return z.Or(a, b)
		}
		return z.Xor(a, b)
	}
	return out
}

func (c *compiler) stackOp(e *bmv2json.Expr, x *exprCtx) (val, error) {
	switch e.Op {
	case "last_stack_index", "size_stack":
		st, err := c.operand(e.Right, kStack, x)
		if err != nil {
			return val{}, err
		}
		idx, last := st.stack, e.Op == "last_stack_index"
		return val{kind: kData, width: 32, u: func(s *phv) uint64 {
			n := uint64(s.stackNext[idx])
			if last {
				return n - 1
			}
			return n
		}}, nil
	case "dereference_header_stack":
		st, err := c.operand(e.Left, kStack, x)
		if err != nil {
			return val{}, err
		}
		i, err := c.operand(e.Right, kData, x)
		if err != nil || i.wide {
			return val{}, invalid(x.si, "header stack index")
		}
		hs, iu := c.l.stacks[st.stack].headers, i.u
		return val{kind: kHeader, htype: c.l.headers[hs[0]].typ, hdr: func(s *phv) int {
			k := iu(s)
			if k >= uint64(len(hs)) {
				return -1
			}
			return hs[k]
		}}, nil
	case "access_union_header":
		u, err := c.operand(e.Left, kUnion, x)
		if err != nil {
			return val{}, err
		}
		off := e.RightInt
		if off < 0 || off >= len(c.l.unions[u.union].headers) {
			return val{}, invalid(x.si, "union member offset %d", off)
		}
		h := c.l.unions[u.union].headers[off]
		return val{kind: kHeader, htype: c.l.headers[h].typ, hdr: func(*phv) int { return h }}, nil
	}
	// access_field: right is a bare JSON integer, the field's offset.
	hv, err := c.operand(e.Left, kHeader, x)
	if err != nil {
		return val{}, err
	}
	fi, typ := e.RightInt, hv.htype
	if fi < 0 || fi >= len(c.l.types[typ].fields) {
		return val{}, invalid(x.si, "access_field offset %d", fi)
	}
	if fi == c.l.types[typ].vl {
		return val{}, unsupported("the varbit field of a header stack element chosen at run time", x.si)
	}
	return fieldVal(c.dynField(hv.hdr, typ, fi)), nil
}
