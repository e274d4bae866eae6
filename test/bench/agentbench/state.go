// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"os"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
)

// newEngine opens the engines the benchmarks measure: with STATE_ROOT set
// (e.g. /dev/shm), each keeps its held packets in a state dir of its own
// there, as the daemon does by default (buffer-agent --state-dir), so that
// the cost of the journal is measured against a run without it.
func newEngine(opts engine.Options) *engine.Engine {
	if root := os.Getenv("STATE_ROOT"); root != "" {
		dir, err := os.MkdirTemp(root, "flowbuf-agentbench-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "agentbench:", err)
			os.Exit(1)
		}
		opts.StateDir = dir
	}
	eng, _, err := engine.Open(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentbench:", err)
		os.Exit(1)
	}
	return eng
}
