// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"sync"
	"sync/atomic"
)

// memPool is the hard limit on the bytes of every held packet.
type memPool struct {
	limit uint64
	used  atomic.Uint64
}

// reserve takes n bytes if they fit. Adding first and undoing on failure
// keeps the check lock-free and never lets the admitted total pass limit.
func (p *memPool) reserve(n uint64) bool {
	if p.used.Add(n) > p.limit {
		p.used.Add(^(n - 1))
		return false
	}
	return true
}

func (p *memPool) release(n uint64) { p.used.Add(^(n - 1)) }

// appUsage is what one application holds, checked against its quota.
type appUsage struct {
	quota   Quota
	buffers uint32 // guarded by Engine.mu
	vports  uint32 // guarded by Engine.mu
	bytes   atomic.Uint64
}

func (a *appUsage) reserve(n uint64) bool {
	if a.quota.MaxBytes == 0 {
		a.bytes.Add(n)
		return true
	}
	if a.bytes.Add(n) > a.quota.MaxBytes {
		a.bytes.Add(^(n - 1))
		return false
	}
	return true
}

func (a *appUsage) release(n uint64) { a.bytes.Add(^(n - 1)) }

func (e *Engine) appLocked(app string) *appUsage {
	a, ok := e.apps[app]
	if !ok {
		a = &appUsage{quota: e.quotaOf(app)}
		e.apps[app] = a
	}
	return a
}

// Frame slabs: two size classes cover standard and jumbo frames. Each
// class keeps a depot (a free list under a mutex) and, in front of it,
// magazines of up to magazineSize frames in a sync.Pool, which gives each
// P (core) its own: GetFrame and PutFrame take and return a frame in the
// caller's core's magazine without a lock and go to the depot half a
// magazine at a time. With one lock a frame, two cores feeding buffers
// fought over the depot's lock (a fifth of the BaaS profile on two cores).
// Slices rather than pointers in the free lists let PutFrame take a plain
// slice back without allocating.
const (
	smallFrameCap = 2048
	largeFrameCap = 9216 + 64
	maxFreeFrames = 1 << 16 // in a class's depot
	magazineSize  = 64
)

type magazine struct {
	n      int
	frames [magazineSize][]byte
}

type frameList struct {
	size  int
	mags  sync.Pool // *magazine
	mu    sync.Mutex
	depot [][]byte
}

// magazine returns one of the class's magazines; the caller puts it back.
func (l *frameList) magazine() *magazine {
	if m, ok := l.mags.Get().(*magazine); ok {
		return m
	}
	return new(magazine)
}

func (l *frameList) get(n int) []byte {
	m := l.magazine()
	if m.n == 0 {
		l.refill(m)
	}
	var b []byte
	if m.n > 0 {
		m.n--
		b, m.frames[m.n] = m.frames[m.n], nil
	}
	l.mags.Put(m)
	if b == nil {
		return make([]byte, n, l.size)
	}
	return b[:n]
}

// refill moves up to half a magazine of frames from the depot into m.
func (l *frameList) refill(m *magazine) {
	l.mu.Lock()
	k := min(len(l.depot), magazineSize/2)
	rest := len(l.depot) - k
	m.n = copy(m.frames[:], l.depot[rest:])
	clear(l.depot[rest:])
	l.depot = l.depot[:rest]
	l.mu.Unlock()
}

// spill moves half of a full magazine to the depot; what the depot has no
// room for is left to the garbage collector.
func (l *frameList) spill(m *magazine) {
	half := m.frames[magazineSize/2:]
	l.mu.Lock()
	room := min(maxFreeFrames-len(l.depot), len(half))
	l.depot = append(l.depot, half[:room]...)
	l.mu.Unlock()
	clear(half)
	m.n = magazineSize / 2
}

func (l *frameList) put(b []byte) {
	m := l.magazine()
	l.putIn(m, b)
	l.mags.Put(m)
}

func (l *frameList) putIn(m *magazine, b []byte) {
	if m.n == magazineSize {
		l.spill(m)
	}
	m.frames[m.n] = b
	m.n++
}

var (
	smallFrames = frameList{size: smallFrameCap}
	largeFrames = frameList{size: largeFrameCap}
)

// GetFrame returns a slice of length n from the frame pool (a plain
// allocation when n is above the largest class). Its bytes are not zeroed:
// the caller overwrites all n of them.
func GetFrame(n int) []byte {
	switch {
	case n <= smallFrameCap:
		return smallFrames.get(n)
	case n <= largeFrameCap:
		return largeFrames.get(n)
	default:
		return make([]byte, n)
	}
}

// GetFrames fills every entry of frames with a frame of length n, as
// GetFrame does, taking the size class's magazine once for the batch.
func GetFrames(frames [][]byte, n int) {
	switch {
	case n <= smallFrameCap:
		smallFrames.getAll(frames, n)
	case n <= largeFrameCap:
		largeFrames.getAll(frames, n)
	default:
		for i := range frames {
			frames[i] = make([]byte, n)
		}
	}
}

func (l *frameList) getAll(frames [][]byte, n int) {
	m := l.magazine()
	for i := range frames {
		if m.n == 0 {
			l.refill(m)
		}
		if m.n == 0 {
			frames[i] = make([]byte, n, l.size)
			continue
		}
		m.n--
		frames[i], m.frames[m.n] = m.frames[m.n][:n], nil
	}
	l.mags.Put(m)
}

// PutFrame returns a frame to the pool; slices of other capacities are left
// to the garbage collector. The caller must not use b afterwards.
func PutFrame(b []byte) {
	switch cap(b) {
	case smallFrameCap:
		smallFrames.put(b)
	case largeFrameCap:
		largeFrames.put(b)
	}
}

// PutFrames returns a batch of frames to the pool, taking each class's
// magazine once, and clears the batch's entries.
func PutFrames(frames [][]byte) {
	smallFrames.putAll(frames, smallFrameCap)
	largeFrames.putAll(frames, largeFrameCap)
	clear(frames)
}

func (l *frameList) putAll(frames [][]byte, size int) {
	var m *magazine
	for _, f := range frames {
		if cap(f) != size {
			continue
		}
		if m == nil {
			m = l.magazine()
		}
		l.putIn(m, f)
	}
	if m != nil {
		l.mags.Put(m)
	}
}
