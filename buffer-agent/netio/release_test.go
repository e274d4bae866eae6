// SPDX-License-Identifier: Apache-2.0

package netio_test

import (
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

// packetSockets counts the AF_PACKET sockets bound to an interface of ns
// (/proc/thread-self/net/packet, read from inside it).
func packetSockets(t *testing.T, ns netio.NS, iface string) int {
	t.Helper()
	n := 0
	err := ns.Do(func() error {
		ifi, err := net.InterfaceByName(iface)
		if err != nil {
			return err
		}
		data, err := os.ReadFile("/proc/thread-self/net/packet")
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			// sk RefCnt Type Proto Iface R Rmem User Inode
			if f := strings.Fields(line); len(f) >= 5 && f[4] == strconv.Itoa(ifi.Index) {
				n++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// relLab is h1 --veth-- ag-in [agent ns: engine], with a sender socket in
// h1; the factory is the engine's.
type relLab struct {
	ag  netio.NS
	f   *netio.Factory
	eng *engine.Engine
	tx  *netio.Socket
}

func newRelLab(t *testing.T, name string) *relLab {
	t.Helper()
	if !nslab.IsRoot() {
		t.Skip("needs root to create network namespaces and veth pairs")
	}
	lab := nslab.New("fbl-" + name + "-")
	t.Cleanup(func() {
		if err := lab.Close(); err != nil {
			t.Error(err)
		}
	})
	l := &relLab{}
	var h1 netio.NS
	var err error
	for _, step := range []func() error{
		func() error { l.ag, err = lab.NS("ag"); return err },
		func() error { h1, err = lab.NS("h1"); return err },
		func() error { return lab.Veth(h1, "h1-eth", l.ag, "ag-in") },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	l.f = &netio.Factory{NS: l.ag}
	l.eng = engine.New(engine.Options{
		Limits:   engine.Limits{PoolBytes: 64 << 20},
		Backends: map[engine.BackendKind]engine.BackendFactory{engine.BackendLinuxInterface: l.f},
	})
	t.Cleanup(func() { _ = l.eng.Close() })
	if l.tx, err = nslab.Socket(h1, "h1-eth", 1500, 1024); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.tx.Close() })
	return l
}

var inCfg = engine.VportConfig{Mode: engine.ModeRX, Backend: engine.BackendSpec{Kind: engine.BackendLinuxInterface, Interface: "ag-in"}}

// freshOpen is what the kernel takes to open a socket with rings on ag-in
// (and, after it, to release it): the same run's baseline.
func (l *relLab) freshOpen(t *testing.T) time.Duration {
	t.Helper()
	var took time.Duration
	err := l.ag.Do(func() error {
		ifi, err := net.InterfaceByName("ag-in")
		if err != nil {
			return err
		}
		start := time.Now()
		s, err := netio.OpenSocket(ifi.Index, 1500)
		took = time.Since(start)
		if err == nil {
			s.Close()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return took
}

// Creating and removing vports on an interface waits for no ring set-up
// or socket release after the first: the kernel does each after RCU grace
// periods (25-40 ms a vport on a loaded 2-core host), during which the
// engine, and the controller calling it, stood still (make bench-load's
// external mode ran at a ninth of the in-process rate). The socket of a
// removed vport is kept for the next one on the interface, one at most.
func TestVportChurnOnAnInterfaceReusesItsSocket(t *testing.T) {
	l := newRelLab(t, "rel")
	var fresh, creates, removes []time.Duration
	for i := 0; i < 7; i++ {
		fresh = append(fresh, l.freshOpen(t))
		start := time.Now()
		if _, err := l.eng.CreateVport(app, "v", inCfg); err != nil {
			t.Fatalf("create %d, right after a removal: %v", i, err)
		}
		if i > 0 {
			creates = append(creates, time.Since(start))
		}
		start = time.Now()
		if err := l.eng.RemoveVport(app, "v"); err != nil {
			t.Fatal(err)
		}
		removes = append(removes, time.Since(start))
	}
	t.Logf("fresh socket median %v; vport create median %v, remove median %v",
		median(fresh), median(creates), median(removes))
	if median(creates)*2 > median(fresh) || median(removes)*2 > median(fresh) {
		t.Errorf("a vport create takes %v, a removal %v, a fresh socket %v: they wait for the kernel",
			median(creates), median(removes), median(fresh))
	}
	if n := l.f.IdleSockets(); n != 1 {
		t.Errorf("%d idle sockets, want the one of ag-in", n)
	}
	// The kept Socket holds two AF_PACKET sockets: its RX ring's and its
	// TX ring's.
	deadline := time.Now().Add(10 * time.Second)
	for packetSockets(t, l.ag, "ag-in") > 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d AF_PACKET sockets bound to ag-in 10 s after its vports were removed, want the kept one's 2",
				packetSockets(t, l.ag, "ag-in"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (l *relLab) rxPackets(t *testing.T) uint64 {
	t.Helper()
	v, err := l.eng.QueryVport(app, "in")
	if err != nil {
		t.Fatal(err)
	}
	return v.Stats.RxPackets
}

func (l *relLab) sendFrames(t *testing.T, from, n uint32) {
	t.Helper()
	frames := make([][]byte, n)
	for i := range frames {
		frames[i] = nslab.Frame(make([]byte, nslab.MinFrame), nslab.MinFrame, from+uint32(i), time.Now().UnixNano())
	}
	if err := l.tx.Send(frames); err != nil {
		t.Fatal(err)
	}
}

// A vport on a kept socket takes what arrives once it exists, not what
// arrived at the interface while no vport was there.
func TestAVportOnAKeptSocketTakesNothingFromBeforeIt(t *testing.T) {
	l := newRelLab(t, "relrx")
	if _, err := l.eng.CreateVport(app, "in", inCfg); err != nil {
		t.Fatal(err)
	}
	l.sendFrames(t, 0, 3)
	waitVportRx(t, l, 3)
	if err := l.eng.RemoveVport(app, "in"); err != nil {
		t.Fatal(err)
	}
	l.sendFrames(t, 100, 50) // into the kept socket's ring: no vport takes them
	time.Sleep(100 * time.Millisecond)
	if _, err := l.eng.CreateVport(app, "in", inCfg); err != nil {
		t.Fatal(err)
	}
	if l.f.IdleSockets() != 0 {
		t.Fatal("the new vport did not take the kept socket")
	}
	time.Sleep(100 * time.Millisecond)
	if n := l.rxPackets(t); n != 0 {
		t.Fatalf("the new vport received %d frames sent before it existed", n)
	}
	l.sendFrames(t, 200, 5)
	waitVportRx(t, l, 5)
	time.Sleep(50 * time.Millisecond)
	if n := l.rxPackets(t); n != 5 {
		t.Fatalf("received %d frames, want the 5 sent since", n)
	}
}

func waitVportRx(t *testing.T, l *relLab, want uint64) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); l.rxPackets(t) < want; {
		if time.Now().After(deadline) {
			t.Fatalf("vport received %d frames, want %d", l.rxPackets(t), want)
		}
		time.Sleep(time.Millisecond)
	}
}
