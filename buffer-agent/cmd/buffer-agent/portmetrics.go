// SPDX-License-Identifier: Apache-2.0

package main

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/flowbuf/flowbuf/buffer-agent/netio"
)

var (
	ringDrops = prometheus.NewDesc("flowbuf_agent_vport_ring_dropped_frames_total",
		"Frames the kernel dropped because the vport's RX ring was full (before the engine saw them).",
		[]string{"vport", "interface"}, nil)
	truncated = prometheus.NewDesc("flowbuf_agent_vport_truncated_frames_total",
		"Frames larger than an RX ring slot, not delivered.", []string{"vport", "interface"}, nil)
)

// portCollector exports the socket counters of LINUX_INTERFACE vports:
// losses that happen before a frame reaches the engine.
type portCollector struct{ f *netio.Factory }

func (c portCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- ringDrops
	ch <- truncated
}

func (c portCollector) Collect(ch chan<- prometheus.Metric) {
	for id, p := range c.f.Ports() {
		st := p.Stats()
		ch <- prometheus.MustNewConstMetric(ringDrops, prometheus.CounterValue, float64(st.RingDrops), id, p.Interface())
		ch <- prometheus.MustNewConstMetric(truncated, prometheus.CounterValue, float64(st.Truncated), id, p.Interface())
	}
}
