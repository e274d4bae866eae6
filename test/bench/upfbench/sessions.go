// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	v1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/node"
)

// sessionBatch is the sessions per WriteRequest (two updates each: the
// downlink session and its termination); SESSION_BATCH overrides it.
var sessionBatch = envInt("SESSION_BATCH", 1000)

// writesInFlight is how many Writes the client keeps outstanding;
// WRITES_IN_FLIGHT overrides it.
var writesInFlight = envInt("WRITES_IN_FLIGHT", 2)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func envString(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// sessionsPerPeer downlink sessions share one gNodeB tunnel peer: a
// gNodeB serving 1024 UEs, so that 1M sessions fit the program's 1024
// tunnel peers.
const sessionsPerPeer = 1024

// sessions measures batched P4Runtime Writes of downlink sessions to a
// pbswitch process running the slow-path profile (upf-slow: 1,048,576
// sessions) and the process's RSS growth per session, at 1M sessions
// (QUICK: 100k), with the exact tables in slabs and, as the baseline in
// the same run, on the generic store (--table-store generic).
func (b *bench) sessions() error {
	bin, err := pbswitchBinary()
	if err != nil {
		return err
	}
	pl, err := ctl.LoadPipeline(buildDir() + "/" + slowProfile)
	if err != nil {
		return err
	}
	n := scaleSessions
	if b.quick {
		n = 100000
	}
	if capacity := tableSize(pl.Info, ctl.TableDownlinkSessions); capacity < n {
		return fmt.Errorf("the %s profile holds %d sessions, not %d", slowProfile, capacity, n)
	}
	cond := map[string]any{"transport": "gRPC over loopback TCP, one client, P4Runtime Write", "batch_sessions": sessionBatch, "writes_in_flight": writesInFlight, "client_encoding": clientEncoding(),
		"load_average_at_start": loadAvg(), "gc": "Go default (GOGC 100, no memory limit) in pbswitch and the client",
		"updates_per_session": 2, "entries": "downlink_sessions + downlink_terminations per UE, tunnel_peers one per " + strconv.Itoa(sessionsPerPeer) + " UEs (as test_upf.py writes them)",
		"process": "pbswitch (separate process, no ports)", "profile": slowProfile + " (pipeconf/p4src/build/" + slowProfile + ")", "sessions": n}
	rss := "VmRSS of the pbswitch process (/proc) after the pipeline push and after the installs, each after 2 s idle; Go GC as by default"
	res := map[string]installed{}
	stores := []string{"slab", "generic"}
	if b.slabOnly {
		stores = stores[:1]
	}
	for _, store := range stores {
		r, err := install(bin, pl, store, n)
		if err != nil {
			return fmt.Errorf("--table-store %s: %w", store, err)
		}
		res[store] = r
		suffix, what := "", "slab (pbswitch's default)"
		if store == "generic" {
			suffix, what = "_generic", "generic (--table-store generic: a Go object per entry, the baseline before slabs)"
		}
		c := merge(cond, map[string]any{"tables": what})
		b.Emit("upf_sessions_installed_per_s"+suffix, r.rate, "sessions/s", merge(c, map[string]any{
			"entries_per_s": r.rate * 2, "measures": "all " + strconv.Itoa(n) + " sessions from an empty table, with their tunnel peers"}))
		b.Emit("upf_sessions_install_cpu_us_per_session"+suffix, r.cpu*1e6/float64(n), "µs", merge(c, map[string]any{
			"measures":          "CPU time (user + system, /proc/PID/stat) the pbswitch process used over the installs, per session: gRPC receive and protobuf decoding, the Write's checks and the table inserts, GC",
			"sessions_per_core": float64(n) / r.cpu, "note": "independent of the other work on the machine, unlike the wall-clock rate"}))
		b.Emit("upf_sessions_install_client_cpu_us_per_session"+suffix, r.clientCPU*1e6/float64(n), "µs", merge(c, map[string]any{
			"measures": "CPU time of the bench process (the P4Runtime client: gRPC, and building and encoding the entries when encoded while sending) over the installs, per session"}))
		if preEncoded {
			b.Emit("upf_sessions_install_client_encode_cpu_us_per_session"+suffix, r.encodeCPU*1e6/float64(n), "µs", merge(c, map[string]any{
				"measures": "CPU time of the bench process building and encoding the Writes before the timer, per session (not in the wall-clock rate)"}))
		}
		b.Emit("upf_sessions_1m_bytes_per_session"+suffix, r.perSession(), "B", merge(c, map[string]any{
			"rss_before_kib": r.rss0 / 1024, "rss_after_kib": r.rss1 / 1024, "measures": rss}))
	}
	if b.slabOnly {
		return nil
	}
	b.Emit("upf_sessions_slab_vs_generic_bytes", res["generic"].perSession()/res["slab"].perSession(), "ratio", merge(cond, map[string]any{
		"measures": "RSS per session on the generic store over the slab's"}))
	b.Emit("upf_sessions_slab_vs_generic_install_rate", res["slab"].rate/res["generic"].rate, "ratio", merge(cond, map[string]any{
		"measures": "sessions/s installed with slabs over the generic store's"}))
	for _, generic := range []bool{false, true} {
		if err := b.liveHeap(pl, n, generic); err != nil {
			return err
		}
	}
	return nil
}

// liveHeap installs n sessions into a pbswitch node in this process and
// weighs what stays live after a full GC: the RSS figure without the Go
// collector's headroom (GOGC 100 lets the heap grow to twice the live data).
func (b *bench) liveHeap(pl ctl.Pipeline, n int, generic bool) error {
	nd, err := node.Start(node.Config{DeviceID: 1, CPUPort: 255, P4RTListen: "127.0.0.1:0", Logger: quietLog, GenericTables: generic})
	if err != nil {
		return err
	}
	defer nd.Close()
	c, err := ctl.Connect(nd.P4RTAddr(), 1)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Push(pl); err != nil {
		return err
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	if err := writeSessions(c, newWriter(pl.Info), 0, n); err != nil {
		return err
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	metric, tables := "upf_sessions_live_heap_bytes_per_session", "slab"
	if generic {
		metric, tables = metric+"_generic", "generic (--table-store generic)"
	}
	b.Emit(metric, float64(int64(m1.HeapAlloc)-int64(m0.HeapAlloc))/float64(n), "B", map[string]any{
		"sessions": n, "objects_per_session": float64(int64(m1.HeapObjects)-int64(m0.HeapObjects)) / float64(n),
		"profile": slowProfile, "tables": tables,
		"measures": "Go heap live after runtime.GC, before and after the installs, pbswitch node in this process (same Writes as above)"})
	return nil
}

type installed struct {
	n          int
	rate       float64 // sessions/s over all n
	rss0, rss1 int64   // bytes
	cpu        float64 // the pbswitch process's CPU seconds (user + system) over the installs
	clientCPU  float64 // this process's (the client's) CPU seconds over the installs
	encodeCPU  float64 // the client's CPU seconds encoding the Writes before the timer (0: encoded while sending)
}

// clientEncoding says in the figures' conditions when the client encodes.
func clientEncoding() string {
	if preEncoded {
		return "pre-encoded: every Write built and encoded before the timer (its CPU reported apart), sent as bytes"
	}
	return "live: each Write built and encoded while sending (CLIENT_ENCODE=live)"
}

func (r installed) perSession() float64 { return float64(r.rss1-r.rss0) / float64(r.n) }

// install starts pbswitch with --table-store store, pushes pl, writes n
// sessions (with their tunnel peers) in batches, timing them all, and
// reads the process's RSS before and after.
func install(bin string, pl ctl.Pipeline, store string, n int) (r installed, err error) {
	addr, err := freeAddr()
	if err != nil {
		return r, err
	}
	cmd := exec.Command(bin, "--p4rt-listen", addr, "--buffer-listen", "", "--table-store", store)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return r, err
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	var c *ctl.Controller
	for t0 := time.Now(); ; {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			break
		}
		if time.Since(t0) > 10*time.Second {
			return r, fmt.Errorf("pbswitch does not listen on %s: %s", addr, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if c, err = ctl.Connect(addr, 1); err != nil {
		return r, err
	}
	defer c.Close()
	if err := c.Push(pl); err != nil {
		return r, err
	}
	w := newWriter(pl.Info)
	var writes []encodedWrite
	if preEncoded {
		e0, err := cpuSeconds(os.Getpid())
		if err != nil {
			return r, err
		}
		if writes, err = encodeSessions(w, 0, n); err != nil {
			return r, err
		}
		e1, err := cpuSeconds(os.Getpid())
		if err != nil {
			return r, err
		}
		r.encodeCPU = e1 - e0
	}
	time.Sleep(2 * time.Second)
	if r.rss0, err = rss(cmd.Process.Pid); err != nil {
		return r, err
	}
	cpu0, err := cpuSeconds(cmd.Process.Pid)
	if err != nil {
		return r, err
	}
	self0, err := cpuSeconds(os.Getpid())
	if err != nil {
		return r, err
	}
	t0 := time.Now()
	if preEncoded {
		err = writeEncoded(c, writes, 0)
	} else {
		err = writeSessions(c, w, 0, n)
	}
	if err != nil {
		return r, err
	}
	r.rate, r.n = float64(n)/time.Since(t0).Seconds(), n
	cpu1, err := cpuSeconds(cmd.Process.Pid)
	if err != nil {
		return r, err
	}
	self1, err := cpuSeconds(os.Getpid())
	if err != nil {
		return r, err
	}
	r.cpu, r.clientCPU = cpu1-cpu0, self1-self0
	time.Sleep(2 * time.Second)
	r.rss1, err = rss(cmd.Process.Pid)
	return r, err
}

// writeSessions writes downlink sessions from..to-1 in batches of
// sessionBatch, each with its termination, and a tunnel peer before every
// sessionsPerPeer-th session, with writesInFlight Writes outstanding (a
// controller sends its next batch without waiting for the last answer, as
// ONOS's P4Runtime client does; the batches touch disjoint entries).
func writeSessions(c *ctl.Controller, w *writer, from, to int) error {
	return inFlight(batchesOf(from, to), func(k int) error {
		lo := from + k*sessionBatch
		return writeBatch(c, w, lo, min(lo+sessionBatch, to))
	})
}

// batchesOf is the number of Writes sessions from..to-1 take.
func batchesOf(from, to int) int { return (to - from + sessionBatch - 1) / sessionBatch }

// inFlight calls send for batches 0..n-1 with writesInFlight of them
// outstanding at once (each sender takes every writesInFlight-th batch),
// and returns the first error.
func inFlight(n int, send func(k int) error) error {
	errs := make(chan error, writesInFlight)
	for first := range writesInFlight {
		go func() {
			for k := first; k < n; k += writesInFlight {
				if err := send(k); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	var first error
	for range writesInFlight {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// writeBatch writes sessions from..to-1 in one WriteRequest.
func writeBatch(c *ctl.Controller, w *writer, from, to int) error {
	if _, err := c.Client.Write(context.Background(), w.request(from, to)); err != nil {
		return fmt.Errorf("sessions %d-%d: %w", from, to-1, err)
	}
	return nil
}

// request is the WriteRequest of sessions from..to-1.
func (w *writer) request(from, to int) *p4.WriteRequest {
	ups := make([]*p4.Update, 0, 2*(to-from)+1)
	for j := from; j < to; j++ {
		if j%sessionsPerPeer == 0 {
			ups = append(ups, insert(w.tunnelPeer(j/sessionsPerPeer)))
		}
		ups = append(ups, insert(w.downlinkSession(j)), insert(w.downlinkTermination(j)))
	}
	return &p4.WriteRequest{DeviceId: 1, ElectionId: &p4.Uint128{Low: 1}, Updates: ups}
}

func insert(e *p4.TableEntry) *p4.Update {
	return &p4.Update{Type: p4.Update_INSERT, Entity: &p4.Entity{Entity: &p4.Entity_TableEntry{TableEntry: e}}}
}

// writer builds the UPF's P4Runtime entries from the p4info's ids, looked
// up once (as a controller resolves its pipeconf's names once).
type writer struct {
	byName                     map[string]uint32
	session, termination, peer ids
}

// ids are one table's, its match fields' and its action's and params' ids.
type ids struct {
	table, action uint32
	fields        []uint32
	params        []uint32
}

func newWriter(info *v1.P4Info) *writer {
	byName := map[string]uint32{}
	for _, t := range info.GetTables() {
		byName[t.GetPreamble().GetName()] = t.GetPreamble().GetId()
		for _, f := range t.GetMatchFields() {
			byName[t.GetPreamble().GetName()+"/"+f.GetName()] = f.GetId()
		}
	}
	for _, a := range info.GetActions() {
		byName[a.GetPreamble().GetName()] = a.GetPreamble().GetId()
		for _, p := range a.GetParams() {
			byName[a.GetPreamble().GetName()+"/"+p.GetName()] = p.GetId()
		}
	}
	w := &writer{byName: byName}
	id := w.id
	resolve := func(table string, fields []string, action string, params ...string) ids {
		out := ids{table: id(table), action: id(action)}
		for _, f := range fields {
			out.fields = append(out.fields, id(table+"/"+f))
		}
		for _, p := range params {
			out.params = append(out.params, id(action+"/"+p))
		}
		return out
	}
	w.session = resolve(ctl.TableDownlinkSessions, []string{"ue_addr"}, ctl.ActionSetDownlinkSession, "ctr_idx", "meter_idx", "tunnel_peer_id")
	w.termination = resolve(ctl.TableDownlinkTerminations, []string{"ue_addr", "app_id"}, ctl.ActionDownlinkTermFwd, "ctr_idx", "meter_idx", "teid", "qfi")
	w.peer = resolve(ctl.TableTunnelPeers, []string{"tunnel_peer_id"}, ctl.ActionSetTunnelPeer, "src_addr", "dst_addr", "sport")
	return w
}

func (w *writer) id(name string) uint32 {
	v, ok := w.byName[name]
	if !ok {
		panic("upfbench: no " + name + " in the p4info")
	}
	return v
}

// entry is the exact-match entry of in's table for keys (in field order)
// with in's action and params (in param order).
func (in ids) entry(keys [][]byte, params ...[]byte) *p4.TableEntry {
	e := &p4.TableEntry{TableId: in.table, Match: make([]*p4.FieldMatch, len(keys))}
	for i, k := range keys {
		e.Match[i] = &p4.FieldMatch{FieldId: in.fields[i], FieldMatchType: &p4.FieldMatch_Exact_{Exact: &p4.FieldMatch_Exact{Value: k}}}
	}
	a := &p4.Action{ActionId: in.action, Params: make([]*p4.Action_Param, len(params))}
	for i, v := range params {
		a.Params[i] = &p4.Action_Param{ParamId: in.params[i], Value: v}
	}
	e.Action = &p4.TableAction{Type: &p4.TableAction_Action{Action: a}}
	return e
}

// Values are in P4Runtime's canonical form (no leading zero bytes).
func canon(v []byte) []byte {
	for len(v) > 1 && v[0] == 0 {
		v = v[1:]
	}
	return v
}

// benchUE is UE i's address: 10.64.0.0 + i (1M UEs fit below 10.80.0.0).
func benchUE(i int) []byte { return b32(0x0a400000 + uint32(i)) }

func (w *writer) downlinkSession(i int) *p4.TableEntry {
	return w.session.entry([][]byte{benchUE(i)}, canon(b16(uint16(i))), canon(b16(0)), canon(b16(uint16(i/sessionsPerPeer))))
}

func (w *writer) downlinkTermination(i int) *p4.TableEntry {
	return w.termination.entry([][]byte{benchUE(i), {0}}, canon(b16(uint16(i))), canon(b16(0)), canon(b32(teidDown(i))), []byte{qfi})
}

func (w *writer) tunnelPeer(p int) *p4.TableEntry {
	return w.peer.entry([][]byte{canon(b16(uint16(p)))}, n3Addr[:], b32(0x0a100000+uint32(p)), canon(b16(41000)))
}

func tableSize(info *v1.P4Info, name string) int {
	for _, t := range info.GetTables() {
		if t.GetPreamble().GetName() == name {
			return int(t.GetSize())
		}
	}
	return 0
}

// pbswitchBinary is $PBSWITCH, or pbswitch built into a temporary directory.
func pbswitchBinary() (string, error) {
	if p := os.Getenv("PBSWITCH"); p != "" {
		return p, nil
	}
	dir, err := os.MkdirTemp("", "upfbench")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "pbswitch")
	out, err := exec.Command("go", "build", "-o", bin, "./pbswitch/cmd/pbswitch").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build pbswitch: %v: %s", err, out)
	}
	return bin, nil
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// cpuSeconds is the user + system CPU time process pid has used
// (/proc/PID/stat fields 14 and 15, in clock ticks of 1/100 s on Linux).
func cpuSeconds(pid int) (float64, error) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces: count from after it.
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: utime %q stime %q", pid, f[11], f[12])
	}
	return (utime + stime) / 100, nil
}

// rss is VmRSS of process pid, in bytes.
func rss(pid int) (int64, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}
