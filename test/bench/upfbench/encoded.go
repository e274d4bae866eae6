// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
)

// preEncoded says whether the install benchmark's client encodes its
// Writes before the timer starts (CLIENT_ENCODE=live: while sending, as
// before). Both client and server share the machine's 2 cores: with the
// Writes encoded beforehand the wall-clock rate shows what the server
// sustains, not what one core left to it after the client's encoding.
var preEncoded = envString("CLIENT_ENCODE", "pre") != "live"

// encodedWrite is a WriteRequest already in protobuf wire form.
type encodedWrite []byte

// rawCodec sends an encodedWrite as it is and is gRPC's protobuf codec
// for everything else (the WriteResponse).
type rawCodec struct{ encoding.CodecV2 }

func (c rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	if b, ok := v.(encodedWrite); ok {
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	return c.CodecV2.Marshal(v)
}

// encodeSessions is the Writes of sessions from..to-1, encoded.
func encodeSessions(w *writer, from, to int) ([]encodedWrite, error) {
	out := make([]encodedWrite, 0, batchesOf(from, to))
	for lo := from; lo < to; lo += sessionBatch {
		b, err := proto.Marshal(w.request(lo, min(lo+sessionBatch, to)))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// writeEncoded sends writes (sessions from on, sessionBatch a Write) with
// writesInFlight outstanding.
func writeEncoded(c *ctl.Controller, writes []encodedWrite, from int) error {
	codec := grpc.ForceCodecV2(rawCodec{encoding.GetCodecV2("proto")})
	return inFlight(len(writes), func(k int) error {
		if err := c.Conn().Invoke(context.Background(), p4.P4Runtime_Write_FullMethodName, writes[k], &p4.WriteResponse{}, codec); err != nil {
			lo := from + k*sessionBatch
			return fmt.Errorf("sessions %d-%d: %w", lo, lo+sessionBatch-1, err)
		}
		return nil
	})
}
