# SPDX-License-Identifier: Apache-2.0
"""The send/expect helpers against a plain Linux bridge (no P4 target):
a frame sent on one port arrives on the other; silence is detected."""
import os

import pytest

from test.lab import Lab

from .dataplane import Port, expect_no_packet, expect_packet, expect_packets
from .packets import l2_frame, udp_frame

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (namespaces, raw sockets)")


@pytest.fixture
def bridged_ports():
    with Lab("fpd-") as lab:
        h1, h2 = lab.add_host("h1"), lab.add_host("h2")
        s1 = lab.link_host(h1, "eth0", "s1")
        s2 = lab.link_host(h2, "eth0", "s2")
        lab.add_bridge("br", [s1, s2])
        ports = [Port(1, "eth0", h1.name), Port(2, "eth0", h2.name)]
        yield ports
        for port in ports:
            port.close()


def test_sent_frames_arrive_in_order_and_silence_is_seen(bridged_ports):
    p1, p2 = bridged_ports
    frame = udp_frame()
    p1.send(frame)
    expect_packet(p2, frame)
    expect_no_packet([p1], timeout=0.2)  # own sends are not echoed
    tagged = udp_frame(vid=42)  # the tag survives the kernel's VLAN offload
    p1.send(tagged)
    expect_packet(p2, tagged)
    flow = [l2_frame(seq=i) for i in range(20)]
    for f in flow:
        p1.send(f)
    expect_packets(p2, flow)


def test_a_different_frame_fails_the_expectation(bridged_ports):
    p1, p2 = bridged_ports
    p1.send(udp_frame(dport=1))
    with pytest.raises(AssertionError, match="got 1 other test frame"):
        expect_packet(p2, udp_frame(dport=2), timeout=0.5)
    p1.send(udp_frame())
    with pytest.raises(AssertionError, match="unexpected frame"):
        expect_no_packet([p2], timeout=0.5)
