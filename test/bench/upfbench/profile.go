// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/node"
)

// profileInstall installs n sessions into a pbswitch node in this process
// (slow profile, slab tables) and writes a CPU profile and an allocation
// profile of the installs into dir (ONLY=profile PROFILE=dir). Client and
// server share the process: read the server's part with pprof's -focus
// on p4rt.(*Server).Write or grpc's server stack.
func profileInstall(dir string, n int) error {
	pl, err := ctl.LoadPipeline(buildDir() + "/" + slowProfile)
	if err != nil {
		return err
	}
	nd, err := node.Start(node.Config{DeviceID: 1, CPUPort: 255, P4RTListen: "127.0.0.1:0", Logger: quietLog})
	if err != nil {
		return err
	}
	defer nd.Close()
	c, err := ctl.Connect(nd.P4RTAddr(), 1)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Push(pl); err != nil {
		return err
	}
	cpu, err := os.Create(filepath.Join(dir, "cpu.pprof"))
	if err != nil {
		return err
	}
	defer cpu.Close()
	runtime.MemProfileRate = 64 * 1024
	if err := pprof.StartCPUProfile(cpu); err != nil {
		return err
	}
	cpu0, err := cpuSeconds(os.Getpid())
	if err != nil {
		return err
	}
	t0 := time.Now()
	err = writeSessions(c, newWriter(pl.Info), 0, n)
	took := time.Since(t0)
	pprof.StopCPUProfile()
	if err != nil {
		return err
	}
	cpu1, err := cpuSeconds(os.Getpid())
	if err != nil {
		return err
	}
	allocs, err := os.Create(filepath.Join(dir, "allocs.pprof"))
	if err != nil {
		return err
	}
	defer allocs.Close()
	fmt.Printf("profiled %d sessions in %.1f s (%.0f/s, load average %s), %.1f CPU-seconds (client and server, %.2f µs a session)\n",
		n, took.Seconds(), float64(n)/took.Seconds(), loadAvg(), cpu1-cpu0, (cpu1-cpu0)*1e6/float64(n))
	return pprof.Lookup("allocs").WriteTo(allocs, 0)
}
