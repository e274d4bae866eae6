// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"strconv"
	"time"
)

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

// syncWaitBound bounds how long a fire waits for the packet its report
// names to reach the buffer to purge (see syncWait). The report leaves the
// UE at least a detach after the UE took that packet, and the packet's copy
// to the target left the anchor with the copy the UE took, so on a sound
// path the copy is there long before; 50 ms is the time a loaded 2-core
// machine may leave a switch's receive path unscheduled. A report of a
// packet that never comes (one the target delivered earlier, or a copy
// lost on the way) delays the release by this much, then releases unsynced.
const syncWaitBound = 50 * time.Millisecond

// firing is a trigger that fired and is not applied yet (t nil: none),
// with the receive report its packet carried (read at once: the frame is
// not kept). A buffer keeps it by value: a fire allocates nothing, unless
// it waits for its report's packet (waiting, see syncWait).
type firing struct {
	t      *trigger
	report PacketID
	kind   reportKind
	// waiting is closed once a fire that waits for the reported packet is
	// applied (nil: the fire does not wait).
	waiting chan struct{}
	timer   Timer
}

// syncWait is set on a buffer to purge while a fire waits for the packet
// its report names: the UE reported a packet whose copy has not reached the
// target yet (the report overtook the multicast copy). Everything the
// target holds then came before that packet, so releasing it would give
// the UE what it has: the fire is applied when the packet arrives (the
// purge then finds it), or after syncWaitBound (unsynced).
type syncWait struct {
	id      PacketID
	trig    *buffer       // whose pending fire waits
	waiting chan struct{} // that fire's
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
// the trigger did; one that waits for its report's packet (see syncWait)
// is waited for, at most syncWaitBound. A failed call changes nothing.
func (e *Engine) ArmTrigger(app, bufferID string, modes []SetVportModeOp, purgeToReport string) (ArmResult, error) {
	if err := e.awaitFire(app, bufferID); err != nil {
		return ArmResult{}, err
	}
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
	if t != nil && t.purgeTo != "" {
		target, _ := e.ownedBuffer(app, t.purgeTo) // checked by newTriggerLocked
		target.mu.Lock()
		if target.left == nil {
			target.left = new(idRing)
			target.sent = new(sentLog)
		}
		target.mu.Unlock()
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

// awaitFire applies a fire of the buffer's trigger not yet applied and, if
// it waits for the packet its report names, waits (holding no lock) until
// it is applied. A trigger fires once per arm, so after this only an arm
// made meanwhile by another call can leave a fire to apply.
func (e *Engine) awaitFire(app, bufferID string) error {
	e.mu.Lock()
	b, err := e.ownedBuffer(app, bufferID)
	if err != nil {
		e.mu.Unlock()
		return err
	}
	b.mu.Lock()
	waiting := b.pending.waiting
	var f firing
	if waiting == nil {
		f = b.takePendingLocked()
	}
	b.mu.Unlock()
	if f.t != nil {
		e.applyFireLocked(b, f)
		b.mu.Lock()
		waiting = b.pending.waiting
		b.mu.Unlock()
	}
	e.mu.Unlock()
	if waiting != nil {
		<-waiting
	}
	return nil
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
		b.pending.report, b.pending.kind = parseReport(first)
	}
	go b.e.applyPending(b)
}

// watchSync is called by receive, under b.mu, while a fire waits for a
// packet of b's (see syncWait): when the batch brings it, the fire is
// applied (on a goroutine, as fire's; it takes b.mu after receive has
// queued the batch, so the purge finds the packet).
func (b *buffer) watchSync(frames [][]byte) {
	w := b.waitFor.Load()
	if w == nil {
		return
	}
	for _, f := range frames {
		if id, ok := packetIDOf(f); ok && id == w.id {
			if b.waitFor.CompareAndSwap(w, nil) {
				go b.e.applyWaiting(w.trig, w.waiting)
			}
			return
		}
	}
}

// takePendingLocked hands over the fire not yet applied, if any (t nil:
// none; at most one, as a fire disarms). The caller holds b.mu.
func (b *buffer) takePendingLocked() firing {
	f := b.pending
	b.pending = firing{}
	return f
}

// applyPending applies b's pending fire unless ArmTrigger did already (or
// it waits for its report's packet: see applyWaiting).
func (e *Engine) applyPending(b *buffer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b.mu.Lock()
	var f firing
	if b.pending.waiting == nil {
		f = b.takePendingLocked()
	}
	b.mu.Unlock()
	if f.t != nil {
		e.applyFireLocked(b, f)
	}
}

// applyFireLocked purges to the report, when armed to, then sets the armed
// modes as the trigger buffer's owner, and records the outcome under the
// same hold of Engine.mu, so a query never sees the modes set and the fire
// not yet counted. The caller holds Engine.mu.
// A fire whose report names a packet the buffer to purge has not received
// yet waits for it instead (see syncWait): it stays pending on b, and the
// packet's arrival, syncWaitBound, or an ArmTrigger that finds it applies
// it; then it is applied whatever the purge finds.
func (e *Engine) applyFireLocked(b *buffer, f firing) {
	fire := TriggerFire{}
	ok := true
	if f.t.purgeTo != "" {
		target, err := e.ownedBuffer(b.owner, f.t.purgeTo)
		if ok = err == nil; ok {
			var missing bool
			fire.Report, fire.PurgedPackets, missing = target.purgeToReport(f.report, f.kind)
			if missing && f.waiting == nil {
				e.waitForReportedLocked(b, target, f)
				return
			}
			if f.waiting != nil {
				target.clearSyncWait(f.waiting)
			}
		} else {
			fire.Report = ReportUnsynced
		}
		if f.waiting != nil {
			f.timer.Stop()
			defer close(f.waiting)
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

// waitForReportedLocked keeps f pending on the trigger buffer b until the
// packet it reports reaches target, or syncWaitBound passes. The caller
// holds Engine.mu.
func (e *Engine) waitForReportedLocked(b, target *buffer, f firing) {
	ch := make(chan struct{})
	f.waiting = ch
	f.timer = e.clock.AfterFunc(syncWaitBound, func() { e.applyWaiting(b, ch) })
	b.mu.Lock()
	b.pending = f
	b.mu.Unlock()
	// Set under target.mu with a last look: a packet that arrived since
	// the purge looked is found now, one that arrives later by watchSync.
	w := &syncWait{id: f.report, trig: b, waiting: ch}
	target.mu.Lock()
	target.waitFor.Store(w)
	_, arrived := target.q.findSeq(func(p []byte) bool {
		id, ok := packetIDOf(p)
		return ok && id == f.report
	})
	target.mu.Unlock()
	if arrived && target.waitFor.CompareAndSwap(w, nil) {
		go e.applyWaiting(b, ch)
	}
}

// applyWaiting applies b's pending fire if it is still the one that waits
// on ch (a late timer or arrival must not apply a later fire early).
func (e *Engine) applyWaiting(b *buffer, ch chan struct{}) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b.mu.Lock()
	var f firing
	if b.pending.waiting == ch {
		f = b.takePendingLocked()
	}
	b.mu.Unlock()
	if f.t != nil {
		e.applyFireLocked(b, f)
	}
}

// clearSyncWait removes the wait of the fire that waits on ch, if it is
// still set on b.
func (b *buffer) clearSyncWait(ch chan struct{}) {
	if w := b.waitFor.Load(); w != nil && w.waiting == ch {
		b.waitFor.CompareAndSwap(w, nil)
	}
}

// leftIDs is how many of the newest packets that left a buffer (sent or
// purged) it remembers once it is named as a buffer to purge (see left).
const leftIDs = 256

// idRing remembers the ids of the newest packets that left a buffer, so
// that a report of one of them is known to be behind what the buffer holds
// rather than ahead of it: the UE came back to an eNB it had left having
// taken less from the other one than this eNB had sent before it held.
type idRing struct {
	ids  [leftIDs]PacketID
	next int
	n    int
}

func (r *idRing) add(id PacketID) {
	r.ids[r.next] = id
	r.next = (r.next + 1) % leftIDs
	r.n = min(r.n+1, leftIDs)
}

func (r *idRing) has(id PacketID) bool {
	for i := 0; i < r.n; i++ {
		if r.ids[i] == id {
			return true
		}
	}
	return false
}

// noteLeft records frames that leave the buffer, when it remembers them.
// The caller holds b.mu.
func (b *buffer) noteLeft(f []byte) {
	if id, ok := packetIDOf(f); ok {
		b.left.add(id)
	}
}

// noteOverflow remembers a held packet a drop-head buffer let go for a
// newer one, when it remembers what left: a sync point that went so is
// behind what the buffer holds, not ahead of it. The caller holds b.mu.
func (b *buffer) noteOverflow(f []byte) {
	if b.left != nil {
		b.noteLeft(f)
		b.overflowSinceSync = true
	}
}

// purgeToReport drops what the buffer holds up to, and including, the
// reported packet. A report of the newest packet the buffer sent is synced
// with nothing to purge: the buffer holds only what came after it; so is
// one of a packet that left it lately (sent or purged: see idRing), and a
// report of nothing received. missing says the report names a packet the
// buffer neither holds nor let go lately (unsynced, unless it is still on
// its way: see syncWait).
func (b *buffer) purgeToReport(id PacketID, kind reportKind) (sync ReportSync, purged uint64, missing bool) {
	switch kind {
	case noReport:
		return ReportUnsynced, 0, false
	case reportNothingReceived:
		return ReportSynced, 0, false
	}
	if r := b.purgeUpTo(id, true); r.Found {
		return ReportSynced, r.PurgedPackets, false
	}
	b.mu.Lock()
	// Sent lately with more sent after it: those never reached the far end
	// (arrivals are in order), so they go out again (see rewind.go).
	rewound := b.rewindTo(id)
	behind := rewound || b.st.hasLastOut && b.st.lastOut == id || b.left != nil && b.left.has(id)
	b.mu.Unlock()
	if rewound {
		b.kick()
	}
	if behind {
		return ReportSynced, 0, false
	}
	return ReportUnsynced, 0, true
}
