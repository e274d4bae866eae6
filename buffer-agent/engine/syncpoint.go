// SPDX-License-Identifier: Apache-2.0

package engine

import "time"

// syncAwaitBound bounds how long a buffer drops arrivals while it awaits a
// sync point it has not received (see PurgeToSyncPoint). The sync point's
// copy trails the one another buffer delivered by the time one switch's
// receive path was not scheduled: up to 150 ms seen on a loaded 2-core
// machine. A copy that never comes (lost on the way) costs what arrives
// within the bound, so the bound is generous but not unbounded; each expiry
// is counted (BufferStats.SyncAwaitsExpired).
const syncAwaitBound = time.Second

// awaitedSync is a sync point a buffer has not received yet: every arrival
// up to it (and it too when inclusive) is dropped as purged, until it comes
// or the deadline (clock UnixNano) passes.
type awaitedSync struct {
	id        PacketID
	inclusive bool
	since     int64
	deadline  int64
}

// PurgeToSyncPoint purges the buffer up to the packet id, as PurgeUpTo,
// for a buffer that holds a copy of a stream another buffer delivered up
// to id (FMM's sync point). Copies arrive in the stream's order, so when
// the buffer holds no packet id and has not let it go lately, id has not
// arrived yet: everything held came before it and is purged, and the
// buffer drops arrivals up to id as they come (Awaiting), at most
// syncAwaitBound. A packet id that left the buffer lately (sent, purged
// or dropped for room: see idRing) is Found with nothing to purge. A
// drop-head window that dropped packets for room since its last sync
// cannot tell a late point from one it dropped long ago: then nothing is
// purged (not Found), as PurgeUpTo. A later call replaces what was
// awaited.
func (e *Engine) PurgeToSyncPoint(app, bufferID string, id PacketID, inclusive bool) (PurgeResult, error) {
	b, err := e.lookupOwned(app, bufferID)
	if err != nil {
		return PurgeResult{}, err
	}
	return b.purgeToSyncPoint(id, inclusive), nil
}

func (b *buffer) purgeToSyncPoint(id PacketID, inclusive bool) PurgeResult {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.left == nil {
		// Remembered from now on, so that a later sync point the buffer
		// let go is known as behind it; what it dropped for room before
		// is not.
		b.left = new(idRing)
		b.overflowSinceSync = b.st.drops[DropOverflow].packets+b.st.drops[DropPool].packets > 0
	}
	if b.awaited != nil {
		b.awaited = nil
		b.st.syncAwaitsReplaced++
	}
	if seq, ok := b.q.findSeq(func(f []byte) bool {
		pid, ok := packetIDOf(f)
		return ok && pid == id
	}); ok {
		if !inclusive {
			seq--
		}
		// Sync points only move forward in the stream: what the window
		// dropped for room before this one is behind every later one.
		b.overflowSinceSync = false
		return b.purgeToSeqLocked(seq)
	}
	if b.st.hasLastOut && b.st.lastOut == id || b.left.has(id) {
		b.overflowSinceSync = false
		return PurgeResult{Found: true}
	}
	if b.overflowSinceSync {
		// The point may be one the window dropped for newer packets longer
		// ago than it remembers (everything held then came after it), not
		// one still on its way: nothing is purged, as PurgeUpTo; the caller
		// releases all, which can duplicate but never loses.
		return PurgeResult{}
	}
	res := b.purgeToSeqLocked(b.seq)
	res.Found, res.Awaiting = false, true
	now := b.e.clock.Now().UnixNano()
	b.awaited = &awaitedSync{id: id, inclusive: inclusive, since: now,
		deadline: now + int64(syncAwaitBound)}
	b.st.syncAwaits++
	return res
}

// dropAwaited drops (cause PURGED) the frames of a batch up to the sync
// point the buffer awaits, and returns the rest, in order. The caller
// holds b.mu.
func (b *buffer) dropAwaited(frames [][]byte) [][]byte {
	a := b.awaited
	if a == nil {
		return frames
	}
	now := b.e.clock.Now().UnixNano()
	if now > a.deadline {
		b.awaited = nil
		b.st.syncAwaitsExpired++
		return frames
	}
	for i, f := range frames {
		pid, ok := packetIDOf(f)
		last := ok && pid == a.id
		if last && !a.inclusive {
			return frames[i:]
		}
		b.st.packetsIn++
		b.st.bytesIn += uint64(len(f))
		b.noteLeft(f)
		b.drop(f, DropPurged)
		if last {
			b.awaited = nil
			b.st.syncAwaitsArrived++
			b.st.syncAwaitMaxNs = max(b.st.syncAwaitMaxNs, now-a.since)
			return frames[i+1:]
		}
	}
	return nil
}
