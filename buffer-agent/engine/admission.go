// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// Pool admission: which buffer may take more of the shared pool.
//
// Every held packet lives in one pool of B = Limits.PoolBytes bytes. The
// buffers are the queues of FB (Apostolaki et al., "FB: A Flexible Buffer
// Management Scheme for Data Center Switches", ../shared/papers/fb.txt):
// a buffer takes a packet while the bytes it holds are below its threshold
//
//	quota (default, the behaviour before admission existed): no threshold,
//	      only the pool, the buffer's capacity and its owner's quota
//	dt    (Eq. 1): alpha_c · (B − B_oc)
//	fb    (Eq. 3): alpha_c · 1/N_p · gamma · (B − B_oc)
//
// where B_oc is the pool's use, alpha_c the alpha of the buffer owner's
// class (AdmissionConfig.Owners, else Default), N_p the buffers of the
// same buffer priority that hold packets and can take more (an RX vport
// bound), this one counted, and gamma the buffer's normalised drain rate.
// The pool, the buffer's capacity and the owner's quota still apply under
// every algorithm. A drop-head buffer at its threshold pushes out its
// oldest packets to take the new one, as it does at its capacity.
//
// Gamma and priority of a buffer that does not drain. In the paper gamma
// is a queue's share of its port's dequeue rate. A FlowBuf buffer is alone
// on its TX vport, so a buffer that drains (a TX vport bound) has gamma 1.
// A paused buffer (BUFFERING: RX, no TX; STORING: neither) has no dequeue
// at all, and the literal gamma 0 would forbid holding anything, which is
// the one thing a pause is for. FlowBuf's pauses are mostly short (a
// handover, a migration: milliseconds), and a short pause is about to
// drain: a paused buffer whose oldest held packet is younger than
// LongPause has gamma 1 and the high buffer priority, like a draining
// one. A paused buffer whose oldest packet has waited LongPause or more
// has drained nothing for that long: its gamma falls to its class's
// PausedGamma (a floor, as FBA's 1/64 in the controller) and it moves to
// the low priority. So long pauses share, together, at most
// alpha · PausedGamma · (B − B_oc) (1/N_p splits it among them), while a
// new pause's burst meets the high priority's threshold, which the long
// pauses do not divide: one long Storing buffer cannot starve it. A class
// with Low set stays in the low priority whatever its age (bulk owners).
//
// A STORING buffer (no RX) takes no packets, so it is not counted in N_p:
// its bytes weigh only through B_oc. A buffer's priority and its place in
// N_p are settled at each of its batches (in and out) and control
// changes, so a paused buffer that stops receiving keeps the priority of
// its last batch until its RX is unbound (or it receives again).
//
// Thresholds are float64, computed per batch (one pass decides a batch
// that fits whole, the per-packet path decides each packet) from one
// atomic load of the pool's use and of N_p: lock-free, without
// allocation. Batches of other buffers that run concurrently are seen as
// of those loads.

// Algorithm is how the pool admits a packet into a buffer.
type Algorithm int

// Admission algorithms.
const (
	// AdmitQuota: no threshold, only the pool's hard limit, the buffer's
	// capacity and the owner's quota (complete sharing within them).
	AdmitQuota Algorithm = iota + 1
	// AdmitDT: Dynamic Thresholds, alpha_c · (B − B_oc).
	AdmitDT
	// AdmitFB: FB, alpha_c · 1/N_p · gamma · (B − B_oc).
	AdmitFB
)

var algorithmNames = [...]string{"", "quota", "dt", "fb"}

func (a Algorithm) String() string {
	if a >= AdmitQuota && a <= AdmitFB {
		return algorithmNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// ParseAlgorithm reads "quota", "dt" or "fb".
func ParseAlgorithm(s string) (Algorithm, error) {
	for a := AdmitQuota; a <= AdmitFB; a++ {
		if algorithmNames[a] == s {
			return a, nil
		}
	}
	return 0, fmt.Errorf("unknown pool admission algorithm %q: want quota (static quotas), dt (dynamic thresholds) or fb", s)
}

// Defaults of AdmissionConfig's zero fields.
const (
	DefaultLongPause   = 100 * time.Millisecond
	DefaultPausedGamma = 0.25
)

// ClassConfig is the admission class of an owner's buffers.
type ClassConfig struct {
	// Alpha scales the threshold (dt and fb); it must be > 0.
	Alpha float64
	// Low keeps the class's buffers in FB's low buffer priority; otherwise
	// they are high until a pause is long (see the package's admission
	// notes).
	Low bool
	// PausedGamma is FB's gamma of a long pause, in (0, 1]; 0 means
	// DefaultPausedGamma.
	PausedGamma float64
}

// AdmissionConfig is the pool's admission: the algorithm and the class of
// each owner's buffers.
type AdmissionConfig struct {
	Algorithm Algorithm // 0 means AdmitQuota
	// LongPause is the age of its oldest packet from which a paused buffer
	// counts as a long pause (fb); 0 means DefaultLongPause.
	LongPause time.Duration
	// Default is the class of owners without an entry in Owners; a zero
	// Alpha means 1.
	Default ClassConfig
	Owners  map[string]ClassConfig
}

// DefaultAdmission is the admission of an engine whose options set none:
// static quotas, as before admission existed.
func DefaultAdmission() AdmissionConfig {
	return AdmissionConfig{Algorithm: AdmitQuota, Default: ClassConfig{Alpha: 1}}
}

// ErrNoPool refuses an admission for a pool of 0 bytes.
var ErrNoPool = errors.New("the pool has 0 bytes (B = 0): set a pool size above 0")

// Validate checks c for a pool of poolBytes bytes. Every error names the
// setting at fault.
func (c AdmissionConfig) Validate(poolBytes uint64) error {
	if c.Algorithm != 0 && (c.Algorithm < AdmitQuota || c.Algorithm > AdmitFB) {
		return fmt.Errorf("unknown pool admission algorithm %v: want quota, dt or fb", c.Algorithm)
	}
	if poolBytes == 0 {
		return fmt.Errorf("pool admission %v: %w", c.algorithm(), ErrNoPool)
	}
	if c.LongPause < 0 {
		return fmt.Errorf("long_pause %v: must be >= 0 (0: %v)", c.LongPause, DefaultLongPause)
	}
	check := func(name string, cl ClassConfig, zeroAlphaOK bool) error {
		if !(cl.Alpha > 0 || zeroAlphaOK && cl.Alpha == 0) || math.IsInf(cl.Alpha, 0) {
			return fmt.Errorf("%s: alpha %v must be a finite number > 0", name, cl.Alpha)
		}
		if !(cl.PausedGamma >= 0 && cl.PausedGamma <= 1) {
			return fmt.Errorf("%s: paused_gamma %v must be in (0, 1] (0: %v)", name, cl.PausedGamma, DefaultPausedGamma)
		}
		return nil
	}
	if err := check("default class", c.Default, true); err != nil {
		return err
	}
	owners := make([]string, 0, len(c.Owners))
	for o := range c.Owners {
		owners = append(owners, o)
	}
	sort.Strings(owners)
	for _, o := range owners {
		if strings.TrimSpace(o) == "" {
			return errors.New("class of owner \"\": the owner (application id) is empty")
		}
		if err := check(fmt.Sprintf("class of owner %q", o), c.Owners[o], false); err != nil {
			return err
		}
	}
	return nil
}

func (c AdmissionConfig) algorithm() Algorithm {
	if c.Algorithm == 0 {
		return AdmitQuota
	}
	return c.Algorithm
}

// classParams is a class with its defaults filled in.
type classParams struct {
	alpha, pausedGamma float64
	low                bool
}

func paramsOf(c ClassConfig) *classParams {
	p := &classParams{alpha: c.Alpha, pausedGamma: c.PausedGamma, low: c.Low}
	if p.alpha == 0 {
		p.alpha = 1
	}
	if p.pausedGamma == 0 {
		p.pausedGamma = DefaultPausedGamma
	}
	return p
}

// admission is a validated AdmissionConfig in the form the packet path
// reads; it is replaced whole (Engine.adm), never changed.
type admission struct {
	cfg       AdmissionConfig
	alg       Algorithm
	longPause int64 // ns
	def       *classParams
	owners    map[string]*classParams
}

func newAdmission(c AdmissionConfig) *admission {
	a := &admission{cfg: c, alg: c.algorithm(), longPause: int64(c.LongPause), def: paramsOf(c.Default), owners: map[string]*classParams{}}
	if a.longPause == 0 {
		a.longPause = int64(DefaultLongPause)
	}
	a.cfg.Algorithm = a.alg
	for o, cl := range c.Owners {
		a.owners[o] = paramsOf(cl)
	}
	return a
}

func (a *admission) classOf(owner string) *classParams {
	if p, ok := a.owners[owner]; ok {
		return p
	}
	return a.def
}

// class returns the pool's admission and the buffer's class in it, looked
// up once per admission change; the caller holds b.mu.
func (b *buffer) class() (*admission, *classParams) {
	a := b.e.adm.Load()
	if b.admSeen != a {
		b.admSeen, b.admClass = a, a.classOf(b.owner)
	}
	return a, b.admClass
}

// Buffer priorities of FB (index of Engine.congested).
const (
	prioLow  = 0
	prioHigh = 1
)

// threshold is a buffer's threshold in bytes: the occupancy below which it
// takes a packet. remaining is B − B_oc (bytes), alpha the buffer's
// class's, congested (N_p, fb only) the buffers of its priority holding
// packets, itself counted, gamma (fb only) its normalised drain rate.
// FB's product is computed in floating point as Eq. 3 writes it, the
// division last so that a product that is a whole multiple of N_p comes
// out exact. Under quota there is no threshold (+Inf).
func threshold(alg Algorithm, alpha float64, congested int64, gamma, remaining float64) float64 {
	switch alg {
	case AdmitDT:
		return alpha * remaining
	case AdmitFB:
		return alpha * gamma * remaining / float64(congested)
	default:
		return math.Inf(1)
	}
}

// admitParams is what admission weighs for one batch of one buffer,
// decided once at the batch's arrival.
type admitParams struct {
	alg          Algorithm
	alpha, gamma float64
	congested    int64
	cause        PoolDropReason // what a threshold refusal counts as
}

// pauseClass is a buffer's FB priority and gamma at time now (see the
// admission notes): the caller holds b.mu.
func (b *buffer) pauseClass(a *admission, cl *classParams, now int64) (prio int8, gamma float64) {
	prio, gamma = prioHigh, 1
	if b.txVport() == nil {
		if at, ok := b.oldestAt(); ok && now-at >= a.longPause {
			prio, gamma = prioLow, cl.pausedGamma
		}
	}
	if cl.low {
		prio = prioLow
	}
	return prio, gamma
}

// admitParams returns the admission of a batch arriving at now; the caller
// holds b.mu.
func (b *buffer) admitParams(now int64) admitParams {
	a, cl := b.class()
	if a.alg == AdmitQuota {
		return admitParams{alg: AdmitQuota}
	}
	p := admitParams{alg: a.alg, alpha: cl.alpha, gamma: 1, congested: 1, cause: PoolDTThreshold}
	if a.alg == AdmitFB {
		prio, gamma := b.pauseClass(a, cl, now)
		p.gamma, p.cause = gamma, PoolFBThreshold
		p.congested = b.e.congested[prio].Load()
		if b.cong != prio {
			p.congested++ // this buffer, not counted yet in prio
		}
	}
	return p
}

// below reports whether a buffer holding held bytes takes a packet when
// the pool has pending bytes more in use than it shows now (earlier
// packets of the same batch).
func (b *buffer) below(p *admitParams, held, pending uint64) bool {
	if p.alg == AdmitQuota {
		return true
	}
	used := b.e.pool.used.Load() + pending
	remaining := 0.0
	if used < b.e.pool.limit {
		remaining = float64(b.e.pool.limit - used)
	}
	return float64(held) < threshold(p.alg, p.alpha, p.congested, p.gamma, remaining)
}

// settle puts the buffer in N_p of its priority when it holds packets and
// has an RX vport, and out of N_p otherwise. The caller holds b.mu; now
// is read from the clock when 0 and needed.
func (b *buffer) settle(now int64) {
	want := int8(-1)
	if !b.closed && (b.q.n > 0 || b.arq != nil && b.arq.n > 0 || b.baas != nil && b.baas.n > 0) {
		if rx, _ := b.flags(); rx {
			a, cl := b.class()
			if now == 0 && b.txVport() == nil {
				now = b.e.clock.Now().UnixNano()
			}
			want, _ = b.pauseClass(a, cl, now)
		}
	}
	if want == b.cong {
		return
	}
	if b.cong >= 0 {
		b.e.congested[b.cong].Add(-1)
	}
	if want >= 0 {
		b.e.congested[want].Add(1)
	}
	b.cong = want
}

// SetAdmission replaces the pool's admission at run time; a bad config
// changes nothing. Packets already held stay; from the next batch on,
// buffers are admitted by c.
func (e *Engine) SetAdmission(c AdmissionConfig) error {
	if err := c.Validate(e.limits.PoolBytes); err != nil {
		return errorf(InvalidArgument, "%v", err)
	}
	e.adm.Store(newAdmission(c))
	return nil
}

// Admission returns the pool's admission with its defaults filled in.
func (e *Engine) Admission() AdmissionConfig {
	a := e.adm.Load()
	c := a.cfg
	c.Owners = make(map[string]ClassConfig, len(a.cfg.Owners))
	for o, cl := range a.cfg.Owners {
		c.Owners[o] = cl
	}
	return c
}

// PoolCongested is FB's N_p now: the buffers holding packets with an RX
// vport, in the low and the high buffer priority.
func (e *Engine) PoolCongested() (low, high int64) {
	return e.congested[prioLow].Load(), e.congested[prioHigh].Load()
}

// PoolDropReason says which limit refused a packet dropped with cause
// DropPool (the API's POOL cause covers them all).
type PoolDropReason int

// Pool drop reasons.
const (
	// PoolFull: the pool's hard limit.
	PoolFull PoolDropReason = iota
	// PoolQuota: the owner's quota (max_bytes).
	PoolQuota
	// PoolDTThreshold: the buffer was at its DT threshold.
	PoolDTThreshold
	// PoolFBThreshold: the buffer was at its FB threshold.
	PoolFBThreshold
	// PoolJournal: the buffer's crash journal was full (state dir).
	PoolJournal
	numPoolDropReasons
)

var poolDropNames = [...]string{"pool_full", "quota", "dt_threshold", "fb_threshold", "journal"}

func (r PoolDropReason) String() string {
	if r >= 0 && r < numPoolDropReasons {
		return poolDropNames[r]
	}
	return fmt.Sprintf("PoolDropReason(%d)", int(r))
}

// PoolDropCounter counts the pool drops of one reason.
type PoolDropCounter struct {
	Reason  PoolDropReason
	Packets uint64
	Bytes   uint64
}
