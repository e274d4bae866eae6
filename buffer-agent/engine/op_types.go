// SPDX-License-Identifier: Apache-2.0

package engine

// Op is one operation of a Batch; exactly one field is set.
type Op struct {
	CreateBuffer *CreateBufferOp
	RemoveBuffer *RemoveBufferOp
	CreateVport  *CreateVportOp
	RemoveVport  *RemoveVportOp
	SetVportMode *SetVportModeOp
	Bind         *BindOp
	Unbind       *BindOp
}

// CreateBufferOp creates buffer ID (idempotent for the same config and owner).
type CreateBufferOp struct {
	ID     string
	Config BufferConfig
}

// RemoveBufferOp removes an unbound buffer; Discard allows a non-empty one.
type RemoveBufferOp struct {
	ID      string
	Discard bool
}

// CreateVportOp creates vport ID (idempotent for the same config and owner).
type CreateVportOp struct {
	ID     string
	Config VportConfig
}

// RemoveVportOp removes an unbound vport and closes its backend.
type RemoveVportOp struct {
	ID string
}

// SetVportModeOp changes a vport's mode, and its TX rate when TxRateBps is
// not nil.
type SetVportModeOp struct {
	ID        string
	Mode      VportMode
	TxRateBps *uint64
}

// BindOp names a buffer and a vport to bind or unbind.
type BindOp struct {
	BufferID string
	VportID  string
}

// OpResult is the result of one applied operation; the field matching the
// operation is set (Discarded for RemoveBuffer, nothing for RemoveVport).
type OpResult struct {
	Buffer    *BufferInfo
	Vport     *VportInfo
	Discarded uint64
}
