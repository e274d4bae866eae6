// SPDX-License-Identifier: Apache-2.0

package gnmi

import (
	"context"
	"errors"

	pb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

// adminChange is one validated config/enabled write.
type adminChange struct {
	port  dataplane.PortStatus
	up    bool
	op    pb.UpdateResult_Operation
	path  *pb.Path
	undo  bool // the state to go back to
	moved bool // applied, so a later failure undoes it
}

// Set implements gNMI for the one leaf pbswitch lets change,
// /interfaces/interface[name=X]/config/enabled (what ONOS 2.7's
// OpenConfigGnmiPortAdminBehaviour writes, a bool_val): it brings the
// port's interface up or down. Every operation is checked before any is
// applied, and a failure undoes what was applied: the request is one
// transaction, as the specification asks.
func (s *Server) Set(_ context.Context, req *pb.SetRequest) (*pb.SetResponse, error) {
	if len(req.GetDelete()) > 0 {
		return nil, status.Error(codes.Unimplemented, "delete is not supported: the only configurable leaf, config/enabled, can be replaced or updated")
	}
	if len(req.GetUnionReplace()) > 0 {
		return nil, status.Error(codes.Unimplemented, "union_replace is not supported")
	}
	all := s.ports.PortStatuses()
	var changes []*adminChange
	for _, op := range []struct {
		kind pb.UpdateResult_Operation
		ups  []*pb.Update
	}{{pb.UpdateResult_REPLACE, req.GetReplace()}, {pb.UpdateResult_UPDATE, req.GetUpdate()}} {
		for _, u := range op.ups {
			c, err := s.checkWrite(req.GetPrefix(), u, all)
			if err != nil {
				return nil, err
			}
			c.op = op.kind
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 {
		return nil, status.Error(codes.InvalidArgument, "the request changes nothing")
	}
	if err := s.apply(changes); err != nil {
		return nil, err
	}
	resp := &pb.SetResponse{Prefix: req.GetPrefix(), Timestamp: s.now().UnixNano()}
	for _, c := range changes {
		resp.Response = append(resp.Response, &pb.UpdateResult{Path: c.path, Op: c.op})
	}
	return resp, nil
}

// checkWrite validates one update: a concrete path to one interface's
// config/enabled and a bool_val.
func (s *Server) checkWrite(prefix *pb.Path, u *pb.Update, all []dataplane.PortStatus) (*adminChange, error) {
	sel, err := resolve(prefix, u.GetPath())
	if err != nil {
		return nil, err
	}
	if len(sel.leaves) != 1 || !sel.leaves[0].config {
		return nil, status.Errorf(codes.InvalidArgument, "path %s is not writable: only /interfaces/interface[name=X]/config/enabled is", show(u.GetPath().GetElem()))
	}
	if sel.iface == "" {
		return nil, status.Errorf(codes.InvalidArgument, "path %s: Set needs one interface's name, not a wildcard", show(u.GetPath().GetElem()))
	}
	ports := sel.ports(all)
	if len(ports) == 0 {
		return nil, status.Errorf(codes.NotFound, "no interface %q", sel.iface)
	}
	v, ok := u.GetVal().GetValue().(*pb.TypedValue_BoolVal)
	if !ok {
		return nil, status.Errorf(codes.InvalidArgument, "config/enabled is a boolean: send a bool_val, not %T", u.GetVal().GetValue())
	}
	return &adminChange{port: ports[0], up: v.BoolVal, path: u.GetPath(), undo: ports[0].AdminUp}, nil
}

// apply makes the changes, undoing the applied ones if one fails.
func (s *Server) apply(changes []*adminChange) error {
	for _, c := range changes {
		if err := s.ports.SetPortAdmin(c.port.ID, c.up); err != nil {
			s.rollback(changes)
			if errors.Is(err, dataplane.ErrNoLink) {
				return status.Errorf(codes.FailedPrecondition, "interface %s: %v", c.port.Name, err)
			}
			return status.Errorf(codes.Internal, "interface %s: %v", c.port.Name, err)
		}
		c.moved = true
	}
	return nil
}

func (s *Server) rollback(changes []*adminChange) {
	for i := len(changes) - 1; i >= 0; i-- {
		if c := changes[i]; c.moved {
			if err := s.ports.SetPortAdmin(c.port.ID, c.undo); err != nil {
				s.log.Error("gNMI Set: undoing a change failed", "interface", c.port.Name, "err", err)
			}
		}
	}
}
