// SPDX-License-Identifier: Apache-2.0

package main

import (
	"strings"
	"testing"
)

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"--port", "1=veth-a", "--port", "2=veth-b@1000000", "--cpu-port", "255", "--vport", "100"})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Ports) != 2 || cfg.Ports[1].Interface != "veth-b" || cfg.Ports[1].RateBps != 1000000 || cfg.Vports[0] != 100 {
		t.Fatalf("parsed %+v", cfg)
	}
	bad := map[string][]string{
		"already":     {"--port", "1=a", "--vport", "1"},
		"[1, 510]":    {"--port", "511=a"},
		"ID=":         {"--port", "veth"},
		"bad rate":    {"--port", "1=a@fast"},
		"given twice": {"--port", "1=a", "--port", "1=b"},
		"CPU port":    {"--port", "255=a"},
	}
	for want, args := range bad {
		if _, err := parseFlags(args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want one saying %q", args, err, want)
		}
	}
}
