// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"sync"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// egressRecorder sends every packet to one port and records the egress
// ports its egress ran for, as an egress counter would.
type egressRecorder struct {
	toPort
	mu    sync.Mutex
	ports []uint32
}

func (e *egressRecorder) Egress(pk *pipeline.Packet) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ports = append(e.ports, pk.Meta.EgressPort)
	return true
}

func (e *egressRecorder) seen() []uint32 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]uint32(nil), e.ports...)
}

// A copy for a port that has no interface runs egress and is dropped at
// transmit, counted as no_port: BMv2's simple_switch queues it for that
// port, runs egress and loses it when no interface takes it.
func TestAPortWithNoInterfaceRunsEgressThenDrops(t *testing.T) {
	sw := New(Options{CPUPort: 255, QueueLen: 64})
	defer sw.Close()
	prog := &egressRecorder{toPort: toPort{port: 7, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}}}
	sw.SetProgram(prog)
	sw.Receive(1, burst(5))
	deadline := time.Now().Add(5 * time.Second)
	for sw.Stats().Drops[DropNoPort.String()] < 5 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if drops := sw.Stats().Drops[DropNoPort.String()]; drops != 5 {
		t.Fatalf("%d no_port drops, want 5", drops)
	}
	got := prog.seen()
	if len(got) != 5 {
		t.Fatalf("egress ran %d times, want 5 (once per packet, before the drop)", len(got))
	}
	for _, p := range got {
		if p != 7 {
			t.Fatalf("egress saw egress_port %d, want 7", p)
		}
	}
	if _, listed := sw.Stats().Ports[7]; listed {
		t.Fatal("port 7 has no interface but is listed in the stats")
	}
}

// What egress drops for a port with no interface counts as an egress drop,
// not a transmit one.
func TestEgressDropForAPortWithNoInterfaceIsAnEgressDrop(t *testing.T) {
	sw := New(Options{CPUPort: 255, QueueLen: 64})
	defer sw.Close()
	sw.SetProgram(dropInEgress{toPort{port: 9, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}}})
	sw.Receive(1, burst(3))
	deadline := time.Now().Add(5 * time.Second)
	for sw.Stats().Drops[DropEgress.String()] < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	st := sw.Stats()
	if st.Drops[DropEgress.String()] != 3 || st.Drops[DropNoPort.String()] != 0 {
		t.Fatalf("drops %v, want 3 egress and 0 no_port", st.Drops)
	}
}

type dropInEgress struct{ toPort }

func (dropInEgress) Egress(*pipeline.Packet) bool { return false }
