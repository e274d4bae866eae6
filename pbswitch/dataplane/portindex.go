// SPDX-License-Identifier: Apache-2.0

package dataplane

// The packet path looks a copy's egress port up once per copy (twice for a
// frame through an in-process buffer); a Go map's lookup costs about 50
// instructions, an index into a slice a few. The switch keeps, beside the
// ports map, the ports by number in a slice for the numbers below
// maxIndexedPort (v1model's port numbers are 9 bits), stored whenever the
// map is; a number beyond it is looked up in the map.
const maxIndexedPort = 512

// indexPorts makes the slice of ports by number for ports (nil entries for
// the numbers that are no port).
func indexPorts(ports map[uint32]*port) *[]*port {
	n := 0
	for id := range ports {
		if id < maxIndexedPort && int(id) >= n {
			n = int(id) + 1
		}
	}
	idx := make([]*port, n)
	for id, p := range ports {
		if id < maxIndexedPort {
			idx[id] = p
		}
	}
	return &idx
}

// setPorts stores the ports map and its index; s.mu held (or s not yet
// shared).
func (s *Switch) setPorts(ports *map[uint32]*port) {
	s.byID.Store(indexPorts(*ports))
	s.ports.Store(ports)
}

// portByID is port id from the index, or from ports for a number beyond
// it.
func (s *Switch) portByID(ports map[uint32]*port, id uint32) (*port, bool) {
	if id < maxIndexedPort {
		if idx := *s.byID.Load(); id < uint32(len(idx)) {
			p := idx[id]
			return p, p != nil
		}
		return nil, false
	}
	p, ok := ports[id]
	return p, ok
}
