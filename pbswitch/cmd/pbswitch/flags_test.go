// SPDX-License-Identifier: Apache-2.0

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
)

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"--port", "1=veth-a", "--port", "2=veth-b@1000000", "--cpu-port", "255", "--vport", "100"})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Ports) != 2 || cfg.Ports[1].Interface != "veth-b" || cfg.Ports[1].RateBps != 1000000 || cfg.Vports[0] != 100 {
		t.Fatalf("parsed %+v", cfg)
	}
	cfg, err = parseFlags([]string{"--port-delay", "2=10ms", "--port", "1=a", "--port", "2=b"})
	if err != nil || cfg.Ports[0].Delay != 0 || cfg.Ports[1].Delay != 10*time.Millisecond {
		t.Fatalf("parsed %+v, %v", cfg.Ports, err)
	}
	cfg, err = parseFlags([]string{"--p4info", "../../../pipeconf/p4src/build/p4info.txt", "--bmv2-json", "../../../pipeconf/p4src/build/bmv2.json"})
	if err != nil || len(cfg.Pipeline.GetP4Info().GetTables()) == 0 || len(cfg.Pipeline.GetP4DeviceConfig()) == 0 {
		t.Fatalf("start pipeline %v, %v", cfg.Pipeline != nil, err)
	}
	cfg, err = parseFlags([]string{"--cpu-rate", "2000000", "--cpu-queue", "64"})
	if err != nil || cfg.CPURateBps != 2000000 || cfg.CPUQueueLen != 64 {
		t.Fatalf("parsed cpu-rate %d cpu-queue %d, %v", cfg.CPURateBps, cfg.CPUQueueLen, err)
	}
	cfg, err = parseFlags([]string{"--shared-buffer-bytes", "1000000", "--buffer-algorithm", "fb",
		"--buffer-class", "7=2:high", "--buffer-class", "0=0.5", "--admin-listen", "127.0.0.1:9560"})
	if err != nil || cfg.SharedBufferBytes != 1000000 || cfg.Buffer.Algorithm != dataplane.FB || cfg.AdminListen != "127.0.0.1:9560" ||
		cfg.Buffer.Classes[7] != (dataplane.ClassConfig{Alpha: 2, High: true}) || cfg.Buffer.Classes[0].Alpha != 0.5 || cfg.Buffer.Classes[3].Alpha != 1 {
		t.Fatalf("parsed shared buffer %d %+v admin %q, %v", cfg.SharedBufferBytes, cfg.Buffer, cfg.AdminListen, err)
	}
	if cfg.Scheduler != dataplane.StrictPriority {
		t.Fatalf("default scheduler %v, want sp", cfg.Scheduler)
	}
	if cfg, err = parseFlags([]string{"--scheduler", "rr"}); err != nil || cfg.Scheduler != dataplane.RoundRobin {
		t.Fatalf("--scheduler rr: %v, %v", cfg.Scheduler, err)
	}
	if cfg, err = parseFlags(nil); err != nil || cfg.GenericTables {
		t.Fatalf("default table store: generic %v, %v", cfg.GenericTables, err)
	}
	if cfg, err = parseFlags([]string{"--table-store", "generic"}); err != nil || !cfg.GenericTables {
		t.Fatalf("--table-store generic: %v, %v", cfg.GenericTables, err)
	}
	cfg, err = parseFlags([]string{"--shared-buffer-bytes", "1000000"})
	if err != nil || cfg.Buffer.Algorithm != 0 || cfg.SharedBufferBytes != 1000000 {
		t.Fatalf("a shared buffer with the default admission: %+v, %v", cfg.Buffer, err)
	}
	bad := map[string][]string{
		"need --shared-buffer-bytes":           {"--buffer-algorithm", "dt"},
		"want a size in bytes":                 {"--shared-buffer-bytes", "-5"},
		`unknown buffer algorithm "red"`:       {"--shared-buffer-bytes", "1000", "--buffer-algorithm", "red"},
		"alpha 0 must be":                      {"--shared-buffer-bytes", "1000", "--buffer-class", "1=0"},
		"alpha -2 must be":                     {"--shared-buffer-bytes", "1000", "--buffer-class", "1=-2"},
		`alpha "x" of queue 1`:                 {"--shared-buffer-bytes", "1000", "--buffer-class", "1=x"},
		"queue \"8\": want a number in [0, 7]": {"--shared-buffer-bytes", "1000", "--buffer-class", "8=1"},
		`priority "top"`:                       {"--shared-buffer-bytes", "1000", "--buffer-class", "1=1:top"},
		"class given twice":                    {"--shared-buffer-bytes", "1000", "--buffer-class", "1=1", "--buffer-class", "1=2"},
		"want QUEUE=ALPHA":                     {"--shared-buffer-bytes", "1000", "--buffer-class", "1"},
		"bad --cpu-queue -1":                   {"--cpu-queue", "-1"},
		`unknown scheduler "wfq"`:              {"--scheduler", "wfq"},
		`bad --table-store "map"`:              {"--table-store", "map"},
		"invalid value":                        {"--cpu-rate", "fast"},
		"no --port declares":                   {"--port", "1=a", "--port-delay", "2=1ms"},
		"bad delay":                            {"--port", "1=a", "--port-delay", "1=soon"},
		"in [0, 1s]":                           {"--port", "1=a", "--port-delay", "1=2s"},
		"delayed twice":                        {"--port", "1=a", "--port-delay", "1=1ms", "--port-delay", "1=2ms"},
		"ID=DURATION":                          {"--port", "1=a", "--port-delay", "1"},
		"already":                              {"--port", "1=a", "--vport", "1"},
		"[1, 510]":                             {"--port", "511=a"},
		"ID=":                                  {"--port", "veth"},
		"bad rate":                             {"--port", "1=a@fast"},
		"given twice":                          {"--port", "1=a", "--port", "1=b"},
		"CPU port":                             {"--port", "255=a"},
		"go together":                          {"--p4info", "../../../pipeconf/p4src/build/p4info.txt"},
		"--bmv2-json: open":                    {"--p4info", "../../../pipeconf/p4src/build/p4info.txt", "--bmv2-json", "/nonexistent.json"},
		"--p4info /etc":                        {"--p4info", "/etc/hostname", "--bmv2-json", "../../../pipeconf/p4src/build/bmv2.json"},
	}
	for want, args := range bad {
		if _, err := parseFlags(args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want one saying %q", args, err, want)
		}
	}
}
