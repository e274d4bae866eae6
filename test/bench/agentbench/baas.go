// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/engine/baasfeed"
	"github.com/flowbuf/flowbuf/test/bench/benchreport"
)

// The gNodeB's buffer-as-a-service (PDCP ARQ buffers) fed in process, as
// the hybrid gNodeB paper measures its DPDK service (7.6 Mpps of 128-byte
// packets on one core of a 2014 Xeon E5-2680 v3): each feeder is one cell
// with a buffer of its own, sending 128-byte PDCP data clones and, after
// every baasfeed.AckEvery of them, a status acknowledging them as one range
// (the acks trail by one batch, so about a batch is held). Throughput
// counts every frame the service took (data and status).
//
// The machine is shared, so each case reports, besides the frames per
// wall-clock second, what it ran on: the CPU time the process got (busy
// cores = CPU / wall), the feeder's and the engine's share of it, and how
// busy the whole machine was meanwhile (/proc/stat) and its load average.
// The feed's sizes are package baasfeed's.

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

// Phases of a measurement: the cells warm up, are measured, stop.
const (
	phaseWarm int32 = iota
	phaseMeasure
	phaseStop
)

// cellStats is what one cell's goroutine measured in the measure phase;
// only that goroutine writes it (padded: the cells share no cache line).
type cellStats struct {
	frames      uint64
	threadCPU   time.Duration // the cell's OS thread's CPU time
	feed, serve time.Duration // wall time building batches / in Receive
	_           [64]byte
}

// baasCell feeds one cell's buffer on an OS thread of its own until the
// stop phase, measuring the measure phase.
func baasCell(in engine.Ingress, teid uint32, phase *atomic.Int32, st *cellStats) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	fd := baasfeed.New(teid)
	var cpu0 time.Duration
	measuring := false
	t0 := time.Now()
	for {
		p := phase.Load()
		if p == phaseStop {
			break
		}
		if p == phaseMeasure && !measuring {
			measuring, cpu0, t0 = true, threadCPU(), time.Now()
		}
		batch := fd.Next()
		t1 := time.Now()
		in.Receive(batch)
		t2 := time.Now()
		if measuring {
			st.frames += uint64(len(batch))
			st.feed += t1.Sub(t0)
			st.serve += t2.Sub(t1)
		}
		t0 = t2
	}
	if measuring {
		st.threadCPU = threadCPU() - cpu0
	}
}

// threadCPU is the CPU time of the calling OS thread.
func threadCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU is the CPU time this process used so far.
func processCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// machineBusy reads the busy and total CPU time of the whole machine from
// /proc/stat's first line, in clock ticks (0, 0 where there is none).
func machineBusy() (busy, total uint64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	for i, f := range strings.Fields(line)[1:] {
		v, _ := strconv.ParseUint(f, 10, 64)
		total += v
		if i != 3 && i != 4 { // idle, iowait
			busy += v
		}
	}
	return busy, total
}

// loadAverage is the first field of /proc/loadavg ("" where there is none).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return strings.Fields(string(b))[0]
}

// baasRound is one measurement of some cells on as many cores.
type baasRound struct {
	frames     uint64
	wall, cpu  time.Duration // wall time; CPU time of the whole process
	workerCPU  time.Duration // the cells' threads' CPU time
	feedShare  float64       // of the cells' wall time, building batches
	machineCPU float64       // busy cores of the whole machine (all processes)
}

func (r baasRound) mpps() float64           { return float64(r.frames) / r.wall.Seconds() / 1e6 }
func (r baasRound) mppsPerCPU() float64     { return float64(r.frames) / r.cpu.Seconds() / 1e6 }
func (r baasRound) busyCores() float64      { return r.cpu.Seconds() / r.wall.Seconds() }
func (r baasRound) otherBusyCores() float64 { return max(r.machineCPU-r.busyCores(), 0) }

// engineNs and feederNs split the cells' thread CPU time per frame by the
// wall time each part took.
func (r baasRound) engineNs() float64 {
	return float64(r.workerCPU.Nanoseconds()) * (1 - r.feedShare) / float64(r.frames)
}

func (r baasRound) feederNs() float64 {
	return float64(r.workerCPU.Nanoseconds()) * r.feedShare / float64(r.frames)
}

// baasRate runs `cells` cells on as many cores (GOMAXPROCS) for dur.
func baasRate(cells int, dur time.Duration) (baasRound, error) {
	eng, ins, err := baasEngine(cells)
	if err != nil {
		return baasRound{}, err
	}
	defer eng.Close()
	old := runtime.GOMAXPROCS(cells)
	defer runtime.GOMAXPROCS(old)
	var phase atomic.Int32
	stats := make([]cellStats, cells)
	var wg sync.WaitGroup
	for i, in := range ins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			baasCell(in, uint32(0x1000+i), &phase, &stats[i])
		}()
	}
	time.Sleep(100 * time.Millisecond)
	m0, tot0 := machineBusy()
	t0, cpu0 := time.Now(), processCPU()
	phase.Store(phaseMeasure)
	time.Sleep(dur)
	phase.Store(phaseStop)
	t1, cpu1 := time.Now(), processCPU()
	m1, tot1 := machineBusy()
	wg.Wait()
	if err := baasKeptAndAcked(eng, cells); err != nil {
		return baasRound{}, err
	}
	r := baasRound{wall: t1.Sub(t0), cpu: cpu1 - cpu0}
	var feed, serve time.Duration
	for _, st := range stats {
		r.frames += st.frames
		r.workerCPU += st.threadCPU
		feed, serve = feed+st.feed, serve+st.serve
	}
	if feed+serve > 0 {
		r.feedShare = feed.Seconds() / (feed + serve).Seconds()
	}
	if tot1 > tot0 {
		r.machineCPU = float64(runtime.NumCPU()) * float64(m1-m0) / float64(tot1-tot0)
	}
	if r.frames == 0 || r.cpu <= 0 {
		return baasRound{}, fmt.Errorf("%d cells took no frames in %v (CPU %v)", cells, r.wall, r.cpu)
	}
	return r, nil
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

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// medianOf is the median over rounds of f.
func medianOf(rs []baasRound, f func(baasRound) float64) float64 {
	xs := make([]float64, len(rs))
	for i, r := range rs {
		xs[i] = f(r)
	}
	return median(xs)
}

// baas measures one core (one cell) and two (two cells), alternating
// rounds so that the machine's load weighs on both alike, and reports
// the medians of the rounds.
func (b *bench) baas() error {
	rounds := 5
	if b.quick {
		rounds = 3
	}
	dur := b.dur / 2
	loadBefore := loadAverage()
	one := make([]baasRound, rounds)
	two := make([]baasRound, rounds)
	ratio := make([]float64, rounds)
	for r := 0; r < rounds; r++ {
		var err error
		if one[r], err = baasRate(1, dur); err != nil {
			return err
		}
		if two[r], err = baasRate(2, dur); err != nil {
			return err
		}
		ratio[r] = two[r].mpps() / one[r].mpps()
	}
	loadAfter := loadAverage()
	cond := func(cores int, rs []baasRound) map[string]any {
		return map[string]any{"frame_bytes": baasfeed.FrameBytes, "cores": cores, "cells": cores, "gomaxprocs": cores,
			"statistic":           fmt.Sprintf("median of %d rounds of %v, alternating 1 and 2 cores", rounds, dur),
			"mpps_per_cpu_second": benchreport.Round(medianOf(rs, baasRound.mppsPerCPU)),
			"busy_cores":          benchreport.Round(medianOf(rs, baasRound.busyCores)),
			"engine_ns_per_frame": benchreport.Round(medianOf(rs, baasRound.engineNs)),
			"feeder_ns_per_frame": benchreport.Round(medianOf(rs, baasRound.feederNs)),
			"other_busy_cores":    benchreport.Round(medianOf(rs, baasRound.otherBusyCores)),
			"machine_cores":       runtime.NumCPU(),
			"load_average_1m":     loadBefore + " -> " + loadAfter,
			"status_per_data":     fmt.Sprintf("1/%d (range of %d)", baasfeed.AckEvery, baasfeed.AckEvery),
			"path":                "Ingress.Receive of data clones + status frames, PDCP ARQ buffer, wheel 10 x 1 ms, in process"}
	}
	oneMpps, twoMpps := medianOf(one, baasRound.mpps), medianOf(two, baasRound.mpps)
	b.Emit("baas_mpps_1core_128b", oneMpps, "Mpps", cond(1, one))
	b.Emit("baas_mpps_2core_128b", twoMpps, "Mpps", cond(2, two))
	onePerCPU, twoPerCPU := medianOf(one, baasRound.mppsPerCPU), medianOf(two, baasRound.mppsPerCPU)
	b.Emit("baas_scaling_2_vs_1_core", median(ratio), "ratio", map[string]any{
		"mpps_1core": benchreport.Round(oneMpps), "mpps_2core": benchreport.Round(twoMpps),
		"statistic":              fmt.Sprintf("median of %d rounds' ratios", rounds),
		"per_cpu_second_scaling": benchreport.Round(2 * twoPerCPU / onePerCPU),
		"busy_cores_1core":       benchreport.Round(medianOf(one, baasRound.busyCores)),
		"busy_cores_2core":       benchreport.Round(medianOf(two, baasRound.busyCores)),
		"machine_cores":          runtime.NumCPU(), "load_average_1m": loadBefore + " -> " + loadAfter,
		"note": "wall-clock ratio: the 2 cores are shared with other work and the cells get what the scheduler leaves " +
			"(busy_cores); per_cpu_second_scaling is 2 x the ratio of Mpps per CPU-second, the scaling with both cores free"})
	return nil
}
