// SPDX-License-Identifier: Apache-2.0

package main

import (
	"testing"
	"time"
)

// The feed is the service's real work: every data clone is kept as a
// PDCP PDU and the statuses acknowledge them (baasRate fails otherwise).
func TestBaasFeedIsKeptAndAcknowledged(t *testing.T) {
	rate, perCPU, err := baasRate(1, 1, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if rate <= 0 || perCPU <= 0 {
		t.Fatalf("rate %f, per CPU-second %f", rate, perCPU)
	}
}
