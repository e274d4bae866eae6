// SPDX-License-Identifier: Apache-2.0

// Package fakeclock is a manual engine.Clock for tests: time moves only when
// the test calls Advance, which runs the timers that fall due, in order, in
// the caller's goroutine.
package fakeclock

import (
	"sort"
	"sync"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// Clock is a fake engine.Clock.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
	seq    uint64
}

type timer struct {
	c    *Clock
	at   time.Time
	seq  uint64 // keeps timers due at the same instant in creation order
	f    func()
	done bool
}

// New returns a clock reading start.
func New(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f at Now()+d.
func (c *Clock) AfterFunc(d time.Duration, f func()) engine.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &timer{c: c, at: c.now.Add(d), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return t
}

// Stop cancels the timer if it has not fired.
func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.done {
		return false
	}
	t.done = true
	return true
}

// Pending counts the timers that have not fired or been stopped.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.done {
			n++
		}
	}
	return n
}

// Advance moves time forward by d, firing every timer that falls due
// (including timers those callbacks schedule within the window).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	target := c.now.Add(d)
	c.mu.Unlock()
	for {
		t := c.nextDue(target)
		if t == nil {
			break
		}
		t.f()
	}
	c.mu.Lock()
	c.now = target
	c.mu.Unlock()
}

func (c *Clock) nextDue(target time.Time) *timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	live := c.timers[:0]
	for _, t := range c.timers {
		if !t.done {
			live = append(live, t)
		}
	}
	c.timers = live
	sort.Slice(live, func(i, j int) bool {
		if live[i].at.Equal(live[j].at) {
			return live[i].seq < live[j].seq
		}
		return live[i].at.Before(live[j].at)
	})
	if len(live) == 0 || live[0].at.After(target) {
		return nil
	}
	t := live[0]
	t.done = true
	if t.at.After(c.now) {
		c.now = t.at
	}
	return t
}
