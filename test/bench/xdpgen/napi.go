// SPDX-License-Identifier: Apache-2.0

package xdpgen

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/safchain/ethtool"
	"golang.org/x/sys/unix"
)

// A veth hands a frame to its peer in the sender's context. Without NAPI
// on the peer (no XDP program, no GRO) the frame goes to the sending CPU's
// backlog and the peer's receive runs in that CPU's softirq; with NAPI,
// the frame goes into the peer's ring and the peer's NAPI poll, scheduled
// on the sending CPU, runs there too. Either way the sink's work is done
// on the switch's CPU and, with tick accounting, charged to the switch's
// process. With threaded NAPI the poll runs in a kernel thread of its own
// ("napi/h2-eth-<id>"), which can be pinned to another CPU: then the sink
// receives where a NIC's peer on another host would, and the switch's CPU
// is left with the switch and its transmit (the ring's produce and the
// thread's wake-up when it sleeps).

// SetSinkCPU moves the sink's receive (h2-eth's NAPI poll) into a kernel
// thread pinned to cpu, or (cpu < 0) back into the sender's context. The
// stack sink gets NAPI by turning GRO on at h2-eth (no UDP frame of the
// lab is merged: GRO merges UDP only for sockets that ask). It returns the
// pid of the NAPI thread (0 for cpu < 0).
func (l *Lab) SetSinkCPU(cpu int) (pid int, err error) {
	if cpu < 0 {
		if l.sinkCPU < 0 {
			return 0, nil
		}
		if err := l.sinkCmd("sh", "-c", "echo 0 > /sys/class/net/h2-eth/threaded"); err != nil {
			return 0, err
		}
		l.sinkCPU = -1
		return 0, l.sinkNS.Do(func() error { return setGRO("h2-eth", false) })
	}
	if pid, err = l.threadSink(cpu); err != nil {
		return 0, err
	}
	l.sinkCPU = cpu
	return pid, nil
}

// SinkThread is the pid of h2-eth's NAPI thread (0: none).
func (l *Lab) SinkThread() (int, error) { return napiThread("h2-eth") }

// threadSink gives h2-eth a NAPI instance (GRO on, when no XDP program
// made one), makes it threaded and pins its thread to cpu.
func (l *Lab) threadSink(cpu int) (int, error) {
	if err := l.sinkNS.Do(func() error { return setGRO("h2-eth", l.sink != SinkXDP) }); err != nil {
		return 0, err
	}
	// sysfs shows the interfaces of the namespace it was mounted in:
	// `ip netns exec` mounts one of the sink's namespace for the command.
	if err := l.sinkCmd("sh", "-c", "echo 1 > /sys/class/net/h2-eth/threaded"); err != nil {
		return 0, err
	}
	pid, err := napiThread("h2-eth")
	if err != nil {
		return 0, err
	}
	if pid == 0 {
		return 0, fmt.Errorf("h2-eth is threaded but has no NAPI thread")
	}
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(pid, &set); err != nil {
		return 0, fmt.Errorf("pin h2-eth's NAPI thread %d to cpu %d: %w", pid, cpu, err)
	}
	// A softirq runs before any task of its CPU; a NAPI thread is an
	// ordinary task, and on a shared CPU it waited behind the others for
	// milliseconds while the veth's 256-frame ring overflowed (sw-out's
	// tx_dropped: a quarter of a 20 kpps run lost). The lowest real-time
	// priority puts it ahead of ordinary tasks, as a softirq is.
	attr := unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_FIFO, Priority: 1}
	if err := unix.SchedSetAttr(pid, &attr, 0); err != nil {
		return 0, fmt.Errorf("make h2-eth's NAPI thread %d real-time: %w", pid, err)
	}
	return pid, nil
}

// sinkCmd runs a command in the sink's namespace with its own sysfs.
func (l *Lab) sinkCmd(name string, args ...string) error {
	cmd := exec.Command("ip", append([]string{"netns", "exec", filepath.Base(l.sinkNS.Path), name}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s in %s: %w: %s", name, strings.Join(args, " "), l.sinkNS.Path, err, bytes.TrimSpace(out))
	}
	return nil
}

// setGRO turns generic receive offload on or off at ifname (in the
// calling thread's namespace).
func setGRO(ifname string, on bool) error {
	et, err := ethtool.NewEthtool()
	if err != nil {
		return fmt.Errorf("ethtool: %w", err)
	}
	defer et.Close()
	if err := et.Change(ifname, map[string]bool{"rx-gro": on}); err != nil {
		return fmt.Errorf("set GRO %v on %s: %w", on, ifname, err)
	}
	return nil
}

// napiThread finds the kernel thread polling ifname's NAPI instance (its
// name is "napi/<ifname>-<napi id>", cut to 15 bytes); 0 when there is
// none. The lab's interface names are its own while the lab lock is held,
// but a lab closed just before leaves its thread for a moment (a
// namespace is dismantled in the background): two threads of the name
// are waited on, up to two seconds, until one is left.
func napiThread(ifname string) (int, error) {
	for i := 0; ; i++ {
		pids, err := napiThreads(ifname)
		switch {
		case err != nil:
			return 0, err
		case len(pids) == 0:
			return 0, nil
		case len(pids) == 1:
			return pids[0], nil
		case i == 40:
			return 0, fmt.Errorf("NAPI threads %v all serve an interface named %s: another lab's?", pids, ifname)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func napiThreads(ifname string) ([]int, error) {
	prefix := []byte("napi/" + ifname + "-")
	if len(prefix) > 15 {
		prefix = prefix[:15]
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if comm, err := os.ReadFile("/proc/" + e.Name() + "/comm"); err == nil && bytes.HasPrefix(comm, prefix) {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}
