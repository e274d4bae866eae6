// SPDX-License-Identifier: Apache-2.0

// Command fbtraffic is the background traffic of the FB scenario
// (test/scenarios/fb.py, FB §6.2 scaled), one role per process, each run
// inside a lab namespace:
//
//	fbtraffic sink --port P --out FILE
//	    the background's sink: a flow is an 8-byte size, then the data; it
//	    answers one byte when all arrived. FILE: {"bytes": received so far,
//	    "cpu_s": the sink's CPU time}, rewritten every 20 ms.
//	fbtraffic background --peers IP,... --port P --rate FLOWS/S --scale S
//	    --duration S --out FILE [--tags D,...] [--short-bytes N --short-dscp D]
//	    web-search flows (DCTCP's distribution, sizes x S), Poisson arrivals,
//	    each to a peer drawn at random on a new connection and marked with a
//	    tag drawn at random (multi-queue: the paper's four low-priority
//	    tags); flows below N bytes are marked D instead (single-queue: the
//	    switch's classifier of short flows). FILE: the flows' sizes and FCTs
//	    (connect() to the sink's answer) and what the generator itself did:
//	    bytes offered and written, how late flows started against their
//	    Poisson arrival, its CPU time.
//
// It replaces the Python senders and sinks (one thread per flow), which
// could not offer 90 % of four 50 Mbit/s ports on a loaded 2-core machine
// (issue 44): a goroutine per flow and no interpreter between the socket
// and the data.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fbtraffic sink|background [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "sink":
		err = runSink(os.Args[2:])
	case "background":
		err = runBackground(os.Args[2:])
	default:
		err = fmt.Errorf("unknown role %q: want sink or background", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fbtraffic:", err)
		os.Exit(2)
	}
}
