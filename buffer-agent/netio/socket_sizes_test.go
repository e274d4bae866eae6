// SPDX-License-Identifier: Apache-2.0

package netio_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/vishvananda/netlink"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/netio"
	"github.com/flowbuf/flowbuf/buffer-agent/netio/nslab"
)

// Every frame the TX ring sends arrives as it was written, in order, and
// the socket's own header (a virtio-net header before each TX frame) never
// reaches the wire: small frames go out copied whole into the skb, large
// ones (over 1,536 bytes) with their tail in the ring's page, both
// sides of the boundary, a VLAN-tagged frame and a jumbo frame included.
func TestFramesOfEverySizeCrossTheRingsIntact(t *testing.T) {
	a, b := vethPair(t, "fbag-sizes-")
	const mtu = 9000
	for _, side := range []struct {
		ns   netio.NS
		name string
	}{{a, "a-eth"}, {b, "b-eth"}} {
		if err := side.ns.Do(func() error {
			l, err := netlink.LinkByName(side.name)
			if err != nil {
				return err
			}
			return netlink.LinkSetMTU(l, mtu)
		}); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := nslab.Socket(a, "a-eth", mtu, 64)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Close() })
	rx, err := nslab.Socket(b, "b-eth", mtu, 256)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rx.Close() })

	sizes := []int{nslab.MinFrame, 64, 1514, 1535, 1536, 1537, 1538, 4000, mtu + 14}
	var sent [][]byte
	for i, n := range sizes {
		f := nslab.Frame(make([]byte, n), n, uint32(i), 0)
		for j := 42; j < n; j++ { // past the lab headers: a pattern a shifted copy would break
			f[j] = byte(j*7 + i)
		}
		sent = append(sent, f)
	}
	tagged := make([]byte, 1518) // 802.1Q, VID 10, at the MTU of 1,500 plus the tag
	copy(tagged, sent[2][:12])
	copy(tagged[12:], []byte{0x81, 0x00, 0x00, 0x0a})
	copy(tagged[16:], sent[2][12:])
	sent = append(sent, tagged)
	if err := tx.Send(sent); err != nil {
		t.Fatal(err)
	}
	if tx.TxErrors.Load() != 0 {
		t.Fatalf("the kernel refused %d frames", tx.TxErrors.Load())
	}

	var got [][]byte
	deadline := time.Now().Add(5 * time.Second)
	done := make(chan error, 1)
	go func() {
		batch := make([][]byte, 0, 64)
		for len(got) < len(sent) {
			var err error
			if batch, err = rx.Recv(batch[:0], 64); err != nil {
				done <- err
				return
			}
			for _, f := range batch {
				if f[12] == 0x86 && f[13] == 0xdd { // IPv6 noise, should the stack send any
					engine.PutFrame(f)
					continue
				}
				got = append(got, append([]byte(nil), f...))
				engine.PutFrame(f)
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Until(deadline)):
		rx.Wake()
		err := <-done
		t.Fatalf("%d of %d frames arrived (%v)", len(got), len(sent), errors.Join(err, fmt.Errorf("timeout")))
	}
	for i := range sent {
		if !bytes.Equal(got[i], sent[i]) {
			t.Errorf("frame %d (%d bytes) arrived as %d bytes, differing", i, len(sent[i]), len(got[i]))
		}
	}
}

// A Socket sends through a TX socket of its own and receives through
// another: what it sends leaves the interface and is never read back by
// its receive side, and what arrives is read once, by the receive side
// only (the TX socket, bound with protocol 0, holds no frames).
func TestASocketReadsWhatArrivesAndNotWhatItSends(t *testing.T) {
	a, b := vethPair(t, "fbag-own-")
	sa, err := nslab.Socket(a, "a-eth", 1500, 256)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := nslab.Socket(b, "b-eth", 1500, 256)
	if err != nil {
		t.Fatal(err)
	}
	ra, rb := startReceiver(sa), startReceiver(sb)
	t.Cleanup(ra.stop)
	t.Cleanup(rb.stop)
	const n = 100
	send := func(s *netio.Socket, from uint32) {
		t.Helper()
		frames := make([][]byte, n)
		for i := range frames {
			frames[i] = nslab.Frame(make([]byte, nslab.MinFrame), nslab.MinFrame, from+uint32(i), 0)
		}
		if err := s.Send(frames); err != nil {
			t.Fatal(err)
		}
	}
	send(sa, 0)    // a -> b
	send(sb, 1000) // b -> a
	gotB := rb.waitFor(n, time.Second)
	gotA := ra.waitFor(n, time.Second)
	if lost, re, dup := lostAndReordered(gotB, 0, n); len(gotB) != n || lost+re+dup != 0 {
		t.Errorf("b read %d frames (%d lost, %d reordered, %d twice), want a's %d in order", len(gotB), lost, re, dup, n)
	}
	if lost, re, dup := lostAndReordered(gotA, 1000, n); len(gotA) != n || lost+re+dup != 0 {
		t.Errorf("a read %d frames (%d lost, %d reordered, %d twice), want b's %d in order", len(gotA), lost, re, dup, n)
	}
	// Two AF_PACKET sockets a side; only the receive side's takes frames.
	if got := packetSockets(t, a, "a-eth"); got != 2 {
		t.Errorf("%d AF_PACKET sockets bound to a-eth, want 2 (RX and TX)", got)
	}
}

// vethPair makes namespaces a and b (names starting with prefix) joined by
// a veth pair, a-eth in a and b-eth in b, removed when the test ends; it
// skips the test unless run as root.
func vethPair(t *testing.T, prefix string) (a, b netio.NS) {
	t.Helper()
	if !nslab.IsRoot() {
		t.Skip("needs root to create network namespaces and veth pairs")
	}
	lab := nslab.New(prefix)
	t.Cleanup(func() {
		if err := lab.Close(); err != nil {
			t.Error(err)
		}
	})
	var err error
	if a, err = lab.NS("a"); err != nil {
		t.Fatal(err)
	}
	if b, err = lab.NS("b"); err != nil {
		t.Fatal(err)
	}
	if err := lab.Veth(a, "a-eth", b, "b-eth"); err != nil {
		t.Fatal(err)
	}
	return a, b
}
