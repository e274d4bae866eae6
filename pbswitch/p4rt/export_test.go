// SPDX-License-Identifier: Apache-2.0

package p4rt

import (
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
)

// DecodesFast tells whether the Write codec decodes req without
// proto.Unmarshal.
func DecodesFast(req *p4.WriteRequest) bool {
	raw, err := proto.Marshal(req)
	return err == nil && (&writeDecoder{}).request(raw, &p4.WriteRequest{})
}

// WritesExactly applies one update of te through the exact-match writer
// alone (what Write tries first) and reports whether it took the update.
func (s *Server) WritesExactly(typ p4.Update_Type, te *p4.TableEntry) (bool, error) {
	objs, err := s.objects()
	if err != nil {
		return false, err
	}
	return (&exactWriter{}).write(objs, typ, te)
}

// DecodeWrite decodes raw as the server's gRPC codec does.
func DecodeWrite(raw []byte) (*p4.WriteRequest, error) {
	req := &p4.WriteRequest{}
	err := writeCodec{encoding.GetCodecV2("proto")}.Unmarshal(mem.BufferSlice{mem.SliceBuffer(raw)}, req)
	return req, err
}
