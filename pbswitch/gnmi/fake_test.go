// SPDX-License-Identifier: Apache-2.0

package gnmi_test

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	pb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
	"github.com/flowbuf/flowbuf/pbswitch/gnmi"
)

// fakePorts is a switch with two Linux ports (p1, p2) and one in-process
// port (vport100) whose state the tests set.
type fakePorts struct {
	mu       sync.Mutex
	ports    []dataplane.PortStatus
	watchers []func(dataplane.PortStatus)
	failSet  map[uint32]bool
}

func newFakePorts() *fakePorts {
	start := time.Unix(1700000000, 0)
	mac := func(b byte) net.HardwareAddr { return net.HardwareAddr{2, 0, 0, 0, 0, b} }
	return &fakePorts{ports: []dataplane.PortStatus{
		{ID: 1, Name: "p1", Link: true, AdminUp: true, Oper: dataplane.OperUp, LastChange: start, MAC: mac(1), LinkSpeedBps: 10e9},
		{ID: 2, Name: "p2", Link: true, AdminUp: true, Oper: dataplane.OperUp, LastChange: start, MAC: mac(2), LinkSpeedBps: 10e9, RateBps: 100e6},
		{ID: 100, Name: "vport100", AdminUp: true, Oper: dataplane.OperUp, LastChange: start},
	}, failSet: map[uint32]bool{}}
}

func (f *fakePorts) PortStatuses() []dataplane.PortStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]dataplane.PortStatus(nil), f.ports...)
}

func (f *fakePorts) SetPortAdmin(id uint32, up bool) error {
	if f.failSet[id] {
		return fmt.Errorf("port %d: %w", id, dataplane.ErrNoLink)
	}
	f.update(id, func(ps *dataplane.PortStatus) {
		ps.AdminUp = up
		ps.Oper = dataplane.OperDown
		if up {
			ps.Oper = dataplane.OperUp
		}
	})
	return nil
}

func (f *fakePorts) WatchPorts(fn func(dataplane.PortStatus)) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.watchers = append(f.watchers, fn)
	return func() {}
}

// update changes port id and tells the watchers, as the switch does when
// the kernel reports a link change.
func (f *fakePorts) update(id uint32, change func(*dataplane.PortStatus)) {
	f.mu.Lock()
	var st dataplane.PortStatus
	for i := range f.ports {
		if f.ports[i].ID == id {
			old := f.ports[i].Oper
			change(&f.ports[i])
			if f.ports[i].Oper != old {
				f.ports[i].LastChange = f.ports[i].LastChange.Add(time.Second)
			}
			st = f.ports[i]
		}
	}
	ws := append([]func(dataplane.PortStatus){}, f.watchers...)
	f.mu.Unlock()
	for _, w := range ws {
		w(st)
	}
}

// serve starts a server for ports behind bufconn and returns a client.
func serve(t *testing.T, ports gnmi.Ports) pb.GNMIClient {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	g := grpc.NewServer()
	srv := gnmi.New(ports, nil)
	srv.Register(g)
	go g.Serve(lis)
	t.Cleanup(func() { g.Stop(); srv.Close() })
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return pb.NewGNMIClient(conn)
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// path builds a gNMI path; "interface=NAME" is interface with its key.
func path(elems ...string) *pb.Path {
	p := &pb.Path{}
	for _, e := range elems {
		if len(e) > 10 && e[:10] == "interface=" {
			p.Elem = append(p.Elem, &pb.PathElem{Name: "interface", Key: map[string]string{"name": e[10:]}})
			continue
		}
		p.Elem = append(p.Elem, &pb.PathElem{Name: e})
	}
	return p
}
