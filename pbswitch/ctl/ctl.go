// SPDX-License-Identifier: Apache-2.0

// Package ctl is a minimal P4Runtime controller for the FlowBuf program:
// it becomes primary, pushes the pipeline and writes entries by P4 name.
// pbswitch's real-packet tests and benchmarks drive the switch with it, over
// the same gRPC API ONOS uses.
package ctl

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/prototext"
)

// LoadP4Info reads a p4info text file.
func LoadP4Info(path string) (*p4info.P4Info, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal(b, info); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return info, nil
}

// Controller is a primary P4Runtime client of one device.
type Controller struct {
	conn     *grpc.ClientConn
	Client   p4.P4RuntimeClient
	Stream   p4.P4Runtime_StreamChannelClient
	cancel   context.CancelFunc
	deviceID uint64
	eid      *p4.Uint128
	info     *p4info.P4Info
}

// Conn is the client's gRPC connection, for a caller that sends messages
// it encoded itself (a benchmark's pre-encoded Writes).
func (c *Controller) Conn() grpc.ClientConnInterface { return c.conn }

// Connect dials addr and becomes primary with election id 1.
func Connect(addr string, deviceID uint64) (*Controller, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	c := &Controller{conn: conn, Client: p4.NewP4RuntimeClient(conn), deviceID: deviceID, eid: &p4.Uint128{Low: 1}}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	if c.Stream, err = c.Client.StreamChannel(ctx); err != nil {
		c.Close()
		return nil, err
	}
	err = c.Stream.Send(&p4.StreamMessageRequest{Update: &p4.StreamMessageRequest_Arbitration{
		Arbitration: &p4.MasterArbitrationUpdate{DeviceId: deviceID, ElectionId: c.eid}}})
	if err == nil {
		var m *p4.StreamMessageResponse
		if m, err = c.Stream.Recv(); err == nil && m.GetArbitration().GetStatus().GetCode() != 0 {
			err = fmt.Errorf("not primary: %v", m.GetArbitration().GetStatus())
		}
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("arbitration: %w", err)
	}
	return c, nil
}

// Close ends the stream and the connection.
func (c *Controller) Close() error {
	c.cancel()
	return c.conn.Close()
}

// Pipeline is a compiled P4 program: its p4info and the bmv2 JSON a
// switch runs (the pipeline config's p4_device_config).
type Pipeline struct {
	Info *p4info.P4Info
	JSON []byte
}

// LoadPipeline reads p4c's outputs from dir (p4info.txt and bmv2.json).
func LoadPipeline(dir string) (Pipeline, error) {
	info, err := LoadP4Info(filepath.Join(dir, "p4info.txt"))
	if err != nil {
		return Pipeline{}, err
	}
	js, err := os.ReadFile(filepath.Join(dir, "bmv2.json"))
	if err != nil {
		return Pipeline{}, err
	}
	return Pipeline{Info: info, JSON: js}, nil
}

// Push installs p with VERIFY_AND_COMMIT.
func (c *Controller) Push(p Pipeline) error {
	info := p.Info
	_, err := c.Client.SetForwardingPipelineConfig(context.Background(), &p4.SetForwardingPipelineConfigRequest{
		DeviceId: c.deviceID, ElectionId: c.eid, Action: p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT,
		Config: &p4.ForwardingPipelineConfig{P4Info: info, P4DeviceConfig: p.JSON}})
	if err == nil {
		c.info = info
	}
	return err
}

// Insert writes table entries in one request.
func (c *Controller) Insert(entries ...*p4.TableEntry) error {
	req := &p4.WriteRequest{DeviceId: c.deviceID, ElectionId: c.eid}
	for _, e := range entries {
		req.Updates = append(req.Updates, &p4.Update{Type: p4.Update_INSERT, Entity: &p4.Entity{Entity: &p4.Entity_TableEntry{TableEntry: e}}})
	}
	_, err := c.Client.Write(context.Background(), req)
	return err
}

// Delete removes table entries in one request.
func (c *Controller) Delete(entries ...*p4.TableEntry) error {
	req := &p4.WriteRequest{DeviceId: c.deviceID, ElectionId: c.eid}
	for _, e := range entries {
		req.Updates = append(req.Updates, &p4.Update{Type: p4.Update_DELETE, Entity: &p4.Entity{Entity: &p4.Entity_TableEntry{TableEntry: e}}})
	}
	_, err := c.Client.Write(context.Background(), req)
	return err
}

func (c *Controller) id(name string) uint32 {
	for _, t := range c.info.GetTables() {
		if t.GetPreamble().GetName() == name {
			return t.GetPreamble().GetId()
		}
	}
	for _, a := range c.info.GetActions() {
		if a.GetPreamble().GetName() == name {
			return a.GetPreamble().GetId()
		}
	}
	panic("ctl: no p4info object " + name) // the names are the constants of names.go
}

func (c *Controller) fieldID(table, field string) uint32 {
	for _, t := range c.info.GetTables() {
		if t.GetPreamble().GetName() == table {
			for _, f := range t.GetMatchFields() {
				if f.GetName() == field {
					return f.GetId()
				}
			}
		}
	}
	panic("ctl: no match field " + table + "." + field)
}

func (c *Controller) action(name string, params ...[]byte) *p4.TableAction {
	a := &p4.Action{ActionId: c.id(name)}
	var info *p4info.Action
	for _, x := range c.info.GetActions() {
		if x.GetPreamble().GetName() == name {
			info = x
		}
	}
	for i, p := range params {
		a.Params = append(a.Params, &p4.Action_Param{ParamId: info.GetParams()[i].GetId(), Value: p})
	}
	return &p4.TableAction{Type: &p4.TableAction_Action{Action: a}}
}

// Port encodes a 9-bit port number.
func Port(p uint32) []byte { return binary.BigEndian.AppendUint16(nil, uint16(p)) }

// Route is a routing_v4 entry: dst/plen -> port, rewriting the MACs.
func (c *Controller) Route(dst [4]byte, plen int32, port uint32, srcMAC, dstMAC []byte) *p4.TableEntry {
	return &p4.TableEntry{TableId: c.id(TableRoutingV4),
		Match: []*p4.FieldMatch{{FieldId: c.fieldID(TableRoutingV4, "ipv4_dst"),
			FieldMatchType: &p4.FieldMatch_Lpm{Lpm: &p4.FieldMatch_LPM{Value: dst[:], PrefixLen: plen}}}},
		Action: c.action(ActionRoute, Port(port), srcMAC, dstMAC)}
}

// VportPort marks port as a vport port (vport_ports -> mark_from_vport).
func (c *Controller) VportPort(port uint32) *p4.TableEntry {
	return &p4.TableEntry{TableId: c.id(TableVportPorts),
		Match: []*p4.FieldMatch{{FieldId: c.fieldID(TableVportPorts, "ingress_port"),
			FieldMatchType: &p4.FieldMatch_Exact_{Exact: &p4.FieldMatch_Exact{Value: Port(port)}}}},
		Action: c.action(ActionMarkFromVport)}
}

// SteerDst steers IPv4 traffic to dst (any port, any protocol) to port, as
// it arrives: replays from a vport (from_vport 1) do not match, so a flow
// steered into a buffer comes back out of it.
func (c *Controller) SteerDst(dst [4]byte, port uint32, priority int32) *p4.TableEntry {
	return &p4.TableEntry{TableId: c.id(TableFlowSteering), Priority: priority,
		Match: []*p4.FieldMatch{{FieldId: c.fieldID(TableFlowSteering, "from_vport"),
			FieldMatchType: &p4.FieldMatch_Ternary_{Ternary: &p4.FieldMatch_Ternary{Value: []byte{0}, Mask: []byte{1}}}},
			{FieldId: c.fieldID(TableFlowSteering, "ipv4_dst"),
				FieldMatchType: &p4.FieldMatch_Ternary_{Ternary: &p4.FieldMatch_Ternary{Value: dst[:], Mask: []byte{255, 255, 255, 255}}}}},
		Action: c.action(ActionSteerToPort, Port(port))}
}
