// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// countWriter counts what a sink discards.
type countWriter struct{ total *atomic.Int64 }

func (w countWriter) Write(p []byte) (int, error) {
	w.total.Add(int64(len(p)))
	return len(p), nil
}

func runSink(args []string) error {
	fs := flag.NewFlagSet("sink", flag.ContinueOnError)
	port := fs.Int("port", 0, "TCP port to listen on")
	out := fs.String("out", "", "file for the bytes received so far")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *port <= 0 || *out == "" {
		return fmt.Errorf("sink: --port and --out are required")
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("0.0.0.0:%d", *port))
	if err != nil {
		return err
	}
	var total atomic.Int64
	go acceptFlows(ln, &total)
	fmt.Println("listening on", *port)
	for range time.Tick(20 * time.Millisecond) {
		if err := writeCount(*out, total.Load()); err != nil {
			return err
		}
	}
	return nil
}

func acceptFlows(ln net.Listener, total *atomic.Int64) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "fbtraffic sink: accept:", err)
			return
		}
		go receiveFlow(conn, total)
	}
}

// receiveFlow takes one flow: its size, its data (counted, not kept), then
// answers one byte.
func receiveFlow(conn net.Conn, total *atomic.Int64) {
	defer conn.Close()
	var header [8]byte
	if _, err := io.ReadFull(conn, header[:]); err != nil {
		return
	}
	size := int64(binary.BigEndian.Uint64(header[:]))
	if _, err := io.CopyN(countWriter{total}, conn, size); err != nil {
		return // cut off at the run's end
	}
	conn.Write([]byte{'k'})
}

// writeCount replaces the count file at once, so that a reader never sees
// half of it.
func writeCount(path string, bytes int64) error {
	body, err := json.Marshal(map[string]any{"bytes": bytes, "cpu_s": cpuSeconds()})
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, body, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// cpuSeconds is the process's user and system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
