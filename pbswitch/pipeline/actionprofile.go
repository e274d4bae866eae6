// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"slices"
	"sort"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ActionProfile is an action profile (P4's action_profile) or, with a
// selector, an action selector (action_selector): the actions of its
// tables' entries, held as members (an action with its parameters) that
// entries name, and for a selector groups of members, of which the packet's
// hash picks one.
//
// Selection is BMv2's with P4Runtime weights as PI programs them into
// BMv2: each member has one BMv2 member handle (the lowest free one, as
// BMv2 hands them out) and a member of weight w in some group gets w-1
// more copies, each with a handle of its own; a group's handles are kept
// in ascending order and the packet takes the one at hash modulo their
// count.
type ActionProfile struct {
	ID           uint32
	Name         string
	WithSelector bool
	Size         int // members at most (0: no limit)
	MaxGroupSize int // the p4info's max_group_size (0: none)
	// Actions are the actions a member may call: those of the profile's
	// tables, with their parameter widths.
	Actions map[uint32]ActionSpec

	mu       sync.RWMutex
	members  map[uint32]*Member
	groups   map[uint32]*Group
	handles  []bool // BMv2 member handles in use
	oneShots int    // entries programmed with one-shot action sets
}

// Member is an action profile member.
type Member struct {
	ID     uint32
	action Action
	// handles are the member's BMv2 handles: its own and the copies that
	// weights > 1 need.
	handles []int
	groups  int // groups holding it
	entries int // table entries naming it
}

// Group is an action selector group.
type Group struct {
	ID      uint32
	MaxSize int // as created (0: none given)
	members []GroupMember
	slots   []*Member // one per handle, in ascending handle order
	entries int
}

// GroupMember is a member of a group with its weight.
type GroupMember struct {
	ID     uint32
	Weight int32
}

// ProfileRef is what an entry of a table with an action profile names: a
// member or a group (of a selector).
type ProfileRef struct {
	Member *Member
	Group  *Group
	// oneShot: the entry's own member or group, made for its action set.
	oneShot []*Member
}

// OneShotAction is one action of a one-shot action set (P4Runtime's
// ActionProfileActionSet) with its weight.
type OneShotAction struct {
	Action Action
	Weight int32
}

// NewActionProfile makes an empty action profile.
func NewActionProfile(id uint32, name string, withSelector bool, size, maxGroupSize int, actions map[uint32]ActionSpec) *ActionProfile {
	return &ActionProfile{ID: id, Name: name, WithSelector: withSelector, Size: size, MaxGroupSize: maxGroupSize,
		Actions: actions, members: map[uint32]*Member{}, groups: map[uint32]*Group{}}
}

func (p *ActionProfile) newHandle() int {
	for i, used := range p.handles {
		if !used {
			p.handles[i] = true
			return i
		}
	}
	p.handles = append(p.handles, true)
	return len(p.handles) - 1
}

func (p *ActionProfile) checkAction(a Action) error {
	spec, ok := p.Actions[a.ID]
	if !ok {
		return status.Errorf(codes.InvalidArgument, "action profile %s: action %d is not an action of its tables", p.Name, a.ID)
	}
	if spec.DefaultOnly {
		return status.Errorf(codes.InvalidArgument, "action profile %s: action %d is only allowed as a default action", p.Name, a.ID)
	}
	return spec.checkParams("action profile", p.Name, a)
}

// InsertMember adds a member. ALREADY_EXISTS for a known id,
// RESOURCE_EXHAUSTED when the profile is full, INVALID_ARGUMENT for an
// action its tables do not have.
func (p *ActionProfile) InsertMember(id uint32, a Action) error {
	if err := p.checkAction(a); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.manualMode(); err != nil {
		return err
	}
	if _, dup := p.members[id]; dup {
		return status.Errorf(codes.AlreadyExists, "action profile %s: member %d already exists", p.Name, id)
	}
	if p.Size > 0 && len(p.members) >= p.Size {
		return status.Errorf(codes.ResourceExhausted, "action profile %s: full (%d members)", p.Name, p.Size)
	}
	p.members[id] = &Member{ID: id, action: a, handles: []int{p.newHandle()}}
	return nil
}

// ModifyMember changes a member's action; the groups and entries that
// name it run the new one. NOT_FOUND for an unknown id.
func (p *ActionProfile) ModifyMember(id uint32, a Action) error {
	if err := p.checkAction(a); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	m, ok := p.members[id]
	if !ok {
		return status.Errorf(codes.NotFound, "action profile %s: no member %d", p.Name, id)
	}
	m.action = a
	return nil
}

// DeleteMember removes a member. NOT_FOUND for an unknown id,
// FAILED_PRECONDITION while a group or a table entry names it.
func (p *ActionProfile) DeleteMember(id uint32) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	m, ok := p.members[id]
	if !ok {
		return status.Errorf(codes.NotFound, "action profile %s: no member %d", p.Name, id)
	}
	if m.groups > 0 || m.entries > 0 {
		return status.Errorf(codes.FailedPrecondition, "action profile %s: member %d is used by %d groups and %d table entries", p.Name, id, m.groups, m.entries)
	}
	for _, h := range m.handles {
		p.handles[h] = false
	}
	delete(p.members, id)
	return nil
}

// InsertGroup adds a group with its members. ALREADY_EXISTS for a known
// id; INVALID_ARGUMENT without a selector, for a max size above the
// p4info's max_group_size, a weight below 1 or a member given twice;
// NOT_FOUND for an unknown member; RESOURCE_EXHAUSTED when the weights sum
// above the group's max size (or the p4info's max_group_size).
func (p *ActionProfile) InsertGroup(id uint32, maxSize int32, members []GroupMember) error {
	if !p.WithSelector {
		return status.Errorf(codes.InvalidArgument, "action profile %s has no selector: it has no groups", p.Name)
	}
	if maxSize < 0 {
		return status.Errorf(codes.InvalidArgument, "action profile %s: group max_size %d", p.Name, maxSize)
	}
	if p.MaxGroupSize > 0 && int(maxSize) > p.MaxGroupSize {
		return status.Errorf(codes.InvalidArgument, "action profile %s: group max_size %d above its max_group_size %d", p.Name, maxSize, p.MaxGroupSize)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.manualMode(); err != nil {
		return err
	}
	if _, dup := p.groups[id]; dup {
		return status.Errorf(codes.AlreadyExists, "action profile %s: group %d already exists", p.Name, id)
	}
	g := &Group{ID: id, MaxSize: int(maxSize)}
	if err := p.setMembers(g, members); err != nil {
		return err
	}
	p.groups[id] = g
	return nil
}

// ModifyGroup replaces a group's members. NOT_FOUND for an unknown group,
// INVALID_ARGUMENT for a changed max size; otherwise as InsertGroup.
func (p *ActionProfile) ModifyGroup(id uint32, maxSize int32, members []GroupMember) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	g, ok := p.groups[id]
	if !ok {
		return status.Errorf(codes.NotFound, "action profile %s: no group %d", p.Name, id)
	}
	if maxSize != 0 && int(maxSize) != g.MaxSize {
		return status.Errorf(codes.InvalidArgument, "action profile %s: group %d's max_size cannot change", p.Name, id)
	}
	return p.setMembers(g, members)
}

// DeleteGroup removes a group. NOT_FOUND for an unknown id,
// FAILED_PRECONDITION while a table entry names it.
func (p *ActionProfile) DeleteGroup(id uint32) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	g, ok := p.groups[id]
	if !ok {
		return status.Errorf(codes.NotFound, "action profile %s: no group %d", p.Name, id)
	}
	if g.entries > 0 {
		return status.Errorf(codes.FailedPrecondition, "action profile %s: group %d is used by %d table entries", p.Name, id, g.entries)
	}
	old := g.members
	g.members = nil
	for _, gm := range old {
		p.members[gm.ID].groups--
	}
	p.trimCopies(old)
	delete(p.groups, id)
	return nil
}

// setMembers checks and installs g's new members (the caller holds mu).
func (p *ActionProfile) setMembers(g *Group, members []GroupMember) error {
	sum := 0
	seen := map[uint32]bool{}
	for _, gm := range members {
		if gm.Weight < 1 {
			return status.Errorf(codes.InvalidArgument, "action profile %s group %d: member %d has weight %d (at least 1)", p.Name, g.ID, gm.ID, gm.Weight)
		}
		if seen[gm.ID] {
			return status.Errorf(codes.InvalidArgument, "action profile %s group %d: member %d given twice (use its weight)", p.Name, g.ID, gm.ID)
		}
		seen[gm.ID] = true
		if _, ok := p.members[gm.ID]; !ok {
			return status.Errorf(codes.NotFound, "action profile %s group %d: no member %d", p.Name, g.ID, gm.ID)
		}
		sum += int(gm.Weight)
	}
	limit := g.MaxSize
	if limit == 0 {
		limit = p.MaxGroupSize
	}
	if limit > 0 && sum > limit {
		return status.Errorf(codes.ResourceExhausted, "action profile %s group %d: weights sum to %d, its max size is %d", p.Name, g.ID, sum, limit)
	}
	old := g.members
	for _, gm := range old {
		p.members[gm.ID].groups--
	}
	g.members = append([]GroupMember(nil), members...)
	for _, gm := range g.members {
		m := p.members[gm.ID]
		m.groups++
		for len(m.handles) < int(gm.Weight) {
			m.handles = append(m.handles, p.newHandle())
		}
	}
	p.trimCopies(old)
	p.relayout(g)
	return nil
}

// trimCopies frees the weight copies of the members in old that no group
// needs any more (a member keeps its own handle).
func (p *ActionProfile) trimCopies(old []GroupMember) {
	for _, gm := range old {
		m, ok := p.members[gm.ID]
		if !ok || len(m.handles) == 1 {
			continue
		}
		need := 1
		for _, g := range p.groups {
			for _, x := range g.members {
				if x.ID == m.ID {
					need = max(need, int(x.Weight))
				}
			}
		}
		for len(m.handles) > need {
			p.handles[m.handles[len(m.handles)-1]] = false
			m.handles = m.handles[:len(m.handles)-1]
		}
	}
}

// relayout rebuilds g's selection slots.
func (p *ActionProfile) relayout(g *Group) {
	type slot struct {
		h int
		m *Member
	}
	var slots []slot
	for _, gm := range g.members {
		m := p.members[gm.ID]
		for _, h := range m.handles[:gm.Weight] {
			slots = append(slots, slot{h, m})
		}
	}
	sort.Slice(slots, func(i, j int) bool { return slots[i].h < slots[j].h })
	g.slots = make([]*Member, len(slots))
	for i, s := range slots {
		g.slots[i] = s.m
	}
}

// Member returns a member's action, or false.
func (p *ActionProfile) Member(id uint32) (Action, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	m, ok := p.members[id]
	if !ok {
		return Action{}, false
	}
	return m.action, true
}

// MemberIDs lists the members' ids in order.
func (p *ActionProfile) MemberIDs() []uint32 {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return sortedKeys(p.members)
}

// GroupIDs lists the groups' ids in order.
func (p *ActionProfile) GroupIDs() []uint32 {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return sortedKeys(p.groups)
}

// GroupInfo returns a group's max size and members as written, or false.
func (p *ActionProfile) GroupInfo(id uint32) (int, []GroupMember, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	g, ok := p.groups[id]
	if !ok {
		return 0, nil, false
	}
	return g.MaxSize, slices.Clone(g.members), true
}

// manualMode refuses members and groups while entries are programmed with
// one-shot action sets: P4Runtime does not mix the two ways in one
// profile (INVALID_ARGUMENT, as PI).
func (p *ActionProfile) manualMode() error {
	if p.oneShots > 0 {
		return status.Errorf(codes.InvalidArgument, "action profile %s is programmed with one-shot action sets: it takes no members or groups", p.Name)
	}
	return nil
}

// acquireOneShot makes an entry's own member (a profile without a
// selector: one action of weight 1) or group (a member per unit of
// weight, as PI programs BMv2) for its action set.
func (p *ActionProfile) acquireOneShot(set []OneShotAction) (ProfileRef, error) {
	if len(set) == 0 {
		return ProfileRef{}, status.Errorf(codes.Unimplemented, "action profile %s: an empty one-shot action set", p.Name)
	}
	sum := 0
	for _, a := range set {
		if err := p.checkAction(a.Action); err != nil {
			return ProfileRef{}, err
		}
		if a.Weight < 1 {
			return ProfileRef{}, status.Errorf(codes.InvalidArgument, "action profile %s: one-shot action %d has weight %d (at least 1)", p.Name, a.Action.ID, a.Weight)
		}
		sum += int(a.Weight)
	}
	if !p.WithSelector && (len(set) != 1 || set[0].Weight != 1) {
		return ProfileRef{}, status.Errorf(codes.InvalidArgument, "action profile %s has no selector: a one-shot action set holds one action of weight 1", p.Name)
	}
	if p.MaxGroupSize > 0 && sum > p.MaxGroupSize {
		return ProfileRef{}, status.Errorf(codes.ResourceExhausted, "action profile %s: one-shot weights sum to %d, its max_group_size is %d", p.Name, sum, p.MaxGroupSize)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.members) > 0 || len(p.groups) > 0 {
		return ProfileRef{}, status.Errorf(codes.InvalidArgument, "action profile %s has members or groups: it takes no one-shot action sets", p.Name)
	}
	var ms []*Member
	for _, a := range set {
		for range a.Weight {
			ms = append(ms, &Member{action: a.Action, handles: []int{p.newHandle()}})
		}
	}
	p.oneShots++
	if !p.WithSelector {
		return ProfileRef{Member: ms[0], oneShot: ms}, nil
	}
	g := &Group{slots: slices.Clone(ms)}
	sort.Slice(g.slots, func(i, j int) bool { return g.slots[i].handles[0] < g.slots[j].handles[0] })
	return ProfileRef{Group: g, oneShot: ms}, nil
}

// acquire resolves what a table entry names and counts the entry as a
// user: NOT_FOUND for an unknown member or group, INVALID_ARGUMENT for a
// group of a profile without a selector.
func (p *ActionProfile) acquire(memberID, groupID uint32, isGroup bool) (ProfileRef, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.oneShots > 0 {
		return ProfileRef{}, p.manualMode()
	}
	if isGroup {
		if !p.WithSelector {
			return ProfileRef{}, status.Errorf(codes.InvalidArgument, "action profile %s has no selector: entries name members, not groups", p.Name)
		}
		g, ok := p.groups[groupID]
		if !ok {
			return ProfileRef{}, status.Errorf(codes.NotFound, "action profile %s: no group %d", p.Name, groupID)
		}
		g.entries++
		return ProfileRef{Group: g}, nil
	}
	m, ok := p.members[memberID]
	if !ok {
		return ProfileRef{}, status.Errorf(codes.NotFound, "action profile %s: no member %d", p.Name, memberID)
	}
	m.entries++
	return ProfileRef{Member: m}, nil
}

func (p *ActionProfile) release(r ProfileRef) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case r.oneShot != nil:
		for _, m := range r.oneShot {
			p.handles[m.handles[0]] = false
		}
		p.oneShots--
	case r.Group != nil:
		r.Group.entries--
	case r.Member != nil:
		r.Member.entries--
	}
}

// Resolve is the action an entry's reference runs: its member's, or for a
// group the member at hash modulo the group's handles. ok is false for an
// empty group (no action runs, as on BMv2).
func (p *ActionProfile) Resolve(r ProfileRef, hash uint32) (a Action, ok bool) {
	p.mu.RLock()
	switch {
	case r.Member != nil:
		a, ok = r.Member.action, true
	case r.Group != nil && len(r.Group.slots) > 0:
		a, ok = r.Group.slots[hash%uint32(len(r.Group.slots))].action, true
	}
	p.mu.RUnlock()
	return a, ok
}

// Clear removes every member and group (the tables naming them are
// cleared with them).
func (p *ActionProfile) Clear() {
	p.mu.Lock()
	p.members, p.groups, p.handles, p.oneShots = map[uint32]*Member{}, map[uint32]*Group{}, nil, 0
	p.mu.Unlock()
}
