// SPDX-License-Identifier: Apache-2.0

package engine

import "strconv"

// maxTriggerModes bounds the vport modes one trigger sets: a batch's worth.
const maxTriggerModes = maxBatchOps

// trigger is what ArmTrigger armed on a buffer: SetVportMode ops that the
// next packet entering the buffer applies as one batch, after purging
// purgeTo (when not "") up to the packet that packet reports. It is never
// changed once armed, so the packet path hands it on as is.
type trigger struct {
	ops     []Op
	purgeTo string
}

// firing is a trigger that fired and is not applied yet (t nil: none),
// with the receive report its packet carried (read at once: the frame is
// not kept). A buffer keeps it by value: a fire allocates nothing.
type firing struct {
	t         *trigger
	report    PacketID
	hasReport bool
}

// ArmTrigger arms a one-shot trigger on one of app's buffers: the next
// packet that enters it sets modes, in order and all or none, as app
// would with a Batch of SetVportMode operations, without a controller
// round trip. With purgeToReport (one of app's buffers, not the trigger)
// it first purges that buffer up to, and including, the packet the
// trigger packet reports (see ReceiveReport). The modes and the buffer are
// checked now, as SetVportMode and PurgeUpTo check them, so a fire fails
// only if they changed meanwhile (one was removed). Arming again replaces
// what was armed; no modes disarm. A fire not yet applied is applied
// before the call returns, so the result's LastFire is never behind what
// the trigger did. A failed call changes nothing.
func (e *Engine) ArmTrigger(app, bufferID string, modes []SetVportModeOp, purgeToReport string) (ArmResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b, err := e.ownedBuffer(app, bufferID)
	if err != nil {
		return ArmResult{}, err
	}
	t, err := e.newTriggerLocked(app, bufferID, modes, purgeToReport)
	if err != nil {
		return ArmResult{}, err
	}
	b.mu.Lock()
	was := b.trigger.Swap(t) != nil
	pending := b.takePendingLocked()
	b.mu.Unlock()
	if pending.t != nil {
		e.applyFireLocked(b, pending)
	}
	res := ArmResult{WasArmed: was}
	if b.hasFired {
		last := b.lastFire
		res.LastFire = &last
	}
	return res, nil
}

// newTriggerLocked validates an arm against a plan it never commits; no
// modes (a disarm) give nil. The ops are copies, so the caller may reuse
// its slice and rates. The caller holds Engine.mu.
func (e *Engine) newTriggerLocked(app, bufferID string, modes []SetVportModeOp, purgeTo string) (*trigger, error) {
	if len(modes) > maxTriggerModes {
		return nil, errorf(InvalidArgument, "a trigger sets at most %d vport modes, got %d", maxTriggerModes, len(modes))
	}
	if purgeTo != "" {
		if len(modes) == 0 {
			return nil, errorf(InvalidArgument, "purge_to_report: a trigger that purges must set vport modes too")
		}
		if purgeTo == bufferID {
			return nil, errorf(InvalidArgument, "purge_to_report: buffer %q cannot purge itself on its own trigger", purgeTo)
		}
		if _, err := e.ownedBuffer(app, purgeTo); err != nil {
			return nil, withPrefix(err, "purge_to_report: ")
		}
	}
	if len(modes) == 0 {
		return nil, nil
	}
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
	return &trigger{ops: ops, purgeTo: purgeTo}, nil
}

func modeLabel(i int) string { return "set_vport_modes " + strconv.Itoa(i) + ": " }

// fireTrigger is called by receive, under b.mu, for every batch the buffer
// accepts: the whole cost is one atomic load while nothing is armed.
func (b *buffer) fireTrigger(frames [][]byte) {
	if len(frames) > 0 && b.trigger.Load() != nil {
		b.fire(frames[0])
	}
}

// fire disarms the trigger and hands it, with the report of the packet
// that fired it, to a goroutine that applies it. The caller holds b.mu.
// The apply takes Engine.mu and the locks of other buffers, which must be
// waited for neither under b.mu nor on a backend's receive goroutine (a
// control call holding Engine.mu may be closing that very backend and wait
// for it).
func (b *buffer) fire(first []byte) {
	t := b.trigger.Swap(nil)
	if t == nil {
		return
	}
	b.pending = firing{t: t}
	if t.purgeTo != "" {
		b.pending.report, b.pending.hasReport = parseReport(first)
	}
	go b.e.applyPending(b)
}

// takePendingLocked hands over the fire not yet applied, if any (t nil:
// none; at most one, as a fire disarms). The caller holds b.mu.
func (b *buffer) takePendingLocked() firing {
	f := b.pending
	b.pending = firing{}
	return f
}

// applyPending applies b's pending fire unless ArmTrigger did already.
func (e *Engine) applyPending(b *buffer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b.mu.Lock()
	f := b.takePendingLocked()
	b.mu.Unlock()
	if f.t != nil {
		e.applyFireLocked(b, f)
	}
}

// applyFireLocked purges to the report, when armed to, then sets the armed
// modes as the trigger buffer's owner, and records the outcome under the
// same hold of Engine.mu, so a query never sees the modes set and the fire
// not yet counted. The caller holds Engine.mu.
func (e *Engine) applyFireLocked(b *buffer, f firing) {
	fire := TriggerFire{}
	ok := true
	if f.t.purgeTo != "" {
		target, err := e.ownedBuffer(b.owner, f.t.purgeTo)
		if ok = err == nil; ok {
			fire.Report, fire.PurgedPackets = target.purgeToReport(f.report, f.hasReport)
		} else {
			fire.Report = ReportUnsynced
		}
	}
	if ok {
		_, err := e.applyLocked(b.owner, f.t.ops, modeLabel)
		ok = err == nil
	}
	// The engine has no logger: the counts and the last fire report it.
	if fire.ModesSet = ok; ok {
		b.triggersFired.Add(1)
	} else {
		b.triggerFailures.Add(1)
	}
	b.lastFire, b.hasFired = fire, true
}

// purgeToReport drops what the buffer holds up to, and including, the
// reported packet. A report of the newest packet the buffer sent is synced
// with nothing to purge: the buffer holds only what came after it.
func (b *buffer) purgeToReport(id PacketID, reported bool) (ReportSync, uint64) {
	if !reported {
		return ReportUnsynced, 0
	}
	if r := b.purgeUpTo(id, true); r.Found {
		return ReportSynced, r.PurgedPackets
	}
	b.mu.Lock()
	sentLast := b.st.hasLastOut && b.st.lastOut == id
	b.mu.Unlock()
	if sentLast {
		return ReportSynced, 0
	}
	return ReportUnsynced, 0
}
