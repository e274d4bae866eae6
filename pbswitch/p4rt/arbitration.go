// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	"sync"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	grpcstatus "google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// client is one StreamChannel. Messages to it go through out, drained by
// one sender goroutine (a gRPC stream allows one concurrent Send).
type client struct {
	role       string
	electionID *p4.Uint128 // nil: the client never asked to be primary
	out        chan *p4.StreamMessageResponse
	// dropped counts messages lost because out was full (a controller too
	// slow to read its packet-ins).
	dropped uint64
}

// arbiter runs client arbitration per role: the client with the highest
// election id is the primary, every other client is a backup.
type arbiter struct {
	mu      sync.Mutex
	clients map[string]map[*client]bool
	dropped uint64
}

func newArbiter() *arbiter { return &arbiter{clients: map[string]map[*client]bool{}} }

func less(a, b *p4.Uint128) bool {
	if a.GetHigh() != b.GetHigh() {
		return a.GetHigh() < b.GetHigh()
	}
	return a.GetLow() < b.GetLow()
}

// primaryLocked is the role's primary client, or nil.
func (a *arbiter) primaryLocked(role string) *client {
	var best *client
	for c := range a.clients[role] {
		if c.electionID != nil && (best == nil || less(best.electionID, c.electionID)) {
			best = c
		}
	}
	return best
}

// update registers c (or changes its election id) and tells the clients
// of the role who is primary now.
func (a *arbiter) update(c *client, deviceID uint64, role string, eid *p4.Uint128) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c.role != role && a.clients[c.role][c] {
		return grpcstatus.Error(codes.FailedPrecondition, "a stream cannot change its role")
	}
	for other := range a.clients[role] {
		if other != c && eid != nil && other.electionID != nil && proto.Equal(other.electionID, eid) {
			return grpcstatus.Errorf(codes.InvalidArgument, "election id (%d, %d) is already used by another client of this role", eid.GetHigh(), eid.GetLow())
		}
	}
	before := a.primaryLocked(role)
	if a.clients[role] == nil {
		a.clients[role] = map[*client]bool{}
	}
	a.clients[role][c] = true
	c.role, c.electionID = role, eid
	after := a.primaryLocked(role)
	if before != after {
		a.notifyAllLocked(deviceID, role)
	} else {
		a.notifyLocked(c, deviceID, role, after)
	}
	return nil
}

// leave removes c; if it was primary the others learn their new standing.
func (a *arbiter) leave(c *client, deviceID uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.clients[c.role][c] {
		return
	}
	wasPrimary := a.primaryLocked(c.role) == c
	delete(a.clients[c.role], c)
	if wasPrimary {
		a.notifyAllLocked(deviceID, c.role)
	}
}

func (a *arbiter) notifyAllLocked(deviceID uint64, role string) {
	p := a.primaryLocked(role)
	for c := range a.clients[role] {
		a.notifyLocked(c, deviceID, role, p)
	}
}

func (a *arbiter) notifyLocked(c *client, deviceID uint64, role string, primary *client) {
	u := &p4.MasterArbitrationUpdate{DeviceId: deviceID, Status: &status.Status{}}
	if role != "" {
		u.Role = &p4.Role{Name: role}
	}
	switch {
	case primary == nil:
		u.Status.Code = int32(codes.NotFound)
		u.Status.Message = "no primary client"
	case primary == c:
		u.ElectionId = primary.electionID
		u.Status.Message = "you are the primary"
	default:
		u.ElectionId = primary.electionID
		u.Status.Code = int32(codes.AlreadyExists)
		u.Status.Message = "you are a backup; another client is primary"
	}
	a.sendLocked(c, &p4.StreamMessageResponse{Update: &p4.StreamMessageResponse_Arbitration{Arbitration: u}})
}

func (a *arbiter) sendLocked(c *client, m *p4.StreamMessageResponse) {
	select {
	case c.out <- m:
	default:
		c.dropped++
		a.dropped++
	}
}

// checkPrimary lets through writes whose election id is the role's
// primary's; anything else is PERMISSION_DENIED.
func (a *arbiter) checkPrimary(role string, eid *p4.Uint128) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.primaryLocked(role)
	if p == nil || eid == nil || !proto.Equal(p.electionID, eid) {
		return grpcstatus.Error(codes.PermissionDenied, "only the primary client (highest election id on an open stream) may change the device")
	}
	return nil
}

// isPrimary reports whether c is its role's primary.
func (a *arbiter) isPrimary(c *client) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.clients[c.role][c] && a.primaryLocked(c.role) == c
}

// toPrimaries sends m to the primary of every role (packet-ins, digests).
func (a *arbiter) toPrimaries(m *p4.StreamMessageResponse) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for role := range a.clients {
		if p := a.primaryLocked(role); p != nil {
			a.sendLocked(p, m)
		}
	}
}

// Dropped is the number of stream messages (packet-ins, digests,
// arbitration updates) lost to clients that did not keep up.
func (a *arbiter) Dropped() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.dropped
}
