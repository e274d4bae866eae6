// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"strings"
	"testing"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/p4rt"
)

// TestSessionBatchPerUpdateErrors writes a batch of UPF downlink sessions
// (exact matches: the Write codec's fast path) with bad entries among good
// ones: each bad one gets its own code and message, the good ones apply.
func TestSessionBatchPerUpdateErrors(t *testing.T) {
	r := newRig(t)
	r.stream(1)
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	sessions, set := r.id(ctl.TableDownlinkSessions), r.id(ctl.ActionSetDownlinkSession)
	session := func(ue byte, key []byte, params ...[]byte) *p4.TableEntry {
		if key == nil {
			key = []byte{10, 64, 0, ue}
		}
		if params == nil {
			params = [][]byte{{ue}, {0}, {1}}
		}
		return &p4.TableEntry{TableId: sessions, Match: []*p4.FieldMatch{exact(1, key)}, Action: action(set, params...)}
	}
	badField := session(4, nil)
	badField.Match[0].FieldId = 9
	updates := []*p4.Update{
		update(p4.Update_INSERT, session(1, nil)),
		update(p4.Update_INSERT, session(1, nil)),
		update(p4.Update_INSERT, session(2, []byte{1, 10, 64, 0, 2})),
		update(p4.Update_INSERT, session(3, nil, []byte{3}, []byte{0})),
		update(p4.Update_INSERT, badField),
		update(p4.Update_MODIFY, session(5, nil)),
		update(p4.Update_INSERT, session(6, nil)),
		update(p4.Update_DELETE, session(1, nil)),
	}
	req := &p4.WriteRequest{DeviceId: deviceID, ElectionId: &p4.Uint128{Low: 1}, Updates: updates}
	if !p4rt.DecodesFast(req) {
		t.Fatal("the batch does not take the Write codec's fast path")
	}
	err := r.write(1, updates...)
	st := status.Convert(err)
	if st.Code() != codes.Unknown {
		t.Fatalf("batch with failures: %v, want UNKNOWN", err)
	}
	want := []struct {
		code codes.Code
		msg  string
	}{
		{codes.OK, ""},
		{codes.AlreadyExists, ""},
		{codes.InvalidArgument, "does not fit in 32 bits"},
		{codes.InvalidArgument, "missing"},
		{codes.InvalidArgument, "no match field id 9"},
		{codes.NotFound, ""},
		{codes.OK, ""},
		{codes.OK, ""},
	}
	if len(st.Details()) != len(want) {
		t.Fatalf("%d per-update errors, want %d", len(st.Details()), len(want))
	}
	for i, d := range st.Details() {
		pe, ok := d.(*p4.Error)
		if !ok || codes.Code(pe.GetCanonicalCode()) != want[i].code || !strings.Contains(pe.GetMessage(), want[i].msg) {
			t.Errorf("update %d: %v, want %v %q", i, d, want[i].code, want[i].msg)
		}
	}
	got := r.read(tableEntity(&p4.TableEntry{TableId: sessions}))
	if len(got) != 1 || string(got[0].GetTableEntry().GetMatch()[0].GetExact().GetValue()) != string([]byte{10, 64, 0, 6}) {
		t.Fatalf("sessions after the batch: %v, want only UE 10.64.0.6", got)
	}
}
