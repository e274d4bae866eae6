// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"sync"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// packetPool holds the switch's free packets (each with the program state
// it kept, see release) in one list under a mutex, taken and given back a
// batch at a time: a port's receive takes as many as its batch has frames,
// an egress worker gives back the packets of the batch it sent. A frame
// that crosses the switch twice (through an in-process buffer) paid a
// sync.Pool Get and Put a traversal, about 240 instructions; a batch's one
// lock is a few instructions a packet.
type packetPool struct {
	mu   sync.Mutex
	free []*pipeline.Packet
}

// maxFreePackets bounds the free list; packets given back beyond it (after
// a burst that filled the queues) are left to the garbage collector.
const maxFreePackets = 4096

// take fills dst with free packets, allocating what the list lacks.
func (p *packetPool) take(dst []*pipeline.Packet) {
	p.mu.Lock()
	k := min(len(dst), len(p.free))
	rest := len(p.free) - k
	copy(dst, p.free[rest:])
	clear(p.free[rest:])
	p.free = p.free[:rest]
	p.mu.Unlock()
	for i := k; i < len(dst); i++ {
		dst[i] = new(pipeline.Packet)
	}
}

// give returns packets to the list; the caller must not use them
// afterwards.
func (p *packetPool) give(pks []*pipeline.Packet) {
	p.mu.Lock()
	room := min(maxFreePackets-len(p.free), len(pks))
	p.free = append(p.free, pks[:room]...)
	p.mu.Unlock()
}
