// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"sync/atomic"
	"time"
)

// pacer is a token bucket in frame bytes that emulates a link of a given
// rate on TX. The bucket holds one millisecond of traffic (at least one
// maximum frame), so bursts stay as short as a real link's. Guarded by the
// buffer's mutex, except pending.
type pacer struct {
	tokens  float64
	last    int64
	blocked bool
	timer   Timer
	pending atomic.Bool // a wake-up timer is armed
}

func burstBytes(rateBps uint64, maxFrame uint32) float64 {
	return max(float64(maxFrame), float64(rateBps)/8/1000)
}

func (p *pacer) refill(now int64, rateBps uint64, maxFrame uint32) {
	p.blocked = false
	if rateBps == 0 {
		p.last = 0
		return
	}
	burst := burstBytes(rateBps, maxFrame)
	if p.last == 0 {
		p.tokens, p.last = burst, now
		return
	}
	p.tokens = min(burst, p.tokens+float64(now-p.last)*float64(rateBps)/8e9)
	p.last = now
}

// take spends n bytes of tokens if there are enough.
func (p *pacer) take(n uint64, rateBps uint64) bool {
	if rateBps == 0 {
		return true
	}
	if p.tokens < float64(n) {
		p.blocked = true
		return false
	}
	p.tokens -= float64(n)
	return true
}

func (p *pacer) waiting(rateBps uint64) bool { return rateBps > 0 && p.blocked }

// schedule arms one timer that calls wake when need bytes of tokens exist.
func (p *pacer) schedule(c Clock, rateBps, need uint64, wake func()) {
	if !p.pending.CompareAndSwap(false, true) {
		return
	}
	waitNs := (float64(need) - p.tokens) * 8e9 / float64(rateBps)
	p.timer = c.AfterFunc(durationNs(max(waitNs, 1000)), func() {
		p.pending.Store(false)
		wake()
	})
}

func (p *pacer) stop() {
	if p.timer != nil {
		p.timer.Stop()
	}
}

func durationNs(ns float64) time.Duration { return time.Duration(ns) }
