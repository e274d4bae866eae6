// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

const (
	maxRules         = 64
	subscriptionSize = 4096
	dropCoalesce     = 10 * time.Millisecond
	allBuffers       = "*"
)

// Subscription receives the events of a set of rules until Close.
type Subscription struct {
	e       *Engine
	app     string
	rules   []EventRule
	ch      chan Event
	lost    atomic.Uint64
	watches []*watch // guarded by Engine.mu
	once    sync.Once
}

// Events is closed when the subscription or the engine is closed.
func (s *Subscription) Events() <-chan Event { return s.ch }

// Lost counts events dropped because the subscriber did not keep up.
func (s *Subscription) Lost() uint64 { return s.lost.Load() }

// Close stops delivery and closes the Events channel.
func (s *Subscription) Close() {
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	s.closeLocked()
}

func (s *Subscription) closeLocked() {
	s.once.Do(func() {
		for _, w := range s.watches {
			w.b.removeWatch(w)
		}
		s.watches = nil
		delete(s.e.subs, s)
		close(s.ch)
	})
}

func (s *Subscription) send(ev Event) {
	select {
	case s.ch <- ev:
	default:
		s.lost.Add(1)
	}
}

// watch is one rule applied to one buffer; guarded by the buffer's mutex.
type watch struct {
	sub     *Subscription
	rule    *EventRule
	b       *buffer
	above   bool // OCCUPANCY_*: whether occupancy is past the threshold
	dead    bool
	pending dropCounts
	last    int64 // time of the last DROPPED event
	armed   bool  // a DROPPED flush timer is pending
}

// Subscribe starts delivering events for rules on app's buffers.
func (e *Engine) Subscribe(app string, rules []EventRule) (*Subscription, error) {
	if err := checkApp(app); err != nil {
		return nil, err
	}
	if len(rules) == 0 || len(rules) > maxRules {
		return nil, errorf(InvalidArgument, "subscribe needs 1..%d rules, got %d", maxRules, len(rules))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := range rules {
		if err := e.checkRule(app, &rules[i]); err != nil {
			return nil, withPrefix(err, ruleLabel(i))
		}
	}
	s := &Subscription{e: e, app: app, rules: rules, ch: make(chan Event, subscriptionSize)}
	for i := range s.rules {
		r := &s.rules[i]
		if r.BufferID != allBuffers {
			s.watchLocked(r, e.buffers[r.BufferID])
			continue
		}
		for _, b := range e.buffers {
			if b.owner == app {
				s.watchLocked(r, b)
			}
		}
	}
	e.subs[s] = struct{}{}
	return s, nil
}

func ruleLabel(i int) string { return "rule " + strconv.Itoa(i) + ": " }

func (e *Engine) checkRule(app string, r *EventRule) error {
	if r.BufferID != allBuffers {
		if _, err := e.ownedBuffer(app, r.BufferID); err != nil {
			return err
		}
	}
	switch r.Kind {
	case EventOccupancyAbove, EventOccupancyBelow:
		if (r.ThresholdPackets > 0) == (r.ThresholdBytes > 0) {
			return errorf(InvalidArgument, "occupancy rules need exactly one of threshold_packets, threshold_bytes")
		}
	case EventMarkerSeen:
		m := r.Marker
		if len(m.Value) == 0 || (len(m.Mask) > 0 && len(m.Mask) != len(m.Value)) {
			return errorf(InvalidArgument, "marker needs a value, and a mask of the same length or none")
		}
		if uint64(m.Offset)+uint64(len(m.Value)) > uint64(e.limits.MaxFrameBytes) {
			return errorf(InvalidArgument, "marker ends beyond the largest frame (%d bytes)", e.limits.MaxFrameBytes)
		}
	case EventDrained, EventFirstPacket, EventDropped, EventStateChanged:
	default:
		return errorf(InvalidArgument, "unknown event kind %d", r.Kind)
	}
	return nil
}

// watchLocked attaches rule r to buffer b; the caller holds Engine.mu.
func (s *Subscription) watchLocked(r *EventRule, b *buffer) {
	w := &watch{sub: s, rule: r, b: b}
	b.mu.Lock()
	if !b.closed {
		p, by := b.occupancy()
		w.above = w.past(p, by)
		b.watches = append(b.watches, w)
		if r.Kind == EventMarkerSeen {
			b.markers++
		}
	}
	b.mu.Unlock()
	s.watches = append(s.watches, w)
}

// watchNewBuffer attaches the "*" rules of app's subscriptions to b.
func (e *Engine) watchNewBuffer(b *buffer) {
	for s := range e.subs {
		if s.app != b.owner {
			continue
		}
		for i := range s.rules {
			if s.rules[i].BufferID == allBuffers {
				s.watchLocked(&s.rules[i], b)
			}
		}
	}
}

func (b *buffer) removeWatch(w *watch) {
	b.mu.Lock()
	defer b.mu.Unlock()
	w.dead = true
	for i, x := range b.watches {
		if x == w {
			if w.rule.Kind == EventMarkerSeen {
				b.markers--
			}
			b.watches = append(b.watches[:i:i], b.watches[i+1:]...)
			return
		}
	}
}

// past reports whether occupancy is past the rule's threshold: at or above
// it for ABOVE rules, strictly above it for BELOW rules.
func (w *watch) past(p, by uint64) bool {
	v, t := p, w.rule.ThresholdPackets
	if w.rule.ThresholdBytes > 0 {
		v, t = by, w.rule.ThresholdBytes
	}
	if w.rule.Kind == EventOccupancyAbove {
		return v >= t
	}
	return v > t
}

func (w *watch) event(kind EventKind, now int64, p, by uint64) Event {
	return Event{RuleID: w.rule.RuleID, BufferID: w.b.id, Kind: kind,
		Time: time.Unix(0, now), OccupancyPackets: p, OccupancyBytes: by}
}

// afterChange fires the occupancy, first-packet, drained and dropped rules
// after packets entered or left; dropsBefore is nil when nothing could
// have been dropped. The caller holds b.mu.
func (b *buffer) afterChange(before uint64, dropsBefore *dropCounts) {
	if len(b.watches) == 0 {
		return
	}
	p, by := b.occupancy()
	now := b.e.clock.Now().UnixNano()
	_, tx := b.flags()
	for _, w := range b.watches {
		switch w.rule.Kind {
		case EventFirstPacket:
			if before == 0 && p > 0 {
				w.sub.send(w.event(EventFirstPacket, now, p, by))
			}
		case EventDrained:
			if before > 0 && p == 0 && tx {
				w.sub.send(w.event(EventDrained, now, p, by))
			}
		case EventOccupancyAbove:
			past := w.past(p, by)
			if past && !w.above {
				w.sub.send(w.event(EventOccupancyAbove, now, p, by))
			}
			w.above = past
		case EventOccupancyBelow:
			past := w.past(p, by)
			if !past && w.above {
				w.sub.send(w.event(EventOccupancyBelow, now, p, by))
			}
			w.above = past
		case EventDropped:
			if dropsBefore != nil {
				w.addDrops(dropsBefore, &b.st.drops, now)
			}
		}
	}
}

// afterControl fires STATE_CHANGED rules when the derived state moved. The
// caller holds b.mu.
func (b *buffer) afterControl() {
	b.settle(0)
	s := b.derivedState()
	if s == b.state {
		return
	}
	b.state = s
	now := b.e.clock.Now().UnixNano()
	p, by := b.occupancy()
	for _, w := range b.watches {
		if w.rule.Kind == EventStateChanged {
			ev := w.event(EventStateChanged, now, p, by)
			ev.State = s
			w.sub.send(ev)
		}
	}
}

func (b *buffer) checkMarkers(f []byte) {
	for _, w := range b.watches {
		if w.rule.Kind != EventMarkerSeen || !w.rule.Marker.Matches(f) {
			continue
		}
		p, by := b.occupancy()
		ev := w.event(EventMarkerSeen, b.e.clock.Now().UnixNano(), p, by)
		ev.PacketID, ev.HasPacketID = packetIDOf(f)
		w.sub.send(ev)
	}
}

// addDrops accumulates new drops and emits at most one DROPPED event per
// 10 ms; drops within the window are flushed by a timer.
func (w *watch) addDrops(before, now *dropCounts, t int64) {
	grew := false
	for c := range now {
		if d := now[c].packets - before[c].packets; d > 0 {
			w.pending[c].packets += d
			w.pending[c].bytes += now[c].bytes - before[c].bytes
			grew = true
		}
	}
	if !grew || w.armed {
		return
	}
	if wait := w.last + int64(dropCoalesce) - t; wait > 0 {
		w.armed = true
		w.b.e.clock.AfterFunc(time.Duration(wait), w.flushLater)
		return
	}
	w.flush(t)
}

func (w *watch) flushLater() {
	w.b.mu.Lock()
	defer w.b.mu.Unlock()
	w.armed = false
	if !w.dead {
		w.flush(w.b.e.clock.Now().UnixNano())
	}
}

// flush emits the pending drops: with one cause, that cause; with several,
// cause UNSPECIFIED and the totals.
func (w *watch) flush(t int64) {
	var total DropCounter
	causes := 0
	for c := range w.pending {
		if w.pending[c].packets > 0 {
			causes++
			total.Cause = DropCause(c)
			total.Packets += w.pending[c].packets
			total.Bytes += w.pending[c].bytes
		}
	}
	if causes == 0 {
		return
	}
	if causes > 1 {
		total.Cause = 0
	}
	w.pending = dropCounts{}
	w.last = t
	p, by := w.b.occupancy()
	ev := w.event(EventDropped, t, p, by)
	ev.Dropped = total
	w.sub.send(ev)
}
