// SPDX-License-Identifier: Apache-2.0

package inproc

import (
	"testing"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

type collect struct{ frames [][]byte }

func (c *collect) Receive(frames [][]byte) { c.frames = append(c.frames, frames...) }

func TestOpenChecksPortsAndMovesFrames(t *testing.T) {
	sw := dataplane.New(dataplane.Options{CPUPort: 255})
	defer sw.Close()
	v, err := New(sw, []uint32{100, 101})
	if err != nil {
		t.Fatal(err)
	}
	in := &collect{}
	_, err = v.Open("x", engine.BackendSpec{Kind: engine.BackendInProcess, Port: 7}, in)
	if c, _ := engine.CodeOf(err); c != engine.InvalidArgument {
		t.Fatalf("non-vport port: %v", err)
	}
	// Nothing open yet: frames sent to the port are dropped and counted.
	v.slots[100].Send([][]byte{make([]byte, 64)})
	if v.Unused() != 1 {
		t.Fatalf("unused %d, want 1", v.Unused())
	}
	be, err := v.Open("v1", engine.BackendSpec{Kind: engine.BackendInProcess, Port: 100}, in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Open("v2", engine.BackendSpec{Kind: engine.BackendInProcess, Port: 100}, in); err == nil {
		t.Fatal("two vports on one port")
	}
	f := make([]byte, 64)
	v.slots[100].Send([][]byte{f})
	if len(in.frames) != 1 || &in.frames[0][0] != &f[0] {
		t.Fatal("the frame was not handed over as is (copied or lost)")
	}
	// Transmit enters the switch on the vport port (no program: counted drop).
	if err := be.Transmit([][]byte{make([]byte, 64)}); err != nil {
		t.Fatal(err)
	}
	if st := sw.Stats(); st.Ports[100].RxFrames != 1 || st.Drops["no_pipeline"] != 1 {
		t.Fatalf("transmit did not reach the switch: %+v", st)
	}
	be.Close()
	if _, err := v.Open("v2", engine.BackendSpec{Kind: engine.BackendInProcess, Port: 100}, in); err != nil {
		t.Fatalf("port not free after close: %v", err)
	}
}
