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

// Frame slabs: two size classes cover standard and jumbo frames. A free
// list of slices (rather than sync.Pool of pointers) lets PutFrame take a
// plain slice back without allocating.
const (
	smallFrameCap = 2048
	largeFrameCap = 9216 + 64
	maxFreeFrames = 1 << 16
)

type frameList struct {
	mu   sync.Mutex
	size int
	free [][]byte
}

func (l *frameList) get(n int) []byte {
	l.mu.Lock()
	if k := len(l.free); k > 0 {
		b := l.free[k-1]
		l.free[k-1] = nil
		l.free = l.free[:k-1]
		l.mu.Unlock()
		return b[:n]
	}
	l.mu.Unlock()
	return make([]byte, n, l.size)
}

func (l *frameList) put(b []byte) {
	l.mu.Lock()
	if len(l.free) < maxFreeFrames {
		l.free = append(l.free, b)
	}
	l.mu.Unlock()
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

// PutFrames returns a batch of frames to the pool with one lock per size
// class and clears the batch's entries.
func PutFrames(frames [][]byte) {
	smallFrames.putAll(frames, smallFrameCap)
	largeFrames.putAll(frames, largeFrameCap)
	clear(frames)
}

func (l *frameList) putAll(frames [][]byte, size int) {
	l.mu.Lock()
	for _, f := range frames {
		if cap(f) == size && len(l.free) < maxFreeFrames {
			l.free = append(l.free, f)
		}
	}
	l.mu.Unlock()
}
