// SPDX-License-Identifier: Apache-2.0

package engine

import "time"

// wheel is the bucketed timer wheel both kinds of ARQ buffer keep (packet
// id ARQ in arq.go, PDCP buffer-as-a-service in baas.go): an entry filed
// in bucket k comes up again each time the wheel returns to k, i.e. every
// turn of buckets × bucket_us, and is resent then until it is acknowledged
// or, after max_resends resends, given up on. The wheel files references
// (R) to entries its owner keeps; the owner says through wheelEntries
// which references still name a kept entry, so an acknowledgement needs
// not find its reference in a bucket. Guarded by the buffer's mutex.
//
// A timer turns the wheel one bucket each bucket_us. A core kept busy by
// packets runs timers late (a Go timer's goroutine waits for the core: at
// one core and 5 Mpps the wheel moved 28 times a second instead of 1000,
// its buckets piling up references to acknowledged entries), so the
// packet path turns it too when a turn is due (due); the timer then
// finds its turn done and waits for the next.
type wheel[R any] struct {
	buckets     [][]R
	cur         int
	period      time.Duration // one bucket
	maxResends  uint32        // 0: resend until acknowledged
	resend      [][]byte      // copies waiting for the TX worker
	expired     [][]byte      // frames given up on by the last turn
	ticking     bool
	timer       Timer
	tick        func() // the timer's callback, for re-arming it
	next        int64  // when the next turn is due (Unix ns), while ticking
	turnedEarly bool   // the packet path turned the wheel since the timer was armed
}

// wheelEntries is what a wheel asks of the owner of the entries it files.
type wheelEntries[R any] interface {
	// held returns the frame r names and its resend counter; ok is false
	// when the entry was acknowledged or released since r was filed.
	held(r R) (data []byte, resends *uint32, ok bool)
	// expire releases r's entry, given up on, and returns its frame.
	expire(r R) []byte
}

func newWheel[R any](cfg ArqConfig) wheel[R] {
	return wheel[R]{
		buckets:    make([][]R, cfg.Buckets),
		period:     time.Duration(cfg.BucketUs) * time.Microsecond,
		maxResends: cfg.MaxResends,
	}
}

// file puts r in the current bucket.
func (w *wheel[R]) file(r R) { w.buckets[w.cur] = append(w.buckets[w.cur], r) }

// arm calls tick after one bucket unless a tick is already due.
func (w *wheel[R]) arm(clock Clock, tick func()) {
	if w.ticking {
		return
	}
	w.ticking, w.tick, w.turnedEarly = true, tick, false
	w.next = clock.Now().UnixNano() + int64(w.period)
	w.timer = clock.AfterFunc(w.period, tick)
}

// fired is the timer's side of a tick: it reports whether the timer
// should turn the wheel. When the packet path turned it since the timer
// was armed, the timer is armed again for the rest of the next bucket
// (at most one bucket, whatever the wall clock did) and does not turn.
func (w *wheel[R]) fired(clock Clock) bool {
	if !w.turnedEarly {
		w.ticking = false
		return true
	}
	w.turnedEarly = false
	wait := min(max(time.Duration(w.next-clock.Now().UnixNano()), time.Microsecond), w.period)
	w.timer = clock.AfterFunc(wait, w.tick)
	return false
}

// due reports whether the packet path should turn the wheel at now: a
// tick is pending and late. It then counts as the tick's turn.
func (w *wheel[R]) due(now int64) bool {
	if !w.ticking || now < w.next {
		return false
	}
	w.next = now + int64(w.period)
	w.turnedEarly = true
	return true
}

// turn moves the wheel one bucket on. Of the references the bucket it
// reaches files, those of released entries leave, entries resent
// max_resends times are given up on (their frames wait in expired for the
// caller) and, when canSend, the others are resent: a copy each waits in
// resend. It returns how many it resent.
func (w *wheel[R]) turn(es wheelEntries[R], canSend bool) (resent uint64) {
	w.cur = (w.cur + 1) % len(w.buckets)
	bk := w.buckets[w.cur]
	kept := bk[:0]
	for _, r := range bk {
		data, resends, ok := es.held(r)
		switch {
		case !ok:
		case w.maxResends > 0 && *resends >= w.maxResends:
			w.expired = append(w.expired, es.expire(r))
		case canSend:
			*resends++
			resent++
			w.resend = append(w.resend, copyFrame(data))
			kept = append(kept, r)
		default:
			kept = append(kept, r)
		}
	}
	clear(bk[len(kept):])
	w.buckets[w.cur] = kept
	return resent
}

// takeResends moves waiting resends into out, within the batch and pacing.
func (w *wheel[R]) takeResends(out [][]byte, pace *pacer, rateBps uint64) [][]byte {
	out, w.resend = takePaced(out, w.resend, pace, rateBps)
	return out
}

// stop forgets every reference and pending resend and stops the timer
// (buffer removal; the owner discards its entries).
func (w *wheel[R]) stop() {
	for _, f := range w.resend {
		PutFrame(f)
	}
	w.resend = nil
	for k := range w.buckets {
		w.buckets[k] = nil
	}
	if w.timer != nil {
		w.timer.Stop()
	}
}

// tickWheel is the timer callback of both kinds of ARQ buffer: it turns
// the wheel (see turnWheel), re-arms through rearm and wakes the TX worker
// when resends wait.
func tickWheel[R any](b *buffer, w *wheel[R], es wheelEntries[R], rearm func()) {
	b.mu.Lock()
	if b.closed {
		w.ticking = false
		b.mu.Unlock()
		return
	}
	if !w.fired(b.e.clock) {
		b.mu.Unlock()
		return
	}
	before, _ := b.occupancy()
	turnWheel(b, w, es)
	b.afterChange(before, nil)
	b.afterControl()
	rearm()
	resend := len(w.resend) > 0
	b.mu.Unlock()
	if resend {
		b.kick()
	}
}

// turnWheel turns the wheel one bucket (resending only when a TX vport is
// bound) and discards what it gave up on (ARQ_EXPIRED). The caller holds
// b.mu.
func turnWheel[R any](b *buffer, w *wheel[R], es wheelEntries[R]) {
	b.st.arqResent += w.turn(es, b.txVport() != nil)
	for _, f := range w.expired {
		b.discard(f, DropArqExpired)
	}
	clear(w.expired)
	w.expired = w.expired[:0]
}
