// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// RegisterArray is a register extern of fixed-width cells.
type RegisterArray struct {
	ID    uint32
	Name  string
	Bits  int
	mu    sync.RWMutex
	cells [][]byte
}

// NewRegisterArray makes a register of size zeroed cells of bits each.
func NewRegisterArray(id uint32, name string, size, bits int) *RegisterArray {
	cells := make([][]byte, size)
	w := (bits + 7) / 8
	for i := range cells {
		cells[i] = make([]byte, w)
	}
	return &RegisterArray{ID: id, Name: name, Bits: bits, cells: cells}
}

// Size is the number of cells.
func (r *RegisterArray) Size() int { return len(r.cells) }

func (r *RegisterArray) check(i int64) error {
	if i < 0 || i >= int64(len(r.cells)) {
		return status.Errorf(codes.OutOfRange, "register %s: index %d outside [0, %d)", r.Name, i, len(r.cells))
	}
	return nil
}

// Read returns a copy of cell i.
func (r *RegisterArray) Read(i int64) ([]byte, error) {
	if err := r.check(i); err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]byte(nil), r.cells[i]...), nil
}

// Write sets cell i to v (any length up to the width; it is right-aligned).
func (r *RegisterArray) Write(i int64, v []byte) error {
	if err := r.check(i); err != nil {
		return err
	}
	fixed, err := FitValue(v, r.Bits)
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "register %s: %v", r.Name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cells[i] = fixed
	return nil
}

// ReadUint reads cell i of a register of at most 64 bits without
// allocating (the packet path's register_read).
func (r *RegisterArray) ReadUint(i int64) (uint64, error) {
	if err := r.check(i); err != nil {
		return 0, err
	}
	r.mu.RLock()
	v := Uint(r.cells[i])
	r.mu.RUnlock()
	return v, nil
}

// WriteUint sets cell i of a register of at most 64 bits to v (already
// truncated to the register's width) without allocating.
func (r *RegisterArray) WriteUint(i int64, v uint64) error {
	if err := r.check(i); err != nil {
		return err
	}
	r.mu.Lock()
	PutUint(r.cells[i], v)
	r.mu.Unlock()
	return nil
}

// Lock and Unlock hold the array for a packet's action that reads and
// writes it: BMv2 runs each action holding the locks of every register
// array it accesses, so that a read-modify-write in one action is atomic
// against the other pipeline threads. Inside, the action uses ReadUintHeld
// and WriteUintHeld.
func (r *RegisterArray) Lock() { r.mu.Lock() }

// Unlock releases what Lock took.
func (r *RegisterArray) Unlock() { r.mu.Unlock() }

// ReadUintHeld is ReadUint for a caller that holds the array's Lock.
func (r *RegisterArray) ReadUintHeld(i int64) (uint64, error) {
	if err := r.check(i); err != nil {
		return 0, err
	}
	return Uint(r.cells[i]), nil
}

// WriteUintHeld is WriteUint for a caller that holds the array's Lock.
func (r *RegisterArray) WriteUintHeld(i int64, v uint64) error {
	if err := r.check(i); err != nil {
		return err
	}
	PutUint(r.cells[i], v)
	return nil
}
