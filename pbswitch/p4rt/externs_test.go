// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"context"
	"net"
	"testing"
	"time"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/flowbuf/flowbuf/pbswitch/p4rt"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// genericDevice runs any p4info as bare pipeline objects: it lets these
// tests reach the server's counter, meter, register and digest handling,
// which the FlowBuf program does not use.
type genericDevice struct{ objs *pipeline.Objects }

type objsProgram struct{ o *pipeline.Objects }

func (p objsProgram) Objects() *pipeline.Objects { return p.o }

func (d *genericDevice) Bind(cfg *p4.ForwardingPipelineConfig, out func(pipeline.DigestList)) (p4rt.Program, error) {
	o, err := pipeline.Build(cfg.GetP4Info(), out)
	if err != nil {
		return nil, err
	}
	return objsProgram{o}, nil
}
func (d *genericDevice) Activate(p p4rt.Program)                     { d.objs = p.Objects() }
func (d *genericDevice) PacketOut([]byte, []pipeline.CtrlMeta) error { return nil }

const (
	counterID  = 0x12000001
	meterID    = 0x14000001
	registerID = 0x16000001
	digestID   = 0x17000001
)

func externInfo() *p4info.P4Info {
	pre := func(id uint32, name string) *p4info.Preamble { return &p4info.Preamble{Id: id, Name: name} }
	return &p4info.P4Info{
		Counters:  []*p4info.Counter{{Preamble: pre(counterID, "c"), Spec: &p4info.CounterSpec{Unit: p4info.CounterSpec_BOTH}, Size: 4}},
		Meters:    []*p4info.Meter{{Preamble: pre(meterID, "m"), Spec: &p4info.MeterSpec{Unit: p4info.MeterSpec_BYTES}, Size: 2}},
		Registers: []*p4info.Register{{Preamble: pre(registerID, "r"), Size: 3, TypeSpec: &p4info.P4DataTypeSpec{TypeSpec: &p4info.P4DataTypeSpec_Bitstring{Bitstring: &p4info.P4BitstringLikeTypeSpec{TypeSpec: &p4info.P4BitstringLikeTypeSpec_Bit{Bit: &p4info.P4BitTypeSpec{Bitwidth: 12}}}}}}},
		Digests:   []*p4info.Digest{{Preamble: pre(digestID, "d")}},
	}
}

func TestCountersMetersRegistersDigests(t *testing.T) {
	dev := &genericDevice{}
	srv := p4rt.New(deviceID, dev, nil)
	lis := bufconn.Listen(1 << 20)
	g := grpc.NewServer(p4rt.ServerOption())
	srv.Register(g)
	go g.Serve(lis)
	defer g.Stop()
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) { return lis.Dial() }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := &rig{t: t, client: p4.NewP4RuntimeClient(conn), info: externInfo()}
	caps, err := r.client.Capabilities(context.Background(), &p4.CapabilitiesRequest{})
	if err != nil || caps.GetP4RuntimeApiVersion() != p4rt.APIVersion {
		t.Fatalf("capabilities %v %v", caps, err)
	}
	st, _ := r.stream(1)
	if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
		t.Fatal(err)
	}
	ent := func(e any) *p4.Entity {
		switch x := e.(type) {
		case *p4.CounterEntry:
			return &p4.Entity{Entity: &p4.Entity_CounterEntry{CounterEntry: x}}
		case *p4.MeterEntry:
			return &p4.Entity{Entity: &p4.Entity_MeterEntry{MeterEntry: x}}
		case *p4.RegisterEntry:
			return &p4.Entity{Entity: &p4.Entity_RegisterEntry{RegisterEntry: x}}
		default:
			return &p4.Entity{Entity: &p4.Entity_DigestEntry{DigestEntry: x.(*p4.DigestEntry)}}
		}
	}
	mod := func(e any) *p4.Update { return &p4.Update{Type: p4.Update_MODIFY, Entity: ent(e)} }
	err = r.write(1,
		mod(&p4.CounterEntry{CounterId: counterID, Index: &p4.Index{Index: 2}, Data: &p4.CounterData{PacketCount: 5, ByteCount: 500}}),
		mod(&p4.MeterEntry{MeterId: meterID, Index: &p4.Index{Index: 1}, Config: &p4.MeterConfig{Cir: 100, Cburst: 10, Pir: 200, Pburst: 20}}),
		mod(&p4.RegisterEntry{RegisterId: registerID, Index: &p4.Index{Index: 0}, Data: &p4.P4Data{Data: &p4.P4Data_Bitstring{Bitstring: []byte{0x0a, 0xbc}}}}),
		&p4.Update{Type: p4.Update_INSERT, Entity: ent(&p4.DigestEntry{DigestId: digestID, Config: &p4.DigestEntry_Config{MaxListSize: 1}})},
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.read(ent(&p4.CounterEntry{CounterId: counterID})); len(got) != 4 || got[2].GetCounterEntry().GetData().GetByteCount() != 500 {
		t.Fatalf("counter read %v", got)
	}
	if got := r.read(ent(&p4.MeterEntry{MeterId: meterID, Index: &p4.Index{Index: 1}})); len(got) != 1 || got[0].GetMeterEntry().GetConfig().GetPir() != 200 {
		t.Fatalf("meter read %v", got)
	}
	if got := r.read(ent(&p4.RegisterEntry{RegisterId: registerID, Index: &p4.Index{Index: 0}})); len(got) != 1 || string(got[0].GetRegisterEntry().GetData().GetBitstring()) != "\x0a\xbc" {
		t.Fatalf("register read %v", got)
	}
	// Bad writes: out of range, insert into an extern, value too wide.
	err = r.write(1,
		mod(&p4.CounterEntry{CounterId: counterID, Index: &p4.Index{Index: 4}}),
		&p4.Update{Type: p4.Update_INSERT, Entity: ent(&p4.CounterEntry{CounterId: counterID, Index: &p4.Index{Index: 0}})},
		mod(&p4.RegisterEntry{RegisterId: registerID, Index: &p4.Index{Index: 0}, Data: &p4.P4Data{Data: &p4.P4Data_Bitstring{Bitstring: []byte{0x10, 0}}}}),
		mod(&p4.MeterEntry{MeterId: 0x14000009, Index: &p4.Index{Index: 0}}),
	)
	want := []codes.Code{codes.OutOfRange, codes.InvalidArgument, codes.InvalidArgument, codes.NotFound}
	checkDetails(t, err, want)
	// Digest: the list reaches the primary; after the ack the same data
	// may be sent again. The ack travels asynchronously, so the data is
	// re-emitted until a second list arrives.
	lists := make(chan *p4.DigestList, 16)
	go func() {
		for {
			m, err := st.Recv()
			if err != nil {
				close(lists)
				return
			}
			if d := m.GetDigest(); d != nil {
				lists <- d
			}
		}
	}()
	made := time.Now()
	dev.objs.Digests[digestID].Emit(made, []byte{1, 2})
	var l *p4.DigestList
	select {
	case l = <-lists:
	case <-time.After(2 * time.Second):
		t.Fatal("no digest list")
	}
	if len(l.GetData()) != 1 || string(l.GetData()[0].GetBitstring()) != "\x01\x02" {
		t.Fatalf("digest list %v", l)
	}
	if l.GetTimestamp() != made.UnixNano() {
		t.Fatalf("digest list timestamp %d, want its making %d", l.GetTimestamp(), made.UnixNano())
	}
	dev.objs.Digests[digestID].Emit(time.Now(), []byte{1, 2}) // unacked: suppressed
	select {
	case d := <-lists:
		t.Fatalf("unacknowledged data sent again: %v", d)
	case <-time.After(50 * time.Millisecond):
	}
	st.Send(&p4.StreamMessageRequest{Update: &p4.StreamMessageRequest_DigestAck{DigestAck: &p4.DigestListAck{DigestId: digestID, ListId: l.GetListId()}}})
	deadline := time.After(2 * time.Second)
	for {
		dev.objs.Digests[digestID].Emit(time.Now(), []byte{1, 2})
		select {
		case d := <-lists:
			if d.GetListId() != l.GetListId()+1 {
				t.Fatalf("list id %d after %d", d.GetListId(), l.GetListId())
			}
			return
		case <-deadline:
			t.Fatal("no digest list after the ack")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func checkDetails(t *testing.T, err error, want []codes.Code) {
	t.Helper()
	st := statusOf(err)
	if st.Code() != codes.Unknown || len(st.Details()) != len(want) {
		t.Fatalf("got %v with %d details, want UNKNOWN with %d", err, len(st.Details()), len(want))
	}
	for i, d := range st.Details() {
		if pe, ok := d.(*p4.Error); !ok || codes.Code(pe.GetCanonicalCode()) != want[i] {
			t.Errorf("update %d: %v, want %v", i, d, want[i])
		}
	}
}
