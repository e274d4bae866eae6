# SPDX-License-Identifier: Apache-2.0
"""`make lab` (test/demo/lab.py): it comes up warmed, serves the REST API and
the page with its namespace hosts and flow, and on SIGINT removes every
namespace and process it started."""
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from test.lab.servicelab import ROOT, ensure_built

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

REST_PORT = 8193


def namespaces():
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return sorted(line.split()[0] for line in out.splitlines() if line.startswith("fbl-"))


def wait_for_line(proc, text, timeout):
    deadline, seen = time.monotonic() + timeout, []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        seen.append(line)
        if text in line:
            return "".join(seen)
    raise AssertionError(f"no {text!r} within {timeout} s: {''.join(seen)[-3000:]}")


def test_the_lab_comes_up_warmed_and_leaves_nothing_behind():
    ensure_built()
    proc = subprocess.Popen([sys.executable, "-m", "test.demo.lab", "--rest-port", str(REST_PORT),
                             "--warmup-seconds", "1", "--pps", "100"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        banner = wait_for_line(proc, "Ctrl-C stops the lab", timeout=240)
        assert "Warmed up by" in banner and f"http://127.0.0.1:{REST_PORT}/" in banner
        assert namespaces() == ["fbl-h1", "fbl-h2", "fbl-h3"]
        base = f"http://127.0.0.1:{REST_PORT}"
        with urllib.request.urlopen(f"{base}/onos/flowbuf/devices", timeout=10) as r:
            assert b"device:s1" in r.read()
        with urllib.request.urlopen(f"{base}/ui/", timeout=10) as r:
            assert r.status == 200
        # The warm-up removed the buffers it took: only the ready one is left.
        with urllib.request.urlopen(f"{base}/onos/flowbuf/buffers", timeout=10) as r:
            body = r.read().decode()
        assert "org.flowbuf.lab-warmup" not in body, body
    finally:
        proc.send_signal(signal.SIGINT)
        rest = proc.communicate(timeout=120)[0]
    assert proc.returncode == 0, rest
    assert "every namespace and process it started is gone" in rest
    assert namespaces() == []
