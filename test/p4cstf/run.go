// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
	"github.com/flowbuf/flowbuf/pbswitch/v1model"
)

// cpuPort stands for the controller. bmv2stf.py starts simple_switch
// without a CPU port, so it is one no 9-bit egress_spec can name: nothing
// reaches it and no packet is taken as a packet_out.
const cpuPort = 1 << 20

// quietFor is how long the switch must stay idle (empty queues, no frame
// sent or dropped) before a packet's copies are taken to be all out.
const quietFor = 25 * time.Millisecond

// capture is a port's far end: it keeps what leaves, in order.
type capture struct {
	mu     sync.Mutex
	frames [][]byte
}

func (c *capture) Send(frames [][]byte) error {
	c.mu.Lock()
	for _, f := range frames {
		c.frames = append(c.frames, append([]byte(nil), f...))
	}
	c.mu.Unlock()
	return nil
}

// Statuses of a program.
const (
	statusPass        = "pass"
	statusFail        = "fail"
	statusRefused     = "refused"
	statusP4CError    = "p4c_error"
	statusUnsupported = "unsupported_stf"
)

// result is one program's outcome.
type result struct {
	Program string   `json:"program"`
	Status  string   `json:"status"`
	Reason  string   `json:"reason,omitempty"`
	Notes   []string `json:"notes,omitempty"`
	Seconds float64  `json:"seconds"`
}

// supported are the STF commands the runner carries out. Those bmv2stf.py
// ignores (wait, remove, check_counter) or whose output it never reads
// (*_read, *_get) are accepted and do nothing.
var supported = map[string]bool{
	"add": true, "setdefault": true, "packet": true, "expect": true,
	"wait": true, "remove": true, "check_counter": true,
	"mirroring_add": true, "mirroring_add_mc": true, "mirroring_delete": true, "mirroring_get": true,
	"mc_mgrp_create": true, "mc_node_create": true, "mc_node_update": true, "mc_node_associate": true,
	"counter_read": true, "counter_write": true, "register_read": true, "register_write": true, "register_reset": true,
	"meter_get_rates": true, "meter_set_rates": true, "meter_array_set_rates": true,
}

// runProgram loads a compiled program and plays its STF on a switch.
func runProgram(jsonPath, infoPath, stfPath string) result {
	var r result
	src, err := os.ReadFile(stfPath)
	if err != nil {
		return fail(r, "reading the STF: %v", err)
	}
	cmds, err := ParseSTF(string(src))
	if err != nil {
		r.Status, r.Reason = statusUnsupported, "unreadable STF: "+err.Error()
		return r
	}
	jb, err := os.ReadFile(jsonPath)
	if err != nil {
		return fail(r, "reading the JSON: %v", err)
	}
	ib, err := os.ReadFile(infoPath)
	if err != nil {
		return fail(r, "reading the p4info: %v", err)
	}
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal(ib, info); err != nil {
		return fail(r, "p4info: %v", err)
	}
	prog, err := v1model.Load(jb, info, v1model.Options{CPUPort: cpuPort})
	var ue *v1model.UnsupportedError
	switch {
	case errors.As(err, &ue):
		r.Status, r.Reason = statusRefused, ue.Construct
		if ue.Where != "" {
			r.Reason += " at " + ue.Where
		}
		return r
	case err != nil:
		return fail(r, "load: %v", err)
	}
	for _, c := range cmds {
		if !supported[c.Kind] {
			r.Status, r.Reason = statusUnsupported, fmt.Sprintf("command %s (line %d)", c.Kind, c.Line)
			return r
		}
	}
	jp, err := bmv2json.Parse(jb)
	if err != nil {
		return fail(r, "JSON: %v", err)
	}
	rn := &runner{prog: prog, objs: prog.Objects(), bind: newBinder(jp, prog.Objects()),
		ports: map[uint32]*capture{}, expected: map[uint32]*portExpect{},
		groups: map[uint32][]uint32{}, nodes: map[uint32]mcNode{}}
	return rn.run(r, cmds)
}

func fail(r result, format string, args ...any) result {
	r.Status, r.Reason = statusFail, fmt.Sprintf(format, args...)
	return r
}

type mcNode struct {
	rid   uint32
	ports []uint32
}

type runner struct {
	prog     *v1model.Program
	objs     *pipeline.Objects
	bind     *binder
	sw       *dataplane.Switch
	ports    map[uint32]*capture
	order    []uint32
	expected map[uint32]*portExpect
	// simple_switch_CLI's multicast state: nodes by handle (0, 1, ... in
	// creation order), groups with the handles associated to them.
	nodes    map[uint32]mcNode
	nextNode uint32
	groups   map[uint32][]uint32
	notes    []string
}

func (rn *runner) note(c *Command, format string, args ...any) {
	rn.notes = append(rn.notes, fmt.Sprintf("line %d (%s): %s", c.Line, c.Kind, fmt.Sprintf(format, args...)))
}

func (rn *runner) run(r result, cmds []Command) result {
	// bmv2stf.py gives simple_switch one interface per port its packet and
	// expect lines name, and checks those; whatever leaves on another port
	// is lost. simple_switch still runs egress for every port (its
	// recirculations and clones happen), so every port but the drop port
	// exists here, and only the STF's are checked.
	rn.sw = dataplane.New(dataplane.Options{CPUPort: cpuPort})
	defer rn.sw.Close()
	for p := uint32(0); p < pipeline.DropPort; p++ {
		cp := &capture{}
		rn.ports[p] = cp
		if err := rn.sw.AddPort(p, cp, 0, nil); err != nil {
			return fail(r, "port %d: %v", p, err)
		}
	}
	watched := map[uint32]bool{}
	for _, c := range cmds {
		if (c.Kind == "packet" || c.Kind == "expect") && !watched[c.Port] {
			if c.Port >= pipeline.DropPort {
				return fail(r, "stf line %d: port %d is not a simple_switch port", c.Line, c.Port)
			}
			watched[c.Port] = true
			rn.order = append(rn.order, c.Port)
		}
	}
	rn.sw.SetProgram(rn.prog)
	for i := range cmds {
		c := &cmds[i]
		if err := rn.exec(c); err != nil {
			var se *stfError
			if errors.As(err, &se) {
				// bmv2stf.py raises here: the test fails in p4c too.
				r.Notes = rn.notes
				return fail(r, "stf line %d: %v", c.Line, err)
			}
			// simple_switch_CLI refuses the command; the run goes on.
			rn.note(c, "%v", err)
		}
	}
	rn.quiesce()
	got := map[uint32][][]byte{}
	for _, p := range rn.order {
		cp := rn.ports[p]
		cp.mu.Lock()
		got[p] = cp.frames
		cp.mu.Unlock()
	}
	r.Notes = rn.notes
	if why := CheckOutputs(rn.order, rn.expected, got); why != "" {
		return fail(r, "%s", why)
	}
	r.Status = statusPass
	return r
}

// quiesce waits until no queue holds a packet and nothing has been sent or
// dropped for quietFor: every copy of the packets sent so far is out.
func (rn *runner) quiesce() {
	deadline := time.Now().Add(10 * time.Second)
	var last uint64 = math.MaxUint64
	since := time.Now()
	for time.Now().Before(deadline) {
		st := rn.sw.Stats()
		var sum uint64
		busy := false
		for _, p := range st.Ports {
			sum += p.TxFrames
			busy = busy || p.QueueDepth > 0
		}
		for _, d := range st.Drops {
			sum += d
		}
		if busy || sum != last {
			last, since = sum, time.Now()
		} else if time.Since(since) >= quietFor {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func (rn *runner) exec(c *Command) error {
	switch c.Kind {
	case "add":
		t, e, err := rn.bind.entry(c)
		if err != nil {
			return err
		}
		return t.Insert(e)
	case "setdefault":
		t, a, err := rn.bind.defaultAction(c)
		if err != nil {
			return err
		}
		return t.SetDefault(a)
	case "packet":
		if len(c.Data)%2 != 0 {
			// bytes.fromhex fails; bmv2stf.py logs it and goes on.
			return fmt.Errorf("odd number of hex digits: packet not sent")
		}
		frame, err := hex.DecodeString(c.Data)
		if err != nil {
			return err
		}
		rn.sw.Receive(c.Port, [][]byte{frame})
		rn.quiesce()
		return nil
	case "expect":
		e := rn.expected[c.Port]
		if e == nil {
			e = &portExpect{}
			rn.expected[c.Port] = e
		}
		if c.HasData {
			e.any = false
			e.pkts = append(e.pkts, c.Data)
		} else {
			e.any = true
		}
		return nil
	case "wait", "remove", "check_counter", "mirroring_get", "counter_read", "register_read", "meter_get_rates":
		return nil
	}
	return rn.direct(c)
}

// nums reads c's arguments from the from-th on as numbers; the first need
// must be, the others are math.MaxUint64 when they are not.
func (rn *runner) nums(c *Command, from, need int) ([]uint64, error) {
	if len(c.Fields) < from+need {
		return nil, fmt.Errorf("%s needs %d arguments", c.Kind, from+need)
	}
	var out []uint64
	for _, f := range c.Fields[from:] {
		n, err := parseNumber(f)
		if err != nil || !n.IsUint64() {
			out = append(out, math.MaxUint64)
			continue
		}
		out = append(out, n.Uint64())
	}
	for i := 0; i < need; i++ {
		if out[i] == math.MaxUint64 {
			return nil, fmt.Errorf("%s: argument %q is not a number", c.Kind, c.Fields[from+i])
		}
	}
	return out, nil
}

// direct carries out the commands bmv2stf.py hands to simple_switch_CLI
// unchanged.
func (rn *runner) direct(c *Command) error {
	pre := rn.objs.PRE
	switch c.Kind {
	case "mirroring_add", "mirroring_add_mc":
		n, err := rn.nums(c, 0, 2)
		if err != nil {
			return err
		}
		s := pipeline.CloneSession{ID: uint32(n[0])}
		if c.Kind == "mirroring_add" {
			s.Replicas = []pipeline.Replica{{Port: uint32(n[1])}}
		} else {
			// A session to a multicast group: the group's replicas now.
			rs, ok := pre.Group(uint32(n[1]))
			if !ok {
				return fmt.Errorf("multicast group %d does not exist", n[1])
			}
			s.Replicas = append(s.Replicas, rs...)
			rn.note(c, "the clone session takes group %d's replicas as they are now", n[1])
		}
		if _, ok := pre.Clone(s.ID); ok {
			return pre.ModifyClone(s)
		}
		return pre.InsertClone(s)
	case "mirroring_delete":
		n, err := rn.nums(c, 0, 1)
		if err != nil {
			return err
		}
		return pre.DeleteClone(uint32(n[0]))
	case "mc_mgrp_create":
		n, err := rn.nums(c, 0, 1)
		if err != nil {
			return err
		}
		if _, ok := rn.groups[uint32(n[0])]; ok {
			return fmt.Errorf("group %d exists", n[0])
		}
		rn.groups[uint32(n[0])] = nil
		return pre.InsertGroup(uint32(n[0]), nil)
	case "mc_node_create", "mc_node_update":
		n, err := rn.nums(c, 0, 1)
		if err != nil {
			return err
		}
		node := mcNode{rid: uint32(n[0])}
		for i, p := range n[1:] {
			if p == math.MaxUint64 {
				return fmt.Errorf("%s: port %q", c.Kind, c.Fields[i+1])
			}
			node.ports = append(node.ports, uint32(p))
		}
		if c.Kind == "mc_node_create" {
			rn.nodes[rn.nextNode] = node
			rn.nextNode++
			return nil
		}
		// mc_node_update HANDLE PORTS...: the first number is the handle.
		h := uint32(n[0])
		old, ok := rn.nodes[h]
		if !ok {
			return fmt.Errorf("no node %d", h)
		}
		old.ports = node.ports
		rn.nodes[h] = old
		return rn.syncGroups()
	case "mc_node_associate":
		n, err := rn.nums(c, 0, 2)
		if err != nil {
			return err
		}
		g, h := uint32(n[0]), uint32(n[1])
		if _, ok := rn.groups[g]; !ok {
			return fmt.Errorf("no group %d", g)
		}
		if _, ok := rn.nodes[h]; !ok {
			return fmt.Errorf("no node %d", h)
		}
		rn.groups[g] = append(rn.groups[g], h)
		return rn.syncGroups()
	case "register_write":
		n, err := rn.nums(c, 1, 2)
		if err != nil {
			return err
		}
		reg, err := byName(rn.objs.Registers, func(r *pipeline.RegisterArray) string { return r.Name }, c.Fields[0])
		if err != nil {
			return err
		}
		v, _ := parseNumber(c.Fields[2])
		b, err := toBytes(v, reg.Bits)
		if err != nil {
			return err
		}
		return reg.Write(int64(n[0]), b)
	case "register_reset":
		if len(c.Fields) < 1 {
			return fmt.Errorf("register_reset needs a register")
		}
		reg, err := byName(rn.objs.Registers, func(r *pipeline.RegisterArray) string { return r.Name }, c.Fields[0])
		if err != nil {
			return err
		}
		zero := make([]byte, pipeline.Width(reg.Bits))
		for i := 0; i < reg.Size(); i++ {
			if err := reg.Write(int64(i), zero); err != nil {
				return err
			}
		}
		return nil
	case "counter_write":
		n, err := rn.nums(c, 1, 3)
		if err != nil {
			return err
		}
		ctr, err := byName(rn.objs.Counters, func(a *pipeline.CounterArray) string { return a.Name }, c.Fields[0])
		if err != nil {
			return err
		}
		cell, err := ctr.Cell(int64(n[0]))
		if err != nil {
			return err
		}
		cell.Set(n[1], n[2])
		return nil
	case "meter_set_rates", "meter_array_set_rates":
		return rn.meterRates(c)
	}
	return fmt.Errorf("command %s", c.Kind)
}

// syncGroups writes every group's replicas: each associated node's ports,
// with the node's rid as the replica's instance (egress_rid).
func (rn *runner) syncGroups() error {
	for g, hs := range rn.groups {
		var rs []pipeline.Replica
		for _, h := range hs {
			n := rn.nodes[h]
			for _, p := range n.ports {
				rs = append(rs, pipeline.Replica{Port: p, Instance: n.rid})
			}
		}
		if err := rn.objs.PRE.ModifyGroup(g, rs); err != nil {
			return err
		}
	}
	return nil
}

// meterRates configures meters from simple_switch_CLI's rates: "CIR:CBURST
// PIR:PBURST", rates in units per microsecond, bursts in units.
func (rn *runner) meterRates(c *Command) error {
	args := c.Fields
	if len(args) < 1 {
		return fmt.Errorf("%s needs a meter", c.Kind)
	}
	m, err := byName(rn.objs.Meters, func(a *pipeline.MeterArray) string { return a.Name }, args[0])
	if err != nil {
		return err
	}
	cells := []int64{}
	rates := args[1:]
	if c.Kind == "meter_set_rates" {
		if len(args) < 2 {
			return fmt.Errorf("meter_set_rates needs an index")
		}
		i, err := strconv.ParseInt(args[1], 0, 64)
		if err != nil {
			return err
		}
		cells, rates = append(cells, i), args[2:]
	} else {
		for i := 0; i < m.Size(); i++ {
			cells = append(cells, int64(i))
		}
	}
	if len(rates) != 2 {
		return fmt.Errorf("%s: want CIR:CBURST PIR:PBURST, got %q", c.Kind, strings.Join(rates, " "))
	}
	var cfg pipeline.MeterConfig
	for i, rb := range rates {
		rs, bs, ok := strings.Cut(rb, ":")
		if !ok {
			return fmt.Errorf("%s: rate %q", c.Kind, rb)
		}
		rate, err1 := strconv.ParseFloat(rs, 64)
		burst, err2 := strconv.ParseInt(bs, 0, 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("%s: rate %q", c.Kind, rb)
		}
		perSec := int64(math.Round(rate * 1e6))
		if i == 0 {
			cfg.CIR, cfg.CBurst = perSec, burst
		} else {
			cfg.PIR, cfg.PBurst = perSec, burst
		}
	}
	for _, i := range cells {
		cell, err := m.Cell(i)
		if err != nil {
			return err
		}
		if err := cell.Configure(cfg); err != nil {
			return err
		}
	}
	return nil
}
