// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
)

// withTranslatedPort makes the route action's port parameter (bit<9> in
// the program) a @p4runtime_translation type the controller names in 32
// bits, as fabric-tna types its port ids.
func withTranslatedPort(info *p4info.P4Info) *p4info.P4Info {
	info = proto.Clone(info).(*p4info.P4Info)
	for _, a := range info.Actions {
		if a.Preamble.Name == ctl.ActionRoute {
			a.Params[0].Bitwidth = 32
			a.Params[0].TypeName = &p4info.P4NamedType{Name: "port_sdn_t"}
		}
	}
	if info.TypeInfo == nil {
		info.TypeInfo = &p4info.P4TypeInfo{}
	}
	if info.TypeInfo.NewTypes == nil {
		info.TypeInfo.NewTypes = map[string]*p4info.P4NewTypeSpec{}
	}
	info.TypeInfo.NewTypes["port_sdn_t"] = &p4info.P4NewTypeSpec{Representation: &p4info.P4NewTypeSpec_TranslatedType{
		TranslatedType: &p4info.P4NewTypeTranslation{Uri: "flowbuf.test/port", SdnType: &p4info.P4NewTypeTranslation_SdnBitwidth{SdnBitwidth: 32}}}}
	return info
}

// The server maps the controller's values of a translated type to the
// data plane's (pbswitch: the same number) and back on reads; an SDN value
// with no data-plane value is refused.
func TestTranslatedParameterWrittenInSDNWidthReadBackAndForwarded(t *testing.T) {
	r := newRig(t)
	r.info = withTranslatedPort(r.info)
	r.stream(1)
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatalf("a program with a translated type refused: %v", err)
	}
	routing, route := r.id(ctl.TableRoutingV4), r.id(ctl.ActionRoute)
	mac := []byte{2, 0, 0, 0, 0, 9}
	good := &p4.TableEntry{TableId: routing, Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 2, 0}, 24)},
		Action: action(route, []byte{0, 0, 0, 2}, mac, mac)} // padded to the SDN width
	if err := r.write(1, update(p4.Update_INSERT, good)); err != nil {
		t.Fatalf("a 32-bit SDN port value: %v", err)
	}
	r.sw.Receive(1, [][]byte{udpFrame([4]byte{10, 0, 2, 7}, 80)})
	if f := r.ports[2].wait(t); string(f[0:6]) != string(mac) {
		t.Fatalf("routed frame not rewritten: %x", f[:14])
	}
	got := r.read(tableEntity(&p4.TableEntry{TableId: routing}))
	if len(got) != 1 {
		t.Fatalf("read %d entries", len(got))
	}
	if v := got[0].GetTableEntry().GetAction().GetAction().GetParams()[0].GetValue(); string(v) != "\x02" {
		t.Fatalf("read back port %x, want the SDN value 02", v)
	}
	noDataPlaneValue := &p4.TableEntry{TableId: routing, Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 3, 0}, 24)},
		Action: action(route, []byte{0, 1, 0, 0}, mac, mac)} // fits 32 bits, not the program's 9
	tooWide := &p4.TableEntry{TableId: routing, Match: []*p4.FieldMatch{lpm(1, []byte{10, 0, 4, 0}, 24)},
		Action: action(route, []byte{1, 0, 0, 0, 2}, mac, mac)} // does not fit the SDN width
	for _, e := range []*p4.TableEntry{noDataPlaneValue, tooWide} {
		wantCodes(t, r.write(1, update(p4.Update_INSERT, e)), codes.InvalidArgument)
	}
}
