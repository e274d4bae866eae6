// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	pb "github.com/flowbuf/flowbuf/proto/gen/go/bufferv1"
)

func TestConfigFileAndFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "agent.yaml")
	os.WriteFile(file, []byte("listen: 127.0.0.1:7000\npool_bytes: 1048576\nmax_buffer_bytes: 65536\nquotas:\n  app1: {max_buffers: 2}\n"), 0o600)
	cfg, err := parseConfig([]string{"-config", file, "-listen", "127.0.0.1:7001"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != "127.0.0.1:7001" || cfg.PoolBytes != 1<<20 || cfg.Quotas["app1"].MaxBuffers != 2 {
		t.Fatalf("config %+v", cfg)
	}
	jsonFile := filepath.Join(dir, "agent.json")
	os.WriteFile(jsonFile, []byte(`{"pool_bytes": 2048, "max_buffer_bytes": 1024, "log_format": "text"}`), 0o600)
	if cfg, err := parseConfig([]string{"-config", jsonFile}); err != nil || cfg.PoolBytes != 2048 {
		t.Fatalf("json config %+v %v", cfg, err)
	}
	bad := map[string]string{
		"unknown key":   "listn: x\n",
		"partial tls":   "tls: {cert: a.pem}\n",
		"buffer > pool": "pool_bytes: 10\nmax_buffer_bytes: 11\n",
		"bad level":     "log_level: loud\n",
		"missing netns": "netns: /var/run/netns/fbag-none\n",
	}
	for name, body := range bad {
		os.WriteFile(file, []byte(body), 0o600)
		if _, err := parseConfig([]string{"-config", file}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestServesAndShutsDown starts the daemon in-process, checks health, one
// call and /metrics, then cancels it as SIGTERM would.
func TestServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan [2]string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-metrics-listen", "127.0.0.1:0", "-log-level", "warn"},
			func(g, m string) { addrs <- [2]string{g, m} })
	}()
	var a [2]string
	select {
	case a = <-addrs:
	case err := <-done:
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(a[0], grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer ccancel()
	h, err := healthpb.NewHealthClient(conn).Check(cctx, &healthpb.HealthCheckRequest{})
	if err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health %v %v", h, err)
	}
	c := pb.NewBufferAgentClient(conn)
	if _, err := c.CreateBuffer(cctx, &pb.CreateBufferRequest{AppId: "a", BufferId: "b", Config: &pb.BufferConfig{CapacityPackets: 8}}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + a[1] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `flowbuf_agent_buffer_state{buffer="b",owner="a",state="free"} 1`) {
		t.Fatalf("metrics lack the buffer:\n%s", body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("agent did not stop")
	}
}

func TestStateDirDefaultAndOverride(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-listen", "127.0.0.1:28284"}, autoStateRoot + "/flowbuf-agent-127.0.0.1_28284"},
		{[]string{"-listen", ":50061"}, autoStateRoot + "/flowbuf-agent-_50061"},
		{[]string{"-listen", "127.0.0.1:0"}, ""}, // a new port at each start
		{[]string{"-listen", ":50061", "-state-dir", ""}, ""},
		{[]string{"-listen", ":50061", "-state-dir", "/run/fb"}, "/run/fb"},
	}
	for _, c := range cases {
		cfg, err := parseConfig(c.args)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(autoStateRoot); err != nil && c.want != "" && cfg.StateDir == "auto" {
			c.want = "" // no /dev/shm here: auto means none
		}
		if got := cfg.stateDir(); got != c.want {
			t.Errorf("%v: state dir %q, want %q", c.args, got, c.want)
		}
	}
}

// TestAnInvalidStateDirStopsTheStart: a clear error, not an agent that
// silently keeps nothing.
func TestAnInvalidStateDirStopsTheStart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain")
	os.WriteFile(file, []byte("x"), 0o600)
	err := run(context.Background(), []string{"-listen", "127.0.0.1:0", "-metrics-listen", "", "-state-dir", file}, nil)
	if err == nil || !strings.Contains(err.Error(), "state dir "+file+": not a directory") {
		t.Fatalf("run = %v", err)
	}
}
