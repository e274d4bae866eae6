// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Color is a meter's verdict (v1model: 0 green, 1 yellow, 2 red).
type Color uint8

// Meter colours.
const (
	Green Color = iota
	Yellow
	Red
)

// MeterConfig is a two-rate three-colour marker's configuration (P4Runtime's
// MeterConfig): committed and peak rates in units per second and bursts in
// units, where a unit is a byte or a packet (the meter's MeterUnit).
type MeterConfig struct {
	CIR, CBurst, PIR, PBurst int64
}

// Meter is a two-rate three-colour marker (RFC 2698, colour-blind) as
// BMv2's bm_sim Meter runs one behind PI: the peak bucket first, where a
// packet it cannot pay for is red and charges nothing, then the committed
// bucket: yellow (the peak bucket charged) or green (both charged). Tokens
// are whole units accrued per microsecond from one origin (the meter's
// first packet) and rounded down there, as BMv2 counts them, so no
// fraction is lost between packets. An unconfigured meter marks everything
// green.
type Meter struct {
	mu         sync.Mutex
	cfg        MeterConfig
	configured bool
	// live mirrors configured (written under mu) for ExecuteNow's check of
	// an unconfigured meter without the lock.
	live    atomic.Bool
	origin  time.Time    // tokens accrue from here; zero until the first packet
	buckets [2]meterRate // peak (its colour red), committed (yellow)
}

type meterRate struct {
	perUs  float64 // units per microsecond
	burst  int64
	tokens int64
	last   uint64 // tokens accrued from origin up to the last packet
}

// NewMeter makes a meter with cfg.
func NewMeter(cfg MeterConfig) (*Meter, error) {
	m := &Meter{}
	if err := m.Configure(cfg); err != nil {
		return nil, err
	}
	return m, nil
}

// Configure sets the rates and fills both buckets.
func (m *Meter) Configure(cfg MeterConfig) error {
	if cfg.CIR < 0 || cfg.PIR < 0 || cfg.CBurst < 0 || cfg.PBurst < 0 {
		return status.Error(codes.InvalidArgument, "meter rates and bursts must not be negative")
	}
	if cfg.PIR < cfg.CIR {
		return status.Errorf(codes.InvalidArgument, "meter peak rate %d below committed rate %d", cfg.PIR, cfg.CIR)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cfg, m.configured = cfg, true
	m.live.Store(true)
	m.origin = time.Time{}
	m.buckets[0] = meterRate{perUs: float64(cfg.PIR) / 1e6, burst: cfg.PBurst, tokens: cfg.PBurst}
	m.buckets[1] = meterRate{perUs: float64(cfg.CIR) / 1e6, burst: cfg.CBurst, tokens: cfg.CBurst}
	return nil
}

// Config returns the configuration and whether one was written.
func (m *Meter) Config() (MeterConfig, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cfg, m.configured
}

// Reset makes the meter unconfigured again (all green).
func (m *Meter) Reset() {
	m.mu.Lock()
	m.configured = false
	m.live.Store(false)
	m.cfg = MeterConfig{}
	m.mu.Unlock()
}

// Execute colours a packet of size units arriving at now (colour-blind).
func (m *Meter) Execute(now time.Time, size int64) Color {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.configured {
		return Green
	}
	return m.execute(now, size)
}

// ExecuteNow is Execute at the current time, which it reads only for a
// configured meter: an unconfigured one (every packet green) costs no
// clock read and no lock, as on the UPF's path with meter index 0.
func (m *Meter) ExecuteNow(size int64) Color {
	if !m.live.Load() {
		return Green
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.configured {
		return Green
	}
	return m.execute(time.Now(), size)
}

// execute is Execute on a configured meter, with mu held.
func (m *Meter) execute(now time.Time, size int64) Color {
	if m.origin.IsZero() {
		m.origin = now
	}
	us := max(now.Sub(m.origin).Microseconds(), 0)
	for i, short := range [...]Color{Red, Yellow} {
		b := &m.buckets[i]
		if accrued := uint64(float64(us) * b.perUs); accrued > b.last {
			b.tokens = min(b.tokens+int64(accrued-b.last), b.burst)
			b.last = accrued
		}
		if b.tokens < size {
			return short
		}
		b.tokens -= size
	}
	return Green
}

// MeterArray is an indexed meter extern.
type MeterArray struct {
	ID      uint32
	Name    string
	Packets bool // unit: packets (else bytes)
	cells   []Meter
}

// NewMeterArray makes size unconfigured meters.
func NewMeterArray(id uint32, name string, size int, packets bool) *MeterArray {
	return &MeterArray{ID: id, Name: name, Packets: packets, cells: make([]Meter, size)}
}

// Size is the number of meters.
func (a *MeterArray) Size() int { return len(a.cells) }

// ExecuteAt is cell i's colour for a packet of size (bytes, or 1 for a
// packets meter); an index outside the array is green (where Cell gives an
// error).
func (a *MeterArray) ExecuteAt(i uint64, size int64) Color {
	if i >= uint64(len(a.cells)) {
		return Green
	}
	return a.cells[i].ExecuteNow(size)
}

// Cell returns meter i.
func (a *MeterArray) Cell(i int64) (*Meter, error) {
	if i < 0 || i >= int64(len(a.cells)) {
		return nil, status.Errorf(codes.OutOfRange, "meter %s: index %d outside [0, %d)", a.Name, i, len(a.cells))
	}
	return &a.cells[i], nil
}
