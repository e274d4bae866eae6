// SPDX-License-Identifier: Apache-2.0

package engine

// Ingress is how a backend hands the engine the frames the switch sent to a
// vport. The engine implements it; a backend receives one from Open.
type Ingress interface {
	// Receive takes ownership of every frame slice in frames (the backend
	// must not touch them afterwards) and may keep or drop each one. The
	// outer slice stays the caller's and may be reused once Receive returns.
	// Safe for concurrent use; frames of one call keep their order.
	Receive(frames [][]byte)
}

// Transmitter sends frames from a vport back into the switch.
type Transmitter interface {
	// Transmit sends frames in order and takes ownership of every frame
	// slice (the engine never touches them again); the outer slice must not
	// be kept after Transmit returns (in pass-through it is the very slice
	// the switch gave to Receive). It is never called concurrently for one buffer. It may be
	// called from inside an Ingress.Receive call of another (or the same)
	// vport: in FORWARDING the receiving goroutine sends the frames itself
	// when the TX side is idle (cut-through), unless Options.NoCutThrough.
	// An error means the frames were not sent; the engine counts them as
	// sent by the buffer but not by the vport, and does not retry.
	Transmit(frames [][]byte) error
}

// Backend carries one vport's frames between the engine and a switch port.
type Backend interface {
	Transmitter
	// Close stops delivery to the Ingress and releases what Open created
	// (sockets, a veth pair made on request). Called once, on vport removal.
	Close() error
}

// BackendFactory opens backends of one BackendKind.
type BackendFactory interface {
	// Open validates spec and starts a backend for vport vportID that
	// delivers received frames to in. It returns an *Error with code
	// InvalidArgument for a bad spec (e.g. an unknown interface); any other
	// error is reported as an internal failure. Open must undo its own side
	// effects when it fails.
	Open(vportID string, spec BackendSpec, in Ingress) (Backend, error)
}

// BackendFactoryFunc adapts a function to BackendFactory.
type BackendFactoryFunc func(vportID string, spec BackendSpec, in Ingress) (Backend, error)

// Open calls f.
func (f BackendFactoryFunc) Open(vportID string, spec BackendSpec, in Ingress) (Backend, error) {
	return f(vportID, spec, in)
}
