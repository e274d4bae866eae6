// SPDX-License-Identifier: Apache-2.0

// Command agentmetrics prints the buffer-agent's Prometheus metrics as a
// Markdown table, from the collector's own descriptors (name, help, labels):
// the docs site's metrics reference (tools/docs/gen_pages.py).
package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/buffer-agent/metrics"
)

// A Desc says what it is only through String(): fqName, help and labels.
var descFields = regexp.MustCompile(`fqName: "([^"]*)", help: "((?:[^"\\]|\\.)*)".*variableLabels: \{([^}]*)\}`)

func main() {
	ch := make(chan *prometheus.Desc, 256)
	metrics.New(engine.New(engine.Options{})).Describe(ch)
	close(ch)
	var rows []string
	for d := range ch {
		m := descFields.FindStringSubmatch(d.String())
		if m == nil {
			panic("unexpected descriptor: " + d.String())
		}
		labels := strings.Fields(strings.NewReplacer(",", " ", "{", "", "}", "").Replace(m[3]))
		for i, l := range labels {
			labels[i] = "`" + l + "`"
		}
		help := strings.ReplaceAll(m[2], "|", `\|`)
		rows = append(rows, fmt.Sprintf("| `%s` | %s | %s |", m[1], strings.Join(labels, ", "), help))
	}
	sort.Strings(rows)
	fmt.Println("| metric | labels | meaning |")
	fmt.Println("|---|---|---|")
	for _, r := range rows {
		fmt.Println(r)
	}
}
