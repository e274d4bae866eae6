// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"sort"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Replica is one copy the replication engine makes: out of Port, with
// Instance as its egress_rid.
type Replica struct {
	Port     uint32
	Instance uint32
}

// CloneSession says where clones go and how much of the packet they carry.
type CloneSession struct {
	ID         uint32
	Replicas   []Replica
	ClassOfSvc uint32
	TruncateTo int32 // 0: whole packet
}

// PRE is the packet replication engine: multicast groups and clone
// sessions, read concurrently by the packet path.
type PRE struct {
	mu     sync.RWMutex
	groups map[uint32][]Replica
	clones map[uint32]CloneSession
}

// NewPRE makes an empty replication engine.
func NewPRE() *PRE {
	return &PRE{groups: map[uint32][]Replica{}, clones: map[uint32]CloneSession{}}
}

func checkReplicas(rs []Replica) error {
	seen := map[Replica]bool{}
	for _, r := range rs {
		if seen[r] {
			return status.Errorf(codes.InvalidArgument, "duplicate replica (port %d, instance %d)", r.Port, r.Instance)
		}
		seen[r] = true
	}
	return nil
}

// InsertGroup adds multicast group id.
func (p *PRE) InsertGroup(id uint32, rs []Replica) error {
	if id == 0 {
		return status.Error(codes.InvalidArgument, "multicast group id 0 means no group")
	}
	if err := checkReplicas(rs); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.groups[id]; ok {
		return status.Errorf(codes.AlreadyExists, "multicast group %d exists", id)
	}
	p.groups[id] = append([]Replica(nil), rs...)
	return nil
}

// ModifyGroup replaces the replicas of group id.
func (p *PRE) ModifyGroup(id uint32, rs []Replica) error {
	if err := checkReplicas(rs); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.groups[id]; !ok {
		return status.Errorf(codes.NotFound, "multicast group %d does not exist", id)
	}
	p.groups[id] = append([]Replica(nil), rs...)
	return nil
}

// DeleteGroup removes group id.
func (p *PRE) DeleteGroup(id uint32) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.groups[id]; !ok {
		return status.Errorf(codes.NotFound, "multicast group %d does not exist", id)
	}
	delete(p.groups, id)
	return nil
}

// Group returns group id's replicas (shared; do not modify).
func (p *PRE) Group(id uint32) ([]Replica, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	rs, ok := p.groups[id]
	return rs, ok
}

// GroupIDs lists the group ids in order.
func (p *PRE) GroupIDs() []uint32 {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return sortedKeys(p.groups)
}

// InsertClone adds a clone session.
func (p *PRE) InsertClone(s CloneSession) error {
	if s.ID == 0 {
		return status.Error(codes.InvalidArgument, "clone session id 0 is reserved")
	}
	if err := checkReplicas(s.Replicas); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.clones[s.ID]; ok {
		return status.Errorf(codes.AlreadyExists, "clone session %d exists", s.ID)
	}
	p.clones[s.ID] = s
	return nil
}

// ModifyClone replaces a clone session.
func (p *PRE) ModifyClone(s CloneSession) error {
	if err := checkReplicas(s.Replicas); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.clones[s.ID]; !ok {
		return status.Errorf(codes.NotFound, "clone session %d does not exist", s.ID)
	}
	p.clones[s.ID] = s
	return nil
}

// DeleteClone removes clone session id.
func (p *PRE) DeleteClone(id uint32) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.clones[id]; !ok {
		return status.Errorf(codes.NotFound, "clone session %d does not exist", id)
	}
	delete(p.clones, id)
	return nil
}

// Clone returns clone session id.
func (p *PRE) Clone(id uint32) (CloneSession, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	s, ok := p.clones[id]
	return s, ok
}

// CloneIDs lists the clone session ids in order.
func (p *PRE) CloneIDs() []uint32 {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return sortedKeys(p.clones)
}

func sortedKeys[V any](m map[uint32]V) []uint32 {
	out := make([]uint32, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
