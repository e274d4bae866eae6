// SPDX-License-Identifier: Apache-2.0

// Package benchreport writes benchmark results the way every FlowBuf
// benchmark prints them: one JSON object per metric
// ({"metric", "value", "unit", "conditions"}) and a summary of the goals
// met and missed.
package benchreport

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

type line struct {
	Metric     string         `json:"metric"`
	Value      any            `json:"value"`
	Unit       string         `json:"unit"`
	Conditions map[string]any `json:"conditions,omitempty"`
}

// Reporter prints metrics as JSON lines and remembers their values.
type Reporter struct {
	enc    *json.Encoder
	values map[string]float64
}

// New returns a Reporter writing to w.
func New(w io.Writer) *Reporter {
	return &Reporter{enc: json.NewEncoder(w), values: map[string]float64{}}
}

// Emit prints a measured metric.
func (r *Reporter) Emit(metric string, value float64, unit string, cond map[string]any) {
	r.values[metric] = value
	_ = r.enc.Encode(line{Metric: metric, Value: Round(value), Unit: unit, Conditions: cond})
}

// Skip prints a metric that could not be measured, with why (value null).
func (r *Reporter) Skip(metric, unit, why string) {
	_ = r.enc.Encode(line{Metric: metric, Value: nil, Unit: unit, Conditions: map[string]any{"skipped": why}})
}

// Value is what Emit last printed for metric (0 when never emitted).
func (r *Reporter) Value(metric string) float64 { return r.values[metric] }

// Goal is one of an issue's targets: metric >= Bound when AtLeast, else
// metric <= Bound.
type Goal struct {
	Metric  string
	AtLeast bool
	Bound   float64
}

// Goals says which goals the emitted metrics met and missed, as
// "metric=value (goal >= bound)" lists joined by "; " ("none" when empty).
// Goals whose metric was not measured appear in neither.
func (r *Reporter) Goals(goals []Goal) (met, missed string) {
	var ok, bad []string
	for _, g := range goals {
		v, measured := r.values[g.Metric]
		if !measured {
			continue
		}
		op, pass := "<=", v <= g.Bound
		if g.AtLeast {
			op, pass = ">=", v >= g.Bound
		}
		s := fmt.Sprintf("%s=%v (goal %s %v)", g.Metric, Round(v), op, g.Bound)
		if pass {
			ok = append(ok, s)
		} else {
			bad = append(bad, s)
		}
	}
	return orNone(ok), orNone(bad)
}

// Round keeps 3 decimals below 100 and 1 above, enough for every figure.
func Round(v float64) float64 {
	if v >= 100 {
		return float64(int64(v*10+0.5)) / 10
	}
	return float64(int64(v*1000+0.5)) / 1000
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "; ")
}
