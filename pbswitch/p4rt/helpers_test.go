// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"context"
	"encoding/binary"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
	"github.com/flowbuf/flowbuf/pbswitch/device"
	"github.com/flowbuf/flowbuf/pbswitch/p4rt"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

const (
	deviceID = 1
	cpuPort  = 255
)

// capture is an in-memory port: it records what the switch sends out.
type capture struct {
	mu     sync.Mutex
	frames [][]byte
	got    chan struct{}
}

func newCapture() *capture { return &capture{got: make(chan struct{}, 1024)} }

func (c *capture) Send(frames [][]byte) error {
	c.mu.Lock()
	c.frames = append(c.frames, frames...)
	c.mu.Unlock()
	for range frames {
		c.got <- struct{}{}
	}
	return nil
}

func (c *capture) wait(t *testing.T) []byte {
	t.Helper()
	select {
	case <-c.got:
	case <-time.After(5 * time.Second):
		t.Fatal("no frame left the port")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.frames[len(c.frames)-1]
}

type rig struct {
	t      testing.TB
	sw     *dataplane.Switch
	srv    *p4rt.Server
	conn   *grpc.ClientConn
	client p4.P4RuntimeClient
	info   *p4info.P4Info
	// deviceConfig is what a push carries as p4_device_config: the
	// FlowBuf program's bmv2 JSON.
	deviceConfig []byte
	ports        map[uint32]*capture
}

func loadInfo(t testing.TB) *p4info.P4Info {
	b, err := os.ReadFile("../../pipeconf/p4src/build/p4info.txt")
	if err != nil {
		t.Fatal(err)
	}
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal(b, info); err != nil {
		t.Fatal(err)
	}
	return info
}

func newRig(t testing.TB) *rig { return newRigStore(t, false) }

// newRigStore is newRig whose programs keep every table's entries as Go
// objects when generic is set (pbswitch --table-store generic).
func newRigStore(t testing.TB, generic bool) *rig {
	dc, err := os.ReadFile("../../pipeconf/p4src/build/bmv2.json")
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, info: loadInfo(t), deviceConfig: dc, ports: map[uint32]*capture{}}
	var srv *p4rt.Server
	r.sw = dataplane.New(dataplane.Options{CPUPort: cpuPort, PacketIn: func(f []byte, m []pipeline.CtrlMeta) { srv.PacketIn(f, m) }})
	dev := device.New(r.sw)
	dev.GenericTables = generic
	srv = p4rt.New(deviceID, dev, nil)
	r.srv = srv
	for _, id := range []uint32{1, 2, 3} {
		c := newCapture()
		r.ports[id] = c
		if err := r.sw.AddPort(id, c, 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	lis := bufconn.Listen(1 << 20)
	g := grpc.NewServer(p4rt.ServerOption())
	srv.Register(g)
	go g.Serve(lis)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) { return lis.Dial() }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	r.conn, r.client = conn, p4.NewP4RuntimeClient(conn)
	t.Cleanup(func() {
		conn.Close()
		g.Stop()
		r.sw.Close()
	})
	return r
}

// stream opens a StreamChannel and sends an arbitration update with eid;
// it returns the stream and the first arbitration answer.
func (r *rig) stream(eid uint64) (p4.P4Runtime_StreamChannelClient, *p4.MasterArbitrationUpdate) {
	r.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r.t.Cleanup(cancel)
	st, err := r.client.StreamChannel(ctx)
	if err != nil {
		r.t.Fatal(err)
	}
	err = st.Send(&p4.StreamMessageRequest{Update: &p4.StreamMessageRequest_Arbitration{Arbitration: &p4.MasterArbitrationUpdate{
		DeviceId: deviceID, ElectionId: &p4.Uint128{Low: eid}}}})
	if err != nil {
		r.t.Fatal(err)
	}
	return st, r.nextArbitration(st)
}

func (r *rig) nextArbitration(st p4.P4Runtime_StreamChannelClient) *p4.MasterArbitrationUpdate {
	r.t.Helper()
	for {
		m, err := st.Recv()
		if err != nil {
			r.t.Fatal(err)
		}
		if a := m.GetArbitration(); a != nil {
			return a
		}
	}
}

func (r *rig) push(eid uint64, info *p4info.P4Info, action p4.SetForwardingPipelineConfigRequest_Action) error {
	_, err := r.client.SetForwardingPipelineConfig(context.Background(), &p4.SetForwardingPipelineConfigRequest{
		DeviceId: deviceID, ElectionId: &p4.Uint128{Low: eid}, Action: action,
		Config: &p4.ForwardingPipelineConfig{P4Info: info, P4DeviceConfig: r.deviceConfig,
			Cookie: &p4.ForwardingPipelineConfig_Cookie{Cookie: 7}}})
	return err
}

func (r *rig) write(eid uint64, updates ...*p4.Update) error {
	_, err := r.client.Write(context.Background(), &p4.WriteRequest{DeviceId: deviceID, ElectionId: &p4.Uint128{Low: eid}, Updates: updates})
	return err
}

func (r *rig) read(entities ...*p4.Entity) []*p4.Entity {
	r.t.Helper()
	rs, err := r.client.Read(context.Background(), &p4.ReadRequest{DeviceId: deviceID, Entities: entities})
	if err != nil {
		r.t.Fatal(err)
	}
	var out []*p4.Entity
	for {
		resp, err := rs.Recv()
		if err != nil {
			break
		}
		out = append(out, resp.GetEntities()...)
	}
	return out
}

// idIn is the id of the object called name among objs, or 0 (p4info ids
// are never 0).
func idIn[T interface{ GetPreamble() *p4info.Preamble }](objs []T, name string) uint32 {
	for _, o := range objs {
		if o.GetPreamble().GetName() == name {
			return o.GetPreamble().GetId()
		}
	}
	return 0
}

// found is the first of ids that is not 0; the test fails when none is.
func (r *rig) found(kind, name string, ids ...uint32) uint32 {
	for _, id := range ids {
		if id != 0 {
			return id
		}
	}
	r.t.Fatalf("no %s %s", kind, name)
	return 0
}

// id is the id of a table, action or controller packet metadata.
func (r *rig) id(name string) uint32 {
	return r.found("p4info object", name, idIn(r.info.Tables, name), idIn(r.info.Actions, name),
		idIn(r.info.ControllerPacketMetadata, name))
}

func update(typ p4.Update_Type, te *p4.TableEntry) *p4.Update {
	return &p4.Update{Type: typ, Entity: &p4.Entity{Entity: &p4.Entity_TableEntry{TableEntry: te}}}
}

func tableEntity(te *p4.TableEntry) *p4.Entity {
	return &p4.Entity{Entity: &p4.Entity_TableEntry{TableEntry: te}}
}

func action(id uint32, params ...[]byte) *p4.TableAction {
	a := &p4.Action{ActionId: id}
	for i, p := range params {
		a.Params = append(a.Params, &p4.Action_Param{ParamId: uint32(i + 1), Value: p})
	}
	return &p4.TableAction{Type: &p4.TableAction_Action{Action: a}}
}

func exact(id uint32, v []byte) *p4.FieldMatch {
	return &p4.FieldMatch{FieldId: id, FieldMatchType: &p4.FieldMatch_Exact_{Exact: &p4.FieldMatch_Exact{Value: v}}}
}

func lpm(id uint32, v []byte, plen int32) *p4.FieldMatch {
	return &p4.FieldMatch{FieldId: id, FieldMatchType: &p4.FieldMatch_Lpm{Lpm: &p4.FieldMatch_LPM{Value: v, PrefixLen: plen}}}
}

func ternary(id uint32, v, mask []byte) *p4.FieldMatch {
	return &p4.FieldMatch{FieldId: id, FieldMatchType: &p4.FieldMatch_Ternary_{Ternary: &p4.FieldMatch_Ternary{Value: v, Mask: mask}}}
}

func b16(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }

// udpFrame: Ethernet/IPv4/UDP 10.0.0.1:1000 -> dst:dport, TTL 64.
func udpFrame(dst [4]byte, dport uint16) []byte {
	f := make([]byte, 64)
	copy(f[0:], []byte{2, 0, 0, 0, 0, 0xbb})
	copy(f[6:], []byte{2, 0, 0, 0, 0, 0xaa})
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	ip := f[14:]
	ip[0], ip[8], ip[9] = 0x45, 64, 17
	binary.BigEndian.PutUint16(ip[2:], 50)
	copy(ip[12:], []byte{10, 0, 0, 1})
	copy(ip[16:], dst[:])
	binary.BigEndian.PutUint16(ip[10:], ipv4Checksum(ip))
	binary.BigEndian.PutUint16(f[34:], 1000)
	binary.BigEndian.PutUint16(f[36:], dport)
	return f
}

// ipv4Checksum is RFC 791's header checksum of a 20-byte header. The
// program recomputes it on every packet it emits, as BMv2 does, so test
// frames carry a valid one to come out unchanged.
func ipv4Checksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i < 20; i += 2 {
		if i != 10 {
			sum += uint32(binary.BigEndian.Uint16(h[i:]))
		}
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}

func statusOf(err error) *status.Status { return status.Convert(err) }
