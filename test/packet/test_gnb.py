# SPDX-License-Identifier: Apache-2.0
"""The hybrid gNodeB (pipeconf/p4src/include/gnb.p4), on any target.

Ports: the UPF (N3) side, a cell's radio side, the cell's BaaS buffer
vport (here an ordinary port, so the test sees what the buffer gets).
Downstream GTP-U as the UPF sends it leaves to the radio as an RLC/PDCP
frame with the bearer's next SN, and its clone reaches the BaaS port with
the same bytes; the buffer's resends go to the radio; PDCP status
messages go to the buffer unchanged; uplink PDCP data leaves to the UPF
in GTP-U. Bad frames are dropped and counted by reason. Counters and SN
cells outlive a test: each test uses bearers (SN cells) of its own and
counts drops as deltas.
"""
import itertools
import time

import pytest
from scapy.contrib.gtp import GTP_U_Header
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from .client import WriteError
from .dataplane import MARKER, expect_no_packet, expect_packet
from .gtp import GNB_ADDR, GNB_MAC, GTPU_PORT, N3_ADDR, encapsulated, ue_packet
from .packets import ROUTER_MAC
from .radio import SN_SPACE, pdcp_data, pdcp_status, sn_of

UE_MAC = "02:00:00:00:0e:01"
TEID_UP = 0x5151
QFI = 9
SPORT = 41000
BAAS_SESSION_BASE = 3000
MALFORMED, DOWNLINK_MISS, UPLINK_MISS = 0, 1, 2

# Distinct bearers (TEID, SN cell) per test: SN cells outlive a test.
_bearers = itertools.count(1)


class Gnb:
    """A gNodeB on `sw`: one cell (radio + BaaS ports) and its UPF port."""

    def __init__(self, sw):
        self.sw = sw
        self.upf, self.radio, self.baas = sw.take_ports(3)
        for port, action in ((self.upf, "from_upf"), (self.radio, "from_radio"),
                             (self.baas, "from_baas")):
            sw.insert("gnb.ports", match={"ingress_port": port}, action=f"gnb.{action}")
        sw.add_clone_session(BAAS_SESSION_BASE + self.baas, [self.baas])

    def bearer(self, uplink=True):
        """A new bearer: (downlink TEID, its SN cell)."""
        n = next(_bearers)
        teid, cell = 0xD0000 + n, 100 + n
        self.sw.insert("gnb.downlink_bearers", match={"teid": teid}, action="gnb.set_downlink_bearer",
                       params={"sn_index": cell, "radio_port": self.radio,
                               "baas_port": self.baas, "ue_mac": UE_MAC})
        if uplink:
            self.sw.insert("gnb.uplink_bearers", match={"teid": teid}, action="gnb.set_uplink_bearer",
                           params={"uplink_teid": TEID_UP, "gnb_addr": GNB_ADDR,
                                   "upf_addr": N3_ADDR, "upf_port": self.upf})
        return teid, cell

    def drops(self):
        return [self.sw.counter_cell("gnb.drops", i)[0] for i in range(3)]

    def ports(self):
        return [self.sw.port(p) for p in (self.upf, self.radio, self.baas)]


@pytest.fixture
def gnb(sw):
    return Gnb(sw)


def from_upf(inner, teid):
    """Downlink GTP-U as FlowBuf's UPF sends it to the gNodeB (with the PDU
    Session Container)."""
    return encapsulated(inner, teid, QFI, SPORT)


def radio_frame(inner, teid, sn):
    """What the radio gets: the UE's packet after RLC/PDCP, to the UE's MAC
    (the source MAC is the frame's as it came)."""
    return pdcp_data(UE_MAC, ROUTER_MAC, teid, sn, inner)


def next_frame(port, timeout=2.0):
    """The next test frame on `port`."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        got = port.recv(left)
        if got is not None and MARKER in got:
            return got
    raise AssertionError(f"no test frame on {port} within {timeout} s")


def send_down(sw, gnb, inner, teid):
    """Sends one downstream packet; returns the SN the radio frame got,
    having checked its bytes and that the BaaS port got the same."""
    sw.port(gnb.upf).send(from_upf(inner, teid))
    got = next_frame(sw.port(gnb.radio))
    sn = sn_of(got)
    assert got == radio_frame(inner, teid, sn), f"radio frame {got.hex()}"
    expect_packet(sw.port(gnb.baas), got)
    return sn


def test_downstream_gets_rlc_pdcp_with_the_bearers_sn_and_a_clone_to_baas(sw, gnb):
    teid, _ = gnb.bearer()
    other, _ = gnb.bearer()
    sns = [send_down(sw, gnb, ue_packet(l4, seq=i, downlink=True), teid)
           for i, l4 in enumerate(("tcp", "udp", "icmp"))]
    first = sns[0]
    assert sns == [(first + i) % SN_SPACE for i in range(3)]
    # Another bearer counts its own SNs: A's next is still first + 3.
    other_first = send_down(sw, gnb, ue_packet(seq=7, downlink=True), other)
    assert send_down(sw, gnb, ue_packet(seq=8, downlink=True), other) == (other_first + 1) % SN_SPACE
    assert send_down(sw, gnb, ue_packet(seq=9, downlink=True), teid) == (first + 3) % SN_SPACE
    expect_no_packet(gnb.ports())


def test_baas_resends_go_to_the_radio_unchanged_and_are_not_cloned(sw, gnb):
    teid, _ = gnb.bearer()
    resend = radio_frame(ue_packet(seq=1, downlink=True), teid, 1234)
    sw.port(gnb.baas).send(resend)
    expect_packet(sw.port(gnb.radio), resend)
    expect_no_packet(gnb.ports())


def test_status_messages_go_to_the_buffer_unchanged(sw, gnb):
    teid, _ = gnb.bearer()
    for first, last in ((5, 5), (10, 40), (SN_SPACE - 2, 3)):
        status = pdcp_status(GNB_MAC, UE_MAC, teid, first, last)
        sw.port(gnb.radio).send(status)
        expect_packet(sw.port(gnb.baas), status)
    expect_no_packet(gnb.ports())


@pytest.mark.parametrize("l4", ["udp", "tcp", "icmp"])
def test_uplink_pdcp_data_leaves_in_gtpu_to_the_upf(sw, gnb, l4):
    teid, _ = gnb.bearer()
    inner = ue_packet(l4, seq=3, tos=0x2e << 2)
    sw.port(gnb.radio).send(pdcp_data(GNB_MAC, UE_MAC, teid, 77, inner))
    # Outer IPv4 gNodeB -> UPF (TTL 64, id 0, the inner DSCP/ECN), UDP
    # 2152 -> 2152 with checksum 0, GTP-U with the UPF's TEID, no extension;
    # Ethernet as the UE's frame came, its type IPv4; G-PDU (type 255).
    want = Ether(bytes(Ether(dst=GNB_MAC, src=UE_MAC)
                       / IP(src=GNB_ADDR, dst=N3_ADDR, ttl=64, id=0, flags=0, tos=inner.tos)
                       / UDP(sport=GTPU_PORT, dport=GTPU_PORT, chksum=0)
                       / GTP_U_Header(teid=TEID_UP, gtp_type=255) / Raw(bytes(inner))))
    expect_packet(sw.port(gnb.upf), want)
    expect_no_packet(gnb.ports())


def test_bad_frames_are_dropped_and_counted(sw, gnb):
    teid, _ = gnb.bearer(uplink=False)
    before = gnb.drops()
    inner = ue_packet(seq=4, downlink=True)
    cases = [
        # (port, frame, reason)
        (gnb.upf, from_upf(inner, 0xBAD), DOWNLINK_MISS),                   # unknown downlink TEID
        (gnb.baas, radio_frame(inner, 0xBAD, 1), DOWNLINK_MISS),            # resend of an unknown bearer
        (gnb.radio, pdcp_status(GNB_MAC, UE_MAC, 0xBAD, 1, 2), DOWNLINK_MISS),  # status of one
        (gnb.radio, pdcp_data(GNB_MAC, UE_MAC, teid, 1, ue_packet(seq=5)), UPLINK_MISS),  # no uplink tunnel
        (gnb.radio, pdcp_data(GNB_MAC, UE_MAC, teid, 1, ue_packet(seq=6), version=2), MALFORMED),
        (gnb.baas, pdcp_status(GNB_MAC, UE_MAC, teid, 1, 2), MALFORMED),     # a status from the buffer
        (gnb.radio, pdcp_data(GNB_MAC, UE_MAC, teid, 1, b"\x60" + bytes(39) + MARKER), MALFORMED),
    ]
    for port, frame, _ in cases:
        sw.port(port).send(frame)
    expect_no_packet(gnb.ports())
    want = [0, 0, 0]
    for _, _, reason in cases:
        want[reason] += 1
    deadline = time.monotonic() + 2
    while (got := [n - b for n, b in zip(gnb.drops(), before)]) != want and time.monotonic() < deadline:
        time.sleep(0.05)
    assert got == want


def test_a_device_without_gnb_ports_leaves_gtpu_alone(sw):
    first, second = sw.take_ports(2)
    sw.insert("forwarding.l2_exact", match={"eth_dst": GNB_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    frame = from_upf(ue_packet(seq=11, downlink=True), 0xD0001)
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)


def test_the_sn_wraps_at_2_to_the_18(sw, gnb):
    teid, cell = gnb.bearer()
    try:
        sw.write_register("gnb.pdcp_sn", cell, SN_SPACE - 1)
    except WriteError as err:
        if err.update_codes() == ["UNIMPLEMENTED"]:
            pytest.skip(f"target {sw.target.name} writes no P4Runtime register entries (PI under "
                        f"BMv2); the SNs counted from the cell's start were checked instead")
        raise
    sns = [send_down(sw, gnb, ue_packet(seq=i, downlink=True), teid) for i in range(2)]
    assert sns == [SN_SPACE - 1, 0]
