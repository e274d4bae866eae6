// SPDX-License-Identifier: Apache-2.0

package main

import (
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// TestQuickScenario: the QUICK run's outcome follows from the thresholds
// (see buffer-agent/README.md): quotas with one owner and DT lose burst
// packets, FB none, and the long pause keeps B, B/2 and B/5.
func TestQuickScenario(t *testing.T) {
	sc := shape(true)
	for _, c := range []struct {
		alg       engine.Algorithm
		burstLoss bool
		keptPct   float64
	}{{engine.AdmitQuota, true, 100}, {engine.AdmitDT, true, 50}, {engine.AdmitFB, false, 20}} {
		res, err := run(sc, variant{name: c.alg.String(), adm: engine.AdmissionConfig{Algorithm: c.alg}})
		if err != nil {
			t.Fatal(err)
		}
		if (res.burstLost > 0) != c.burstLoss || res.burstOffered == 0 {
			t.Errorf("%v: lost %d of %d burst frames, want loss %v", c.alg, res.burstLost, res.burstOffered, c.burstLoss)
		}
		if kept := pct(res.longHeldBytes, sc.pool); kept < c.keptPct-0.1 || kept > c.keptPct+0.1 {
			t.Errorf("%v: long pause kept %.2f %% of the pool, want %v", c.alg, kept, c.keptPct)
		}
	}
}
