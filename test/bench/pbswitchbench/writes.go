// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/binary"
	"time"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/flowbuf/flowbuf/pbswitch/node"
)

// writeBatch is the updates per WriteRequest; writeEntries fits the
// routing_v4 table (size 4096).
const (
	writeBatch   = 500
	writeEntries = 4000
)

// writes measures batched routing_v4 inserts from one client over gRPC on
// loopback: the table is filled and emptied repeatedly; only inserts count.
func (b *bench) writes() error {
	n, err := node.Start(writesNode())
	if err != nil {
		return err
	}
	defer n.Close()
	c, err := pushed(n.P4RTAddr())
	if err != nil {
		return err
	}
	defer c.Close()
	mac := []byte{2, 0, 0, 0, 0, 1}
	entries := make([]*p4.TableEntry, writeEntries)
	for i := range entries {
		var dst [4]byte
		binary.BigEndian.PutUint32(dst[:], 0x0a000000|uint32(i))
		entries[i] = c.Route(dst, 32, 1, mac, mac)
	}
	rounds := 10
	if b.quick {
		rounds = 4
	}
	var spent time.Duration
	for r := 0; r < rounds; r++ {
		t0 := time.Now()
		for i := 0; i < len(entries); i += writeBatch {
			if err := c.Insert(entries[i : i+writeBatch]...); err != nil {
				return err
			}
		}
		spent += time.Since(t0)
		for i := 0; i < len(entries); i += writeBatch {
			if err := c.Delete(entries[i : i+writeBatch]...); err != nil {
				return err
			}
		}
	}
	b.Emit("p4rt_write_entries_per_s", float64(rounds*writeEntries)/spent.Seconds(), "entries/s", map[string]any{
		"batch": writeBatch, "entries": rounds * writeEntries, "table": "routing_v4 (LPM)", "transport": "gRPC over loopback TCP, one client"})
	return nil
}

// writesNode is a pbswitch without ports: writes only touch tables.
func writesNode() node.Config {
	return node.Config{DeviceID: 1, CPUPort: 255, P4RTListen: "127.0.0.1:0", Logger: quietLog}
}
