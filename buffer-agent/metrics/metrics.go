// SPDX-License-Identifier: Apache-2.0

// Package metrics exports an engine's buffers, vports and memory pool as
// Prometheus metrics, read from the engine at scrape time (nothing on the
// packet path).
package metrics

import (
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

const ns = "flowbuf_agent"

var (
	bufLabels   = []string{"buffer", "owner"}
	vportLabels = []string{"vport", "owner"}

	poolUsed  = prometheus.NewDesc(ns+"_pool_used_bytes", "Bytes held in the shared packet pool.", nil, nil)
	poolLimit = prometheus.NewDesc(ns+"_pool_limit_bytes", "Hard limit of the shared packet pool.", nil, nil)

	bufState   = prometheus.NewDesc(ns+"_buffer_state", "1 for the buffer's derived state.", append(bufLabels, "state"), nil)
	bufOccP    = prometheus.NewDesc(ns+"_buffer_occupancy_packets", "Packets held.", bufLabels, nil)
	bufOccB    = prometheus.NewDesc(ns+"_buffer_occupancy_bytes", "Bytes held.", bufLabels, nil)
	bufInP     = prometheus.NewDesc(ns+"_buffer_in_packets_total", "Packets offered to the buffer.", bufLabels, nil)
	bufInB     = prometheus.NewDesc(ns+"_buffer_in_bytes_total", "Bytes offered to the buffer.", bufLabels, nil)
	bufOutP    = prometheus.NewDesc(ns+"_buffer_out_packets_total", "Packets sent from the buffer.", bufLabels, nil)
	bufOutB    = prometheus.NewDesc(ns+"_buffer_out_bytes_total", "Bytes sent from the buffer.", bufLabels, nil)
	bufDrops   = prometheus.NewDesc(ns+"_buffer_dropped_packets_total", "Packets dropped, by cause.", append(bufLabels, "cause"), nil)
	bufPoolDr  = prometheus.NewDesc(ns+"_buffer_pool_dropped_packets_total", "Packets dropped with cause pool, by the limit that refused them (pool_full, quota, dt_threshold, fb_threshold, journal).", append(bufLabels, "reason"), nil)
	poolCong   = prometheus.NewDesc(ns+"_pool_congested_buffers", "FB's N_p: buffers holding packets with an RX vport, by buffer priority.", []string{"priority"}, nil)
	poolAlg    = prometheus.NewDesc(ns+"_pool_admission", "1 for the pool's admission algorithm.", []string{"algorithm"}, nil)
	bufHWM     = prometheus.NewDesc(ns+"_buffer_high_watermark_packets", "Highest occupancy since creation.", bufLabels, nil)
	bufAge     = prometheus.NewDesc(ns+"_buffer_oldest_packet_age_seconds", "Age of the oldest held packet.", bufLabels, nil)
	bufResent  = prometheus.NewDesc(ns+"_buffer_arq_resent_total", "ARQ packets resent.", bufLabels, nil)
	bufAcked   = prometheus.NewDesc(ns+"_buffer_arq_acked_total", "ARQ packets acknowledged.", bufLabels, nil)
	bufAckedRs = prometheus.NewDesc(ns+"_buffer_arq_acked_after_resend_total", "PDCP ARQ (BaaS) packets acknowledged after at least one resend: delivered thanks to the buffer.", bufLabels, nil)
	bufBadStat = prometheus.NewDesc(ns+"_buffer_arq_bad_status_total", "PDCP ARQ (BaaS) status messages refused as malformed (nothing changed).", bufLabels, nil)
	bufRewound = prometheus.NewDesc(ns+"_buffer_rewound_total", "Frames sent again because a receive report named a packet sent before them (they never reached the far end).", bufLabels, nil)
	bufFired   = prometheus.NewDesc(ns+"_buffer_triggers_fired_total", "ArmTrigger triggers fired that set their vport modes.", bufLabels, nil)
	bufSyncAw  = prometheus.NewDesc(ns+"_buffer_sync_awaits_total", "Sync points purged to before they arrived (PurgeUpTo await_arrival; arrivals up to them are dropped), by how the wait ended: arrived, expired (at the bound), replaced (by a later sync point).", append(bufLabels, "outcome"), nil)
	bufSyncMax = prometheus.NewDesc(ns+"_buffer_sync_await_max_seconds", "Longest an awaited sync point took to arrive.", bufLabels, nil)
	bufReatt   = prometheus.NewDesc(ns+"_buffer_reattached_packets", "Packets held before the agent crashed and held again after its restart (state dir).", bufLabels, nil)
	bufMissed  = prometheus.NewDesc(ns+"_buffer_missed_while_down_packets", "Packets that reached the buffer's RX vports while the agent was down: lost.", bufLabels, nil)
	vpRxP      = prometheus.NewDesc(ns+"_vport_rx_packets_total", "Packets from the switch into the vport.", vportLabels, nil)
	vpTxP      = prometheus.NewDesc(ns+"_vport_tx_packets_total", "Packets from the vport back to the switch.", vportLabels, nil)
	vpTxErr    = prometheus.NewDesc(ns+"_vport_tx_errors_total", "Frames the vport's backend failed to send.", vportLabels, nil)
	vpDrops    = prometheus.NewDesc(ns+"_vport_dropped_packets_total", "Packets dropped at the vport, by cause.", append(vportLabels, "cause"), nil)
	sharedDrop = prometheus.NewDesc(ns+"_shared_backend_dropped_packets_total", "Frames a backend shared by tagged vports dropped: without a buffer tag header (untagged) or with a tag no vport has (unknown_tag).", []string{"backend", "cause"}, nil)
	allStates  = []engine.State{engine.StateFree, engine.StateBuffering, engine.StateServing, engine.StateForwarding, engine.StateStoring}
	causeNames = map[engine.DropCause]string{
		engine.DropOverflow: "overflow", engine.DropPool: "pool", engine.DropPurged: "purged",
		engine.DropAdmin: "admin", engine.DropTxMode: "tx_mode", engine.DropUnbound: "unbound",
		engine.DropArqExpired: "arq_expired",
	}
)

// Collector is a prometheus.Collector over an engine.
type Collector struct{ eng *engine.Engine }

// New returns a collector for eng.
func New(eng *engine.Engine) *Collector { return &Collector{eng: eng} }

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolUsed, poolLimit, bufState, bufOccP, bufOccB, bufInP, bufInB,
		bufOutP, bufOutB, bufDrops, bufPoolDr, poolCong, poolAlg, bufHWM, bufAge, bufResent, bufAcked, bufAckedRs, bufBadStat, bufRewound, bufFired, bufSyncAw, bufSyncMax, bufReatt, bufMissed, vpRxP, vpTxP, vpTxErr, vpDrops, sharedDrop} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	g, ctr := prometheus.GaugeValue, prometheus.CounterValue
	ch <- prometheus.MustNewConstMetric(poolUsed, g, float64(c.eng.PoolUsedBytes()))
	ch <- prometheus.MustNewConstMetric(poolLimit, g, float64(c.eng.Limits().PoolBytes))
	low, high := c.eng.PoolCongested()
	ch <- prometheus.MustNewConstMetric(poolCong, g, float64(low), "low")
	ch <- prometheus.MustNewConstMetric(poolCong, g, float64(high), "high")
	alg := c.eng.Admission().Algorithm
	for _, a := range []engine.Algorithm{engine.AdmitQuota, engine.AdmitDT, engine.AdmitFB} {
		v := 0.0
		if a == alg {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(poolAlg, g, v, a.String())
	}
	for _, b := range c.eng.AllBuffers() {
		l := []string{b.ID, b.Owner}
		for _, s := range allStates {
			v := 0.0
			if s == b.State {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(bufState, g, v, b.ID, b.Owner, strings.ToLower(s.String()))
		}
		st := b.Stats
		ch <- prometheus.MustNewConstMetric(bufOccP, g, float64(st.OccupancyPackets), l...)
		ch <- prometheus.MustNewConstMetric(bufOccB, g, float64(st.OccupancyBytes), l...)
		ch <- prometheus.MustNewConstMetric(bufInP, ctr, float64(st.PacketsIn), l...)
		ch <- prometheus.MustNewConstMetric(bufInB, ctr, float64(st.BytesIn), l...)
		ch <- prometheus.MustNewConstMetric(bufOutP, ctr, float64(st.PacketsOut), l...)
		ch <- prometheus.MustNewConstMetric(bufOutB, ctr, float64(st.BytesOut), l...)
		ch <- prometheus.MustNewConstMetric(bufHWM, g, float64(st.HighWatermarkPackets), l...)
		ch <- prometheus.MustNewConstMetric(bufAge, g, st.OldestPacketAge.Seconds(), l...)
		ch <- prometheus.MustNewConstMetric(bufResent, ctr, float64(st.ArqResent), l...)
		ch <- prometheus.MustNewConstMetric(bufAcked, ctr, float64(st.ArqAcked), l...)
		ch <- prometheus.MustNewConstMetric(bufAckedRs, ctr, float64(st.ArqAckedAfterResend), l...)
		ch <- prometheus.MustNewConstMetric(bufBadStat, ctr, float64(st.ArqBadStatus), l...)
		ch <- prometheus.MustNewConstMetric(bufRewound, ctr, float64(st.Rewound), l...)
		ch <- prometheus.MustNewConstMetric(bufFired, ctr, float64(st.TriggersFired), l...)
		if st.SyncAwaits > 0 {
			ch <- prometheus.MustNewConstMetric(bufSyncAw, ctr, float64(st.SyncAwaitsArrived), b.ID, b.Owner, "arrived")
			ch <- prometheus.MustNewConstMetric(bufSyncAw, ctr, float64(st.SyncAwaitsExpired), b.ID, b.Owner, "expired")
			ch <- prometheus.MustNewConstMetric(bufSyncAw, ctr, float64(st.SyncAwaitsReplaced), b.ID, b.Owner, "replaced")
			ch <- prometheus.MustNewConstMetric(bufSyncMax, g, st.SyncAwaitMax.Seconds(), l...)
		}
		if st.Reattached {
			ch <- prometheus.MustNewConstMetric(bufReatt, g, float64(st.ReattachedPackets), l...)
			ch <- prometheus.MustNewConstMetric(bufMissed, g, float64(st.MissedWhileDown), l...)
		}
		for _, d := range st.Drops {
			ch <- prometheus.MustNewConstMetric(bufDrops, ctr, float64(d.Packets), b.ID, b.Owner, causeNames[d.Cause])
		}
		for _, d := range st.PoolDrops {
			ch <- prometheus.MustNewConstMetric(bufPoolDr, ctr, float64(d.Packets), b.ID, b.Owner, d.Reason.String())
		}
	}
	for _, v := range c.eng.AllVports() {
		l := []string{v.ID, v.Owner}
		ch <- prometheus.MustNewConstMetric(vpRxP, ctr, float64(v.Stats.RxPackets), l...)
		ch <- prometheus.MustNewConstMetric(vpTxP, ctr, float64(v.Stats.TxPackets), l...)
		ch <- prometheus.MustNewConstMetric(vpTxErr, ctr, float64(v.Stats.TxErrors), l...)
		for _, d := range v.Stats.Drops {
			ch <- prometheus.MustNewConstMetric(vpDrops, ctr, float64(d.Packets), v.ID, v.Owner, causeNames[d.Cause])
		}
	}
	for _, s := range c.eng.SharedBackends() {
		ch <- prometheus.MustNewConstMetric(sharedDrop, ctr, float64(s.UntaggedPackets), s.Target, "untagged")
		ch <- prometheus.MustNewConstMetric(sharedDrop, ctr, float64(s.UnknownTagPackets), s.Target, "unknown_tag")
	}
}
