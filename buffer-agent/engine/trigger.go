// SPDX-License-Identifier: Apache-2.0

package engine

import "strconv"

// maxTriggerModes bounds the vport modes one trigger sets: a batch's worth.
const maxTriggerModes = maxBatchOps

// trigger is what ArmTrigger armed on a buffer: SetVportMode ops that the
// next packet entering the buffer applies as one batch. It is never changed
// once armed, so the packet path hands it to the applying goroutine as is.
type trigger struct {
	ops []Op
}

// ArmTrigger arms a one-shot trigger on one of app's buffers: the next
// packet that enters it sets modes, in order and all or none, as app
// would with a Batch of SetVportMode operations, without a controller
// round trip. The modes are checked now, as SetVportMode checks them, so
// a fire fails only if the vports changed meanwhile (one was removed).
// Arming again replaces what was armed; no modes disarm. It reports
// whether a trigger was armed before. A failed call changes nothing.
func (e *Engine) ArmTrigger(app, bufferID string, modes []SetVportModeOp) (bool, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b, err := e.ownedBuffer(app, bufferID)
	if err != nil {
		return false, err
	}
	if len(modes) > maxTriggerModes {
		return false, errorf(InvalidArgument, "a trigger sets at most %d vport modes, got %d", maxTriggerModes, len(modes))
	}
	var t *trigger
	if len(modes) > 0 {
		if t, err = e.newTriggerLocked(app, modes); err != nil {
			return false, err
		}
	}
	return b.trigger.Swap(t) != nil, nil
}

// newTriggerLocked validates modes against a plan it never commits. The
// ops are copies, so the caller may reuse its slice and rates. The caller
// holds Engine.mu.
func (e *Engine) newTriggerLocked(app string, modes []SetVportModeOp) (*trigger, error) {
	ops := make([]Op, len(modes))
	for i, m := range modes {
		if m.TxRateBps != nil {
			r := *m.TxRateBps
			m.TxRateBps = &r
		}
		ops[i] = Op{SetVportMode: &m}
	}
	if _, err := e.planLocked(app, ops, modeLabel); err != nil {
		return nil, err
	}
	return &trigger{ops: ops}, nil
}

func modeLabel(i int) string { return "set_vport_modes " + strconv.Itoa(i) + ": " }

// fireTrigger is called by receive, under b.mu, for every batch the buffer
// accepts: the whole cost is one atomic load while nothing is armed.
func (b *buffer) fireTrigger() {
	if b.trigger.Load() != nil {
		b.fire()
	}
}

// fire disarms the trigger and applies it. The Swap lets exactly one of
// the batches racing here win. The apply runs on a goroutine of its own: it
// takes Engine.mu and the locks of other buffers, which must be waited for
// neither under b.mu nor on a backend's receive goroutine (a control call
// holding Engine.mu may be closing that very backend and wait for it).
func (b *buffer) fire() {
	if t := b.trigger.Swap(nil); t != nil {
		go b.e.applyTrigger(b, t)
	}
}

// applyTrigger sets the armed modes as the trigger buffer's owner and
// counts the outcome under the same hold of Engine.mu, so a query never
// sees the modes set and the fire not yet counted.
func (e *Engine) applyTrigger(b *buffer, t *trigger) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, err := e.applyLocked(b.owner, t.ops, modeLabel); err != nil {
		// The engine has no logger: the count is what reports it.
		b.triggerFailures.Add(1)
		return
	}
	b.triggersFired.Add(1)
}
