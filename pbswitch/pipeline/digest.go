// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// DigestConfig is P4Runtime's DigestEntry.Config.
type DigestConfig struct {
	MaxTimeout  time.Duration // send a non-full list after this long
	MaxListSize int           // 0: no limit
	AckTimeout  time.Duration // resend-free window: data in an unacked list is suppressed
}

// DigestList is a batch of digest messages sent to the controller.
type DigestList struct {
	DigestID uint32
	ListID   uint64
	Data     [][]byte
	Made     time.Time // when the list was cut (P4Runtime's DigestList.timestamp)
}

// Digest collects digest messages of one type into lists. Until the
// controller configures it, messages are discarded (P4Runtime: no
// DigestEntry, no digests). A message equal to one in a list not yet
// acknowledged (within AckTimeout) is suppressed, as the spec describes.
type Digest struct {
	ID   uint32
	Name string

	mu         sync.Mutex
	cfg        DigestConfig
	configured bool
	pending    [][]byte
	first      time.Time
	nextList   uint64
	unacked    map[uint64]unackedList
	send       func(DigestList)
}

type unackedList struct {
	sent time.Time
	data map[string]bool
}

// NewDigest makes an unconfigured digest that hands finished lists to send.
func NewDigest(id uint32, name string, send func(DigestList)) *Digest {
	return &Digest{ID: id, Name: name, unacked: map[uint64]unackedList{}, send: send}
}

// Configure starts (or reconfigures) list production.
func (d *Digest) Configure(cfg DigestConfig) error {
	if cfg.MaxTimeout < 0 || cfg.AckTimeout < 0 || cfg.MaxListSize < 0 {
		return status.Errorf(codes.InvalidArgument, "digest %s: negative timeout or list size", d.Name)
	}
	d.mu.Lock()
	d.cfg, d.configured = cfg, true
	d.mu.Unlock()
	return nil
}

// Config returns the configuration and whether one was written.
func (d *Digest) Config() (DigestConfig, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cfg, d.configured
}

// Unconfigure stops list production and drops what was pending.
func (d *Digest) Unconfigure() {
	d.mu.Lock()
	d.configured, d.pending = false, nil
	d.mu.Unlock()
}

// Emit adds one message (the packet path's digest() call).
func (d *Digest) Emit(now time.Time, data []byte) {
	d.mu.Lock()
	if !d.configured || d.suppressed(now, data) {
		d.mu.Unlock()
		return
	}
	if len(d.pending) == 0 {
		d.first = now
	}
	d.pending = append(d.pending, data)
	var out *DigestList
	if d.cfg.MaxListSize > 0 && len(d.pending) >= d.cfg.MaxListSize || d.cfg.MaxTimeout == 0 {
		out = d.cut(now)
	}
	d.mu.Unlock()
	if out != nil {
		d.send(*out)
	}
}

// Flush sends the pending list if its MaxTimeout passed; the owner calls it
// periodically.
func (d *Digest) Flush(now time.Time) {
	d.mu.Lock()
	var out *DigestList
	if d.configured && len(d.pending) > 0 && now.Sub(d.first) >= d.cfg.MaxTimeout {
		out = d.cut(now)
	}
	d.mu.Unlock()
	if out != nil {
		d.send(*out)
	}
}

// Ack acknowledges a list; its messages may be sent again.
func (d *Digest) Ack(listID uint64) {
	d.mu.Lock()
	delete(d.unacked, listID)
	d.mu.Unlock()
}

func (d *Digest) suppressed(now time.Time, data []byte) bool {
	for id, l := range d.unacked {
		if d.cfg.AckTimeout > 0 && now.Sub(l.sent) > d.cfg.AckTimeout {
			delete(d.unacked, id)
			continue
		}
		if l.data[string(data)] {
			return true
		}
	}
	return false
}

func (d *Digest) cut(now time.Time) *DigestList {
	d.nextList++
	l := &DigestList{DigestID: d.ID, ListID: d.nextList, Data: d.pending, Made: now}
	set := map[string]bool{}
	for _, x := range d.pending {
		set[string(x)] = true
	}
	d.unacked[l.ListID] = unackedList{sent: now, data: set}
	d.pending = nil
	return l
}
