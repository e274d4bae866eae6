// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"sync"
	"sync/atomic"
)

// sharedBuffer is one pool of bytes that every port's queues draw from (the
// CPU port's queue excepted: the path to the controller keeps its own),
// with an admission algorithm deciding which queue may take more.
//
// A queue's lengths are guarded by its port's lock, the pool's state by
// mu; the order is port, then pool. A port locks the pool once per packet
// it admits and once per batch it dequeues.
type sharedBuffer struct {
	size int64 // B, bytes
	cfg  atomic.Pointer[BufferConfig]

	mu   sync.Mutex
	used int64 // B_oc: bytes held by all queues
	// congested counts, per queue index, the ports whose queue of that
	// index is non-empty: the paper's congested queues.
	congested [NumPriorities]int
}

func newSharedBuffer(size int64, cfg BufferConfig) *sharedBuffer {
	b := &sharedBuffer{size: size}
	b.cfg.Store(&cfg)
	return b
}

// verdict is what admission decides for one packet, with the threshold
// it compared the queue's length against (bytes; the remaining buffer
// under complete sharing).
type verdict struct {
	cause     DropCause // admitted, or why not
	threshold float64
}

// queueState is what admission weighs of one packet's queue: the
// packet's class (its priority: alpha and FB priority), the queue index
// fifo it joins (the class, or 0 when every port has a single queue), the
// bytes that queue holds (empty: no packet), the share gamma of its
// port's dequeue rate, and the queue's own DT alpha (0: the class's).
type queueState struct {
	class int
	fifo  int
	bytes int64
	empty bool
	gamma float64
	alpha float64
}

// config is the admission setting in force; a packet's queue is chosen
// and admitted under one setting (the caller passes it to admit).
func (b *sharedBuffer) config() *BufferConfig { return b.cfg.Load() }

// admit decides, under cfg, whether a packet of size bytes may join queue
// q; when it may, the bytes are charged to the pool and an empty queue
// becomes congested. The caller holds the queue's port lock.
func (b *sharedBuffer) admit(cfg *BufferConfig, q queueState, size int) verdict {
	b.mu.Lock()
	defer b.mu.Unlock()
	v := b.decideLocked(cfg, q, size)
	if v.cause != admitted {
		return v
	}
	b.used += int64(size)
	if q.empty {
		b.congested[q.fifo]++
	}
	return v
}

// thresholdOf is the threshold a packet arriving now at queue q meets.
func (b *sharedBuffer) thresholdOf(cfg *BufferConfig, q queueState) float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.decideLocked(cfg, q, 0).threshold
}

// decideLocked is admission's verdict, changing nothing: the algorithm
// decides first, then the packet must fit in what is left of the pool.
// Under DT a queue's own alpha, when a controller set one (FBA), replaces
// its class's.
func (b *sharedBuffer) decideLocked(cfg *BufferConfig, q queueState, size int) verdict {
	class := &cfg.Classes[q.class]
	remaining := b.size - b.used
	v := verdict{cause: admitted, threshold: float64(remaining)}
	switch cfg.Algorithm {
	case DynamicThresholds:
		alpha := class.Alpha
		if q.alpha > 0 {
			alpha = q.alpha
		}
		v.threshold = threshold(DynamicThresholds, alpha, 0, 0, float64(remaining))
		if float64(q.bytes) >= v.threshold {
			v.cause = DropDTThreshold
		}
	case FB:
		v.threshold = threshold(FB, class.Alpha, b.congestedLocked(cfg, q.class, q.empty), q.gamma, float64(remaining))
		if float64(q.bytes) >= v.threshold {
			v.cause = DropFBThreshold
		}
	}
	if v.cause == admitted && int64(size) > remaining {
		v.cause = DropBufferFull
	}
	return v
}

// congestedLocked is N_p for a packet of class class: the congested
// queues of every class of the same FB priority (with a single queue per
// port, every congested queue: §4.1), plus the packet's queue when it is
// empty (the packet would make it congested).
func (b *sharedBuffer) congestedLocked(cfg *BufferConfig, class int, empty bool) int {
	n := 0
	if empty {
		n = 1
	}
	high := cfg.Classes[class].High
	for c := range cfg.Classes {
		if cfg.SingleQueue || cfg.Classes[c].High == high {
			n += b.congested[c]
		}
	}
	return n
}

// release returns bytes to the pool; emptied has a bit set for each class
// whose queue at the releasing port went empty.
func (b *sharedBuffer) release(bytes int64, emptied uint8) {
	b.mu.Lock()
	b.used -= bytes
	for c := 0; emptied != 0; c, emptied = c+1, emptied>>1 {
		if emptied&1 != 0 {
			b.congested[c]--
		}
	}
	b.mu.Unlock()
}

// BufferStats is the shared buffer's state.
type BufferStats struct {
	Bytes, UsedBytes int64
	Config           BufferConfig
	// Congested counts, per class, the ports where its queue is non-empty.
	Congested [NumPriorities]int
}

func (b *sharedBuffer) stats() BufferStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return BufferStats{Bytes: b.size, UsedBytes: b.used, Config: *b.cfg.Load(), Congested: b.congested}
}
