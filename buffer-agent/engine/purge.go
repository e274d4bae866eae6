// SPDX-License-Identifier: Apache-2.0

package engine

const maxAckIDs = 65536

// PurgeUpTo drops (cause PURGED) every held packet that arrived before the
// first one carrying id, and that packet too when inclusive. When no held
// packet carries id nothing is purged and Found is false.
func (e *Engine) PurgeUpTo(app, bufferID string, id PacketID, inclusive bool) (PurgeResult, error) {
	b, err := e.lookupOwned(app, bufferID)
	if err != nil {
		return PurgeResult{}, err
	}
	return b.purgeUpTo(id, inclusive), nil
}

// lookupOwned is ownedBuffer for a call that works on the buffer under
// its own lock only.
func (e *Engine) lookupOwned(app, bufferID string) (*buffer, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ownedBuffer(app, bufferID)
}

// Ack releases the ARQ copies of the given packets; unknown ids are ignored.
func (e *Engine) Ack(app, bufferID string, ids []PacketID) (uint32, error) {
	if len(ids) > maxAckIDs {
		return 0, errorf(InvalidArgument, "at most %d packet ids per ack, got %d", maxAckIDs, len(ids))
	}
	b, err := e.lookupOwned(app, bufferID)
	if err != nil {
		return 0, err
	}
	if b.baas != nil {
		return 0, errorf(FailedPrecondition, "buffer %q is a PDCP ARQ buffer: PDCP status messages acknowledge it", bufferID)
	}
	if b.arq == nil {
		return 0, errorf(FailedPrecondition, "buffer %q is not an ARQ buffer", bufferID)
	}
	return b.ack(ids), nil
}

func (b *buffer) purgeUpTo(id PacketID, inclusive bool) PurgeResult {
	b.mu.Lock()
	defer b.mu.Unlock()
	seq, ok := b.q.findSeq(func(f []byte) bool {
		pid, ok := packetIDOf(f)
		return ok && pid == id
	})
	if !ok {
		return PurgeResult{}
	}
	if !inclusive {
		seq--
	}
	return b.purgeToSeqLocked(seq)
}

// purgeToSeqLocked drops (cause PURGED) every held packet up to the queue
// sequence number last. The caller holds b.mu.
func (b *buffer) purgeToSeqLocked(last uint64) PurgeResult {
	before, _ := b.occupancy()
	dropsBefore := b.st.drops
	res := PurgeResult{Found: true}
	// Frames to send again are older than anything held: a purge that
	// found a held packet covers them too.
	res.PurgedPackets += b.dropRewind(DropPurged)
	b.q.popUpTo(last, func(p packet) {
		if b.left != nil {
			b.noteLeft(p.data)
		}
		res.PurgedPackets++
		res.PurgedBytes += uint64(len(p.data))
		b.jgone(p)
		b.discard(p.data, DropPurged)
	})
	b.afterChange(before, &dropsBefore)
	b.afterControl()
	return res
}
