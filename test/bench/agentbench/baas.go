// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/test/bench/benchreport"
)

// The gNodeB's buffer-as-a-service (PDCP ARQ buffers) fed in process, as
// the hybrid gNodeB paper measures its DPDK service (7.6 Mpps of 128-byte
// packets on one core of a 2014 Xeon E5-2680 v3): each feeder is one cell
// with a buffer of its own, sending 128-byte PDCP data clones and, after
// every baasAckEvery of them, a status acknowledging them as one range
// (the acks trail by one batch, so about a batch is held). Throughput
// counts every frame the service took (data and status).
const (
	baasFrameBytes = 128
	baasAckEvery   = 8
	baasBatchData  = 56 // + 7 statuses = 63 frames a batch
)

func baasEngine(cells int) (*engine.Engine, []engine.Ingress, error) {
	eng := newEngine(engine.Options{
		Limits:   engine.Limits{PoolBytes: 1 << 30, MaxBufferBytes: 1 << 28, MaxBuffers: uint32(cells), MaxVports: uint32(2 * cells)},
		Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendInProcess: &countingFactory{}},
	})
	ins := make([]engine.Ingress, cells)
	for i := 0; i < cells; i++ {
		b, rx, tx := fmt.Sprintf("baas%d", i), fmt.Sprintf("brx%d", i), fmt.Sprintf("btx%d", i)
		mk := func(mode engine.VportMode, port int) engine.VportConfig {
			return engine.VportConfig{Mode: mode, Backend: engine.BackendSpec{Kind: engine.BackendInProcess, Port: uint32(port)}}
		}
		_, err := eng.Batch(benchApp, []engine.Op{
			{CreateBuffer: &engine.CreateBufferOp{ID: b, Config: engine.BufferConfig{CapacityPackets: 65536,
				Queue: engine.QueueARQ, Arq: engine.ArqConfig{Buckets: 10, BucketUs: 1000, MaxResends: 3, Protocol: engine.ArqPDCP}}}},
			{CreateVport: &engine.CreateVportOp{ID: rx, Config: mk(engine.ModeRX, 2*i)}},
			{CreateVport: &engine.CreateVportOp{ID: tx, Config: mk(engine.ModeTX, 2*i+1)}},
			{Bind: &engine.BindOp{BufferID: b, VportID: rx}},
			{Bind: &engine.BindOp{BufferID: b, VportID: tx}},
		})
		if err != nil {
			eng.Close()
			return nil, nil, err
		}
		if ins[i], err = eng.Ingress(benchApp, rx); err != nil {
			eng.Close()
			return nil, nil, err
		}
	}
	return eng, ins, nil
}

// baasCell feeds one cell's buffer until stop; it counts frames taken.
func baasCell(in engine.Ingress, teid uint32, stop *atomic.Bool, taken *atomic.Uint64) {
	data := engine.PDCPDataFrame(teid, 0, make([]byte, baasFrameBytes-24))
	batch := make([][]byte, 0, baasBatchData+baasBatchData/baasAckEvery)
	var sent uint64 // data PDUs so far; the SN is this modulo the SN space
	for !stop.Load() {
		batch = batch[:0]
		for i := 0; i < baasBatchData; i++ {
			f := engine.GetFrame(baasFrameBytes)
			copy(f, data)
			binary.BigEndian.PutUint32(f[20:], 1<<31|uint32(sent%engine.PDCPSNSpace)) // PDCP word: D/C = data, SN
			batch = append(batch, f)
			sent++
			if sent%baasAckEvery == 0 && sent >= baasBatchData+baasAckEvery {
				// Acknowledge the group sent one batch earlier (across the
				// SN wrap too: the 64 PDUs before it were never acked).
				first := uint32((sent - baasBatchData - baasAckEvery) % engine.PDCPSNSpace)
				st := engine.PDCPStatusFrame(engine.PDCPStatus{TEID: teid, First: first, Last: first + baasAckEvery - 1})
				f := engine.GetFrame(len(st))
				copy(f, st)
				batch = append(batch, f)
			}
		}
		in.Receive(batch)
		taken.Add(uint64(len(batch)))
	}
}

// processCPU is the CPU time this process used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAverage is the first field of /proc/loadavg ("" where there is none).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return strings.Fields(string(b))[0]
}

// baasRate runs `cells` cells on `procs` cores for dur; it returns the
// frames taken per second and the frames per CPU-second this process got
// meanwhile (on a loaded machine the feeders get a fraction of a core).
func baasRate(cells, procs int, dur time.Duration) (rate, perCPU float64, err error) {
	eng, ins, err := baasEngine(cells)
	if err != nil {
		return 0, 0, err
	}
	defer eng.Close()
	old := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(old)
	var stop atomic.Bool
	var taken atomic.Uint64
	var wg sync.WaitGroup
	for i, in := range ins {
		wg.Add(1)
		go func(in engine.Ingress, teid uint32) {
			defer wg.Done()
			baasCell(in, teid, &stop, &taken)
		}(in, uint32(0x1000+i))
	}
	time.Sleep(100 * time.Millisecond)
	c0, t0, cpu0 := taken.Load(), time.Now(), processCPU()
	time.Sleep(dur)
	c1, t1, cpu1 := taken.Load(), time.Now(), processCPU()
	stop.Store(true)
	wg.Wait()
	if err := baasKeptAndAcked(eng, cells); err != nil {
		return 0, 0, err
	}
	frames := float64(c1 - c0)
	return frames / t1.Sub(t0).Seconds(), frames / (cpu1 - cpu0).Seconds(), nil
}

// baasKeptAndAcked checks that each cell's buffer took the data clones as
// PDCP PDUs and the statuses as acknowledgements: a feeder whose frames
// the buffer refused would measure the refusal, not the service.
func baasKeptAndAcked(eng *engine.Engine, cells int) error {
	for i := 0; i < cells; i++ {
		b, err := eng.QueryBuffer(benchApp, fmt.Sprintf("baas%d", i))
		if err != nil {
			return err
		}
		if st := b.Stats; st.ArqNotRadio != 0 || st.ArqBadStatus != 0 || st.ArqAcked == 0 || st.PacketsIn == 0 {
			return fmt.Errorf("cell %d: the buffer did not keep and acknowledge the feed: %d PDUs in, %d acked, %d not radio, %d bad statuses",
				i, st.PacketsIn, st.ArqAcked, st.ArqNotRadio, st.ArqBadStatus)
		}
	}
	return nil
}

// baas measures one core (one cell) and two (two cells), alternating
// rounds so that the machine's load weighs on both alike.
func (b *bench) baas() error {
	const rounds = 3
	var one, two, oneCPU, twoCPU float64
	load := loadAverage()
	for r := 0; r < rounds; r++ {
		x, xc, err := baasRate(1, 1, b.dur/rounds)
		if err != nil {
			return err
		}
		y, yc, err := baasRate(2, 2, b.dur/rounds)
		if err != nil {
			return err
		}
		one, oneCPU = one+x/rounds, oneCPU+xc/rounds
		two, twoCPU = two+y/rounds, twoCPU+yc/rounds
	}
	perCPU := map[int]float64{1: oneCPU, 2: twoCPU}
	cond := func(cores int) map[string]any {
		return map[string]any{"frame_bytes": baasFrameBytes, "cores": cores, "cells": cores, "gomaxprocs": cores,
			"mpps_per_cpu_second": benchreport.Round(perCPU[cores] / 1e6), "load_average_1m": load,
			"status_per_data": fmt.Sprintf("1/%d (range of %d)", baasAckEvery, baasAckEvery), "rounds": rounds,
			"path": "Ingress.Receive of data clones + status frames, PDCP ARQ buffer, wheel 10 x 1 ms, in process"}
	}
	b.Emit("baas_mpps_1core_128b", one/1e6, "Mpps", cond(1))
	b.Emit("baas_mpps_2core_128b", two/1e6, "Mpps", cond(2))
	b.Emit("baas_scaling_2_vs_1_core", two/one, "ratio", map[string]any{
		"mpps_1core": benchreport.Round(one / 1e6), "mpps_2core": benchreport.Round(two / 1e6),
		"machine_cores": runtime.NumCPU(), "rounds": rounds, "load_average_1m": load,
		"note": "the 2 cores are shared with other work: the feeders get what the scheduler leaves"})
	return nil
}
