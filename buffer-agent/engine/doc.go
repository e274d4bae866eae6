// SPDX-License-Identifier: Apache-2.0

// Package engine is FlowBuf's Buffer Engine: programmable packet buffers and
// the virtual ports (vports) that connect them to a switch. It implements the
// model of the southbound buffer API (proto/flowbuf/buffer/v1) without any
// gRPC or socket code, so that the stand-alone buffer-agent (vports on Linux
// interfaces) and pbswitch (in-process, zero-copy vports) run the same code.
//
// # Model
//
// A buffer holds frames in a FIFO, strict PRIORITY or ARQ queue, bounded in
// bytes and/or packets, with drop-tail or drop-head overflow. A vport has a
// mode: RX carries frames from the switch into its bound buffer, TX carries
// the buffer's frames back to the switch, in order, optionally paced at
// tx_rate_bps. Several vports may be bound to one buffer; with more than one
// TX vport, frames leave through the first one bound. A buffer's state (Free, Buffering, Serving, Forwarding,
// Storing) is always computed from its bindings and occupancy by
// DeriveState, never stored. Every packet lives in one shared memory pool
// with a hard limit; per-buffer capacities and per-application quotas are
// enforced inside it. Every drop is counted with exactly one DropCause.
//
// Every control call is owner-checked (an application sees and changes only
// its own objects), fails with an *Error whose Code maps 1:1 onto a gRPC
// status code, and changes nothing when it fails. Batch applies several
// operations all-or-nothing; the single calls are batches of one.
//
// # Plugging a switch port in: backends
//
// The engine never reads or writes a port itself. For each vport it asks the
// BackendFactory registered for the vport's BackendKind (Options.Backends) to
// Open a Backend, passing an Ingress:
//
//	type myFactory struct{ sw *Switch }
//
//	func (f myFactory) Open(id string, spec engine.BackendSpec, in engine.Ingress) (engine.Backend, error) {
//		port, err := f.sw.VportPort(spec.Port) // InvalidArgument *Error if not a vport port
//		if err != nil {
//			return nil, err
//		}
//		port.SetSink(in.Receive) // frames the pipeline outputs on this port
//		return port, nil         // port.Transmit injects frames into the pipeline
//	}
//
//	eng := engine.New(engine.Options{Backends: map[engine.BackendKind]engine.BackendFactory{
//		engine.BackendInProcess: myFactory{sw},
//	}})
//
// Frames flow through two calls, both batched ([][]byte) and both moving
// ownership of the frame slices, so the in-process path copies nothing:
//
//   - switch -> buffer: the backend calls Ingress.Receive(frames). From then
//     on the engine owns each frame: it stores it, or drops and counts it
//     (TX_MODE when the vport's mode has no RX, UNBOUND when no buffer is
//     bound, OVERFLOW or POOL when it does not fit). Receive never blocks on
//     the TX side; the caller may reuse the outer slice when it returns.
//   - buffer -> switch: the bound TX vport's Backend.Transmit(frames) gets
//     frames in buffer order (ARQ resends and paced replays included), never
//     concurrently for one buffer. From then on the backend owns each frame.
//     Usually the buffer's TX worker goroutine calls it; when the TX side is
//     idle (FORWARDING with an empty queue) the goroutine inside
//     Ingress.Receive calls it directly (cut-through), saving a goroutine
//     hand-off per batch. A backend whose Transmit must not run inside its
//     own Receive call (it holds a lock across Receive that Transmit needs)
//     sets Options.NoCutThrough.
//
// Frames that the engine drops go back to the package frame pool (GetFrame /
// PutFrame), which backends that copy out of sockets may also use to avoid a
// per-packet allocation. A backend that never uses the pool loses nothing:
// PutFrame ignores slices the pool does not size. Because dropped frames may
// be recycled, every frame given to Receive must be a slice the caller no
// longer uses in any way (never a view into an arena it keeps writing).
//
// Backend.Close is called once, when the vport is removed (or the engine is
// closed); it must stop calling Receive before it returns.
//
// Callers that keep their own port table can also skip factories and feed a
// vport through Engine.Ingress; its frames then still leave through the
// vport's Backend.
//
// # Serving the API
//
// package server serves this engine over gRPC (flowbuf.buffer.v1); an
// embedding switch passes its IN_PROCESS factory in Options.Backends (or
// server.Backends(nil, factory)) and registers server.New(eng, ...) on its
// grpc.Server. LINUX_INTERFACE vports come from package netio.
//
// # Surviving a crash: the state directory
//
// Open with Options.StateDir keeps every buffer's held packets in a journal
// file of that directory, mapped shared (on tmpfs the mapping is the page
// cache, which outlives the process), and the buffers, vports and bindings
// in engine.json; an engine opened again on the directory after a crash
// re-attaches them, packets in order, and counts the frames its vports'
// interfaces received meanwhile (BufferStats.MissedWhileDown, through
// InterfaceCounter). journal.go and persist.go explain the format and the
// crash consistency; Close (a clean stop) empties the directory. New takes
// no state directory: pbswitch's in-process buffers die with pbswitch.
//
// # Time
//
// ARQ resends (every buckets*bucket_us until acknowledged), TX pacing, packet
// ages and DROPPED-event coalescing all read the injected Clock, so tests
// drive them with a fake clock instead of sleeping.
//
// ARQ buffers are acknowledged by Engine.Ack or in band by status frames
// (see ArqStatusEtherType) arriving through one of their RX vports.
//
// # Events
//
// Subscribe registers EventRules (occupancy above/below a threshold, drained,
// first packet, dropped, marker seen via MarkerMatch, state changed) and
// returns a Subscription whose channel receives the Events. Delivery never
// blocks the packet path: a subscriber that falls behind loses events and
// Subscription.Lost counts them.
//
// # Triggers
//
// ArmTrigger arms a one-shot trigger on a buffer: the next batch that
// enters it (whatever then becomes of it: held, forwarded or dropped; an
// ARQ buffer's in-band status frames count too) sets the armed vport modes
// as one all-or-nothing batch, without a controller round trip (FMM: the
// UE's attach signal releases the target buffer). The modes are checked
// when armed; a fire that cannot apply them (a vport was removed) changes
// nothing and counts in BufferStats.TriggerFailures. Armed to purge to the
// report, a fire first drops what another buffer holds up to the packet
// that the trigger packet's receive report names (see ReceiveReport: FMM's
// UE tells the target eNB what it received last). While nothing is armed,
// the packet path pays one atomic load per batch; a fire is applied on a
// goroutine of its own, never under the buffer's lock, or by the next
// ArmTrigger call of the buffer if that comes first, so that its answer
// (ArmResult.LastFire) always includes the fire.
package engine
