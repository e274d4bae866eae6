# SPDX-License-Identifier: Apache-2.0
"""`make lab` (test/demo/lab.py): it comes up warmed, serves the REST API and
the page with its namespace hosts and flow, and on SIGINT removes every
namespace and process it started, in seconds.

The lab runs in its own session, with its own prefix and ports: whatever it
does, the test kills that session and deletes the prefix's namespaces and
links before it returns, so a lab that misbehaves fails this test only, not
the tests that run after it on the same ports."""
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from test.lab.netns import prefixed_namespaces, remove_prefixed
from test.lab.procs import wait_until
from test.lab.servicelab import DEVICE, ROOT, Rest, ensure_built, ip_of

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

PREFIX = "fbk-"
REST_PORT = 8199
P4RT_PORT = 28511
# From SIGINT to the lab's exit: the host and the switch get 10 s each to
# stop on SIGTERM before they are killed, the namespaces go in well under 1 s.
TEARDOWN_S = 40


def session_processes(sid):
    """Pids of the live processes in session `sid` (the lab and what it started)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # gone meanwhile
        # Fields after the command's closing parenthesis: state ppid pgrp session ...
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[3]) == sid and fields[0] != "Z":
            pids.append(int(entry))
    return pids


def listening(port):
    out = subprocess.run(["ss", "-Htln", f"sport = :{port}"], capture_output=True,
                         text=True).stdout
    return bool(out.strip())


class LabProcess:
    """The lab as a child in its own session, its output read by a thread
    (so waiting for a line has a deadline even when the lab prints nothing)."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        self.lines, self.seen = queue.Queue(), []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def output(self):
        return "".join(self.seen)

    def wait_for_line(self, text, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if text in line:
                return self.output()
        raise AssertionError(f"no {text!r} within {timeout} s: {self.output()[-3000:]}")

    def rest_of_output(self, timeout):
        """What the lab printed until its output closed (or `timeout` s)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
        return self.output()

    def kill_everything(self):
        """SIGKILL to every process of the lab's session, then its namespaces
        and links deleted: what a lab that did not clean up left."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for pid in session_processes(self.proc.pid):  # any that left the group
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()
        remove_prefixed(PREFIX)


def pause_and_resume_the_flow(base):
    """Pauses the lab's flow h1 -> h2 through REST, waits until its buffer
    holds packets, resumes it to h2 and waits until they are replayed (the
    intents stay, for the teardown to meet a lab in use)."""
    rest = Rest(f"{base}/onos/flowbuf")
    flow = {"ipv4Src": ip_of("h1") + "/32", "ipv4Dst": ip_of("h2") + "/32", "ipProto": 17}
    pause = rest.post("intents/pause", {"deviceId": DEVICE, "inPort": 1, "filter": flow})
    buffer = f"buffers/{DEVICE}/{pause['bufferId']}"
    wait_until(lambda: rest.get(buffer)["occupancyPackets"] > 0, timeout=30,
               what="the paused flow's packets held")
    resume = rest.post("intents/resume", {"deviceId": DEVICE, "outPort": 2, "filter": flow})
    assert resume["bufferId"] == pause["bufferId"]
    wait_until(lambda: rest.get(buffer)["occupancyPackets"] == 0, timeout=30,
               what="the held packets replayed")


def test_the_lab_comes_up_warmed_and_leaves_nothing_behind():
    ensure_built()
    remove_prefixed(PREFIX)
    lab = LabProcess([sys.executable, "-m", "test.demo.lab", "--rest-port", str(REST_PORT),
                      "--p4rt-port", str(P4RT_PORT), "--prefix", PREFIX,
                      "--warmup-seconds", "1", "--pps", "100"])
    base = f"http://127.0.0.1:{REST_PORT}"
    try:
        try:
            banner = lab.wait_for_line("Ctrl-C stops the lab", timeout=240)
            assert "Warmed up by" in banner and f"{base}/" in banner
            assert prefixed_namespaces(PREFIX) == [PREFIX + h for h in ("h1", "h2", "h3")]
            with urllib.request.urlopen(f"{base}/onos/flowbuf/devices", timeout=10) as r:
                assert DEVICE.encode() in r.read()
            with urllib.request.urlopen(f"{base}/ui/", timeout=10) as r:
                assert r.status == 200
            # The warm-up removed the buffers it took: only the ready one is left.
            with urllib.request.urlopen(f"{base}/onos/flowbuf/buffers", timeout=10) as r:
                body = r.read().decode()
            assert "org.flowbuf.lab-warmup" not in body, body
            pause_and_resume_the_flow(base)
        finally:
            stop_asked = time.monotonic()
            lab.proc.send_signal(signal.SIGINT)
            try:
                lab.proc.wait(timeout=TEARDOWN_S)
            except subprocess.TimeoutExpired:
                pass
            teardown_s = time.monotonic() - stop_asked
            exited = lab.proc.poll()
            # What the lab left: checked before the test cleans up after it.
            left_processes = session_processes(lab.proc.pid)
            left_namespaces = prefixed_namespaces(PREFIX)
            out = lab.rest_of_output(timeout=5)
    finally:
        lab.kill_everything()
    print(f"from SIGINT to the lab's exit: {teardown_s:.1f} s; the lab's output:\n{out[-2000:]}")
    assert exited == 0, f"the lab did not stop within {TEARDOWN_S} s of SIGINT: {out[-5000:]}"
    assert teardown_s < TEARDOWN_S
    assert left_processes == [], f"processes left running: {left_processes}"
    assert left_namespaces == [], f"namespaces left: {left_namespaces}"
    assert "every namespace and process it started is gone" in out, out[-5000:]
    assert not listening(REST_PORT) and not listening(P4RT_PORT) and not listening(P4RT_PORT + 1)
