// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"sync"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// recorder sends every packet to port 1, at the priority its first byte
// says, after ingressWork of processing, and keeps the metadata each copy
// has as egress starts. With recirculate set, each normal packet goes
// round once more.
type recorder struct {
	ingressWork time.Duration
	recirculate bool
	objs        *pipeline.Objects

	mu       sync.Mutex
	egressed []pipeline.StdMeta
	ingress  []pipeline.StdMeta
}

func (r *recorder) Ingress(pk *pipeline.Packet) {
	if r.ingressWork > 0 {
		time.Sleep(r.ingressWork)
	}
	r.mu.Lock()
	r.ingress = append(r.ingress, pk.Meta)
	r.mu.Unlock()
	pk.Meta.EgressSpec, pk.Meta.Priority = 1, pk.Frame[0]
}

func (r *recorder) Egress(pk *pipeline.Packet) bool {
	r.mu.Lock()
	r.egressed = append(r.egressed, pk.Meta)
	r.mu.Unlock()
	pk.Meta.Recirculate = r.recirculate && pk.Meta.InstanceType == 0
	return true
}

func (r *recorder) Replicate(dst, src *pipeline.Packet, kind pipeline.CopyKind) {}
func (r *recorder) Objects() *pipeline.Objects                                  { return r.objs }

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.egressed)
}

// gateSink blocks its first Send until open is closed, so that what
// arrives meanwhile waits in the port's queue.
type gateSink struct {
	entered, open chan struct{}
	once          sync.Once
}

// plugged runs a recorder program on sw with port 1's sink held by a
// first packet (the plug: its Send holds the port's worker), so that what
// arrives next waits in port 1's queue until gate.open is closed.
func plugged(t *testing.T, sw *Switch) (*recorder, *gateSink) {
	t.Helper()
	rec := &recorder{objs: &pipeline.Objects{PRE: pipeline.NewPRE()}}
	sw.SetProgram(rec)
	gate := newGateSink()
	if err := sw.AddPort(1, gate, 0, nil); err != nil {
		t.Fatal(err)
	}
	sw.Receive(2, burst(1))
	<-gate.entered
	return rec, gate
}

func newGateSink() *gateSink {
	return &gateSink{entered: make(chan struct{}), open: make(chan struct{})}
}

func (g *gateSink) Send(frames [][]byte) error {
	g.once.Do(func() {
		close(g.entered)
		<-g.open
	})
	engine.PutFrames(frames)
	return nil
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestQueueMetadataAsBMv2 runs packets of two priorities through a port
// whose sink is held, so that they queue, and checks what BMv2's
// simple_switch would give egress: enq_qdepth and deq_qdepth count the
// packets of its own queue (port and priority) ahead of a packet as it
// entered and behind it as it left; enq_timestamp is taken as
// the packet enters the queue, after ingress (so ingress's work shows as
// enq_timestamp - ingress_global_timestamp, never as queueing); and
// deq_timedelta is the time it sat, egress_global_timestamp the clock as
// egress started. All in microseconds since the switch started.
func TestQueueMetadataAsBMv2(t *testing.T) {
	const n, work, held = 10, 300 * time.Microsecond, 20 * time.Millisecond
	t0 := time.Now()
	sw := New(Options{CPUPort: 255})
	t1 := time.Now()
	defer sw.Close()
	rec, gate := plugged(t, sw)
	rec.ingressWork = work // only the queued packets; the worker is held
	frames := burst(n)
	for i, f := range frames {
		f[0] = byte(3 * (i % 2)) // priorities 0 and 3, alternating
	}
	tA := time.Now()
	sw.Receive(2, frames)
	tB := time.Now()
	time.Sleep(held)
	close(gate.open)
	waitFor(t, "the queued packets to leave", func() bool { return rec.count() == n+1 })
	end := time.Since(t0)

	lo, hi := uint64(tA.Sub(t1).Microseconds()), uint64(tB.Sub(t0).Microseconds())
	var lastEgress uint64
	seen := map[uint8]int{}
	for i, m := range rec.egressed[1:] {
		want := uint8(3)
		if i >= n/2 {
			want = 0
		}
		if m.Priority != want {
			t.Fatalf("packet %d left at priority %d, want %d: priority 3 first", i, m.Priority, want)
		}
		k := seen[m.Priority] // its place in its own queue
		seen[m.Priority]++
		if m.EnqQdepth != uint32(k) || m.DeqQdepth != uint32(n/2-1-k) {
			t.Errorf("packet %d (priority %d): enq_qdepth %d, deq_qdepth %d; want %d ahead and %d behind in its queue",
				i, m.Priority, m.EnqQdepth, m.DeqQdepth, k, n/2-1-k)
		}
		if m.IngressUs < lo || m.IngressUs > hi {
			t.Errorf("packet %d: ingress_global_timestamp %d µs, want within [%d, %d] since the switch started", i, m.IngressUs, lo, hi)
		}
		if took := uint64(m.EnqTimestampUs) - m.IngressUs; took < uint64(work.Microseconds()) {
			t.Errorf("packet %d: enqueued %d µs after ingress began, but ingress takes %v", i, took, work)
		}
		if m.DeqTimedeltaUs < uint32(held.Microseconds()) {
			t.Errorf("packet %d: deq_timedelta %d µs, but the port was held %v after it was queued", i, m.DeqTimedeltaUs, held)
		}
		if m.EgressUs != uint64(m.EnqTimestampUs)+uint64(m.DeqTimedeltaUs) || m.EgressUs > uint64(end.Microseconds()) {
			t.Errorf("packet %d: egress_global_timestamp %d, enqueued at %d + %d in the queue; the test ran %v",
				i, m.EgressUs, m.EnqTimestampUs, m.DeqTimedeltaUs, end)
		}
		if m.EgressUs < lastEgress {
			t.Errorf("packet %d: egress_global_timestamp %d went back from %d", i, m.EgressUs, lastEgress)
		}
		lastEgress = m.EgressUs
	}
}

// TestEgressStampAcrossThe32BitClock: enq_timestamp is 32 bits and wraps
// after 71 minutes; deq_timedelta, their difference, does not, and
// egress_global_timestamp keeps the whole clock (BMv2's field is 48 bits).
func TestEgressStampAcrossThe32BitClock(t *testing.T) {
	m := pipeline.StdMeta{EnqTimestampUs: ^uint32(0) - 49} // 50 µs before the wrap
	stampEgress(&m, 1<<32+100)
	if m.DeqTimedeltaUs != 150 || m.EgressUs != 1<<32+100 {
		t.Fatalf("deq_timedelta %d, egress_global_timestamp %d; want 150 and %d", m.DeqTimedeltaUs, m.EgressUs, uint64(1<<32+100))
	}
}

// TestRecirculatedPacketHasNoIngressTimestamp: BMv2 resets a recirculated
// packet's metadata, so its second ingress reads ingress_global_timestamp 0
// (a field list may carry the first one; the program restores it).
func TestRecirculatedPacketHasNoIngressTimestamp(t *testing.T) {
	sw := New(Options{CPUPort: 255})
	defer sw.Close()
	rec := &recorder{recirculate: true, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}}
	sw.SetProgram(rec)
	if err := sw.AddPort(1, SinkFunc(func(f [][]byte) error { engine.PutFrames(f); return nil }), 0, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Millisecond) // the clock is past 0
	sw.Receive(2, burst(1))
	waitFor(t, "the recirculated pass to leave", func() bool { return rec.count() == 2 })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	first, second := rec.ingress[0], rec.ingress[1]
	if first.IngressUs == 0 || second.InstanceType != pipeline.InstanceRecirculate || second.IngressUs != 0 {
		t.Fatalf("ingress timestamps %d then %d (instance %d); want the arrival time, then 0 for the recirculated pass",
			first.IngressUs, second.IngressUs, second.InstanceType)
	}
}

// TestTimestampsOneClockReadABatch: the switch reads its clock once for a
// batch of frames taken from a port and once for a batch of copies taken
// from a queue. Every frame of a received batch had arrived when the batch
// was taken, so all carry that instant as ingress_global_timestamp, even
// when ingress takes time on each; every copy of a dequeued batch left its
// queue at one instant, its egress_global_timestamp, while enq_timestamp
// is still each copy's own.
func TestTimestampsOneClockReadABatch(t *testing.T) {
	const n, work = 8, 200 * time.Microsecond
	sw := New(Options{CPUPort: 255})
	defer sw.Close()
	rec, gate := plugged(t, sw)
	rec.ingressWork = work
	sw.Receive(2, burst(n))
	close(gate.open)
	waitFor(t, "the queued packets to leave", func() bool { return rec.count() == n+1 })

	batch := rec.egressed[1:]
	for i, m := range batch {
		if m.IngressUs != batch[0].IngressUs {
			t.Errorf("packet %d: ingress_global_timestamp %d, the batch's first %d: want one stamp a batch", i, m.IngressUs, batch[0].IngressUs)
		}
		if m.EgressUs != batch[0].EgressUs {
			t.Errorf("packet %d: egress_global_timestamp %d, the batch's first %d: want one stamp a dequeue", i, m.EgressUs, batch[0].EgressUs)
		}
		if i > 0 && m.EnqTimestampUs < batch[i-1].EnqTimestampUs+uint32(work.Microseconds()) {
			t.Errorf("packet %d: enq_timestamp %d, %d after the one before; ingress takes %v each", i, m.EnqTimestampUs, m.EnqTimestampUs-batch[i-1].EnqTimestampUs, work)
		}
	}
	if last := batch[n-1]; last.EnqTimestampUs-uint32(last.IngressUs) < uint32((n * work).Microseconds()) {
		t.Errorf("the last packet was queued %d µs after its batch's stamp; the batch's ingress took %v", last.EnqTimestampUs-uint32(last.IngressUs), n*work)
	}
}
