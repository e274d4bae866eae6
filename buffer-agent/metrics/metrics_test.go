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

// TestCollectorExportsPoolAdmission: FB threshold drops are exported per
// buffer and reason, with the algorithm and N_p.
func TestCollectorExportsPoolAdmission(t *testing.T) {
	eng := engine.New(engine.Options{
		Limits:    engine.Limits{PoolBytes: 10_000},
		Admission: &engine.AdmissionConfig{Algorithm: engine.AdmitFB},
		Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: engine.BackendFactoryFunc(
			func(string, engine.BackendSpec, engine.Ingress) (engine.Backend, error) { return nopBackend{}, nil })},
	})
	defer eng.Close()
	_, err := eng.Batch("app", []engine.Op{
		{CreateBuffer: &engine.CreateBufferOp{ID: "b1", Config: engine.BufferConfig{CapacityBytes: 10_000}}},
		{CreateVport: &engine.CreateVportOp{ID: "rx", Config: engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{Kind: engine.BackendInProcess}}}},
		{Bind: &engine.BindOp{BufferID: "b1", VportID: "rx"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	in, _ := eng.Ingress("app", "rx")
	// FB alone, fresh: held < 10 000 − held, 5 frames of 1000 taken
	// (held 4000 < 6000), the 6th (5000 < 5000) and the rest refused.
	frames := make([][]byte, 8)
	for i := range frames {
		frames[i] = make([]byte, 1000)
	}
	in.Receive(frames)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(metrics.New(eng))
	want := `
# HELP flowbuf_agent_buffer_pool_dropped_packets_total Packets dropped with cause pool, by the limit that refused them (pool_full, quota, dt_threshold, fb_threshold, journal).
# TYPE flowbuf_agent_buffer_pool_dropped_packets_total counter
flowbuf_agent_buffer_pool_dropped_packets_total{buffer="b1",owner="app",reason="fb_threshold"} 3
# HELP flowbuf_agent_pool_congested_buffers FB's N_p: buffers holding packets with an RX vport, by buffer priority.
# TYPE flowbuf_agent_pool_congested_buffers gauge
flowbuf_agent_pool_congested_buffers{priority="high"} 1
flowbuf_agent_pool_congested_buffers{priority="low"} 0
# HELP flowbuf_agent_pool_admission 1 for the pool's admission algorithm.
# TYPE flowbuf_agent_pool_admission gauge
flowbuf_agent_pool_admission{algorithm="dt"} 0
flowbuf_agent_pool_admission{algorithm="fb"} 1
flowbuf_agent_pool_admission{algorithm="quota"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "flowbuf_agent_buffer_pool_dropped_packets_total",
		"flowbuf_agent_pool_congested_buffers", "flowbuf_agent_pool_admission"); err != nil {
		t.Fatal(err)
	}
}

type nopBackend struct{}

func (nopBackend) Transmit([][]byte) error { return nil }
func (nopBackend) Close() error            { return nil }

// TestCollectorExportsBaasCounters: a PDCP ARQ buffer's acknowledgements
// and refused status messages are exported.
func TestCollectorExportsBaasCounters(t *testing.T) {
	eng := engine.New(engine.Options{
		Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: engine.BackendFactoryFunc(
			func(string, engine.BackendSpec, engine.Ingress) (engine.Backend, error) { return nopBackend{}, nil })},
	})
	defer eng.Close()
	_, err := eng.Batch("app", []engine.Op{
		{CreateBuffer: &engine.CreateBufferOp{ID: "baas", Config: engine.BufferConfig{CapacityPackets: 10,
			Queue: engine.QueueARQ, Arq: engine.ArqConfig{Protocol: engine.ArqPDCP}}}},
		{CreateVport: &engine.CreateVportOp{ID: "rx", Config: engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{Kind: engine.BackendInProcess}}}},
		{Bind: &engine.BindOp{BufferID: "baas", VportID: "rx"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	in, _ := eng.Ingress("app", "rx")
	in.Receive([][]byte{engine.PDCPDataFrame(9, 1, make([]byte, 40)), engine.PDCPDataFrame(9, 2, make([]byte, 40)),
		engine.PDCPStatusFrame(engine.PDCPStatus{TEID: 9, First: 1, Last: 2}),
		engine.PDCPStatusFrame(engine.PDCPStatus{TEID: 9, First: 5, Last: 4})})
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(metrics.New(eng))
	want := `
# HELP flowbuf_agent_buffer_arq_acked_total ARQ packets acknowledged.
# TYPE flowbuf_agent_buffer_arq_acked_total counter
flowbuf_agent_buffer_arq_acked_total{buffer="baas",owner="app"} 2
# HELP flowbuf_agent_buffer_arq_bad_status_total PDCP ARQ (BaaS) status messages refused as malformed (nothing changed).
# TYPE flowbuf_agent_buffer_arq_bad_status_total counter
flowbuf_agent_buffer_arq_bad_status_total{buffer="baas",owner="app"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "flowbuf_agent_buffer_arq_acked_total",
		"flowbuf_agent_buffer_arq_bad_status_total"); err != nil {
		t.Fatal(err)
	}
}
