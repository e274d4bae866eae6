// SPDX-License-Identifier: Apache-2.0

package metrics_test

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/metrics"
)

func TestCollectorExportsBuffers(t *testing.T) {
	eng := engine.New(engine.Options{})
	defer eng.Close()
	if _, err := eng.CreateBuffer("app", "b1", engine.BufferConfig{CapacityPackets: 4}); err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(metrics.New(eng))
	want := `
# HELP flowbuf_agent_buffer_occupancy_packets Packets held.
# TYPE flowbuf_agent_buffer_occupancy_packets gauge
flowbuf_agent_buffer_occupancy_packets{buffer="b1",owner="app"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "flowbuf_agent_buffer_occupancy_packets"); err != nil {
		t.Fatal(err)
	}
	n, err := testutil.GatherAndCount(reg, "flowbuf_agent_buffer_state")
	if err != nil || n != 5 {
		t.Fatalf("state series %d, %v", n, err)
	}
	// Only a buffer re-attached after a crash has the re-attachment series.
	n, err = testutil.GatherAndCount(reg, "flowbuf_agent_buffer_reattached_packets", "flowbuf_agent_buffer_missed_while_down_packets")
	if err != nil || n != 0 {
		t.Fatalf("re-attachment series %d, %v", n, err)
	}
}
