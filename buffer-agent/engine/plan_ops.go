// SPDX-License-Identifier: Apache-2.0

package engine

func (p *plan) createBuffer(op *CreateBufferOp) error {
	if err := checkID("buffer_id", op.ID); err != nil {
		return err
	}
	cfg, err := normalizeBufferConfig(op.Config, p.e.limits)
	if err != nil {
		return err
	}
	if b, ok := p.buffer(op.ID); ok {
		if b.owner == p.app && b.cfg == cfg {
			p.result(bufferResult(b)) // idempotent retry
			return nil
		}
		return errorf(AlreadyExists, "buffer %q exists with another configuration or owner", op.ID)
	}
	if err := p.checkBufferRoom(cfg); err != nil {
		return err
	}
	b := newBuffer(p.e, p.app, op.ID, cfg)
	b.app = p.usage
	p.bufs[op.ID] = b
	p.nBufs++
	p.created = append(p.created, b)
	p.commit(func() {
		p.e.buffers[b.id] = b
		p.usage.buffers++
		b.start()
		p.e.watchNewBuffer(b)
	})
	p.result(bufferResult(b))
	return nil
}

func (p *plan) checkBufferRoom(cfg BufferConfig) error {
	q := p.usage.quota
	if q.MaxBytes > 0 && cfg.CapacityBytes > q.MaxBytes {
		return errorf(ResourceExhausted, "capacity_bytes %d above the application's quota of %d bytes", cfg.CapacityBytes, q.MaxBytes)
	}
	if cfg.CapacityBytes > p.e.limits.PoolBytes {
		return errorf(ResourceExhausted, "capacity_bytes %d above the pool of %d bytes", cfg.CapacityBytes, p.e.limits.PoolBytes)
	}
	if q.MaxBuffers > 0 && int(p.usage.buffers)+p.nBufs+1 > int(q.MaxBuffers) {
		return errorf(ResourceExhausted, "the application's quota of %d buffers is used up", q.MaxBuffers)
	}
	if len(p.e.buffers)+p.nBufs+1 > int(p.e.limits.MaxBuffers) {
		return errorf(ResourceExhausted, "the agent's limit of %d buffers is reached", p.e.limits.MaxBuffers)
	}
	return nil
}

func (p *plan) removeBuffer(op *RemoveBufferOp) error {
	b, err := p.ownedBuffer(op.ID)
	if err != nil {
		return err
	}
	if p.boundCount(b) > 0 {
		return errorf(FailedPrecondition, "buffer %q is bound to a vport; unbind it first", op.ID)
	}
	if !op.Discard && p.e.buffers[op.ID] == b {
		b.mu.Lock()
		n, _ := b.occupancy()
		b.mu.Unlock()
		if n > 0 {
			return errorf(FailedPrecondition, "buffer %q holds %d packets; remove with discard to drop them", op.ID, n)
		}
	}
	p.bufs[op.ID] = nil
	p.nBufs--
	var discarded uint64
	p.commit(func() {
		delete(p.e.buffers, b.id)
		p.usage.buffers--
		discarded = b.close()
	})
	p.result(func() OpResult { return OpResult{Discarded: discarded} })
	return nil
}

func (p *plan) createVport(op *CreateVportOp) error {
	if err := checkID("vport_id", op.ID); err != nil {
		return err
	}
	if err := checkVportConfig(op.Config); err != nil {
		return err
	}
	if v, ok := p.vport(op.ID); ok {
		if v.owner == p.app && v.cfg == op.Config {
			p.result(vportResult(v)) // idempotent retry
			return nil
		}
		return errorf(AlreadyExists, "vport %q exists with another configuration or owner", op.ID)
	}
	if p.e.backends[op.Config.Backend.Kind] == nil {
		return errorf(Unimplemented, "this agent has no backend of kind %d", op.Config.Backend.Kind)
	}
	if err := p.checkVportRoom(op.Config); err != nil {
		return err
	}
	v := newVport(p.e, p.app, op.ID, op.Config)
	v.app = p.usage
	p.vps[op.ID] = v
	p.nVps++
	p.opens = append(p.opens, v)
	p.commit(func() {
		p.e.vports[v.id] = v
		p.usage.vports++
	})
	p.result(vportResult(v))
	return nil
}

func (p *plan) checkVportRoom(cfg VportConfig) error {
	q := p.usage.quota
	if q.MaxVports > 0 && int(p.usage.vports)+p.nVps+1 > int(q.MaxVports) {
		return errorf(ResourceExhausted, "the application's quota of %d vports is used up", q.MaxVports)
	}
	if len(p.e.vports)+p.nVps+1 > int(p.e.limits.MaxVports) {
		return errorf(ResourceExhausted, "the agent's limit of %d vports is reached", p.e.limits.MaxVports)
	}
	if cfg.Tag != 0 {
		if s := p.e.shared[sharedKeyOf(cfg.Backend)]; s != nil {
			// A shared backend carries tagged vports only: no untagged
			// vport can be on it, so its tags are all there is to check.
			return p.checkSharedRoom(s, cfg)
		}
	}
	for id, v := range p.e.vports {
		if _, changed := p.vps[id]; !changed {
			if err := portConflict(id, v.cfg, cfg); err != nil {
				return err
			}
		}
	}
	if cfg.Tag != 0 {
		return p.checkTagLimit(cfg, 0) // the first tagged vport of its port
	}
	return p.checkPlanConflicts(cfg)
}

// checkSharedRoom checks a new tagged vport against the backend it joins
// and the vports the plan made or removed before it.
func (p *plan) checkSharedRoom(s *sharedBackend, cfg VportConfig) error {
	if s.spec != cfg.Backend {
		return errorf(InvalidArgument, "%s is shared by tagged vports with another backend configuration; use theirs", s.key)
	}
	n := len(s.tags)
	for _, v := range s.tags {
		if cur, changed := p.vps[v.id]; changed && cur == nil {
			n--
		} else if v.cfg.Tag == cfg.Tag {
			return errorf(FailedPrecondition, "tag %d of %s is taken by vport %q", cfg.Tag, s.key, v.id)
		}
	}
	return p.checkTagLimit(cfg, n)
}

// checkTagLimit checks a new tagged vport against the plan's vports and
// the per-backend limit, given the n tagged vports its port keeps.
func (p *plan) checkTagLimit(cfg VportConfig, n int) error {
	if err := p.checkPlanConflicts(cfg); err != nil {
		return err
	}
	for _, v := range p.vps {
		if v != nil && sameBackendTarget(v.cfg.Backend, cfg.Backend) {
			n++
		}
	}
	if n+1 > int(p.e.limits.MaxTagsPerBackend) {
		return errorf(ResourceExhausted, "%s carries %d tagged vports, the agent's limit",
			sharedKeyOf(cfg.Backend), n)
	}
	return nil
}

func (p *plan) checkPlanConflicts(cfg VportConfig) error {
	for id, v := range p.vps {
		if v != nil {
			if err := portConflict(id, v.cfg, cfg); err != nil {
				return err
			}
		}
	}
	return nil
}

// portConflict says why vport id (with cur) and a new vport (with cfg)
// cannot both exist, or nil: they may share a backend only when both are
// tagged, with distinct tags and the same backend configuration.
func portConflict(id string, cur, cfg VportConfig) error {
	if !sameBackendTarget(cur.Backend, cfg.Backend) {
		return nil
	}
	switch {
	case cur.Tag == 0 && cfg.Tag == 0:
		return errorf(FailedPrecondition, "vport %q already uses that port", id)
	case cur.Tag == 0:
		return errorf(FailedPrecondition, "vport %q uses that port untagged; a tagged vport cannot share it", id)
	case cfg.Tag == 0:
		return errorf(FailedPrecondition, "tagged vport %q uses that port; an untagged vport needs it alone", id)
	case cur.Backend != cfg.Backend:
		return errorf(InvalidArgument, "tagged vport %q uses that port with another backend configuration; use theirs", id)
	case cur.Tag == cfg.Tag:
		return errorf(FailedPrecondition, "tag %d of that port is taken by vport %q", cfg.Tag, id)
	}
	return nil
}

func (p *plan) removeVport(op *RemoveVportOp) error {
	v, err := p.ownedVport(op.ID)
	if err != nil {
		return err
	}
	if b := p.boundBuffer(v); b != nil {
		return errorf(FailedPrecondition, "vport %q is bound to buffer %q; unbind it first", op.ID, b.id)
	}
	p.vps[op.ID] = nil
	p.nVps--
	p.commit(func() {
		delete(p.e.vports, v.id)
		p.usage.vports--
		// A close error cannot undo the removal; the backend reports it.
		_ = v.backend.Close()
		if c := v.rx.Load(); c != nil {
			c.remove()
		}
	})
	p.result(func() OpResult { return OpResult{} })
	return nil
}

func (p *plan) setVportMode(op *SetVportModeOp) error {
	v, err := p.ownedVport(op.ID)
	if err != nil {
		return err
	}
	if !op.Mode.valid() {
		return errorf(InvalidArgument, "vport mode %d is not NONE, RX, TX or RX_TX", op.Mode)
	}
	var rate *uint64
	if op.TxRateBps != nil {
		r := *op.TxRateBps
		rate = &r
	}
	p.commit(func() {
		v.mode.Store(int32(op.Mode))
		if rate != nil {
			v.rateBps.Store(*rate)
		}
		if b := v.buf.Load(); b != nil {
			b.modeChanged()
		}
	})
	p.result(vportResult(v))
	return nil
}

func (p *plan) bind(op *BindOp) error {
	b, v, err := p.pair(op)
	if err != nil {
		return err
	}
	if cur := p.boundBuffer(v); cur != nil {
		return errorf(FailedPrecondition, "vport %q is already bound to buffer %q", v.id, cur.id)
	}
	p.bindOf[v] = b
	p.bound[b]++
	p.commit(func() {
		v.buf.Store(b)
		b.attach(v)
	})
	p.result(bufferResult(b))
	return nil
}

func (p *plan) unbind(op *BindOp) error {
	b, v, err := p.pair(op)
	if err != nil {
		return err
	}
	if p.boundBuffer(v) != b {
		return errorf(FailedPrecondition, "vport %q is not bound to buffer %q", v.id, b.id)
	}
	p.bindOf[v] = nil
	p.bound[b]--
	p.commit(func() {
		v.buf.Store(nil)
		b.detach(v)
	})
	p.result(bufferResult(b))
	return nil
}

func (p *plan) pair(op *BindOp) (*buffer, *vport, error) {
	b, err := p.ownedBuffer(op.BufferID)
	if err != nil {
		return nil, nil, err
	}
	v, err := p.ownedVport(op.VportID)
	if err != nil {
		return nil, nil, err
	}
	return b, v, nil
}
