// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// statuses in report order, with their metric names.
var statuses = []struct{ status, metric string }{
	{statusPass, "p4c_stf_pass"},
	{statusFail, "p4c_stf_fail"},
	{statusRefused, "p4c_stf_refused"},
	{statusP4CError, "p4c_stf_p4c_error"},
	{statusUnsupported, "p4c_stf_unsupported_stf"},
}

// programLine is one program's line of the -v report.
func programLine(r result) string {
	s := fmt.Sprintf("%-15s %s", strings.ToUpper(r.Status), r.Program)
	if r.Reason != "" {
		s += ": " + r.Reason
	}
	return s
}

// report writes the per-program lines (verbose), the metrics as JSON lines
// and a one-line summary.
func report(w io.Writer, results []result, elapsed time.Duration, verbose bool) {
	sort.Slice(results, func(i, j int) bool { return results[i].Program < results[j].Program })
	if verbose {
		for _, r := range results {
			fmt.Fprintln(w, programLine(r))
			for _, n := range r.Notes {
				fmt.Fprintln(w, "                  note: "+n)
			}
		}
	}
	counts := map[string]int{}
	for _, r := range results {
		counts[r.Status]++
	}
	for _, s := range statuses {
		b, _ := json.Marshal(struct {
			Metric string `json:"metric"`
			Value  int    `json:"value"`
			Unit   string `json:"unit"`
		}{s.metric, counts[s.status], "programs"})
		fmt.Fprintln(w, string(b))
	}
	var parts []string
	for _, s := range statuses {
		parts = append(parts, fmt.Sprintf("%d %s", counts[s.status], s.status))
	}
	fmt.Fprintf(w, "p4c STF samples on pbswitch's v1model engine: %d programs in %s: %s\n",
		len(results), elapsed.Round(time.Second), strings.Join(parts, ", "))
}
