# SPDX-License-Identifier: Apache-2.0
"""The hybrid UPF's placement hook (pipeconf/p4src/include/hybrid.p4).

A fast-path switch: the data network (one port) sends downlink to UEs, the
gNodeB is behind another, its slow path behind a third. One UE (UE_ADDR)
has a session here (promoted); another (SLOW_UE) has none. With the slow
path set (slow_path's default action), a downlink miss leaves on the slow
port as it arrived and is not counted as a drop; a hit is encapsulated as
before; the end marker coming back from the slow path is punted to the
controller, anything else from there is routed on. Without it, a miss is
dropped as before.
"""
import pytest
from scapy.layers.inet import IP, UDP

from .dataplane import expect_no_packet, expect_packet
from .gtp import DN_ADDR, downlink_frame, encapsulated, payload, ue_packet
from .test_upf import DL_SESSION_MISS, QFI, SPORT, TEID_DOWN, Upf, dropped_since

SLOW_UE = "10.250.3.7"
MARKER_PORT = 0xFB0E  # HYBRID_MARKER_PORT in hybrid.p4


class FastPath(Upf):
    """The UPF of test_upf, plus a port to the slow path."""

    def __init__(self, sw):
        super().__init__(sw)
        [self.slow] = sw.take_ports(1)

    def _default(self, action, params=None):
        entry = self.sw.entry("hybrid.slow_path", action=action, params=params)
        entry.is_default_action = True
        self.sw.client.modify(entry)

    def enable(self):
        self._default("hybrid.to_slow_path", {"port": self.slow})

    def disable(self):
        self._default("NoAction")


@pytest.fixture
def fast(sw):
    path = FastPath(sw)
    yield path
    path.disable()  # default actions outlive the test's entries


def _to(ue, seq):
    return IP(bytes(IP(src=DN_ADDR, dst=ue, ttl=64, id=seq)
                    / UDP(sport=80, dport=4000) / payload(seq)))


def end_marker(ue, seq=0):
    """The end marker a move sends down the slow path."""
    return IP(bytes(IP(src="0.0.0.0", dst=ue, ttl=64) / UDP(sport=MARKER_PORT, dport=MARKER_PORT)
                    / payload(seq)))


def test_without_a_slow_path_a_downlink_miss_is_dropped(sw, fast):
    before = fast.drops()
    fast.send_downlink(downlink_frame(_to(SLOW_UE, 1)))
    expect_no_packet(list(sw.ports.values()))
    assert dropped_since(fast, before) == {DL_SESSION_MISS: 1}


def test_a_downlink_miss_leaves_on_the_slow_port_as_it_came(sw, fast):
    fast.enable()
    before = fast.drops()
    for seq in range(3):
        frame = downlink_frame(_to(SLOW_UE, seq))
        fast.send_downlink(frame)
        expect_packet(sw.port(fast.slow), frame)  # byte for byte: not routed, not tunnelled
    expect_no_packet(list(sw.ports.values()))
    assert dropped_since(fast, before) == {}


def test_a_promoted_ue_is_tunnelled_on_the_fast_path(sw, fast):
    fast.enable()
    inner = ue_packet(downlink=True, seq=5)
    fast.send_downlink(downlink_frame(inner))
    expect_packet(sw.port(fast.gnb), encapsulated(inner, TEID_DOWN, QFI, SPORT))
    expect_no_packet(list(sw.ports.values()))


def test_the_end_marker_back_from_the_slow_path_goes_to_the_controller(sw, fast):
    fast.enable()
    # As the slow path sends it back: tunnelled to the gNodeB like the UE's packets.
    back = encapsulated(end_marker(SLOW_UE), 0x77, QFI, SPORT)
    sw.port(fast.slow).send(back)
    assert sw.expect_packet_in(back)["ingress_port"] == fast.slow
    expect_no_packet(list(sw.ports.values()))
    # The UE's own packets from the slow path go on to the gNodeB.
    tunnelled = encapsulated(_to(SLOW_UE, 9), 0x77, QFI, SPORT)
    sw.port(fast.slow).send(tunnelled)
    expect_packet(sw.port(fast.gnb), _routed(tunnelled))
    sw.expect_no_packet_in()


def test_a_marker_from_elsewhere_or_without_a_slow_path_is_not_punted(sw, fast):
    back = encapsulated(end_marker(SLOW_UE, 1), 0x77, QFI, SPORT)
    sw.port(fast.slow).send(back)  # no slow path configured
    expect_packet(sw.port(fast.gnb), _routed(back))
    fast.enable()
    other = encapsulated(end_marker(SLOW_UE, 2), 0x77, QFI, SPORT)
    fast.send_downlink(other)  # a marker-like frame in on the data network's port
    expect_packet(sw.port(fast.gnb), _routed(other))
    sw.expect_no_packet_in()


def test_back_to_no_slow_path_misses_are_dropped_again(sw, fast):
    fast.enable()
    fast.disable()
    before = fast.drops()
    fast.send_downlink(downlink_frame(_to(SLOW_UE, 3)))
    expect_no_packet(list(sw.ports.values()))
    assert dropped_since(fast, before) == {DL_SESSION_MISS: 1}


def _routed(frame):
    """A tunnelled frame as this switch routes it on to the gNodeB: the
    router's MACs, the outer TTL one lower."""
    out = frame.copy()
    out[IP].ttl -= 1
    del out[IP].chksum
    return type(frame)(bytes(out))

