// SPDX-License-Identifier: Apache-2.0

package gnmi

import (
	"fmt"
	"slices"
	"strings"

	pb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

// served describes the tree for error messages.
const served = "/interfaces/interface[name=*]/{config/enabled, state/..., state/counters/..., ethernet/state/...}"

// selection is what a request path names: some leaves of the schema for
// the interfaces its name key picks.
type selection struct {
	iface  string // "": every interface
	leaves []*leaf
}

// resolve checks a request path (joined to its prefix) and finds what it
// names in the schema. A malformed path is INVALID_ARGUMENT, a well-formed
// one outside the served tree as unserved says. Whether the named
// interface exists is the caller's question.
func resolve(prefix, path *pb.Path) (selection, error) {
	elems, err := join(prefix, path)
	if err != nil {
		return selection{}, err
	}
	sel := selection{}
	names := make([]string, len(elems))
	for i, e := range elems {
		if e.GetName() == "" {
			return selection{}, status.Errorf(codes.InvalidArgument, "path %s: element %d has no name", show(elems), i)
		}
		names[i] = e.GetName()
		if iface, err := keyOf(elems, e); err != nil {
			return selection{}, err
		} else if iface != "" {
			sel.iface = iface
		}
	}
	for i := range schema {
		l := &schema[i]
		if matchPrefix(names, append([]string{"interfaces", "interface"}, l.path...)) {
			sel.leaves = append(sel.leaves, l)
		}
	}
	if len(sel.leaves) == 0 {
		return selection{}, unserved(elems)
	}
	return sel, nil
}

// openconfigRoots are top-level containers of OpenConfig's models.
var openconfigRoots = map[string]bool{"interfaces": true, "system": true, "components": true,
	"network-instances": true, "lldp": true, "qos": true, "acl": true, "lacp": true, "stp": true,
	"routing-policy": true, "sampling": true, "telemetry-system": true, "keychains": true}

// unserved is the error for a well-formed path naming nothing pbswitch
// serves: inside an OpenConfig model it is not implemented (UNIMPLEMENTED);
// a path no model has is not valid (INVALID_ARGUMENT, which ONOS 2.7's
// gNMI probe, a Get of /onos-gnmi-ping, expects of a live server).
func unserved(elems []*pb.PathElem) error {
	if len(elems) > 0 && !openconfigRoots[elems[0].GetName()] {
		return status.Errorf(codes.InvalidArgument, "path %s is in no model pbswitch knows: it serves %s", show(elems), served)
	}
	return status.Errorf(codes.Unimplemented, "path %s is not served: pbswitch serves %s", show(elems), served)
}

// join is prefix's elements then path's, after checking what neither may
// carry.
func join(prefix, path *pb.Path) ([]*pb.PathElem, error) {
	for _, p := range []*pb.Path{prefix, path} {
		// The gnmi module's own client sends both forms of a path; elem is
		// the one read. A path given only as the deprecated strings is
		// refused.
		if len(p.GetElement()) > 0 && len(p.GetElem()) == 0 { //nolint:staticcheck // refused, not used
			return nil, status.Error(codes.InvalidArgument, "the deprecated path field 'element' is not supported: use 'elem'")
		}
		if o := p.GetOrigin(); o != "" && o != "openconfig" {
			return nil, status.Errorf(codes.Unimplemented, "origin %q is not served (only openconfig)", o)
		}
	}
	return append(slices.Clone(prefix.GetElem()), path.GetElem()...), nil
}

// keyOf checks e's keys: only interface takes one, name. It returns the
// interface name the key picks ("" for every interface: no key, "*", or
// "...", which ONOS sends).
func keyOf(elems []*pb.PathElem, e *pb.PathElem) (string, error) {
	if len(e.GetKey()) == 0 {
		return "", nil
	}
	if e.GetName() != "interface" {
		return "", status.Errorf(codes.InvalidArgument, "path %s: %s takes no keys", show(elems), e.GetName())
	}
	for k := range e.GetKey() {
		if k != "name" {
			return "", status.Errorf(codes.InvalidArgument, "path %s: interface has one key, name, not %q", show(elems), k)
		}
	}
	switch n := e.GetKey()["name"]; n {
	case "*", "...":
		return "", nil
	case "":
		return "", status.Errorf(codes.InvalidArgument, "path %s: empty interface name", show(elems))
	default:
		return n, nil
	}
}

// matchPrefix reports whether pattern names path or a container above it;
// "*" stands for one element, "..." for any number.
func matchPrefix(pattern, path []string) bool {
	if len(pattern) == 0 {
		return true
	}
	if pattern[0] == "..." {
		for i := 0; i <= len(path); i++ {
			if matchPrefix(pattern[1:], path[i:]) {
				return true
			}
		}
		return false
	}
	if len(path) == 0 {
		return false
	}
	return (pattern[0] == "*" || pattern[0] == path[0]) && matchPrefix(pattern[1:], path[1:])
}

// ports are the statuses sel's interface name picks.
func (sel selection) ports(all []dataplane.PortStatus) []dataplane.PortStatus {
	if sel.iface == "" {
		return all
	}
	for _, ps := range all {
		if ps.Name == sel.iface {
			return []dataplane.PortStatus{ps}
		}
	}
	return nil
}

// leafPath is the full path of leaf l of interface name, as ONOS reads it
// (it takes the interface from element 1 and ignores prefixes).
func leafPath(name string, l *leaf) *pb.Path {
	elems := []*pb.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": name}}}
	for _, n := range l.path {
		elems = append(elems, &pb.PathElem{Name: n})
	}
	return &pb.Path{Elem: elems}
}

// show prints elements as a path string, for messages.
func show(elems []*pb.PathElem) string {
	var b strings.Builder
	for _, e := range elems {
		b.WriteString("/" + e.GetName())
		keys := make([]string, 0, len(e.GetKey()))
		for k := range e.GetKey() {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "[%s=%s]", k, e.GetKey()[k])
		}
	}
	if b.Len() == 0 {
		return "/"
	}
	return b.String()
}
