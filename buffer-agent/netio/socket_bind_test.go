// SPDX-License-Identifier: Apache-2.0

package netio_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

// A socket opened on one interface while another interface carries traffic
// must never hold that traffic: a vport opened on a live switch would
// otherwise buffer (and later replay) copies of other ports' frames.
func TestASocketOpenedDuringTrafficHearsOnlyItsInterface(t *testing.T) {
	r := newRig(t, "bind")
	var stop atomic.Bool
	done := make(chan struct{})
	go func() { // h1 -> ag-in, nonstop, while sockets open on ag-out
		defer close(done)
		buf := make([]byte, nslab.MinFrame)
		frames := make([][]byte, 1)
		for seq := uint32(0); !stop.Load(); seq++ {
			frames[0] = nslab.Frame(buf, nslab.MinFrame, seq, time.Now().UnixNano())
			if err := r.tx.Send(frames); err != nil {
				return
			}
		}
	}()
	heard := 0
	for i := 0; i < 40; i++ {
		s, err := nslab.Socket(r.ag, "ag-out", 1500, 4096)
		if err != nil {
			t.Fatal(err)
		}
		rx := startReceiver(s)
		time.Sleep(5 * time.Millisecond)
		heard += rx.count()
		rx.stop()
	}
	stop.Store(true)
	<-done
	if heard != 0 {
		t.Fatalf("sockets on ag-out read %d frames that were sent to ag-in", heard)
	}
}
