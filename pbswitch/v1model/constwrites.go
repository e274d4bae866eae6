// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// constWrite is an assignment of a constant to a header field at a fixed
// place in phv.hdr: what a header push is mostly made of (version, flags,
// message type... set one by one after add_header).
type constWrite struct {
	bit, width int
	v          uint64 // already cut to width
}

// constHeaderWrite recognises p as a constant written into a fixed header
// field of at most 64 bits.
func (c *compiler) constHeaderWrite(p *bmv2json.Primitive, x *exprCtx) (constWrite, bool) {
	if (p.Op != "assign" && p.Op != "modify_field") || len(p.Parameters) != 2 {
		return constWrite{}, false
	}
	if p.Parameters[0].Type != "field" || p.Parameters[1].Type != "hexstr" {
		return constWrite{}, false
	}
	lv, err := c.lvalueOf(&p.Parameters[0], x)
	if err != nil || lv.slot >= 0 || lv.dyn != nil || lv.vl != nil || lv.bit < 0 || lv.width > 64 {
		return constWrite{}, false
	}
	v, err := c.expr(&p.Parameters[1], x)
	if err != nil || v.kind != kData || !v.isK || v.wide {
		return constWrite{}, false
	}
	return constWrite{bit: lv.bit, width: lv.width, v: v.u(nil) & mask64(lv.width)}, true
}

// constRun merges consecutive constant header writes into one masked store
// over the bytes they touch, applied in their order: later writes win
// where they overlap, as they would one by one.
func constRun(ws []constWrite) func(*phv) {
	lo, mask, val := constRunBytes(ws)
	hi := lo + len(mask)
	return func(s *phv) {
		h := s.hdr[lo:hi]
		for i, m := range mask {
			h[i] = h[i]&^m | val[i]
		}
	}
}

// constRunBytes is a run's masked store: its first byte in phv.hdr, and
// the mask and value of each byte from there.
func constRunBytes(ws []constWrite) (lo int, mask, val []byte) {
	lo, hi := ws[0].bit/8, (ws[0].bit+ws[0].width+7)/8
	for _, w := range ws[1:] {
		lo, hi = min(lo, w.bit/8), max(hi, (w.bit+w.width+7)/8)
	}
	mask, val = make([]byte, hi-lo), make([]byte, hi-lo)
	for _, w := range ws {
		off := w.bit - 8*lo
		writeBits(mask, off, w.width, mask64(w.width))
		writeBits(val, off, w.width, w.v)
	}
	return lo, mask, val
}

// mergeConstWrites replaces each run of two or more consecutive constant
// header writes in a straight action body by one constRun. consts[i] says
// whether body[i] is one (and which).
func mergeConstWrites(body []func(*phv), consts []*constWrite) []func(*phv) {
	return mergeConstRuns(body, consts, func(run []constWrite) func(*phv) { return constRun(run) })
}

// mergeConstRuns replaces each run of two or more consecutive items that
// are constant header writes (consts[i] says whether items[i] is one, and
// which) by merge of the run: the body's closures and the steps' generated
// code are merged alike.
func mergeConstRuns[T any](items []T, consts []*constWrite, merge func([]constWrite) T) []T {
	out := make([]T, 0, len(items)) // not nil: an empty body stays a straight one (action.empty)
	for i := 0; i < len(items); {
		j := i
		for j < len(items) && consts[j] != nil {
			j++
		}
		if j-i < 2 {
			out = append(out, items[i])
			i++
			continue
		}
		run := make([]constWrite, 0, j-i)
		for _, w := range consts[i:j] {
			run = append(run, *w)
		}
		out = append(out, merge(run))
		i = j
	}
	return out
}
