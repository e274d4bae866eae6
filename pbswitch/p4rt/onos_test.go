// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"context"
	"testing"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// TestONOS27Session replays what ONOS 2.7.0's P4Runtime client sends a
// device (protocols/p4runtime: P4RuntimeClientImpl, StreamClientImpl,
// PipelineConfigClientImpl, ReadRequestImpl) and checks each answer as it
// reads them.
func TestONOS27Session(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	cookieOnly := &p4.GetForwardingPipelineConfigRequest{DeviceId: deviceID,
		ResponseType: p4.GetForwardingPipelineConfigRequest_COOKIE_ONLY}

	// probeService / isAnyPipelineConfigSet before a pipeline: ONOS takes
	// FAILED_PRECONDITION as "none set" without logging an error.
	if _, err := r.client.GetForwardingPipelineConfig(ctx, cookieOnly); statusOf(err).Code() != codes.FailedPrecondition {
		t.Fatalf("cookie before a pipeline: %v", err)
	}

	// P4RuntimeHandshaker.roleChanged(preference, term): election id
	// term*20 - preference, no role; the master (preference 0) and a
	// backup. ONOS needs election_id and status in every answer.
	const term = 1
	_, master := r.stream(term * 20)
	if master.GetStatus().GetCode() != int32(codes.OK) || master.GetElectionId().GetLow() != 20 {
		t.Fatalf("master's arbitration answer %v", master)
	}
	_, backup := r.stream(term*20 - 1)
	if backup.GetStatus().GetCode() == int32(codes.OK) || backup.GetElectionId().GetLow() != 20 {
		t.Fatalf("backup's arbitration answer %v", backup)
	}
	// A backup's write is PERMISSION_DENIED (ONOS posts NOT_MASTER).
	if err := r.push(19, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); statusOf(err).Code() != codes.PermissionDenied {
		t.Fatalf("backup push: %v", err)
	}

	// setPipelineConfig: VERIFY_AND_COMMIT, the pipeconf's fingerprint as
	// cookie, BMv2's JSON as p4_device_config (Bmv2PipelineProgrammable,
	// which the stratum-bmv2 and bmv2 drivers use). ONOS wants the empty
	// response exactly.
	const fingerprint = 0x5eed
	resp, err := r.client.SetForwardingPipelineConfig(ctx, &p4.SetForwardingPipelineConfigRequest{
		DeviceId: deviceID, ElectionId: &p4.Uint128{Low: 20}, Action: p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT,
		Config: &p4.ForwardingPipelineConfig{P4Info: r.info, P4DeviceConfig: r.deviceConfig,
			Cookie: &p4.ForwardingPipelineConfig_Cookie{Cookie: fingerprint}}})
	if err != nil || !proto.Equal(resp, &p4.SetForwardingPipelineConfigResponse{}) {
		t.Fatalf("push: %v, %v", resp, err)
	}

	// isPipelineConfigSet: COOKIE_ONLY answers the cookie and nothing else.
	got, err := r.client.GetForwardingPipelineConfig(ctx, cookieOnly)
	if err != nil {
		t.Fatal(err)
	}
	if c := got.GetConfig(); c.GetCookie().GetCookie() != fingerprint || c.GetP4Info() != nil || len(c.GetP4DeviceConfig()) > 0 {
		t.Fatalf("COOKIE_ONLY answered %d bytes of p4info, %d of device config, cookie %v",
			proto.Size(c.GetP4Info()), len(c.GetP4DeviceConfig()), c.GetCookie())
	}

	// getDefaultEntries: the default entry of every table whose default
	// action is not const, one entity per table.
	var asks []*p4.Entity
	for _, tb := range r.info.GetTables() {
		if tb.GetConstDefaultActionId() == 0 {
			asks = append(asks, tableEntity(&p4.TableEntry{TableId: tb.GetPreamble().GetId(), IsDefaultAction: true}))
		}
	}
	if len(asks) == 0 {
		t.Fatal("the pipeconf has no table with a default entry to read")
	}
	defaults := r.read(asks...)
	if len(defaults) != len(asks) {
		t.Fatalf("%d default entries for %d tables", len(defaults), len(asks))
	}
	for _, e := range defaults {
		if te := e.GetTableEntry(); !te.GetIsDefaultAction() || te.GetAction().GetAction() == nil {
			t.Fatalf("default entry %v", te)
		}
	}
	// allTableEntries: table id 0 with counter_data and meter_config set.
	r.read(tableEntity(&p4.TableEntry{CounterData: &p4.CounterData{}, MeterConfig: &p4.MeterConfig{}}))
}
