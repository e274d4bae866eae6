// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

func TestPoolAdmissionConfig(t *testing.T) {
	file := filepath.Join(t.TempDir(), "agent.yaml")
	os.WriteFile(file, []byte(`pool_admission:
  algorithm: fb
  long_pause: 50ms
  default_class: {alpha: 0.5, paused_gamma: 0.125}
  classes:
    org.flowbuf.app: {alpha: 2}
    bulk: {low: true}
`), 0o600)
	cfg, err := parseConfig([]string{"-config", file})
	if err != nil {
		t.Fatal(err)
	}
	got := *cfg.engineOptions().Admission
	want := engine.AdmissionConfig{
		Algorithm: engine.AdmitFB, LongPause: 50 * time.Millisecond,
		Default: engine.ClassConfig{Alpha: 0.5, PausedGamma: 0.125},
		Owners: map[string]engine.ClassConfig{
			"org.flowbuf.app": {Alpha: 2},
			"bulk":            {Alpha: 1, Low: true},
		},
	}
	if got.Algorithm != want.Algorithm || got.LongPause != want.LongPause || got.Default != want.Default ||
		len(got.Owners) != 2 || got.Owners["org.flowbuf.app"] != want.Owners["org.flowbuf.app"] || got.Owners["bulk"] != want.Owners["bulk"] {
		t.Fatalf("admission %+v, want %+v", got, want)
	}
	// Flags override the file.
	cfg, err = parseConfig([]string{"-config", file, "-pool-admission", "dt", "-pool-alpha", "3", "-pool-class", "x=0.25:low"})
	if err != nil {
		t.Fatal(err)
	}
	got = *cfg.engineOptions().Admission
	if got.Algorithm != engine.AdmitDT || got.Default.Alpha != 3 || got.Owners["x"] != (engine.ClassConfig{Alpha: 0.25, Low: true}) || got.Owners["bulk"].Low != true {
		t.Fatalf("with flags: %+v", got)
	}
	// The example config parses, with today's behaviour.
	if cfg, err := parseConfig([]string{"-config", "../../config.example.yaml"}); err != nil || cfg.engineOptions().Admission.Algorithm != engine.AdmitQuota {
		t.Fatalf("config.example.yaml: %+v %v", cfg.Admission, err)
	}
	// Today's behaviour by default.
	if cfg, err := parseConfig(nil); err != nil || cfg.engineOptions().Admission.Algorithm != engine.AdmitQuota {
		t.Fatalf("default admission %+v %v", cfg.Admission, err)
	}
}

func TestBadPoolAdmissionRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "agent.yaml")
	for _, c := range []struct {
		name, body string
		flags      []string
		want       string
	}{
		{"unknown algorithm", "pool_admission: {algorithm: cs}\n", nil, `unknown pool admission algorithm "cs"`},
		{"unknown algorithm flag", "", []string{"-pool-admission", "red"}, `unknown pool admission algorithm "red"`},
		{"alpha 0", "pool_admission: {algorithm: fb, default_class: {alpha: 0}}\n", nil, "default_class: alpha 0 must be"},
		{"alpha < 0 of an owner", "pool_admission: {algorithm: dt, classes: {a: {alpha: -1}}}\n", nil, `class of owner "a": alpha -1 must be`},
		{"alpha flag 0", "", []string{"-pool-alpha", "0"}, "default_class: alpha 0 must be"},
		{"class flag", "", []string{"-pool-class", "a=-2"}, `class of owner "a": alpha -2 must be`},
		{"class flag syntax", "", []string{"-pool-class", "a"}, "want OWNER=ALPHA[:low]"},
		{"gamma > 1", "pool_admission: {algorithm: fb, default_class: {paused_gamma: 2}}\n", nil, "paused_gamma 2"},
		{"B = 0", "pool_bytes: 0\n", nil, "pool_bytes must be above 0"},
		{"negative long pause", "pool_admission: {algorithm: fb, long_pause: -1s}\n", nil, "long_pause -1s"},
	} {
		os.WriteFile(file, []byte(c.body), 0o600)
		_, err := parseConfig(append([]string{"-config", file}, c.flags...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestSIGHUPAppliesAdmission: applyAdmission (what SIGHUP runs) applies a
// changed file; a bad one changes nothing.
func TestSIGHUPAppliesAdmission(t *testing.T) {
	file := filepath.Join(t.TempDir(), "agent.yaml")
	os.WriteFile(file, []byte("pool_admission: {algorithm: dt}\n"), 0o600)
	args := []string{"-config", file, "-state-dir", ""}
	cfg, err := parseConfig(args)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(cfg.engineOptions())
	defer eng.Close()
	os.WriteFile(file, []byte("pool_admission: {algorithm: fb, classes: {a: {alpha: 2}}}\n"), 0o600)
	if err := applyAdmission(args, eng); err != nil {
		t.Fatal(err)
	}
	if a := eng.Admission(); a.Algorithm != engine.AdmitFB || a.Owners["a"].Alpha != 2 {
		t.Fatalf("after reload: %+v", a)
	}
	os.WriteFile(file, []byte("pool_admission: {algorithm: fb, classes: {a: {alpha: -2}}}\n"), 0o600)
	if err := applyAdmission(args, eng); err == nil || !strings.Contains(err.Error(), "alpha -2") {
		t.Fatalf("bad reload: %v", err)
	}
	if a := eng.Admission(); a.Owners["a"].Alpha != 2 {
		t.Fatalf("a refused reload changed the admission: %+v", a)
	}
}
