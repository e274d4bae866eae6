// SPDX-License-Identifier: Apache-2.0

// Package admin is pbswitch's own HTTP API for what P4Runtime does not
// carry: the shared buffer's admission (read and changed while the switch
// runs) and the data plane's counters. It serves JSON:
//
//	GET /v1/buffer   the shared buffer: size, occupancy, algorithm, classes
//	PUT /v1/buffer          replace the algorithm, the classes, single queue or not
//	PUT /v1/buffer/alphas   replace the queues' own DT alphas (FBA)
//	GET /v1/stats           drops by cause, per port and per queue
//
// A bad request is answered 400 (409 when the switch has no shared
// buffer, or per-queue alphas are set while it does not run DT) with
// {"error": "..."}, and changes nothing.
package admin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

// Class is one queue's class in the API: its alpha and FB priority.
type Class struct {
	Queue int `json:"queue"`
	// Alpha defaults to 1 when omitted.
	Alpha *float64 `json:"alpha,omitempty"`
	// Priority is "low" (the default) or "high".
	Priority string `json:"priority,omitempty"`
}

// BufferSetting is the body of PUT /v1/buffer. It replaces the whole
// setting: queues it does not list get alpha 1, low priority.
type BufferSetting struct {
	Algorithm string  `json:"algorithm"`
	Classes   []Class `json:"classes,omitempty"`
	// SingleQueue makes every port one queue: a packet's priority then
	// picks only its class (alpha, FB priority), FB's single-queue mode.
	SingleQueue bool `json:"single_queue,omitempty"`
}

// QueueAlpha is one queue's own DT alpha in PUT /v1/buffer/alphas.
type QueueAlpha struct {
	Port  uint32  `json:"port"`
	Queue int     `json:"queue"`
	Alpha float64 `json:"alpha"`
}

// QueueAlphas is the body of PUT /v1/buffer/alphas: every queue's own
// alpha; the queues it does not list go back to their class's.
type QueueAlphas struct {
	Alphas []QueueAlpha `json:"alphas"`
}

// Buffer is the answer of GET and PUT /v1/buffer. Bytes 0 means the
// switch has no shared buffer (each queue has its own packet limit).
type Buffer struct {
	Bytes     int64   `json:"bytes"`
	UsedBytes int64   `json:"used_bytes"`
	Algorithm string  `json:"algorithm,omitempty"`
	Classes   []Class `json:"classes,omitempty"`
	// SingleQueue: every port is one queue (see BufferSetting).
	SingleQueue bool `json:"single_queue"`
	// Congested counts, per queue index, the ports where that queue holds
	// packets (FB's congested queues).
	Congested []int `json:"congested,omitempty"`
}

// Queue is one priority queue of a port in GET /v1/stats.
type Queue struct {
	Queue   int   `json:"queue"`
	Packets int   `json:"packets"`
	Bytes   int64 `json:"bytes"`
	// ThresholdBytes is the length below which the queue takes a packet
	// now (with a shared buffer only).
	ThresholdBytes *float64 `json:"threshold_bytes,omitempty"`
	// DequeuedBytes counts what the queue has sent: a controller's
	// dequeue rates are its differences over time.
	DequeuedBytes uint64 `json:"dequeued_bytes"`
	// Alpha is the queue's own DT alpha, when one is set (FBA).
	Alpha *float64          `json:"alpha,omitempty"`
	Drops map[string]uint64 `json:"drops"`
}

// Port is one port in GET /v1/stats.
type Port struct {
	RxFrames   uint64  `json:"rx_frames"`
	TxFrames   uint64  `json:"tx_frames"`
	QueueDepth int     `json:"queue_depth"`
	Queues     []Queue `json:"queues"`
}

// Stats is the answer of GET /v1/stats.
type Stats struct {
	// Scheduler is how the ports choose which queue sends next: "sp"
	// (strict priority) or "rr" (round robin).
	Scheduler string            `json:"scheduler"`
	Drops     map[string]uint64 `json:"drops"`
	Ports     map[string]Port   `json:"ports"`
	Buffer    *Buffer           `json:"buffer,omitempty"`
}

// Handler serves the API for sw.
func Handler(sw *dataplane.Switch) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/buffer", func(w http.ResponseWriter, r *http.Request) {
		reply(w, http.StatusOK, buffer(sw))
	})
	mux.HandleFunc("PUT /v1/buffer", func(w http.ResponseWriter, r *http.Request) {
		cfg, err := decodeSetting(r.Body)
		if err != nil {
			fail(w, http.StatusBadRequest, err)
			return
		}
		if err := sw.SetBufferConfig(cfg); err != nil {
			fail(w, refusal(err), err)
			return
		}
		reply(w, http.StatusOK, buffer(sw))
	})
	mux.HandleFunc("PUT /v1/buffer/alphas", func(w http.ResponseWriter, r *http.Request) {
		var body QueueAlphas
		if err := decodeOne(r.Body, &body, "a list of queue alphas"); err != nil {
			fail(w, http.StatusBadRequest, err)
			return
		}
		alphas := make([]dataplane.QueueAlpha, len(body.Alphas))
		for i, a := range body.Alphas {
			alphas[i] = dataplane.QueueAlpha{Port: a.Port, Queue: a.Queue, Alpha: a.Alpha}
		}
		if err := sw.SetQueueAlphas(alphas); err != nil {
			fail(w, refusal(err), err)
			return
		}
		reply(w, http.StatusOK, body)
	})
	mux.HandleFunc("GET /v1/stats", func(w http.ResponseWriter, r *http.Request) {
		reply(w, http.StatusOK, stats(sw))
	})
	return mux
}

// maxBody bounds a PUT body: a setting is a few hundred bytes.
const maxBody = 64 << 10

// refusal is the status of a setting the switch refused: 409 when the
// switch's state is what forbids it, 400 when the setting is bad.
func refusal(err error) int {
	if errors.Is(err, dataplane.ErrNoSharedBuffer) || errors.Is(err, dataplane.ErrNotDT) {
		return http.StatusConflict
	}
	return http.StatusBadRequest
}

// decodeOne reads exactly one JSON value of what into v, refusing unknown
// fields.
func decodeOne(body io.Reader, v any, what string) error {
	dec := json.NewDecoder(io.LimitReader(body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the body is not %s: %w", what, err)
	}
	if dec.More() {
		return fmt.Errorf("the body holds more than one value: want %s", what)
	}
	return nil
}

func decodeSetting(body io.Reader) (dataplane.BufferConfig, error) {
	var s BufferSetting
	if err := decodeOne(body, &s, "a buffer setting"); err != nil {
		return dataplane.BufferConfig{}, err
	}
	alg, err := dataplane.ParseAlgorithm(s.Algorithm)
	if err != nil {
		return dataplane.BufferConfig{}, err
	}
	cfg := dataplane.DefaultBufferConfig()
	cfg.Algorithm = alg
	cfg.SingleQueue = s.SingleQueue
	var seen [dataplane.NumPriorities]bool
	for _, c := range s.Classes {
		if c.Queue < 0 || c.Queue >= dataplane.NumPriorities {
			return dataplane.BufferConfig{}, fmt.Errorf("class of queue %d: want a queue in [0, %d]", c.Queue, dataplane.NumPriorities-1)
		}
		if seen[c.Queue] {
			return dataplane.BufferConfig{}, fmt.Errorf("queue %d given twice", c.Queue)
		}
		seen[c.Queue] = true
		cl := &cfg.Classes[c.Queue]
		if c.Alpha != nil {
			cl.Alpha = *c.Alpha
		}
		switch c.Priority {
		case "", "low":
		case "high":
			cl.High = true
		default:
			return dataplane.BufferConfig{}, fmt.Errorf("queue %d: priority %q, want low or high", c.Queue, c.Priority)
		}
	}
	return cfg, nil
}

func buffer(sw *dataplane.Switch) Buffer {
	b, ok := sw.BufferStats()
	if !ok {
		return Buffer{}
	}
	out := Buffer{Bytes: b.Bytes, UsedBytes: b.UsedBytes, Algorithm: b.Config.Algorithm.String(),
		SingleQueue: b.Config.SingleQueue, Congested: b.Congested[:]}
	for q, c := range b.Config.Classes {
		alpha, prio := c.Alpha, "low"
		if c.High {
			prio = "high"
		}
		out.Classes = append(out.Classes, Class{Queue: q, Alpha: &alpha, Priority: prio})
	}
	return out
}

func stats(sw *dataplane.Switch) Stats {
	st := sw.Stats()
	out := Stats{Scheduler: sw.Scheduler().String(), Drops: st.Drops, Ports: make(map[string]Port, len(st.Ports))}
	for id, p := range st.Ports {
		port := Port{RxFrames: p.RxFrames, TxFrames: p.TxFrames, QueueDepth: p.QueueDepth}
		for q, qs := range p.Queues {
			queue := Queue{Queue: q, Packets: qs.Packets, Bytes: qs.Bytes, DequeuedBytes: qs.DequeuedBytes, Drops: qs.Drops}
			if st.Buffer != nil {
				queue.ThresholdBytes = &qs.Threshold
			}
			if qs.Alpha > 0 {
				queue.Alpha = &qs.Alpha
			}
			port.Queues = append(port.Queues, queue)
		}
		out.Ports[strconv.FormatUint(uint64(id), 10)] = port
	}
	if st.Buffer != nil {
		b := buffer(sw)
		out.Buffer = &b
	}
	return out
}

func reply(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client went away: nothing to do
}

func fail(w http.ResponseWriter, code int, err error) {
	reply(w, code, map[string]string{"error": err.Error()})
}
