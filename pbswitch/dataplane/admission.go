// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"errors"
	"fmt"
	"math"
)

// Algorithm is how the shared buffer admits a packet into a queue.
type Algorithm int

// Admission algorithms (Apostolaki et al., "FB: A Flexible Buffer
// Management Scheme for Data Center Switches", Eq. 1 and Eq. 3).
const (
	// CompleteSharing admits every packet that fits in the buffer.
	CompleteSharing Algorithm = iota + 1
	// DynamicThresholds admits a packet while its queue is shorter than
	// alpha_c · (B − B_oc): its class's alpha times the unoccupied buffer.
	DynamicThresholds
	// FB admits a packet while its queue is shorter than
	// alpha_c · 1/N_p · gamma · (B − B_oc), where N_p counts the congested
	// (non-empty) queues of the class's priority, this one included, and
	// gamma is the queue's share of its port's dequeue rate.
	FB
)

var algorithmNames = map[Algorithm]string{CompleteSharing: "cs", DynamicThresholds: "dt", FB: "fb"}

func (a Algorithm) String() string {
	if n, ok := algorithmNames[a]; ok {
		return n
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// ParseAlgorithm reads "cs", "dt" or "fb".
func ParseAlgorithm(s string) (Algorithm, error) {
	for a, n := range algorithmNames {
		if n == s {
			return a, nil
		}
	}
	return 0, fmt.Errorf("unknown buffer algorithm %q: want cs (complete sharing), dt (dynamic thresholds) or fb", s)
}

// ClassConfig is one traffic class of the shared buffer. A class is a
// queue index: the priority the P4 program gives a packet
// (standard_metadata.priority) picks its queue at every port, and the
// queues with the same index at all ports form the class.
type ClassConfig struct {
	// Alpha scales the class's threshold (DT and FB); it must be > 0.
	Alpha float64
	// High puts the class in FB's high buffer priority (otherwise low).
	// It is not a scheduling priority: the port schedules by queue index.
	High bool
}

// BufferConfig is the shared buffer's admission: the algorithm and the
// class of each queue index.
type BufferConfig struct {
	Algorithm Algorithm
	Classes   [NumPriorities]ClassConfig
	// SingleQueue makes every port one FIFO, the paper's single-queue
	// deployment (FB §4.1, §6.2): a packet's priority then picks only its
	// buffer class (its alpha and FB priority, as a classifier on the
	// device would), not a queue, so packets of one queue meet different
	// thresholds. FB's gamma is then 1 and its N_p counts every congested
	// queue in the buffer, whatever its priority.
	SingleQueue bool
}

// DefaultBufferConfig is what a shared buffer starts with unless told
// otherwise: dynamic thresholds (the usual switch default), alpha 1 for
// every class, every class of low priority.
func DefaultBufferConfig() BufferConfig {
	c := BufferConfig{Algorithm: DynamicThresholds}
	for i := range c.Classes {
		c.Classes[i].Alpha = 1
	}
	return c
}

// ErrNoSharedBuffer refuses an admission setting on a switch whose queues
// have their own limits.
var ErrNoSharedBuffer = errors.New("the switch has no shared buffer (B = 0): start it with --shared-buffer-bytes to use an admission algorithm")

// Validate checks c for a buffer of sharedBytes bytes.
func (c BufferConfig) Validate(sharedBytes int64) error {
	if sharedBytes < 0 {
		return fmt.Errorf("shared buffer of %d bytes: want a size in bytes, or 0 for per-queue limits", sharedBytes)
	}
	if _, ok := algorithmNames[c.Algorithm]; !ok {
		return fmt.Errorf("unknown buffer algorithm %v: want cs, dt or fb", c.Algorithm)
	}
	if sharedBytes == 0 {
		return fmt.Errorf("buffer algorithm %v: %w", c.Algorithm, ErrNoSharedBuffer)
	}
	for q, cl := range c.Classes {
		if !(cl.Alpha > 0) || math.IsInf(cl.Alpha, 0) {
			return fmt.Errorf("class %d (queue %d): alpha %v must be a finite number > 0", q, q, cl.Alpha)
		}
	}
	return nil
}

// threshold is a queue's threshold in bytes: the length below which it
// takes a packet. remaining is B − B_oc (bytes), alpha the queue's class's,
// congested (N_p, FB only) the congested queues of its class's priority
// counting itself, gamma (FB only) its share of its port's dequeue rate.
// FB's product is computed in floating point as Eq. 3 writes it, the
// division last so that a product that is a whole multiple of N_p comes
// out exact.
func threshold(alg Algorithm, alpha float64, congested int, gamma, remaining float64) float64 {
	switch alg {
	case CompleteSharing:
		return remaining
	case DynamicThresholds:
		return alpha * remaining
	default:
		return alpha * gamma * remaining / float64(congested)
	}
}
