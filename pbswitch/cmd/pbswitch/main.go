// SPDX-License-Identifier: Apache-2.0

// Command pbswitch is FlowBuf's embedded P4Runtime software switch: it runs
// the P4 program a controller pushes (the bmv2 JSON p4c-bm2-ss emits, with
// its p4info) between Linux interfaces and hosts buffers on in-process
// vport ports.
//
//	pbswitch --port 1=veth-a --port 2=veth-b --cpu-port 255 --vport 100 --vport 101
//	pbswitch --p4info build/p4info.txt --bmv2-json build/bmv2.json --port 1=veth-a ...
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/flowbuf/flowbuf/pbswitch/node"
)

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "pbswitch:", err)
		os.Exit(2)
	}
	n, err := node.Start(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pbswitch:", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	<-ctx.Done()
	if err := n.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "pbswitch: shutdown:", err)
		os.Exit(1)
	}
}
