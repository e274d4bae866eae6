// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// The state directory (Options.StateDir) keeps what an agent holds where a
// kill -9 of the agent cannot take it: on tmpfs, the page cache outlives
// the process (see journal for the packets). It holds
//
//   - engine.json: every buffer (id, owner, config, bound vports in bind
//     order) and vport (id, owner, config with its current mode and rate),
//     rewritten (to a temporary file, then renamed over) after every
//     control change;
//   - buffer-<hex id>.ring: one journal per buffer, its held packets;
//   - vport-<hex id>.rx: per vport, how many frames the agent took in since
//     the vport was opened and the interface's own receive counter then,
//     so that a restarted agent can count the frames that arrived while it
//     was down;
//   - LOCK: flock'ed by the agent that uses the directory.
//
// Anything else in the directory makes Open refuse it: it deletes nothing
// it did not write.
const (
	stateFile   = "engine.json"
	stateTemp   = "engine.json.tmp"
	lockFile    = "LOCK"
	stateFormat = "flowbuf-agent-state"
	stateVer    = 1
	ringPrefix  = "buffer-"
	ringSuffix  = ".ring"
	rxPrefix    = "vport-"
	rxSuffix    = ".rx"
)

// InterfaceCounter is implemented by backends whose port counts received
// frames outside the agent (a Linux interface's rx_packets), which goes on
// counting while the agent is down. With a state directory, a restarted
// agent compares it with what the agent took in to count the frames that
// arrived while it was down (BufferStats.MissedWhileDown).
type InterfaceCounter interface {
	InterfaceRxPackets() (uint64, error)
}

// Reopener is implemented by factories that open a restored vport (after
// a crash) differently from a new one, e.g. taking over a veth pair that
// the vport created and that is still there. Without it, Open is used.
type Reopener interface {
	Reopen(vportID string, spec BackendSpec, in Ingress) (Backend, error)
}

type savedState struct {
	Format  string        `json:"format"`
	Version int           `json:"version"`
	Buffers []savedBuffer `json:"buffers"`
	Vports  []savedVport  `json:"vports"`
}

// check refuses a state that no agent wrote: bad ids or configs, twice
// the same id, a binding to a vport it does not list or listed twice.
func (st *savedState) check() error {
	// The limits may have changed since: only the config's shape counts.
	any := Limits{MaxBufferBytes: ^uint64(0), MaxBufferPackets: ^uint64(0)}
	vports := map[string]bool{}
	for _, v := range st.Vports {
		if err := checkID("vport_id", v.ID); err != nil {
			return err
		}
		if err := checkApp(v.Owner); err != nil {
			return fmt.Errorf("vport %q: %w", v.ID, err)
		}
		if err := checkVportConfig(v.Config); err != nil {
			return fmt.Errorf("vport %q: %w", v.ID, err)
		}
		if vports[v.ID] {
			return fmt.Errorf("vport %q listed twice", v.ID)
		}
		vports[v.ID] = true
	}
	buffers := map[string]bool{}
	bound := map[string]bool{}
	for i, b := range st.Buffers {
		if err := checkID("buffer_id", b.ID); err != nil {
			return err
		}
		if err := checkApp(b.Owner); err != nil {
			return fmt.Errorf("buffer %q: %w", b.ID, err)
		}
		cfg, err := normalizeBufferConfig(b.Config, any)
		if err != nil {
			return fmt.Errorf("buffer %q: %w", b.ID, err)
		}
		st.Buffers[i].Config = cfg
		if buffers[b.ID] {
			return fmt.Errorf("buffer %q listed twice", b.ID)
		}
		buffers[b.ID] = true
		for _, v := range b.Vports {
			if !vports[v] || bound[v] {
				return fmt.Errorf("buffer %q: vport %q is not listed or bound twice", b.ID, v)
			}
			bound[v] = true
		}
	}
	return nil
}

type savedBuffer struct {
	ID     string       `json:"id"`
	Owner  string       `json:"owner"`
	Config BufferConfig `json:"config"`
	Vports []string     `json:"vports"` // bound, in bind order
}

type savedVport struct {
	ID     string      `json:"id"`
	Owner  string      `json:"owner"`
	Config VportConfig `json:"config"`
}

type stateDir struct {
	path string
	lock *os.File
	// onError is told when engine.json cannot be written (Options.StateErrors).
	onError func(error)
}

func (s *stateDir) ringPath(id string) string {
	return filepath.Join(s.path, ringPrefix+hex.EncodeToString([]byte(id))+ringSuffix)
}

func (s *stateDir) rxPath(id string) string {
	return filepath.Join(s.path, rxPrefix+hex.EncodeToString([]byte(id))+rxSuffix)
}

// RestoreReport says what Open found in the state directory.
type RestoreReport struct {
	// Buffers re-attached with the packets they held.
	Buffers []RestoredBuffer
	// Notes are what else an operator should know: vports that could not
	// be opened again, files removed because they held nothing.
	Notes []string
}

// RestoredBuffer is one buffer found in the state directory.
type RestoredBuffer struct {
	ID      string
	Packets uint64 // held before the restart, held again now
	// Missed counts the frames that the interfaces of its RX vports
	// received while the agent was down: they could not be held.
	Missed uint64
}

// Open returns an engine; with Options.StateDir it re-attaches the buffers
// and vports that an agent left there (a crash: a clean Close empties the
// directory) and keeps them there from then on. It refuses a directory it
// cannot use (not a directory, not writable, in use by another agent, a
// file it did not write, a corrupt journal) with an error naming the
// problem, having deleted nothing.
func Open(opts Options) (*Engine, RestoreReport, error) {
	e, err := newEngine(opts)
	if err != nil {
		return nil, RestoreReport{}, err
	}
	if opts.StateDir == "" {
		return e, RestoreReport{}, nil
	}
	found, err := scanStateDir(opts.StateDir, e.limits)
	if err != nil {
		return nil, RestoreReport{}, err
	}
	e.state = &stateDir{path: opts.StateDir, lock: found.lock, onError: opts.StateErrors}
	rep, err := e.restore(found)
	if err != nil {
		found.closeJournals()
		found.lock.Close()
		return nil, RestoreReport{}, err
	}
	return e, rep, nil
}

type scanned struct {
	lock     *os.File
	saved    savedState
	journals map[string]*journal // by buffer id, checked
	held     map[string]uint64   // live records by buffer id
	orphans  []*journal          // journals of buffers engine.json does not list, empty
	rxFiles  map[string]string   // vport id -> path
}

func (s *scanned) closeJournals() {
	for _, j := range s.journals {
		j.unmap()
	}
	for _, j := range s.orphans {
		j.unmap()
	}
}

func idOfName(name, prefix, suffix string) (string, bool) {
	if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, suffix) {
		return "", false
	}
	raw, err := hex.DecodeString(strings.TrimSuffix(strings.TrimPrefix(name, prefix), suffix))
	if err != nil || checkID("id", string(raw)) != nil {
		return "", false
	}
	return string(raw), true
}

// scanStateDir checks everything in dir before anything is changed.
func scanStateDir(dir string, l Limits) (*scanned, error) {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("state dir %s: "+format, append([]any{dir}, a...)...)
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fail("cannot create it: %w", err)
		}
	case err != nil:
		return nil, fail("%w", err)
	case !st.IsDir():
		return nil, fail("not a directory")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fail("%w", err)
	}
	s := &scanned{journals: map[string]*journal{}, held: map[string]uint64{}, rxFiles: map[string]string{}}
	rings := map[string]string{}
	hasState := false
	for _, en := range entries {
		name := en.Name()
		if !en.Type().IsRegular() {
			return nil, fail("holds %q, which is not an agent state file: refusing to use it (nothing was changed; move it away or choose another state dir)", name)
		}
		if id, ok := idOfName(name, ringPrefix, ringSuffix); ok {
			rings[id] = filepath.Join(dir, name)
			continue
		}
		if id, ok := idOfName(name, rxPrefix, rxSuffix); ok {
			s.rxFiles[id] = filepath.Join(dir, name)
			continue
		}
		switch name {
		case stateFile:
			hasState = true
		case stateTemp, lockFile:
		default:
			return nil, fail("holds %q, which is not an agent state file: refusing to use it (nothing was changed; move it away or choose another state dir)", name)
		}
	}
	lock, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fail("%w", err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fail("in use by another agent (%s is locked)", lockFile)
		}
		return nil, fail("lock: %w", err)
	}
	s.lock = lock
	if err := s.load(dir, hasState, rings, l); err != nil {
		s.closeJournals()
		lock.Close()
		return nil, err
	}
	return s, nil
}

func (s *scanned) load(dir string, hasState bool, rings map[string]string, l Limits) error {
	s.saved = savedState{Format: stateFormat, Version: stateVer}
	if hasState {
		raw, err := os.ReadFile(filepath.Join(dir, stateFile))
		if err != nil {
			return fmt.Errorf("state dir %s: %w", dir, err)
		}
		var saved savedState
		if err := json.Unmarshal(raw, &saved); err != nil {
			return fmt.Errorf("state dir %s: %s is not an agent state (%v): refusing to use it", dir, stateFile, err)
		}
		if saved.Format != stateFormat || saved.Version != stateVer {
			return fmt.Errorf("state dir %s: %s has format %q version %d; this agent reads %q version %d",
				dir, stateFile, saved.Format, saved.Version, stateFormat, stateVer)
		}
		if err := saved.check(); err != nil {
			return fmt.Errorf("state dir %s: %s: %w: refusing to use it", dir, stateFile, err)
		}
		s.saved = saved
	}
	maxFrame := max(l.MaxFrameBytes, largeFrameCap)
	for _, b := range s.saved.Buffers {
		path, ok := rings[b.ID]
		if !ok {
			continue // created just before the kill: restored empty
		}
		delete(rings, b.ID)
		j, err := openJournal(path, b.ID)
		if err != nil {
			return fmt.Errorf("state dir %s: %w", dir, err)
		}
		s.journals[b.ID] = j
		var n uint64
		if err := j.records(maxFrame, func(record) { n++ }); err != nil {
			return fmt.Errorf("state dir %s: %w", dir, err)
		}
		s.held[b.ID] = n
	}
	ids := make([]string, 0, len(rings))
	for id := range rings {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		// A buffer whose journal was made but whose creation did not reach
		// engine.json (a kill in between), or whose removal did not finish.
		j, err := openJournal(rings[id], id)
		if err != nil {
			return fmt.Errorf("state dir %s: %w", dir, err)
		}
		s.orphans = append(s.orphans, j)
		var n uint64
		if err := j.records(maxFrame, func(record) { n++ }); err != nil {
			return fmt.Errorf("state dir %s: %w", dir, err)
		}
		if n > 0 {
			return fmt.Errorf("state dir %s: journal %s holds %d packets of buffer %q, which %s does not list: refusing to drop them (move the file away to start without it)",
				dir, rings[id], n, id, stateFile)
		}
	}
	return nil
}

// restore re-creates what the scan found; a vport whose backend cannot be
// opened again is left out (and said so in the report), its buffer keeps
// its packets.
func (e *Engine) restore(s *scanned) (RestoreReport, error) {
	var rep RestoreReport
	e.mu.Lock()
	defer e.mu.Unlock()
	maxFrame := max(e.limits.MaxFrameBytes, largeFrameCap)
	for _, j := range s.orphans {
		if err := j.remove(); err != nil {
			return rep, fmt.Errorf("state dir %s: %w", e.state.path, err)
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("removed %s: the journal of a buffer the state does not list, holding no packet", filepath.Base(j.path)))
	}
	s.orphans = nil
	restored := map[string]*RestoredBuffer{}
	for _, sb := range s.saved.Buffers {
		b := newBuffer(e, sb.Owner, sb.ID, sb.Config)
		b.app = e.appLocked(sb.Owner)
		j := s.journals[sb.ID]
		if j == nil {
			var err error
			if j, err = createJournal(e.state.ringPath(sb.ID), sb.ID, e.ringSizeOf(sb.Config)); err != nil {
				return rep, err
			}
		}
		delete(s.journals, sb.ID)
		b.j = j
		err := j.records(maxFrame, func(r record) {
			f := GetFrame(len(r.data))
			copy(f, r.data)
			class := 0
			if sb.Config.Queue == QueuePriority {
				class = classOf(f, sb.Config.Priority)
			}
			b.q.push(class, packet{data: f, at: r.at, seq: r.seq, jpos: r.pos})
			b.seq = r.seq
			e.pool.used.Add(uint64(len(f)))
			b.app.bytes.Add(uint64(len(f)))
		})
		if err != nil {
			return rep, err
		}
		j.countFlagged()
		j.skipGone()
		j.publishHead()
		b.st.hwmPackets, b.st.hwmBytes = b.occupancy()
		b.restored = true
		b.restoredPackets = uint64(b.q.n)
		e.buffers[b.id] = b
		b.app.buffers++
		rb := &RestoredBuffer{ID: b.id, Packets: b.restoredPackets}
		restored[b.id] = rb
		b.start()
	}
	boundTo := map[string]*buffer{}
	for _, sb := range s.saved.Buffers {
		for _, vid := range sb.Vports {
			boundTo[vid] = e.buffers[sb.ID]
		}
	}
	for _, sv := range s.saved.Vports {
		v := newVport(e, sv.Owner, sv.ID, sv.Config)
		v.app = e.appLocked(sv.Owner)
		f := e.backends[sv.Config.Backend.Kind]
		if f == nil {
			rep.Notes = append(rep.Notes, fmt.Sprintf("vport %q not re-attached: this agent has no backend of kind %d", sv.ID, sv.Config.Backend.Kind))
			continue
		}
		if v.cfg.Tag != 0 {
			e.restoreTagged(v, boundTo[v.id], f, &rep)
			continue
		}
		// What the agent took in before the crash; then a fresh counter,
		// counting from before the backend starts receiving.
		oldBase, oldTook, hasOld, note := readOldRx(s.rxFiles[v.id], v.id)
		delete(s.rxFiles, v.id)
		if note != "" {
			rep.Notes = append(rep.Notes, note)
		}
		c, err := createRxCounter(e.state.rxPath(v.id), v.id)
		if err != nil {
			return rep, fmt.Errorf("state dir %s: %w", e.state.path, err)
		}
		v.rx.Store(c)
		// Bound before its frames flow: none is dropped as UNBOUND.
		b := boundTo[v.id]
		if b != nil {
			v.buf.Store(b)
		}
		open := f.Open
		if r, ok := f.(Reopener); ok {
			open = r.Reopen
		}
		be, err := open(v.id, v.cfg.Backend, v)
		if err != nil {
			v.buf.Store(nil)
			c.remove()
			rep.Notes = append(rep.Notes, fmt.Sprintf("vport %q not re-attached: %v", sv.ID, err))
			continue
		}
		v.backend = be
		var missed uint64
		if now, ok := interfaceRx(be); ok {
			took := c.consumed.Load()
			c.base.Store(now - min(now, took))
			switch {
			case !hasOld:
			case now >= oldBase+oldTook+took:
				missed = now - oldBase - oldTook - took
			default:
				rep.Notes = append(rep.Notes, fmt.Sprintf("vport %q: the interface's receive counter went back (%d < %d + %d): recreated while the agent was down? frames missed meanwhile unknown",
					v.id, now, oldBase, oldTook+took))
			}
		}
		switch {
		case missed == 0:
		case b != nil && v.Mode().RX():
			b.missed += missed
			restored[b.id].Missed += missed
		case b == nil:
			v.drops[DropUnbound].packets.Add(missed)
		default:
			v.drops[DropTxMode].packets.Add(missed)
		}
		e.vports[v.id] = v
		v.app.vports++
	}
	for _, sb := range s.saved.Buffers {
		b := e.buffers[sb.ID]
		for _, vid := range sb.Vports {
			if v := e.vports[vid]; v != nil {
				v.buf.Store(b)
				b.attach(v)
			}
		}
	}
	for id, path := range s.rxFiles {
		if err := os.Remove(path); err != nil {
			return rep, fmt.Errorf("state dir %s: %w", e.state.path, err)
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("removed %s: the receive counter of vport %q, which the state does not list", filepath.Base(path), id))
	}
	for _, sb := range s.saved.Buffers {
		rep.Buffers = append(rep.Buffers, *restored[sb.ID])
	}
	e.saveLocked()
	return rep, nil
}

// readOldRx reads and removes the receive counter a crashed agent left for
// a vport: the interface's counter when the vport was opened and the frames
// the agent took in since.
func readOldRx(path, id string) (base, took uint64, ok bool, note string) {
	if path == "" {
		return 0, 0, false, ""
	}
	c, err := openRxCounter(path, id)
	if err != nil {
		return 0, 0, false, fmt.Sprintf("vport %q: receive counter unreadable, frames missed while down unknown: %v", id, err)
	}
	base, took = c.base.Load(), c.consumed.Load()
	c.unmap()
	return base, took, true, ""
}

func interfaceRx(be Backend) (uint64, bool) {
	ic, ok := be.(InterfaceCounter)
	if !ok {
		return 0, false
	}
	n, err := ic.InterfaceRxPackets()
	return n, err == nil
}

// openRx creates the receive counter of a vport whose backend is open.
func (e *Engine) openRx(v *vport) error {
	c, err := createRxCounter(e.state.rxPath(v.id), v.id)
	if err != nil {
		return err
	}
	if n, ok := interfaceRx(v.backend); ok {
		c.base.Store(n)
	}
	v.rx.Store(c)
	return nil
}

func (e *Engine) ringSizeOf(cfg BufferConfig) uint64 {
	bytes, pkts := cfg.CapacityBytes, cfg.CapacityPackets
	if bytes == 0 {
		bytes = e.limits.MaxBufferBytes
	}
	if pkts == 0 {
		pkts = e.limits.MaxBufferPackets
	}
	// No more bytes than pkts frames of the largest size, no more packets
	// than Ethernet headers fit in bytes.
	bytes = min(bytes, pkts*uint64(e.limits.MaxFrameBytes))
	pkts = min(pkts, bytes/14+1)
	return ringSize(bytes, pkts, e.limits.MaxFrameBytes)
}

// saveLocked writes engine.json with the engine's buffers and vports, and
// extra (new buffers about to be committed, unbound); the caller holds
// e.mu. A failure cannot undo the change the caller committed: it goes to
// Options.StateErrors.
func (e *Engine) saveLocked(extra ...*buffer) {
	if e.state == nil {
		return
	}
	st := savedState{Format: stateFormat, Version: stateVer, Buffers: []savedBuffer{}, Vports: []savedVport{}}
	for _, b := range extra {
		if _, ok := e.buffers[b.id]; !ok {
			st.Buffers = append(st.Buffers, savedBuffer{ID: b.id, Owner: b.owner, Config: b.cfg, Vports: []string{}})
		}
	}
	for _, b := range e.buffers {
		b.mu.Lock()
		st.Buffers = append(st.Buffers, savedBuffer{ID: b.id, Owner: b.owner, Config: b.cfg, Vports: b.vportIDs()})
		b.mu.Unlock()
	}
	for _, v := range e.vports {
		cfg := v.cfg
		cfg.Mode = v.Mode()
		cfg.TxRateBps = v.rateBps.Load()
		st.Vports = append(st.Vports, savedVport{ID: v.id, Owner: v.owner, Config: cfg})
	}
	sort.Slice(st.Buffers, func(i, j int) bool { return st.Buffers[i].ID < st.Buffers[j].ID })
	sort.Slice(st.Vports, func(i, j int) bool { return st.Vports[i].ID < st.Vports[j].ID })
	// Unindented: the whole state is written on every change, and with
	// 10,000 paused buffers indenting was most of a change's time.
	raw, err := json.Marshal(st)
	if err == nil {
		tmp := filepath.Join(e.state.path, stateTemp)
		if err = os.WriteFile(tmp, raw, 0o600); err == nil {
			err = os.Rename(tmp, filepath.Join(e.state.path, stateFile))
		}
	}
	if err != nil && e.state.onError != nil {
		e.state.onError(fmt.Errorf("save state to %s: %w", e.state.path, err))
	}
}

// rxCounter is a vport's receive counter file, mapped shared.
type rxCounter struct {
	path           string
	mem            []byte
	base, consumed *atomic.Uint64
}

const (
	rxMagic   = "FBVPRX01"
	rxVersion = 1
	rxSize    = 4096
	offBase   = 16
	offTook   = 24
)

func createRxCounter(path, id string) (*rxCounter, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create receive counter of vport %q: %w", id, err)
	}
	defer f.Close()
	if err := f.Truncate(rxSize); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("size receive counter of vport %q: %w", id, err)
	}
	c, err := mapRx(f, path)
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	copy(c.mem, rxMagic)
	binary.LittleEndian.PutUint32(c.mem[offVersion:], rxVersion)
	binary.LittleEndian.PutUint32(c.mem[offIDLen:], uint32(len(id)))
	copy(c.mem[offID:], id)
	return c, nil
}

func openRxCounter(path, id string) (*rxCounter, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() != rxSize {
		return nil, fmt.Errorf("%s is not a vport receive counter", path)
	}
	c, err := mapRx(f, path)
	if err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint32(c.mem[offIDLen:])
	if string(c.mem[:8]) != rxMagic || binary.LittleEndian.Uint32(c.mem[offVersion:]) != rxVersion ||
		n > maxIDLen || string(c.mem[offID:offID+n]) != id {
		c.unmap()
		return nil, fmt.Errorf("%s is not the receive counter of vport %q", path, id)
	}
	return c, nil
}

func mapRx(f *os.File, path string) (*rxCounter, error) {
	mem, err := syscall.Mmap(int(f.Fd()), 0, rxSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	return &rxCounter{
		path: path, mem: mem,
		base:     (*atomic.Uint64)(unsafe.Pointer(&mem[offBase])),
		consumed: (*atomic.Uint64)(unsafe.Pointer(&mem[offTook])),
	}, nil
}

func (c *rxCounter) unmap() {
	if c.mem != nil {
		_ = syscall.Munmap(c.mem)
		c.mem, c.base, c.consumed = nil, nil, nil
	}
}

func (c *rxCounter) remove() {
	c.unmap()
	_ = os.Remove(c.path)
}

// abandon stops the engine as a kill -9 would leave its state directory:
// nothing in it is changed or removed, the mappings and the lock go. For
// tests, which cannot kill their own process.
func (e *Engine) abandon() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	// The journals first, all at once as a kill would: a Transmit that
	// returns after this marks nothing gone.
	for _, b := range e.buffers {
		b.mu.Lock()
		b.closed = true
		if b.j != nil {
			b.j.unmap()
			b.j = nil
		}
		b.pace.stop()
		close(b.done)
		b.mu.Unlock()
	}
	for _, v := range e.vports {
		c := v.rx.Swap(nil)
		_ = v.backend.Close()
		if c != nil {
			c.unmap()
		}
	}
	e.buffers, e.vports = map[string]*buffer{}, map[string]*vport{}
	if e.state != nil {
		e.state.lock.Close()
	}
}

// restoreTagged re-attaches a tagged vport to its shared backend. Frames
// its interface took while the agent was down cannot be told apart by
// vport, so none is counted as missed by this vport.
func (e *Engine) restoreTagged(v *vport, b *buffer, f BackendFactory, rep *RestoreReport) {
	if b != nil {
		v.buf.Store(b) // bound before its frames flow: none is dropped as UNBOUND
	}
	open := f.Open
	if r, ok := f.(Reopener); ok {
		open = r.Reopen
	}
	be, err := e.openTagged(v, open)
	if err != nil {
		v.buf.Store(nil)
		rep.Notes = append(rep.Notes, fmt.Sprintf("vport %q not re-attached: %v", v.id, err))
		return
	}
	v.backend = be
	e.vports[v.id] = v
	v.app.vports++
}
