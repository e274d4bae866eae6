// SPDX-License-Identifier: Apache-2.0

package admin

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

func call(t *testing.T, srv *httptest.Server, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func getBuffer(t *testing.T, srv *httptest.Server) Buffer {
	t.Helper()
	code, body := call(t, srv, http.MethodGet, "/v1/buffer", "")
	var b Buffer
	if err := json.Unmarshal(body, &b); code != http.StatusOK || err != nil {
		t.Fatalf("GET /v1/buffer: %d %s (%v)", code, body, err)
	}
	return b
}

func newSwitch(t *testing.T, bytes int64) (*dataplane.Switch, *httptest.Server) {
	sw := dataplane.New(dataplane.Options{CPUPort: 255, SharedBufferBytes: bytes})
	t.Cleanup(func() { sw.Close() })
	srv := httptest.NewServer(Handler(sw))
	t.Cleanup(srv.Close)
	return sw, srv
}

// TestPutBufferChangesTheAdmissionAtRunTime: a PUT replaces the algorithm
// and the classes (unlisted queues back to alpha 1, low), and GET shows it.
func TestPutBufferChangesTheAdmissionAtRunTime(t *testing.T) {
	sw, srv := newSwitch(t, 1<<20)
	b := getBuffer(t, srv)
	if b.Bytes != 1<<20 || b.UsedBytes != 0 || b.Algorithm != "dt" || len(b.Classes) != dataplane.NumPriorities ||
		*b.Classes[3].Alpha != 1 || b.Classes[3].Priority != "low" {
		t.Fatalf("GET before any PUT: %+v, want 1 MiB, dt, alpha 1, low", b)
	}
	code, body := call(t, srv, http.MethodPut, "/v1/buffer",
		`{"algorithm": "fb", "classes": [{"queue": 7, "alpha": 2, "priority": "high"}, {"queue": 0, "alpha": 0.5}]}`)
	if code != http.StatusOK {
		t.Fatalf("PUT: %d %s", code, body)
	}
	want := dataplane.DefaultBufferConfig()
	want.Algorithm = dataplane.FB
	want.Classes[7] = dataplane.ClassConfig{Alpha: 2, High: true}
	want.Classes[0].Alpha = 0.5
	if got, _ := sw.BufferStats(); got.Config != want {
		t.Fatalf("the switch admits by %+v, want %+v", got.Config, want)
	}
	b = getBuffer(t, srv)
	if b.Algorithm != "fb" || *b.Classes[7].Alpha != 2 || b.Classes[7].Priority != "high" || *b.Classes[0].Alpha != 0.5 {
		t.Fatalf("GET after the PUT: %+v", b)
	}
	if b.SingleQueue {
		t.Fatal("GET says single queue after a PUT without it")
	}
	// The single-queue deployment: every port one queue, classes by priority.
	if code, body := call(t, srv, http.MethodPut, "/v1/buffer", `{"algorithm": "fb", "single_queue": true}`); code != http.StatusOK {
		t.Fatalf("PUT single queue: %d %s", code, body)
	}
	if got, _ := sw.BufferStats(); !got.Config.SingleQueue || !getBuffer(t, srv).SingleQueue {
		t.Fatalf("after PUT single_queue: %+v", got.Config)
	}
	// A second PUT replaces the whole setting: queue 7 is back to default.
	if code, body := call(t, srv, http.MethodPut, "/v1/buffer", `{"algorithm": "cs"}`); code != http.StatusOK {
		t.Fatalf("PUT cs: %d %s", code, body)
	}
	if got, _ := sw.BufferStats(); got.Config.Algorithm != dataplane.CompleteSharing || got.Config.Classes[7] != (dataplane.ClassConfig{Alpha: 1}) || got.Config.SingleQueue {
		t.Fatalf("after PUT cs: %+v", got.Config)
	}
}

// TestBadRequestsAreRefusedAndChangeNothing: each bad request gets its
// status and a message saying what is wrong; the admission stays.
func TestBadRequestsAreRefusedAndChangeNothing(t *testing.T) {
	sw, srv := newSwitch(t, 1<<20)
	before, _ := sw.BufferStats()
	for _, c := range []struct {
		method, body string
		code         int
		want         string
	}{
		{http.MethodPut, `not json`, 400, "the body is not a buffer setting"},
		{http.MethodPut, `{}`, 400, `unknown buffer algorithm ""`},
		{http.MethodPut, `{"algorithm": "red"}`, 400, `unknown buffer algorithm "red"`},
		{http.MethodPut, `{"algorithm": "fb", "alphas": [1]}`, 400, `unknown field "alphas"`},
		{http.MethodPut, `{"algorithm": "fb"} {"algorithm": "dt"}`, 400, "more than one"},
		{http.MethodPut, `{"algorithm": "fb", "classes": [{"queue": 8}]}`, 400, "queue 8: want a queue in [0, 7]"},
		{http.MethodPut, `{"algorithm": "fb", "classes": [{"queue": -1}]}`, 400, "want a queue in [0, 7]"},
		{http.MethodPut, `{"algorithm": "fb", "classes": [{"queue": 1}, {"queue": 1}]}`, 400, "queue 1 given twice"},
		{http.MethodPut, `{"algorithm": "fb", "classes": [{"queue": 1, "alpha": 0}]}`, 400, "alpha 0 must be a finite number > 0"},
		{http.MethodPut, `{"algorithm": "dt", "classes": [{"queue": 2, "alpha": -0.5}]}`, 400, "alpha -0.5 must be"},
		{http.MethodPut, `{"algorithm": "fb", "classes": [{"queue": 1, "priority": "urgent"}]}`, 400, `priority "urgent", want low or high`},
		{http.MethodPut, `{"algorithm": "fb", "classes": [{"queue": 1, "alpha": "2"}]}`, 400, "not a buffer setting"},
		{http.MethodPut, `{"algorithm": "fb", "single_queue": "yes"}`, 400, "not a buffer setting"},
		{http.MethodDelete, ``, 405, ""},
		{http.MethodPost, `{"algorithm": "fb"}`, 405, ""},
	} {
		code, body := call(t, srv, c.method, "/v1/buffer", c.body)
		var answer struct{ Error string }
		if c.code == 400 {
			if err := json.Unmarshal(body, &answer); err != nil {
				t.Errorf("%s %s: the error is not JSON: %s", c.method, c.body, body)
			}
		}
		if code != c.code || !strings.Contains(answer.Error, c.want) {
			t.Errorf("%s %s: %d %s, want %d saying %q", c.method, c.body, code, body, c.code, c.want)
		}
		if after, _ := sw.BufferStats(); after.Config != before.Config {
			t.Errorf("%s %s changed the admission to %+v", c.method, c.body, after.Config)
		}
	}
}

// TestNoSharedBufferIsAConflict: a switch started without a shared buffer
// (B = 0) reports 0 bytes and refuses an algorithm with 409.
func TestNoSharedBufferIsAConflict(t *testing.T) {
	_, srv := newSwitch(t, 0)
	if b := getBuffer(t, srv); b.Bytes != 0 || b.Algorithm != "" || b.Classes != nil {
		t.Fatalf("GET on a switch without a shared buffer: %+v", b)
	}
	code, body := call(t, srv, http.MethodPut, "/v1/buffer", `{"algorithm": "dt"}`)
	if code != http.StatusConflict || !strings.Contains(string(body), "no shared buffer") {
		t.Fatalf("PUT on a switch without a shared buffer: %d %s, want 409", code, body)
	}
	code, body = call(t, srv, http.MethodPut, "/v1/buffer", `{"algorithm": "dt", "classes": [{"queue": 0, "alpha": 0}]}`)
	if code != http.StatusBadRequest || !strings.Contains(string(body), "alpha 0") {
		t.Fatalf("a bad setting on a switch without a shared buffer: %d %s, want 400 naming the alpha", code, body)
	}
}

// toPort1 sends every frame to port 1 at the priority in its first byte.
type toPort1 struct{ objs *pipeline.Objects }

func (p toPort1) Ingress(pk *pipeline.Packet) {
	pk.Meta.EgressSpec, pk.Meta.Priority = 1, pk.Frame[0]
}
func (p toPort1) Egress(pk *pipeline.Packet) bool                             { return true }
func (p toPort1) Replicate(dst, src *pipeline.Packet, kind pipeline.CopyKind) {}
func (p toPort1) Objects() *pipeline.Objects                                  { return p.objs }

// TestStatsShowDropsPerQueueAndCause: GET /v1/stats reports a queue's
// admission drops by cause and its threshold.
func TestStatsShowDropsPerQueueAndCause(t *testing.T) {
	sw, srv := newSwitch(t, 10_000)
	sw.SetProgram(toPort1{objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	held, entered := make(chan struct{}), make(chan struct{}, 1)
	t.Cleanup(func() { close(held) })
	sink := dataplane.SinkFunc(func(f [][]byte) error {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-held
		engine.PutFrames(f)
		return nil
	})
	if err := sw.AddPort(1, sink, 0, nil); err != nil {
		t.Fatal(err)
	}
	frames := func(n int) [][]byte {
		fs := make([][]byte, n)
		for i := range fs {
			fs[i] = engine.GetFrame(1000)[:1000]
			fs[i][0] = 2
		}
		return fs
	}
	sw.Receive(9, frames(1)) // the plug: the port's worker waits in the sink with it
	<-entered
	// Queue 2 under DT (alpha 1) takes q < 10 000 - q: 5 of 1000 bytes,
	// and refuses the other 15.
	sw.Receive(9, frames(20))
	code, body := call(t, srv, http.MethodGet, "/v1/stats", "")
	var st Stats
	if err := json.Unmarshal(body, &st); code != http.StatusOK || err != nil {
		t.Fatalf("GET /v1/stats: %d %s (%v)", code, body, err)
	}
	if st.Scheduler != "sp" {
		t.Fatalf("stats %s: want the default scheduler, sp", body)
	}
	q := st.Ports["1"].Queues[2]
	dropped := q.Drops["dt_threshold"]
	if dropped != 15 || st.Drops["dt_threshold"] != 15 || q.Packets != 5 || q.ThresholdBytes == nil || *q.ThresholdBytes != 5000 ||
		st.Buffer == nil || st.Buffer.Bytes != 10_000 || st.Buffer.UsedBytes != 5000 {
		t.Fatalf("stats %s: want queue 2 of port 1 holding 5, 15 DT drops, threshold 5000", body)
	}
	if q0 := st.Ports["1"].Queues[0]; q0.Drops["dt_threshold"] != 0 || q0.Packets != 0 {
		t.Fatalf("queue 0 %+v: nothing was sent to it", q0)
	}
}

// TestPutAlphasSetsEachQueuesOwnAlpha: PUT /v1/buffer/alphas sets the
// listed queues' DT alphas, GET /v1/stats shows them, and a second PUT
// replaces the list (queues it leaves out are back on their class's).
// Bad lists are refused and change nothing.
func TestPutAlphasSetsEachQueuesOwnAlpha(t *testing.T) {
	sw, srv := newSwitch(t, 1<<20)
	for _, id := range []uint32{1, 2} {
		if err := sw.AddPort(id, dataplane.SinkFunc(func(f [][]byte) error { engine.PutFrames(f); return nil }), 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	alphaOf := func(port string, queue int) float64 {
		_, body := call(t, srv, http.MethodGet, "/v1/stats", "")
		var st Stats
		if err := json.Unmarshal(body, &st); err != nil {
			t.Fatal(err)
		}
		if a := st.Ports[port].Queues[queue].Alpha; a != nil {
			return *a
		}
		return 0
	}
	code, body := call(t, srv, http.MethodPut, "/v1/buffer/alphas",
		`{"alphas": [{"port": 1, "queue": 0, "alpha": 0.125}, {"port": 2, "queue": 7, "alpha": 2}]}`)
	if code != http.StatusOK || alphaOf("1", 0) != 0.125 || alphaOf("2", 7) != 2 || alphaOf("1", 7) != 0 {
		t.Fatalf("PUT alphas: %d %s; stats alphas %v %v %v", code, body, alphaOf("1", 0), alphaOf("2", 7), alphaOf("1", 7))
	}
	for _, c := range []struct {
		body string
		code int
		want string
	}{
		{`{"alphas": [{"port": 3, "queue": 0, "alpha": 1}]}`, 400, "the switch has no port 3"},
		{`{"alphas": [{"port": 1, "queue": 8, "alpha": 1}]}`, 400, "want a queue in [0, 7]"},
		{`{"alphas": [{"port": 1, "queue": 0, "alpha": 0}]}`, 400, "must be a finite number > 0"},
		{`{"alphas": [{"port": 1, "queue": 0, "alpha": -1}]}`, 400, "must be a finite number > 0"},
		{`{"alphas": [{"port": 1, "queue": 0, "alpha": 1}, {"port": 1, "queue": 0, "alpha": 1}]}`, 400, "given twice"},
		{`{"alphas": [{"port": 1, "queue": 0, "alfa": 1}]}`, 400, `unknown field \"alfa\"`},
		{`{"alphas": [{"port": -1, "queue": 0, "alpha": 1}]}`, 400, "not a list of queue alphas"},
		{`[1, 2]`, 400, "not a list of queue alphas"},
	} {
		code, body := call(t, srv, http.MethodPut, "/v1/buffer/alphas", c.body)
		if code != c.code || !strings.Contains(string(body), c.want) {
			t.Errorf("PUT %s: %d %s, want %d saying %q", c.body, code, body, c.code, c.want)
		}
		if alphaOf("1", 0) != 0.125 || alphaOf("2", 7) != 2 {
			t.Errorf("PUT %s changed the alphas", c.body)
		}
	}
	if code, body := call(t, srv, http.MethodPut, "/v1/buffer/alphas", `{"alphas": [{"port": 2, "queue": 7, "alpha": 0.5}]}`); code != http.StatusOK {
		t.Fatalf("second PUT: %d %s", code, body)
	}
	if alphaOf("1", 0) != 0 || alphaOf("2", 7) != 0.5 {
		t.Fatalf("after the second PUT: port 1 queue 0 %v, port 2 queue 7 %v; want 0 (the class's) and 0.5", alphaOf("1", 0), alphaOf("2", 7))
	}
	// Not on DT: 409, naming the algorithm it needs.
	if code, _ := call(t, srv, http.MethodPut, "/v1/buffer", `{"algorithm": "fb"}`); code != http.StatusOK {
		t.Fatal("PUT fb refused")
	}
	if code, body := call(t, srv, http.MethodPut, "/v1/buffer/alphas", `{"alphas": []}`); code != http.StatusConflict ||
		!strings.Contains(string(body), "dynamic thresholds") {
		t.Fatalf("alphas under FB: %d %s, want 409", code, body)
	}
}
