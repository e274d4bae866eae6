// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"sync/atomic"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// CounterCell counts packets and bytes; safe for concurrent use.
type CounterCell struct {
	packets atomic.Uint64
	bytes   atomic.Uint64
}

// Count adds one packet of n bytes.
func (c *CounterCell) Count(n int) {
	c.packets.Add(1)
	c.bytes.Add(uint64(n))
}

// Read returns the packet and byte counts.
func (c *CounterCell) Read() (packets, bytes uint64) {
	return c.packets.Load(), c.bytes.Load()
}

// Set overwrites both counts (a P4Runtime counter write).
func (c *CounterCell) Set(packets, bytes uint64) {
	c.packets.Store(packets)
	c.bytes.Store(bytes)
}

// CounterArray is an indexed counter extern.
type CounterArray struct {
	ID    uint32
	Name  string
	cells []CounterCell
}

// NewCounterArray makes a counter with size cells.
func NewCounterArray(id uint32, name string, size int) *CounterArray {
	return &CounterArray{ID: id, Name: name, cells: make([]CounterCell, size)}
}

// Size is the number of cells.
func (c *CounterArray) Size() int { return len(c.cells) }

// CountAt counts a packet of n bytes in cell i; an index outside the array
// counts nothing (where Cell gives an error).
func (c *CounterArray) CountAt(i uint64, n int) {
	if i < uint64(len(c.cells)) {
		c.cells[i].Count(n)
	}
}

// Cell returns cell i or a NOT_FOUND/OUT_OF_RANGE error.
func (c *CounterArray) Cell(i int64) (*CounterCell, error) {
	if i < 0 || i >= int64(len(c.cells)) {
		return nil, status.Errorf(codes.OutOfRange, "counter %s: index %d outside [0, %d)", c.Name, i, len(c.cells))
	}
	return &c.cells[i], nil
}
