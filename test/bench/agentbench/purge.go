// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

// purgePackets is what FMM's inter-buffer synchronisation purges in the
// issue's figure (fmm_sync_purge_ms_10k).
const purgePackets = 10000

// purge times PurgeUpTo over gRPC on a buffer holding purgePackets packets:
// the agent finds the named packet (IPv4 id + L4 checksum) and drops every
// packet up to it, inclusive, so the whole buffer is purged.
func (b *bench) purge() error {
	c, eng, stop, err := grpcAgent()
	if err != nil {
		return err
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.CreateBuffer(ctx, &pb.CreateBufferRequest{AppId: benchApp, BufferId: "fmm",
		Config: &pb.BufferConfig{CapacityPackets: 2 * purgePackets}}); err != nil {
		return fmt.Errorf("create buffer: %w", err)
	}
	if _, err := c.CreateVport(ctx, &pb.CreateVportRequest{AppId: benchApp, VportId: "rx",
		Config: &pb.VportConfig{Mode: pb.VportMode_VPORT_MODE_RX, Backend: &pb.VportConfig_InProcess{
			InProcess: &pb.InProcessBackend{Port: 1}}}}); err != nil {
		return fmt.Errorf("create vport: %w", err)
	}
	if _, err := c.Bind(ctx, &pb.BindRequest{AppId: benchApp, BufferId: "fmm", VportId: "rx"}); err != nil {
		return fmt.Errorf("bind: %w", err)
	}
	in, err := eng.Ingress(benchApp, "rx")
	if err != nil {
		return err
	}
	rounds := 30
	if b.quick {
		rounds = 10
	}
	var took []time.Duration
	for r := 0; r < rounds; r++ {
		fill(in)
		// Frame(seq) carries IPv4 id = seq and UDP checksum 1 (seq < 65536).
		last := &pb.PacketId{Ipv4Id: purgePackets - 1, L4Checksum: 1}
		start := time.Now()
		res, err := c.PurgeUpTo(ctx, &pb.PurgeUpToRequest{AppId: benchApp, BufferId: "fmm",
			PacketId: last, Inclusive: true})
		took = append(took, time.Since(start))
		if err != nil {
			return fmt.Errorf("purge: %w", err)
		}
		if !res.Found || res.PurgedPackets != purgePackets {
			return fmt.Errorf("purge round %d: found %v, purged %d of %d", r, res.Found,
				res.PurgedPackets, purgePackets)
		}
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.Emit("fmm_sync_purge_ms_10k", float64(percentile(took, 0.5).Nanoseconds())/1e6, "ms",
		map[string]any{"packets": purgePackets, "rounds": rounds, "inclusive": true,
			"p99_ms":    float64(percentile(took, 0.99).Nanoseconds()) / 1e6,
			"transport": "gRPC over TCP loopback", "what": "PurgeUpTo to the last held packet"})
	return nil
}

// fill puts purgePackets 60-byte lab frames (seq 0..n-1) into the buffer.
func fill(in engine.Ingress) {
	batch := make([][]byte, 0, batchSize)
	for seq := 0; seq < purgePackets; seq++ {
		batch = append(batch, nslab.Frame(make([]byte, frame64), frame64, uint32(seq), 0))
		if len(batch) == batchSize {
			in.Receive(batch)
			batch = batch[:0]
		}
	}
	if len(batch) > 0 {
		in.Receive(batch)
	}
}
