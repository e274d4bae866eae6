// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const chunk = 64 * 1024

// backgroundConfig is one sender's flags.
type backgroundConfig struct {
	peers      []string
	port       int
	rate       float64 // flows per second
	scale      float64
	duration   time.Duration
	grace      time.Duration
	out        string
	tags       []int
	shortBytes int
	shortDSCP  int
	seed       uint64
}

func parseBackground(args []string) (backgroundConfig, error) {
	var c backgroundConfig
	fs := flag.NewFlagSet("background", flag.ContinueOnError)
	peers := fs.String("peers", "", "sinks' IPs, comma-separated")
	fs.IntVar(&c.port, "port", 0, "the sinks' TCP port")
	fs.Float64Var(&c.rate, "rate", 0, "flow arrivals per second (Poisson)")
	fs.Float64Var(&c.scale, "scale", 1, "flow sizes x this")
	duration := fs.Float64("duration", 0, "seconds of arrivals")
	grace := fs.Float64("grace", 2, "seconds a flow may still finish after the arrivals")
	fs.StringVar(&c.out, "out", "", "file for the flows and the generator's figures")
	tags := fs.String("tags", "0", "DSCPs drawn at random per flow, comma-separated")
	fs.IntVar(&c.shortBytes, "short-bytes", 0, "flows below this are marked --short-dscp")
	fs.IntVar(&c.shortDSCP, "short-dscp", 0, "DSCP of short flows")
	fs.Uint64Var(&c.seed, "seed", 1, "random seed")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	c.duration = time.Duration(*duration * float64(time.Second))
	c.grace = time.Duration(*grace * float64(time.Second))
	if *peers == "" || c.port <= 0 || c.rate <= 0 || c.scale <= 0 || c.duration <= 0 ||
		c.out == "" {
		return c, fmt.Errorf("background: --peers, --port, --rate > 0, --scale > 0, " +
			"--duration > 0 and --out are required")
	}
	c.peers = strings.Split(*peers, ",")
	for _, t := range strings.Split(*tags, ",") {
		dscp, err := strconv.Atoi(t)
		if err != nil || dscp < 0 || dscp > 63 {
			return c, fmt.Errorf("background: tag %q is no DSCP (0-63)", t)
		}
		c.tags = append(c.tags, dscp)
	}
	return c, nil
}

// report is what a sender writes at its end.
type report struct {
	Flows        [][2]float64 `json:"flows"` // [size, FCT ms] of the flows that completed
	Started      int          `json:"started"`
	OfferedBytes int64        `json:"offered_bytes"` // the sizes of the flows started
	WrittenBytes int64        `json:"written_bytes"` // what the sockets took
	LagMsP99     float64      `json:"lag_ms_p99"`    // a flow's start after its arrival
	LagMsMax     float64      `json:"lag_ms_max"`
	CPUSeconds   float64      `json:"cpu_s"`
	WallSeconds  float64      `json:"wall_s"`
}

func runBackground(args []string) error {
	c, err := parseBackground(args)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(c.seed, 0))
	var (
		mu      sync.Mutex
		rep     report
		lags    []float64
		written atomic.Int64
	)
	start := time.Now()
	end := start.Add(c.duration)
	next := start.Add(arrivalGap(rng, c.rate))
	for next.Before(end) {
		time.Sleep(time.Until(next))
		lags = append(lags, float64(time.Since(next).Microseconds())/1e3)
		size := int64(max(1, webSearchSize(rng)*c.scale))
		dscp := c.tags[rng.IntN(len(c.tags))]
		if size < int64(c.shortBytes) {
			dscp = c.shortDSCP
		}
		peer := c.peers[rng.IntN(len(c.peers))]
		rep.Started++
		rep.OfferedBytes += size
		go func() {
			fct, ok := sendFlow(peer, c.port, size, dscp, end.Add(c.grace), &written)
			if ok {
				mu.Lock()
				rep.Flows = append(rep.Flows, [2]float64{float64(size), fct})
				mu.Unlock()
			}
		}()
		next = next.Add(arrivalGap(rng, c.rate))
	}
	time.Sleep(time.Until(end.Add(c.grace))) // what still runs then is cut off
	mu.Lock()
	defer mu.Unlock()
	rep.WrittenBytes = written.Load()
	rep.LagMsP99, rep.LagMsMax = percentile(lags, 0.99), percentile(lags, 1)
	rep.CPUSeconds, rep.WallSeconds = cpuSeconds(), time.Since(start).Seconds()
	if rep.Flows == nil {
		rep.Flows = [][2]float64{}
	}
	body, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	return os.WriteFile(c.out, body, 0o644)
}

func arrivalGap(rng *rand.Rand, rate float64) time.Duration {
	return time.Duration(rng.ExpFloat64() / rate * float64(time.Second))
}

// sendFlow sends one flow on a new connection marked dscp (the SYN too) and
// waits for the sink's answer; returns its FCT in ms, or false when it did
// not complete by deadline.
func sendFlow(peer string, port int, size int64, dscp int, deadline time.Time,
	written *atomic.Int64) (float64, bool) {
	start := time.Now()
	dialer := net.Dialer{Deadline: deadline, Control: markTOS(dscp)}
	conn, err := dialer.Dial("tcp", net.JoinHostPort(peer, strconv.Itoa(port)))
	if err != nil {
		return 0, false
	}
	defer conn.Close()
	conn.SetDeadline(deadline)
	var header [8]byte
	binary.BigEndian.PutUint64(header[:], uint64(size))
	if _, err := conn.Write(header[:]); err != nil {
		return 0, false
	}
	data := make([]byte, chunk)
	for left := size; left > 0; {
		n, err := conn.Write(data[:min(int64(chunk), left)])
		written.Add(int64(n))
		if err != nil {
			return 0, false
		}
		left -= int64(n)
	}
	if _, err := io.ReadFull(conn, header[:1]); err != nil {
		return 0, false
	}
	return float64(time.Since(start).Microseconds()) / 1e3, true
}

// markTOS sets the socket's DSCP before connect(), so that the SYN is
// classified as the flow is.
func markTOS(dscp int) func(network, address string, c syscall.RawConn) error {
	return func(_, _ string, c syscall.RawConn) error {
		var serr error
		if err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, syscall.IP_TOS, dscp<<2)
		}); err != nil {
			return err
		}
		return serr
	}
}

// percentile of values (q in 0..1); 0 when there are none.
func percentile(values []float64, q float64) float64 {
	if len(values) == 0 {
		return 0
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}
