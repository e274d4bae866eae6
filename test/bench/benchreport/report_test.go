// SPDX-License-Identifier: Apache-2.0

package benchreport

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestLinesAndGoals(t *testing.T) {
	var out bytes.Buffer
	r := New(&out)
	r.Emit("ratio", 0.81234, "ratio", map[string]any{"rounds": 3})
	r.Emit("latency_us", 25, "us", nil)
	r.Skip("needs_root", "Mpps", "needs root")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3: %q", len(lines), out.String())
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first["metric"] != "ratio" || first["value"] != 0.812 || first["unit"] != "ratio" {
		t.Errorf("first line %v", first)
	}
	if !strings.Contains(lines[2], `"value":null`) || !strings.Contains(lines[2], "needs root") {
		t.Errorf("skipped line %s", lines[2])
	}
	met, missed := r.Goals([]Goal{{Metric: "ratio", AtLeast: true, Bound: 0.8}, {Metric: "latency_us", Bound: 20}, {Metric: "needs_root", AtLeast: true, Bound: 1}})
	if met != "ratio=0.812 (goal >= 0.8)" || missed != "latency_us=25 (goal <= 20)" {
		t.Errorf("met %q, missed %q", met, missed)
	}
	if r.Value("ratio") != 0.81234 {
		t.Errorf("Value keeps the unrounded figure, got %v", r.Value("ratio"))
	}
}
