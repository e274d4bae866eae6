// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// Processor is a pipeline program (a *v1model.Program).
type Processor interface {
	// Ingress sets pk.Meta's EgressSpec, McastGrp and CloneSession.
	Ingress(pk *pipeline.Packet)
	// Replicate prepares dst, a copy of src's frame and metadata, as the
	// kind of copy the traffic manager is making.
	Replicate(dst, src *pipeline.Packet, kind pipeline.CopyKind)
	// Egress runs for each copy leaving on pk.Meta.EgressPort and leaves
	// the frame to send in pk.Frame; false drops it.
	Egress(pk *pipeline.Packet) bool
	// Objects holds the replication engine the switch reads.
	Objects() *pipeline.Objects
}

// Sink is the far end of a port: where the frames the switch sends out of
// the port go. Send takes ownership of the frames.
type Sink interface {
	Send(frames [][]byte) error
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(frames [][]byte) error

// Send calls f.
func (f SinkFunc) Send(frames [][]byte) error { return f(frames) }

// Options configure a Switch.
type Options struct {
	// CPUPort stands for the controller; frames egressing there go to
	// PacketIn with their packet_in metadata.
	CPUPort  uint32
	PacketIn func(frame []byte, meta []pipeline.CtrlMeta)
	// QueueLen is each priority queue's capacity (DefaultQueueLen if 0).
	QueueLen int
	// CPURateBps shapes the CPU port, the switch's path to the controller
	// (0: unshaped), and CPUQueueLen bounds its queues (QueueLen if 0): a
	// hardware switch polices what it punts (control-plane policing) and
	// drops what its CPU queue cannot hold.
	CPURateBps  uint64
	CPUQueueLen int
	// SharedBufferBytes is the size B of one buffer that the queues of
	// every port but the CPU port share (0: none; each priority queue
	// holds up to QueueLen packets, as before). Buffer is its admission
	// (DefaultBufferConfig when its Algorithm is 0); SetBufferConfig
	// changes it while the switch runs.
	SharedBufferBytes int64
	Buffer            BufferConfig
	// Scheduler chooses which of a port's queues sends next (strict
	// priority by default).
	Scheduler Scheduler
}

// Validate checks the options New takes.
func (o Options) Validate() error {
	if o.SharedBufferBytes == 0 && o.Buffer.Algorithm == 0 {
		return nil
	}
	cfg := o.Buffer
	if cfg.Algorithm == 0 {
		cfg = DefaultBufferConfig()
	}
	return cfg.Validate(o.SharedBufferBytes)
}

// Switch is the data plane: ports, the running program and the traffic
// manager between ingress and egress.
type Switch struct {
	opts  Options
	prog  atomic.Pointer[procBox]
	ports atomic.Pointer[map[uint32]*port]
	byID  atomic.Pointer[[]*port] // ports by number, below maxIndexedPort (setPorts)
	mu    sync.Mutex              // serialises port changes
	start time.Time
	cnt   counters
	pool  packetPool
	// shared is the buffer the ports' queues share (nil: none).
	shared *sharedBuffer
	// watchers learn of ports' state changes (WatchPorts).
	watchers portWatchers
	// unattached queues what is sent to a port that has no interface: as
	// on BMv2, such a copy still runs egress (its counters, registers,
	// clones, digests and recirculations happen) and is dropped when it
	// would be transmitted, counted as no_port.
	unattached *port
}

type procBox struct{ p Processor }

type port struct {
	id     uint32
	sink   Sink
	q      *queue
	rx, tx atomic.Uint64
	wire   wireCounters
	// link is the port's own interface (nil: an in-process port or the
	// CPU port).
	link   link
	added  time.Time
	done   chan struct{}
	closer func() error
}

// New makes a switch with no ports but the CPU port and no program. It
// panics on options that Validate refuses.
func New(opts Options) *Switch {
	if err := opts.Validate(); err != nil {
		panic(fmt.Sprintf("dataplane.New: %v", err))
	}
	if opts.QueueLen <= 0 {
		opts.QueueLen = DefaultQueueLen
	}
	s := &Switch{opts: opts, start: time.Now()}
	if opts.SharedBufferBytes > 0 {
		cfg := opts.Buffer
		if cfg.Algorithm == 0 {
			cfg = DefaultBufferConfig()
		}
		s.shared = newSharedBuffer(opts.SharedBufferBytes, cfg)
	}
	empty := map[uint32]*port{}
	s.setPorts(&empty)
	cpu := SinkFunc(func([][]byte) error { return nil }) // egress hands CPU frames to PacketIn itself
	cpuQueueLen := opts.CPUQueueLen
	if cpuQueueLen <= 0 {
		cpuQueueLen = opts.QueueLen
	}
	if err := s.addPort(opts.CPUPort, cpu, opts.CPURateBps, cpuQueueLen, nil, nil, nil); err != nil {
		panic(err) // an empty switch always takes its first port
	}
	s.unattached = &port{id: pipeline.DropPort, sink: SinkFunc(s.dropUnattached), q: newQueue(opts.QueueLen, 0, nil),
		done: make(chan struct{})}
	go s.egressWorker(s.unattached)
	return s
}

// dropUnattached is the transmit of a port with no interface: BMv2's
// transmit finds no interface and the frame is lost.
func (s *Switch) dropUnattached(frames [][]byte) error {
	s.cnt.drop(DropNoPort, len(frames))
	engine.PutFrames(frames)
	return nil
}

// Scheduler is how the ports choose which queue sends next.
func (s *Switch) Scheduler() Scheduler { return s.opts.Scheduler }

// CPUPort is the controller's port.
func (s *Switch) CPUPort() uint32 { return s.opts.CPUPort }

// SetProgram makes p the running program (nil: drop everything).
func (s *Switch) SetProgram(p Processor) {
	if p == nil {
		s.prog.Store(nil)
		return
	}
	s.prog.Store(&procBox{p: p})
}

// AddPort attaches sink as port id, shaped to rateBps (0: unshaped);
// closer (may be nil) runs when the port is removed.
func (s *Switch) AddPort(id uint32, sink Sink, rateBps uint64, closer func() error) error {
	return s.addPort(id, sink, rateBps, s.opts.QueueLen, s.shared, closer, nil)
}

func (s *Switch) addPort(id uint32, sink Sink, rateBps uint64, queueLen int, shared *sharedBuffer, closer func() error, lk link) error {
	if id == pipeline.DropPort {
		return fmt.Errorf("port %d is the drop port", id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := *s.ports.Load()
	if _, ok := old[id]; ok {
		return fmt.Errorf("port %d already exists", id)
	}
	p := &port{id: id, sink: sink, q: newQueue(queueLen, rateBps, shared), link: lk, added: time.Now(), done: make(chan struct{}), closer: closer}
	p.q.sched = s.opts.Scheduler
	next := make(map[uint32]*port, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	next[id] = p
	s.setPorts(&next)
	go s.egressWorker(p)
	return nil
}

// RemovePort detaches port id; what was queued for it is dropped.
func (s *Switch) RemovePort(id uint32) error {
	s.mu.Lock()
	old := *s.ports.Load()
	p, ok := old[id]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("port %d does not exist", id)
	}
	next := make(map[uint32]*port, len(old))
	for k, v := range old {
		if k != id {
			next[k] = v
		}
	}
	s.setPorts(&next)
	s.mu.Unlock()
	var err error
	if p.closer != nil {
		err = p.closer()
	}
	for _, pk := range p.q.close() {
		s.discard(pk, DropNoPort)
	}
	<-p.done
	return err
}

// SetPortRate shapes port id to rateBps (0: unshaped).
func (s *Switch) SetPortRate(id uint32, rateBps uint64) error {
	p, ok := (*s.ports.Load())[id]
	if !ok {
		return fmt.Errorf("port %d does not exist", id)
	}
	p.q.setRate(rateBps)
	return nil
}

// SetPortDelay holds every packet queued for port id at least d before it
// leaves (0: none): a link's propagation delay, where sch_netem is missing.
func (s *Switch) SetPortDelay(id uint32, d time.Duration) error {
	p, ok := (*s.ports.Load())[id]
	if !ok {
		return fmt.Errorf("port %d does not exist", id)
	}
	if d < 0 || d > MaxPortDelay {
		return fmt.Errorf("port %d: delay %v is not in [0, %v]", id, d, MaxPortDelay)
	}
	p.q.setDelay(d)
	return nil
}

// MaxPortDelay bounds SetPortDelay: a lab's one-way delay, not a buffer.
const MaxPortDelay = time.Second

// SetBufferConfig changes the shared buffer's admission while the switch
// runs: the next packet is admitted by it, and queues' own alphas
// (SetQueueAlphas) are cleared. What the queues hold stays;
// a queue over its new threshold takes nothing until it drains below it.
// An invalid setting, or a switch without a shared buffer, is refused and
// changes nothing.
func (s *Switch) SetBufferConfig(cfg BufferConfig) error {
	if s.shared == nil {
		if err := cfg.Validate(1); err != nil {
			return err
		}
		return ErrNoSharedBuffer
	}
	if err := cfg.Validate(s.shared.size); err != nil {
		return err
	}
	s.shared.cfg.Store(&cfg)
	// A new setting replaces the whole admission, queues' own alphas too.
	for _, p := range *s.ports.Load() {
		p.q.setAlphas([NumPriorities]float64{})
	}
	return nil
}

// QueueAlpha is one queue's own DT alpha: port, queue index, alpha.
type QueueAlpha struct {
	Port  uint32
	Queue int
	Alpha float64
}

// ErrNotDT refuses per-queue alphas while the shared buffer admits by
// another algorithm than DT: they would not be used.
var ErrNotDT = errors.New("per-queue alphas need the dynamic thresholds (dt) algorithm")

// SetQueueAlphas replaces every queue's own DT alpha (FBA: a controller
// re-tunes them periodically); queues not listed go back to their class's
// alpha. A bad list (a port the switch lacks, a queue out of range, a
// queue twice, an alpha not finite and > 0), a switch without a shared
// buffer or not on DT is refused and changes nothing.
func (s *Switch) SetQueueAlphas(alphas []QueueAlpha) error {
	if s.shared == nil {
		return ErrNoSharedBuffer
	}
	if s.shared.cfg.Load().Algorithm != DynamicThresholds {
		return ErrNotDT
	}
	ports := *s.ports.Load()
	byPort := make(map[uint32]*[NumPriorities]float64, len(ports))
	for _, a := range alphas {
		if _, ok := ports[a.Port]; !ok {
			return fmt.Errorf("alpha of port %d queue %d: the switch has no port %d", a.Port, a.Queue, a.Port)
		}
		if a.Queue < 0 || a.Queue >= NumPriorities {
			return fmt.Errorf("alpha of port %d queue %d: want a queue in [0, %d]", a.Port, a.Queue, NumPriorities-1)
		}
		if !(a.Alpha > 0) || math.IsInf(a.Alpha, 0) {
			return fmt.Errorf("alpha of port %d queue %d: %v must be a finite number > 0", a.Port, a.Queue, a.Alpha)
		}
		row := byPort[a.Port]
		if row == nil {
			row = new([NumPriorities]float64)
			byPort[a.Port] = row
		}
		if row[a.Queue] != 0 {
			return fmt.Errorf("alpha of port %d queue %d given twice", a.Port, a.Queue)
		}
		row[a.Queue] = a.Alpha
	}
	for id, p := range ports {
		var row [NumPriorities]float64
		if r := byPort[id]; r != nil {
			row = *r
		}
		p.q.setAlphas(row)
	}
	return nil
}

// BufferStats is the shared buffer's state; false without one.
func (s *Switch) BufferStats() (BufferStats, bool) {
	if s.shared == nil {
		return BufferStats{}, false
	}
	return s.shared.stats(), true
}

// Close removes every port and stops the unattached ports' egress.
func (s *Switch) Close() error {
	var first error
	for id := range *s.ports.Load() {
		if err := s.RemovePort(id); err != nil && first == nil {
			first = err
		}
	}
	for _, pk := range s.unattached.q.close() {
		s.discard(pk, DropNoPort)
	}
	<-s.unattached.done
	return first
}

// Stats snapshots the counters.
func (s *Switch) Stats() Stats {
	st := Stats{Drops: map[string]uint64{}, Ports: map[uint32]PortStats{}}
	for c := DropCause(0); c < numDropCauses; c++ {
		st.Drops[c.String()] = s.cnt.drops[c].Load()
	}
	for id, p := range *s.ports.Load() {
		st.Ports[id] = p.stats()
	}
	if b, ok := s.BufferStats(); ok {
		st.Buffer = &b
	}
	return st
}

func (s *Switch) nowUs() uint32 { return uint32(time.Since(s.start).Microseconds()) }

// nowUs64 is the switch's clock in microseconds, as v1model's 48-bit
// global timestamps count.
func (s *Switch) nowUs64() uint64 { return uint64(time.Since(s.start).Microseconds()) }

// packet takes a packet from the pool for frame arriving on inPort at
// ingressUs (the switch's clock).
func (s *Switch) packet(frame []byte, inPort uint32, ingressUs uint64) *pipeline.Packet {
	var one [1]*pipeline.Packet
	s.pool.take(one[:])
	return initPacket(one[0], frame, inPort, ingressUs)
}

// initPacket readies a packet from the pool for frame.
func initPacket(pk *pipeline.Packet, frame []byte, inPort uint32, ingressUs uint64) *pipeline.Packet {
	pk.Frame, pk.Meta, pk.PacketOut = frame, pipeline.StdMeta{IngressPort: inPort}, nil
	pk.Meta.IngressUs = ingressUs
	pk.PacketIn = pk.PacketIn[:0]
	return pk
}

// release returns pk to the pool. Its program state stays with it: the
// program reuses a packet's own state (v1model: its PHV, reset) when the
// packet comes back, which spares a second pool's Get and Put per packet
// (a frame through an in-process buffer crosses the switch twice).
func (s *Switch) release(pk *pipeline.Packet) {
	pk.Frame = nil
	s.pool.give([]*pipeline.Packet{pk})
}

// discard drops pk, returning its frame to the frame pool.
func (s *Switch) discard(pk *pipeline.Packet, cause DropCause) {
	s.cnt.drop(cause, 1)
	engine.PutFrame(pk.Frame)
	s.release(pk)
}

// Receive runs frames that arrived on port inPort through the pipeline.
// The switch owns the frames from now on; the outer slice stays the
// caller's.
func (s *Switch) Receive(inPort uint32, frames [][]byte) {
	s.receive(inPort, frames, false)
}

// LosslessWait bounds how long ReceiveLossless waits for room in an egress
// queue before it drops (a port that no longer drains must not wedge the
// buffer replaying into it).
const LosslessWait = 2 * time.Second

// ReceiveLossless is Receive for a source that can wait: a buffer replaying
// what it held. A full unicast egress queue makes the caller wait for room
// instead of dropping, so a replay burst leaves at the out port's pace and
// a resumed flow loses nothing. Multicast and clone copies still drop.
func (s *Switch) ReceiveLossless(inPort uint32, frames [][]byte) {
	s.receive(inPort, frames, true)
}

func (s *Switch) receive(inPort uint32, frames [][]byte, lossless bool) {
	box := s.prog.Load()
	ports := *s.ports.Load()
	if p, ok := ports[inPort]; ok {
		p.rx.Add(uint64(len(frames)))
		p.wire.countRx(frames)
	}
	if box == nil {
		s.cnt.drop(DropNoPipeline, len(frames))
		engine.PutFrames(frames)
		return
	}
	// One clock read a batch: every frame of it had arrived when the
	// batch was taken, which is what ingress_global_timestamp stamps.
	now := s.nowUs64()
	var pks [egressBatch]*pipeline.Packet // the batch's packets, taken at once
	for len(frames) > 0 {
		batch := frames[:min(len(frames), len(pks))]
		frames = frames[len(batch):]
		s.pool.take(pks[:len(batch)])
		for i, f := range batch {
			pk := initPacket(pks[i], f, inPort, now)
			pks[i] = nil
			box.p.Ingress(pk)
			s.dispatch(box.p, ports, pk, lossless)
		}
	}
}

// PacketOut injects a frame from the controller (ingress port: the CPU
// port) with its packet_out metadata.
func (s *Switch) PacketOut(frame []byte, meta []pipeline.CtrlMeta) error {
	box := s.prog.Load()
	if box == nil {
		return fmt.Errorf("no pipeline program is running")
	}
	pk := s.packet(frame, s.opts.CPUPort, s.nowUs64())
	pk.PacketOut = meta
	box.p.Ingress(pk)
	s.dispatch(box.p, *s.ports.Load(), pk, false)
	return nil
}

// dispatch applies ingress's verdict: clone, then multicast or unicast.
func (s *Switch) dispatch(proc Processor, ports map[uint32]*port, pk *pipeline.Packet, lossless bool) {
	m := &pk.Meta
	if m.CloneSession != 0 {
		s.clone(proc, ports, pk)
	}
	switch {
	case m.McastGrp != 0:
		s.multicast(proc, ports, pk)
	case m.EgressSpec == pipeline.DropPort:
		s.discard(pk, DropIngress)
	default:
		m.EgressPort = m.EgressSpec
		if lossless {
			s.enqueueWaiting(ports, pk)
		} else {
			s.enqueue(ports, pk)
		}
	}
}

// enqueue puts pk in its egress port's queue. Each copy is stamped as it
// enters its queue (enq_timestamp), as BMv2 does, not when its frame
// arrived: what ingress took is processing time, not queueing.
func (s *Switch) enqueue(ports map[uint32]*port, pk *pipeline.Packet) {
	p := s.egressQueue(ports, pk.Meta.EgressPort)
	if cause := p.q.enqueue(pk, s.nowUs()); cause != admitted {
		s.refuse(p, pk, cause)
	}
}

// egressQueue is the port whose queue takes a copy leaving on id: the
// port's own, or, for an id with no interface, the unattached queue.
func (s *Switch) egressQueue(ports map[uint32]*port, id uint32) *port {
	if p, ok := s.portByID(ports, id); ok {
		return p
	}
	return s.unattached
}

// refuse drops pk, which p's queue did not take, counting it for the
// queue too.
func (s *Switch) refuse(p *port, pk *pipeline.Packet, cause DropCause) {
	p.q.countDrop(pk.Meta.Priority, cause)
	s.discard(pk, cause)
}

// enqueueWaiting enqueues pk, waiting up to LosslessWait for queue room.
func (s *Switch) enqueueWaiting(ports map[uint32]*port, pk *pipeline.Packet) {
	p := s.egressQueue(ports, pk.Meta.EgressPort)
	cause := p.q.enqueue(pk, s.nowUs())
	if cause == admitted {
		return // the common case
	}
	deadline := time.Now().Add(LosslessWait)
	for ; cause != admitted; cause = p.q.enqueue(pk, s.nowUs()) {
		if time.Now().After(deadline) {
			s.refuse(p, pk, cause)
			return
		}
		// The egress worker drains a full queue in batches; a short sleep
		// lets it catch up without spinning a core.
		time.Sleep(20 * time.Microsecond)
	}
}

// copyPacket makes an independent copy of pk (frame and program state),
// a multicast replica or a clone as proc prepares it.
func (s *Switch) copyPacket(proc Processor, pk *pipeline.Packet, kind pipeline.CopyKind) *pipeline.Packet {
	n := len(pk.Frame)
	f := engine.GetFrame(n)[:n]
	copy(f, pk.Frame)
	c := s.packet(f, pk.Meta.IngressPort, pk.Meta.IngressUs)
	c.Meta = pk.Meta
	if c.State != nil { // Replicate gives the copy state of its own
		c.State.Release()
		c.State = nil
	}
	proc.Replicate(c, pk, kind)
	return c
}

func (s *Switch) multicast(proc Processor, ports map[uint32]*port, pk *pipeline.Packet) {
	rs, ok := proc.Objects().PRE.Group(uint32(pk.Meta.McastGrp))
	if !ok || len(rs) == 0 {
		s.discard(pk, DropNoGroup)
		return
	}
	for i, r := range rs {
		c := pk
		if i < len(rs)-1 {
			c = s.copyPacket(proc, pk, pipeline.CopyReplica)
		}
		c.Meta.EgressPort, c.Meta.EgressRid, c.Meta.InstanceType = r.Port, uint16(r.Instance), pipeline.InstanceReplica
		s.enqueue(ports, c)
	}
}

func (s *Switch) clone(proc Processor, ports map[uint32]*port, pk *pipeline.Packet) {
	s.cloneTo(proc, ports, pk, pk.Meta.CloneSession, pipeline.CopyIngressClone, pipeline.InstanceClone)
}

// cloneTo sends a copy of pk to each replica of clone session id.
func (s *Switch) cloneTo(proc Processor, ports map[uint32]*port, pk *pipeline.Packet, id uint32, kind pipeline.CopyKind, instance uint32) {
	sess, ok := proc.Objects().PRE.Clone(id)
	if !ok {
		s.cnt.drop(DropNoGroup, 1)
		return
	}
	for _, r := range sess.Replicas {
		c := s.copyPacket(proc, pk, kind)
		c.Meta.TruncateTo = int(sess.TruncateTo)
		c.Meta.McastGrp, c.Meta.CloneSession = 0, 0
		c.Meta.EgressClone, c.Meta.Recirculate = 0, false
		c.Meta.EgressPort, c.Meta.EgressRid, c.Meta.InstanceType = r.Port, uint16(r.Instance), instance
		c.Meta.Priority = uint8(sess.ClassOfSvc)
		s.enqueue(ports, c)
	}
}

// MaxRecirculations bounds how often one packet goes round (BMv2 has no
// bound; a program that recirculates forever would spin the switch).
const MaxRecirculations = 16

// recirculate sends the frame egress deparsed back through ingress, as
// arriving on the port it first came in on.
func (s *Switch) recirculate(proc Processor, pk *pipeline.Packet) {
	m := &pk.Meta
	if m.Recirculations >= MaxRecirculations {
		s.discard(pk, DropRecirculation)
		return
	}
	trips := m.Recirculations + 1
	// BMv2 resets a recirculated packet's metadata: its
	// ingress_global_timestamp is 0 unless a field list carries it.
	*m = pipeline.StdMeta{IngressPort: m.IngressPort, InstanceType: pipeline.InstanceRecirculate,
		Recirculations: trips}
	pk.PacketOut, pk.PacketIn = nil, pk.PacketIn[:0]
	proc.Ingress(pk)
	s.dispatch(proc, *s.ports.Load(), pk, false)
}

// egressBatch bounds the packets one egress round handles.
const egressBatch = 64

// egressWorker serves one port's queues: dequeue (strict priority, within
// the port rate), egress program, transmit.
func (s *Switch) egressWorker(p *port) {
	defer close(p.done)
	batch := make([]*pipeline.Packet, egressBatch)
	frames := make([][]byte, 0, egressBatch)
	done := make([]*pipeline.Packet, 0, egressBatch) // back to the pool at the batch's end
	for {
		// One clock read a batch: its copies leave their queues now, the
		// instant egress_global_timestamp and deq_timedelta stamp.
		now := time.Now()
		nowUs := uint64(now.Sub(s.start).Microseconds())
		n, wait := p.q.dequeue(batch, now, uint32(nowUs))
		if n == 0 {
			if wait > 0 {
				time.Sleep(wait)
				continue
			}
			select {
			case <-p.q.wake:
			case <-p.q.done:
				return
			}
			continue
		}
		box := s.prog.Load()
		for _, pk := range batch[:n] {
			if box == nil {
				s.discard(pk, DropEgress)
				continue
			}
			stampEgress(&pk.Meta, nowUs)
			sent := box.p.Egress(pk)
			if pk.Meta.EgressClone != 0 {
				s.cloneTo(box.p, *s.ports.Load(), pk, pk.Meta.EgressClone, pipeline.CopyEgressClone, pipeline.InstanceEgressClone)
			}
			switch {
			case !sent:
				s.discard(pk, DropEgress)
				continue
			case pk.Meta.Recirculate:
				s.recirculate(box.p, pk)
				continue
			}
			if p.id == s.opts.CPUPort && p != s.unattached {
				if s.opts.PacketIn != nil {
					s.opts.PacketIn(pk.Frame, pk.PacketIn)
				}
				p.tx.Add(1)
				pk.Frame = nil
				done = append(done, pk)
				continue
			}
			frames = append(frames, pk.Frame)
			pk.Frame = nil
			done = append(done, pk)
		}
		clear(batch[:n])
		s.pool.give(done)
		clear(done)
		done = done[:0]
		if len(frames) > 0 {
			t := tally(frames) // before Send, which takes the frames
			if err := p.sink.Send(frames); err != nil {
				s.cnt.drop(DropTxError, len(frames))
				p.wire.txErrors.Add(uint64(len(frames)))
			} else {
				p.tx.Add(uint64(len(frames)))
				p.wire.addTx(t)
			}
			clear(frames)
			frames = frames[:0]
		}
	}
}
