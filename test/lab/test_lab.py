# SPDX-License-Identifier: Apache-2.0
"""The lab creates what it says and leaves nothing behind."""
import json
import os
import socket
import subprocess
import sys
import time

import pytest

from . import Lab, LabError, seqflow
from .servicelab import server_timing_ms

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="namespace lab needs root")


def test_the_controllers_time_is_read_from_its_server_timing_header():
    assert server_timing_ms("app;dur=0.412") == 0.412
    assert server_timing_ms("db;dur=3, app;desc=\"x\";dur=1.5") == 1.5
    assert server_timing_ms("db;dur=3") is None
    assert server_timing_ms(None) is None


def _netns():
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return {line.split(" ")[0] for line in out.splitlines() if line}


def _links():
    return set(os.listdir("/sys/class/net"))


@needs_root
def test_hosts_talk_over_a_bridge_and_everything_is_removed():
    with Lab("fbt-") as lab:
        h1, h2 = lab.add_host("h1"), lab.add_host("h2")
        p1 = lab.link_host(h1, "eth0", "s1", ip="10.99.0.1/24")
        p2 = lab.link_host(h2, "eth0", "s2", ip="10.99.0.2/24")
        lab.add_bridge("br", [p1, p2])
        ping = h1.run("ping", "-c", "1", "-W", "2", "10.99.0.2", check=False)
        assert ping.returncode == 0, ping.stdout + ping.stderr
        assert {"fbt-h1", "fbt-h2"} <= _netns()
    assert not any(n.startswith("fbt-") for n in _netns())
    assert not any(n.startswith("fbt-") for n in _links())


@needs_root
def test_leftovers_of_a_killed_lab_are_removed():
    subprocess.run(["ip", "netns", "add", "fbt-stale"], check=True)
    subprocess.run(["ip", "link", "add", "fbt-x", "type", "veth", "peer", "name", "fbt-y"],
                   check=True)
    with Lab("fbt-"):
        assert "fbt-stale" not in _netns()
        assert "fbt-x" not in _links()


@needs_root
def test_names_longer_than_linux_allows_are_refused():
    with Lab("fbt-") as lab:
        with pytest.raises(LabError, match="15 bytes"):
            lab.name("much-too-long-name")


def test_a_terminated_sender_reports_what_it_sent():
    """udp_run ends a flow by SIGTERM once its handoffs are done: the sender
    must stop and count exactly the datagrams a receiver could have got."""
    sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    seqflow._big_receive_buffer(sink)  # read after the sender stops
    sink.bind(("127.0.0.1", 0))
    sink.settimeout(0.5)
    send = subprocess.Popen([sys.executable, "-m", "test.lab.seqflow", "send", "127.0.0.1",
                             str(sink.getsockname()[1]), "--pps", "500", "--seconds", "60"],
                            stdout=subprocess.PIPE, text=True)
    time.sleep(1.0)
    send.terminate()
    report = json.loads(send.communicate(timeout=10)[0])
    got = 0
    try:
        while True:
            sink.recv(2048)
            got += 1
    except socket.timeout:
        pass
    assert send.returncode == 0
    assert 0 < report["sent"] < 500 * 60
    assert got == report["sent"]
