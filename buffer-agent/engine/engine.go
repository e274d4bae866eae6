// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
)

// Options configure an Engine. Zero fields take the defaults of
// DefaultLimits and SystemClock.
type Options struct {
	Limits Limits
	// DefaultQuota applies to every application without an entry in Quotas.
	DefaultQuota Quota
	Quotas       map[string]Quota
	Clock        Clock
	// Backends open vports of each kind; a kind without a factory is
	// Unimplemented.
	Backends map[BackendKind]BackendFactory
	// NoCutThrough keeps Transmit off the goroutine that calls Receive:
	// every frame then leaves through the buffer's TX worker. For backends
	// that cannot take a Transmit call from inside their own Receive call.
	NoCutThrough bool
	// StateDir, when set, keeps the held packets, the buffers and the
	// vports in files there (on tmpfs: see journal and stateDir) so that an
	// agent restarted after a crash re-attaches them; only Open takes it.
	StateDir string
	// Admission decides which buffer may take more of the pool (see
	// AdmissionConfig); nil means DefaultAdmission. New panics and Open
	// fails when it is invalid; SetAdmission changes it at run time.
	Admission *AdmissionConfig
	// StateErrors is told when the state directory cannot be updated after
	// a control change (the change stands; a crash would then lose it).
	StateErrors func(error)
}

// DefaultLimits are the limits used for zero fields of Options.Limits.
var DefaultLimits = Limits{
	PoolBytes:        256 << 20,
	MaxBufferBytes:   256 << 20,
	MaxBufferPackets: 1 << 20,
	// A buffer costs a goroutine and a few hundred bytes when empty; a
	// device that pauses a flow per idle UE needs tens of thousands.
	MaxBuffers:    1 << 16,
	MaxVports:     1 << 16,
	MaxFrameBytes: 9216,
	// A tagged vport costs a map entry and a struct: a UPF device pauses
	// tens of thousands of UEs behind a few vport ports.
	MaxTagsPerBackend: 1 << 16,
}

// Engine holds every buffer and vport of one switch. Control calls are
// serialised by one mutex and are all-or-nothing; the packet path takes only
// the lock of the buffer it touches.
type Engine struct {
	limits   Limits
	quotas   map[string]Quota
	defQuota Quota
	clock    Clock
	backends map[BackendKind]BackendFactory
	// cutThrough lets Receive transmit inline when the TX side is idle.
	cutThrough bool

	pool memPool
	adm  atomic.Pointer[admission]
	// congested is FB's N_p per buffer priority (prioLow, prioHigh): the
	// buffers holding packets with an RX vport (see buffer.settle).
	congested [2]atomic.Int64

	mu      sync.Mutex // guards everything below and serialises control calls
	buffers map[string]*buffer
	vports  map[string]*vport
	shared  map[sharedKey]*sharedBackend // backends of tagged vports
	apps    map[string]*appUsage
	subs    map[*Subscription]struct{}
	closed  bool
	state   *stateDir // nil without Options.StateDir
}

// New returns an empty engine without a state directory; an engine with
// one comes from Open.
func New(opts Options) *Engine {
	if opts.StateDir != "" {
		panic("engine.New: Options.StateDir needs engine.Open")
	}
	e, err := newEngine(opts)
	if err != nil {
		panic("engine.New: " + err.Error())
	}
	return e
}

func newEngine(opts Options) (*Engine, error) {
	l := fillLimits(opts.Limits)
	adm := DefaultAdmission()
	if opts.Admission != nil {
		adm = *opts.Admission
	}
	if err := adm.Validate(l.PoolBytes); err != nil {
		return nil, fmt.Errorf("pool admission: %w", err)
	}
	clk := opts.Clock
	if clk == nil {
		clk = SystemClock{}
	}
	e := &Engine{
		limits:     l,
		quotas:     opts.Quotas,
		defQuota:   opts.DefaultQuota,
		clock:      clk,
		backends:   opts.Backends,
		cutThrough: !opts.NoCutThrough,
		pool:       memPool{limit: l.PoolBytes},
		buffers:    map[string]*buffer{},
		vports:     map[string]*vport{},
		shared:     map[sharedKey]*sharedBackend{},
		apps:       map[string]*appUsage{},
		subs:       map[*Subscription]struct{}{},
	}
	e.adm.Store(newAdmission(adm))
	return e, nil
}

func fillLimits(l Limits) Limits {
	d := DefaultLimits
	if l.PoolBytes == 0 {
		l.PoolBytes = d.PoolBytes
	}
	if l.MaxBufferBytes == 0 {
		l.MaxBufferBytes = min(d.MaxBufferBytes, l.PoolBytes)
	}
	if l.MaxBufferPackets == 0 {
		l.MaxBufferPackets = d.MaxBufferPackets
	}
	if l.MaxBuffers == 0 {
		l.MaxBuffers = d.MaxBuffers
	}
	if l.MaxVports == 0 {
		l.MaxVports = d.MaxVports
	}
	if l.MaxFrameBytes == 0 {
		l.MaxFrameBytes = d.MaxFrameBytes
	}
	if l.MaxTagsPerBackend == 0 {
		l.MaxTagsPerBackend = d.MaxTagsPerBackend
	}
	return l
}

// Limits returns the engine's agent-wide limits.
func (e *Engine) Limits() Limits { return e.limits }

// Clock returns the engine's clock.
func (e *Engine) Clock() Clock { return e.clock }

// PoolUsedBytes is the shared pool's current use.
func (e *Engine) PoolUsedBytes() uint64 { return e.pool.used.Load() }

func (e *Engine) quotaOf(app string) Quota {
	if q, ok := e.quotas[app]; ok {
		return q
	}
	return e.defQuota
}

// Capabilities describes the engine as seen by app.
func (e *Engine) Capabilities(app string) (Capabilities, error) {
	if err := checkApp(app); err != nil {
		return Capabilities{}, err
	}
	kinds := make([]BackendKind, 0, len(e.backends))
	for k := range e.backends {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	return Capabilities{
		Limits:   e.limits,
		Queues:   []QueueType{QueueFIFO, QueuePriority, QueueARQ},
		Backends: kinds,
		Quota:    e.quotaOf(app),
	}, nil
}

// CreateBuffer creates a buffer owned by app; creating the same id with the
// same config again is a no-op success.
func (e *Engine) CreateBuffer(app, id string, cfg BufferConfig) (BufferInfo, error) {
	r, err := e.apply(app, []Op{{CreateBuffer: &CreateBufferOp{ID: id, Config: cfg}}}, false)
	if err != nil {
		return BufferInfo{}, err
	}
	return *r[0].Buffer, nil
}

// RemoveBuffer removes an unbound buffer. A non-empty buffer needs discard;
// its packets are then counted as dropped (cause ADMIN).
func (e *Engine) RemoveBuffer(app, id string, discard bool) (uint64, error) {
	r, err := e.apply(app, []Op{{RemoveBuffer: &RemoveBufferOp{ID: id, Discard: discard}}}, false)
	if err != nil {
		return 0, err
	}
	return r[0].Discarded, nil
}

// CreateVport creates a vport owned by app and opens its backend.
func (e *Engine) CreateVport(app, id string, cfg VportConfig) (VportInfo, error) {
	r, err := e.apply(app, []Op{{CreateVport: &CreateVportOp{ID: id, Config: cfg}}}, false)
	if err != nil {
		return VportInfo{}, err
	}
	return *r[0].Vport, nil
}

// RemoveVport removes an unbound vport and closes its backend.
func (e *Engine) RemoveVport(app, id string) error {
	_, err := e.apply(app, []Op{{RemoveVport: &RemoveVportOp{ID: id}}}, false)
	return err
}

// SetVportMode changes a vport's mode and, when txRateBps is not nil, its
// TX pacing rate.
func (e *Engine) SetVportMode(app, id string, mode VportMode, txRateBps *uint64) (VportInfo, error) {
	op := &SetVportModeOp{ID: id, Mode: mode, TxRateBps: txRateBps}
	r, err := e.apply(app, []Op{{SetVportMode: op}}, false)
	if err != nil {
		return VportInfo{}, err
	}
	return *r[0].Vport, nil
}

// Bind attaches a vport to a buffer.
func (e *Engine) Bind(app, bufferID, vportID string) (BufferInfo, error) {
	r, err := e.apply(app, []Op{{Bind: &BindOp{BufferID: bufferID, VportID: vportID}}}, false)
	if err != nil {
		return BufferInfo{}, err
	}
	return *r[0].Buffer, nil
}

// Unbind detaches a vport from the buffer it is bound to.
func (e *Engine) Unbind(app, bufferID, vportID string) (BufferInfo, error) {
	r, err := e.apply(app, []Op{{Unbind: &BindOp{BufferID: bufferID, VportID: vportID}}}, false)
	if err != nil {
		return BufferInfo{}, err
	}
	return *r[0].Buffer, nil
}

// QueryBuffer returns a snapshot of one of app's buffers.
func (e *Engine) QueryBuffer(app, id string) (BufferInfo, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b, err := e.ownedBuffer(app, id)
	if err != nil {
		return BufferInfo{}, err
	}
	return b.info(), nil
}

// ListBuffers returns snapshots of app's buffers, sorted by id.
func (e *Engine) ListBuffers(app string) ([]BufferInfo, error) {
	if err := checkApp(app); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []BufferInfo{}
	for _, b := range e.buffers {
		if b.owner == app {
			out = append(out, b.info())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// QueryVport returns a snapshot of one of app's vports.
func (e *Engine) QueryVport(app, id string) (VportInfo, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, err := e.ownedVport(app, id)
	if err != nil {
		return VportInfo{}, err
	}
	return v.info(), nil
}

// ListVports returns snapshots of app's vports, sorted by id.
func (e *Engine) ListVports(app string) ([]VportInfo, error) {
	if err := checkApp(app); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []VportInfo{}
	for _, v := range e.vports {
		if v.owner == app {
			out = append(out, v.info())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Ingress returns the receive side of one of app's vports, for callers that
// feed frames themselves (benchmarks, tests, an embedding switch that keeps
// its own backend table).
func (e *Engine) Ingress(app, vportID string) (Ingress, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ownedVport(app, vportID)
}

// Close removes every vport (closing its backend) and every buffer.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	var first error
	for id, v := range e.vports {
		if b := v.buf.Load(); b != nil {
			b.detach(v)
		}
		if err := v.backend.Close(); err != nil && first == nil {
			first = err
		}
		if c := v.rx.Load(); c != nil {
			c.remove()
		}
		delete(e.vports, id)
	}
	for id, b := range e.buffers {
		b.close()
		delete(e.buffers, id)
	}
	for s := range e.subs {
		s.closeLocked()
	}
	if e.state != nil {
		// A clean stop: the buffers are gone, and so is their state.
		for _, name := range []string{stateFile, stateTemp, lockFile} {
			if err := os.Remove(filepath.Join(e.state.path, name)); err != nil && !os.IsNotExist(err) && first == nil {
				first = err
			}
		}
		e.state.lock.Close()
		_ = os.Remove(e.state.path) // only when empty: an operator's files stay
	}
	return first
}

func (e *Engine) ownedBuffer(app, id string) (*buffer, error) {
	if err := checkApp(app); err != nil {
		return nil, err
	}
	if err := checkID("buffer_id", id); err != nil {
		return nil, err
	}
	b, ok := e.buffers[id]
	if !ok {
		return nil, errorf(NotFound, "buffer %q not found", id)
	}
	if b.owner != app {
		return nil, errorf(PermissionDenied, "buffer %q belongs to another application", id)
	}
	return b, nil
}

func (e *Engine) ownedVport(app, id string) (*vport, error) {
	if err := checkApp(app); err != nil {
		return nil, err
	}
	if err := checkID("vport_id", id); err != nil {
		return nil, err
	}
	v, ok := e.vports[id]
	if !ok {
		return nil, errorf(NotFound, "vport %q not found", id)
	}
	if v.owner != app {
		return nil, errorf(PermissionDenied, "vport %q belongs to another application", id)
	}
	return v, nil
}

// AllBuffers returns snapshots of every application's buffers, sorted by
// id: for operators and metrics, never for an application.
func (e *Engine) AllBuffers() []BufferInfo {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]BufferInfo, 0, len(e.buffers))
	for _, b := range e.buffers {
		out = append(out, b.info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// AllVports returns snapshots of every application's vports, sorted by id.
func (e *Engine) AllVports() []VportInfo {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]VportInfo, 0, len(e.vports))
	for _, v := range e.vports {
		out = append(out, v.info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
