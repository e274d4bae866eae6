// SPDX-License-Identifier: Apache-2.0

package dataplane

import (
	"errors"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// frame is a size-byte frame to dst.
func frame(dst []byte, size int) []byte {
	f := engine.GetFrame(size)[:size]
	copy(f, dst)
	return f
}

var (
	unicastMAC   = []byte{2, 0, 0, 0, 0, 9}
	multicastMAC = []byte{1, 0x80, 0xc2, 0, 0, 0x0e} // LLDP's
	broadcastMAC = []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
)

// failingSink refuses every frame, as a port whose far end errs.
type failingSink struct{}

func (failingSink) Send(frames [][]byte) error {
	engine.PutFrames(frames)
	return errors.New("tx failed")
}

func TestPortCountersByDestinationKind(t *testing.T) {
	sw := New(Options{CPUPort: 255})
	defer sw.Close()
	sw.SetProgram(toPort{port: 2, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	sink := &slowSink{}
	for id, s := range map[uint32]Sink{1: sink, 2: sink, 3: failingSink{}} {
		if err := sw.AddPort(id, s, 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	sw.Receive(1, [][]byte{frame(unicastMAC, 100), frame(multicastMAC, 60), frame(broadcastMAC, 64), frame(unicastMAC, 200)})
	deadline := time.Now().Add(5 * time.Second)
	for sink.got.Load() < 4 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	in, err := sw.PortStatus(1)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := sw.PortStatus(2)
	want := PortStats{RxFrames: 4, RxBytes: 424, RxMulticast: 1, RxBroadcast: 1}
	if got := in.Stats; got.RxFrames != want.RxFrames || got.RxBytes != want.RxBytes ||
		got.RxMulticast != want.RxMulticast || got.RxBroadcast != want.RxBroadcast || got.TxFrames != 0 {
		t.Fatalf("port 1: %+v, want %+v", got, want)
	}
	if got := out.Stats; got.TxFrames != 4 || got.TxBytes != 424 || got.TxMulticast != 1 || got.TxBroadcast != 1 {
		t.Fatalf("port 2: %+v", got)
	}
	// What a port's far end refuses is its tx error.
	sw.SetProgram(toPort{port: 3, objs: &pipeline.Objects{PRE: pipeline.NewPRE()}})
	sw.Receive(1, [][]byte{frame(unicastMAC, 80)})
	for time.Now().Before(deadline) {
		if st, _ := sw.PortStatus(3); st.Stats.TxErrors == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if st, _ := sw.PortStatus(3); st.Stats.TxErrors != 1 || st.Stats.TxFrames != 0 {
		t.Fatalf("port 3: %+v", st.Stats)
	}
}

func TestPortStatusOfAnInProcessPort(t *testing.T) {
	sw := New(Options{CPUPort: 255})
	defer sw.Close()
	if err := sw.AddPort(100, &slowSink{}, 1e9, nil); err != nil {
		t.Fatal(err)
	}
	all := sw.PortStatuses()
	if len(all) != 1 { // the CPU port is not listed
		t.Fatalf("statuses %+v", all)
	}
	st := all[0]
	if st.ID != 100 || st.Name != "vport100" || st.Link || !st.AdminUp || st.Oper != OperUp || st.RateBps != 1e9 || st.MAC != nil {
		t.Fatalf("status %+v", st)
	}
	if err := sw.SetPortAdmin(100, false); !errors.Is(err, ErrNoLink) {
		t.Fatalf("admin down of an in-process port: %v", err)
	}
	if _, err := sw.PortStatus(255); !errors.Is(err, ErrNoPort) {
		t.Fatalf("the CPU port's status: %v", err)
	}
	if err := sw.SetPortAdmin(7, false); !errors.Is(err, ErrNoPort) {
		t.Fatalf("admin down of a missing port: %v", err)
	}
}

// BenchmarkTally is what counting bytes and destination kinds adds to a
// batch of 64 frames, on each of the receive and the transmit side.
func BenchmarkTally(b *testing.B) {
	frames := make([][]byte, 64)
	for i := range frames {
		dst := unicastMAC
		if i%8 == 0 {
			dst = multicastMAC
		}
		frames[i] = frame(dst, 100)
	}
	var w wireCounters
	b.ResetTimer()
	for range b.N {
		w.countRx(frames)
	}
}
