// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"math"
	"testing"
)

func near(got, want float64) bool {
	if math.IsInf(want, 1) {
		return math.IsInf(got, 1)
	}
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

// TestThresholds computes each algorithm's threshold (Eq. 1 for DT, Eq. 3
// for FB, none for quota) in states worked out by hand in each row's
// comment. Units are packets where the row says so (the paper's 60-packet
// buffer), bytes otherwise.
func TestThresholds(t *testing.T) {
	for _, c := range []struct {
		name      string
		alg       Algorithm
		alpha     float64
		congested int64   // N_p, this buffer included (fb)
		gamma     float64 // normalised drain rate (fb)
		remaining float64 // B − B_oc
		want      float64
	}{
		// The paper's Fig. 2 (packets, B = 60), t2: Q1 (alpha 1) 15, Q2
		// (alpha 2) 30, 15 free. DT: 1 x 15 = 15, 2 x 15 = 30; FB with
		// N = 1 and gamma = 1 gives the same.
		{"fig2 t2 Q1 dt", AdmitDT, 1, 1, 1, 15, 15},
		{"fig2 t2 Q2 dt", AdmitDT, 2, 1, 1, 15, 30},
		{"fig2 t2 Q1 fb", AdmitFB, 1, 1, 1, 15, 15},
		{"fig2 t2 Q2 fb", AdmitFB, 2, 1, 1, 15, 30},
		// Fig. 4a: three yellow queues (low, alpha 1) of 10 and red (high,
		// alpha 2) of 20: 10 free. FB yellow: 1 x 1/3 x 1 x 10 = 10/3; red
		// alone in high: 2 x 1 x 1 x 10 = 20.
		{"fig4a yellow fb", AdmitFB, 1, 3, 1, 10, 10.0 / 3},
		{"fig4a red fb", AdmitFB, 2, 1, 1, 10, 20},
		// Fig. 5a, FB's steady state: 15 free, yellow 1 x 1/3 x 15 = 5,
		// red 2 x 15 = 30.
		{"fig5a yellow fb", AdmitFB, 1, 3, 1, 15, 5},
		{"fig5a red fb", AdmitFB, 2, 1, 1, 15, 30},
		// Quota: no threshold at all.
		{"quota", AdmitQuota, 1, 1, 1, 15, math.Inf(1)},

		// FlowBuf's pool of 100 000 bytes (100 frames of 1000 bytes).
		// A fresh pause alone, empty pool: DT 1 x 100 000; FB 1 x 1/1 x 1 x
		// 100 000.
		{"pool empty dt", AdmitDT, 1, 1, 1, 100_000, 100_000},
		{"pool empty fb", AdmitFB, 1, 1, 1, 100_000, 100_000},
		// A long pause (gamma 0.25) holding 10 000 of it: 0.25 x 90 000 =
		// 22 500; it stops at L = 0.25 x (100 000 − L): 20 000, where the
		// threshold is 0.25 x 80 000 = 20 000, its length.
		{"long pause 10k fb", AdmitFB, 1, 1, 0.25, 90_000, 22_500},
		{"long pause stop fb", AdmitFB, 1, 1, 0.25, 80_000, 20_000},
		// DT lets the same buffer grow to L = 100 000 − L: 50 000.
		{"long pause stop dt", AdmitDT, 1, 1, 1, 50_000, 50_000},
		// A burst into a new pause next to it: FB, high priority, alone
		// there: 1 x 1 x 80 000, stopping at S = 80 000 − S = 40 000; DT
		// next to DT's long buffer: 50 000, stopping at 25 000.
		{"burst fb", AdmitFB, 1, 1, 1, 80_000, 80_000},
		{"burst stop fb", AdmitFB, 1, 1, 1, 40_000, 40_000},
		{"burst dt", AdmitDT, 1, 1, 1, 50_000, 50_000},
		{"burst stop dt", AdmitDT, 1, 1, 1, 25_000, 25_000},
		// Two long pauses (N_low = 2), 40 000 free: 1 x 1/2 x 0.25 x
		// 40 000 = 5000 each; alpha 2 doubles it.
		{"two long fb", AdmitFB, 1, 2, 0.25, 40_000, 5000},
		{"two long alpha 2 fb", AdmitFB, 2, 2, 0.25, 40_000, 10_000},
		// All factors: 3 x 1/4 x 1/8 x 64 000 = 6000.
		{"all factors fb", AdmitFB, 3, 4, 0.125, 64_000, 6000},
		// Pool full: 0 whatever the factors.
		{"full dt", AdmitDT, 2, 1, 1, 0, 0},
		{"full fb", AdmitFB, 2, 1, 1, 0, 0},
	} {
		if got := threshold(c.alg, c.alpha, c.congested, c.gamma, c.remaining); !near(got, c.want) {
			t.Errorf("%s: threshold %v, want %v", c.name, got, c.want)
		}
	}
}

// TestThresholdAllocatesNothing: the packet path's threshold costs no
// allocation.
func TestThresholdAllocatesNothing(t *testing.T) {
	b := newBuffer(New(Options{Admission: &AdmissionConfig{Algorithm: AdmitFB}}), "app", "b", BufferConfig{})
	if n := testing.AllocsPerRun(100, func() {
		p := b.admitParams(1)
		_ = b.below(&p, 1000, 0)
		b.settle(1)
	}); n != 0 {
		t.Fatalf("%v allocations per threshold", n)
	}
}
