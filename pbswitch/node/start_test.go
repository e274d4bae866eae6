// SPDX-License-Identifier: Apache-2.0

package node

import (
	"net/http"
	"strings"
	"testing"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

// A node that cannot start says why and leaves nothing behind (it used to
// panic closing the nil node it was about to return).
func TestAFailedStartReturnsItsReason(t *testing.T) {
	n, err := Start(Config{CPUPort: 255, P4RTListen: "127.0.0.1:notaport"})
	if err == nil || n != nil {
		t.Fatalf("Start = %v, %v; want nil and an error", n, err)
	}
	if !strings.Contains(err.Error(), "P4Runtime listen") {
		t.Fatalf("error %q does not name the failed listen", err)
	}
}

// TestAdminAPIChangesTheRunningSwitch: with --admin-listen the node serves
// the admin API for its switch; bad buffer options stop the start.
func TestAdminAPIChangesTheRunningSwitch(t *testing.T) {
	n, err := Start(Config{CPUPort: 255, P4RTListen: "127.0.0.1:0", AdminListen: "127.0.0.1:0", SharedBufferBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	req, _ := http.NewRequest(http.MethodPut, "http://"+n.AdminAddr()+"/v1/buffer",
		strings.NewReader(`{"algorithm": "fb", "classes": [{"queue": 1, "alpha": 4, "priority": "high"}]}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	b, _ := n.Switch.BufferStats()
	if resp.StatusCode != http.StatusOK || b.Config.Algorithm != dataplane.FB || b.Config.Classes[1] != (dataplane.ClassConfig{Alpha: 4, High: true}) {
		t.Fatalf("PUT: %s; the switch admits by %+v", resp.Status, b.Config)
	}
	bad := dataplane.DefaultBufferConfig()
	bad.Classes[2].Alpha = 0
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{CPUPort: 255, P4RTListen: "127.0.0.1:0", Buffer: dataplane.DefaultBufferConfig()}, "no shared buffer"},
		{Config{CPUPort: 255, P4RTListen: "127.0.0.1:0", SharedBufferBytes: 1000, Buffer: bad}, "alpha 0"},
		{Config{CPUPort: 255, P4RTListen: "127.0.0.1:0", AdminListen: "127.0.0.1:notaport"}, "admin API listen"},
	} {
		if n, err := Start(c.cfg); err == nil || n != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Start(%+v) = %v, %v; want an error saying %q", c.cfg, n, err, c.want)
		}
	}
}
