// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"fmt"
	"strconv"
)

const maxBatchOps = 256

// Batch applies ops in order, all or nothing. On failure the error carries
// the code of the first failing operation and its index ("operation 3: ").
func (e *Engine) Batch(app string, ops []Op) ([]OpResult, error) {
	if len(ops) == 0 || len(ops) > maxBatchOps {
		return nil, errorf(InvalidArgument, "a batch needs 1..%d operations, got %d", maxBatchOps, len(ops))
	}
	return e.apply(app, ops, true)
}

// apply is every control change: validate all ops against a plan (a view
// of the state with the earlier ops applied), open the backends the plan
// needs, then commit. Only backend opening can fail after validation, and
// it happens before anything is committed, so a failure changes nothing.
// When indexed, an error names the failing op ("operation 3: ").
func (e *Engine) apply(app string, ops []Op, indexed bool) ([]OpResult, error) {
	if err := checkApp(app); err != nil {
		return nil, err
	}
	label := opLabel
	if !indexed {
		label = nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.applyLocked(app, ops, label)
}

// applyLocked is apply for a caller that holds Engine.mu (a trigger counts
// its outcome under the same lock, see applyTrigger).
func (e *Engine) applyLocked(app string, ops []Op, label func(int) string) ([]OpResult, error) {
	if e.closed {
		return nil, errorf(FailedPrecondition, "the engine is closed")
	}
	p, err := e.planLocked(app, ops, label)
	if err != nil {
		return nil, err
	}
	if err := p.openBackends(); err != nil {
		return nil, err
	}
	if err := p.openState(); err != nil {
		return nil, err
	}
	if len(p.created) > 0 {
		// Listed before they can hold a packet: a kill between the commit
		// and the save below must not leave a journal holding packets that
		// engine.json does not list (the next start would refuse it).
		e.saveLocked(p.created...)
	}
	for _, c := range p.commits {
		c()
	}
	if len(p.commits) > 0 {
		e.saveLocked()
	}
	out := make([]OpResult, len(p.results))
	for i, r := range p.results {
		out[i] = r()
	}
	return out, nil
}

// planLocked validates ops in order against a new plan, committing
// nothing; label, when not nil, names op i in an error. The caller holds
// Engine.mu.
func (e *Engine) planLocked(app string, ops []Op, label func(int) string) (*plan, error) {
	p := newPlan(e, app)
	for i, op := range ops {
		if err := p.add(op); err != nil {
			if label != nil {
				return nil, withPrefix(err, label(i))
			}
			return nil, err
		}
	}
	return p, nil
}

func opLabel(i int) string { return "operation " + strconv.Itoa(i) + ": " }

// plan is an overlay over the engine's maps holding the effect of the ops
// validated so far; commits run only once every op is valid.
type plan struct {
	e       *Engine
	app     string
	usage   *appUsage
	bufs    map[string]*buffer // nil value: removed by an earlier op
	vps     map[string]*vport
	bindOf  map[*vport]*buffer // nil value: unbound by an earlier op
	bound   map[*buffer]int    // change in the number of bound vports
	nBufs   int                // change in the engine's (and app's) buffers
	nVps    int
	opens   []*vport
	created []*buffer // new buffers, for their journals
	commits []func()
	results []func() OpResult
}

func newPlan(e *Engine, app string) *plan {
	return &plan{
		e: e, app: app, usage: e.appLocked(app),
		bufs: map[string]*buffer{}, vps: map[string]*vport{},
		bindOf: map[*vport]*buffer{}, bound: map[*buffer]int{},
	}
}

func (p *plan) add(op Op) error {
	switch {
	case op.CreateBuffer != nil:
		return p.createBuffer(op.CreateBuffer)
	case op.RemoveBuffer != nil:
		return p.removeBuffer(op.RemoveBuffer)
	case op.CreateVport != nil:
		return p.createVport(op.CreateVport)
	case op.RemoveVport != nil:
		return p.removeVport(op.RemoveVport)
	case op.SetVportMode != nil:
		return p.setVportMode(op.SetVportMode)
	case op.Bind != nil:
		return p.bind(op.Bind)
	case op.Unbind != nil:
		return p.unbind(op.Unbind)
	}
	return errorf(InvalidArgument, "empty operation")
}

func (p *plan) buffer(id string) (*buffer, bool) {
	if b, ok := p.bufs[id]; ok {
		return b, b != nil
	}
	b, ok := p.e.buffers[id]
	return b, ok
}

func (p *plan) vport(id string) (*vport, bool) {
	if v, ok := p.vps[id]; ok {
		return v, v != nil
	}
	v, ok := p.e.vports[id]
	return v, ok
}

func (p *plan) ownedBuffer(id string) (*buffer, error) {
	if err := checkID("buffer_id", id); err != nil {
		return nil, err
	}
	b, ok := p.buffer(id)
	if !ok {
		return nil, errorf(NotFound, "buffer %q not found", id)
	}
	if b.owner != p.app {
		return nil, errorf(PermissionDenied, "buffer %q belongs to another application", id)
	}
	return b, nil
}

func (p *plan) ownedVport(id string) (*vport, error) {
	if err := checkID("vport_id", id); err != nil {
		return nil, err
	}
	v, ok := p.vport(id)
	if !ok {
		return nil, errorf(NotFound, "vport %q not found", id)
	}
	if v.owner != p.app {
		return nil, errorf(PermissionDenied, "vport %q belongs to another application", id)
	}
	return v, nil
}

func (p *plan) boundBuffer(v *vport) *buffer {
	if b, ok := p.bindOf[v]; ok {
		return b
	}
	return v.buf.Load()
}

// boundCount is the number of vports bound to b once the plan applies. The
// caller holds Engine.mu, under which b.vports changes.
func (p *plan) boundCount(b *buffer) int { return len(b.vports) + p.bound[b] }

func (p *plan) openBackends() error {
	for i, v := range p.opens {
		f := p.e.backends[v.cfg.Backend.Kind]
		var be Backend
		var err error
		if v.cfg.Tag != 0 {
			be, err = p.e.openTagged(v, f.Open)
		} else {
			be, err = f.Open(v.id, v.cfg.Backend, v)
		}
		if err != nil {
			for _, done := range p.opens[:i] {
				_ = done.backend.Close() // best effort: the vport never existed
			}
			if _, ok := CodeOf(err); ok {
				return withPrefix(err, fmt.Sprintf("vport %q: ", v.id))
			}
			return fmt.Errorf("open backend of vport %q: %w", v.id, err)
		}
		v.backend = be
	}
	return nil
}

// openState makes the journals of new buffers and the receive counters of
// new vports, when the engine has a state directory; like openBackends it
// runs before any commit and undoes itself (and the backends) on failure.
func (p *plan) openState() error {
	s := p.e.state
	if s == nil {
		return nil
	}
	var err error
	var made []*journal
	for _, b := range p.created {
		var j *journal
		if j, err = createJournal(s.ringPath(b.id), b.id, p.e.ringSizeOf(b.cfg)); err != nil {
			break
		}
		b.j = j
		made = append(made, j)
	}
	var counted []*vport
	if err == nil {
		for _, v := range p.opens {
			if v.cfg.Tag != 0 {
				// Its frames come through a shared interface: no
				// receive count of its own to compare after a crash.
				continue
			}
			if err = p.e.openRx(v); err != nil {
				break
			}
			counted = append(counted, v)
		}
	}
	if err == nil {
		return nil
	}
	for _, j := range made {
		_ = j.remove()
	}
	for _, v := range counted {
		v.rx.Swap(nil).remove()
	}
	for _, v := range p.opens {
		_ = v.backend.Close()
	}
	return fmt.Errorf("state dir %s: %w", s.path, err)
}

func (p *plan) commit(f func()) { p.commits = append(p.commits, f) }

func (p *plan) result(f func() OpResult) { p.results = append(p.results, f) }

func bufferResult(b *buffer) func() OpResult {
	return func() OpResult { i := b.info(); return OpResult{Buffer: &i} }
}

func vportResult(v *vport) func() OpResult {
	return func() OpResult { i := v.info(); return OpResult{Vport: &i} }
}
