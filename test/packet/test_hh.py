# SPDX-License-Identifier: Apache-2.0
"""Heavy-hitter detection by inter-packet gap (pipeconf/p4src/include/hh.p4).

Downlink packets to UEs of the UE pool, from the data network: the UPF has
no session for them (a session miss, as for a UE on the slow path), which
is what the detector must see. A UE sending faster than the threshold's
rate is digested once (hh_digest_t) until it idles; one slower is not.

Register state outlives a test, so each test takes UEs of its own. Each
digest carries the UE's register cell; the test computes it as BMv2 does
(crc32 of the UE address, mod the cells), on every target, and reads the
cell back over P4Runtime where the target reads registers (pbswitch; PI
under BMv2 answers UNIMPLEMENTED).

Rates are chosen so that a loaded machine cannot blur them: the heavy UE
sends back to back (gaps of about a millisecond) against a threshold of a
50 ms gap; the light one sleeps 150 ms between packets."""
import ipaddress
import itertools
import struct
import time
import zlib

import grpc
import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from .client import WriteError
from .dataplane import MARKER
from .gtp import DN_ADDR, DN_MAC, ROUTER_MAC, UE_POOL, downlink_frame, payload

HH_CELLS = 65536     # HH_CELLS in defines.p4
EWMA_SHIFT = 3       # HH_EWMA_SHIFT: the EWMA and the threshold are in 1/8 us
HEAVY_RATE_BPS = 100_000  # 625-byte packets every 50 ms
PACKET_BYTES = 625
IDLE_US = 10_000_000
UE_PORT, APP_PORT = 4000, 8080
IP_PROTO_UDP = 17
_ues = (f"10.250.1.{n}" for n in itertools.count(1))


def threshold(rate_bps, packet_bytes):
    """hh.p4's threshold: the mean gap of packet_bytes packets at rate_bps,
    in 1/8 us."""
    return (packet_bytes * 8 * 1_000_000 << EWMA_SHIFT) // rate_bps


def cell(ue):
    """The UE's register cell, as BMv2 computes hash(crc32, 0, {ue}, HH_CELLS)."""
    return zlib.crc32(ipaddress.IPv4Address(ue).packed) % HH_CELLS


class Hh:
    """The detector on `sw`: downlink from the data network on port `dn`."""

    def __init__(self, sw):
        self.sw = sw
        [self.dn] = sw.take_ports(1)
        sw.insert("upf_classifier.interfaces", match={"ipv4_dst": UE_POOL},
                  action="upf_classifier.iface_core")
        sw.client.enable_digest(sw.p4info.digest_id("hh_digest_t"))
        while sw.client.digest_list(timeout=0) is not None:
            pass  # left by an earlier test

    def settings_entry(self, threshold_fp, idle_us):
        entry = self.sw.entry("hh.hh_settings", action="hh.set_hh",
                              params={"threshold": threshold_fp, "idle_us": idle_us})
        entry.is_default_action = True
        return entry

    def set(self, threshold_fp, idle_us=IDLE_US):
        self.sw.client.modify(self.settings_entry(threshold_fp, idle_us))

    def cpu_report(self, enabled):
        """hh_cpu_report: each report also comes as a packet-in (1) or not."""
        entry = self.sw.entry("hh.hh_cpu_report", action="hh.set_hh_cpu_report",
                              params={"enabled": enabled})
        entry.is_default_action = True
        self.sw.client.modify(entry)

    def observe(self, min_us, min_bytes):
        """hh_observation: a UE is reported only after a window of min_us
        in which it sent min_bytes (0, 0: none)."""
        entry = self.sw.entry("hh.hh_observation", action="hh.set_hh_observation",
                              params={"min_us": min_us, "min_bytes": min_bytes})
        entry.is_default_action = True
        self.sw.client.modify(entry)

    def send(self, ue, count, gap_s=0.0):
        """`count` UDP packets from the data network to `ue`, PACKET_BYTES
        each on the wire, `gap_s` apart (back to back with 0)."""
        for seq in range(count):
            if seq and gap_s:
                time.sleep(gap_s)
            inner = (IP(src=DN_ADDR, dst=ue) / UDP(sport=APP_PORT, dport=UE_PORT)
                     / payload(seq, PACKET_BYTES - 14 - 20 - 8 - len(MARKER) - 4))
            self.sw.port(self.dn).send(downlink_frame(inner))

    def digest(self, timeout=3.0):
        """(ue, app, proto, ue_port, app_port, ewma, index) of the next
        digest, or None."""
        found = self.sw.client.digest_list(timeout=timeout)
        if found is None:
            return None
        [data] = found.data
        values = [int.from_bytes(m.bitstring, "big") for m in data.struct.members]
        values[0] = str(ipaddress.IPv4Address(values[0]))
        values[1] = str(ipaddress.IPv4Address(values[1]))
        return tuple(values)

    def no_digest(self, timeout=1.0):
        return self.digest(timeout) is None

    def close(self):
        self.set(0, 0)  # off again for the tests that follow
        self.observe(0, 0)
        self.cpu_report(0)


@pytest.fixture
def hh(sw):
    detector = Hh(sw)
    yield detector
    detector.close()


def _read_cell(sw, register, index):
    """A register cell over P4Runtime; skips where the target reads none."""
    try:
        return sw.read_register(f"hh.{register}", index)
    except grpc.RpcError as err:
        if err.code() == grpc.StatusCode.UNIMPLEMENTED:
            pytest.skip(f"target {sw.target.name} reads no P4Runtime register entries "
                        f"(PI under BMv2); the digest's index was checked instead")
        raise


def test_a_heavy_ue_is_digested_once_with_its_flow(sw, hh):
    ue = next(_ues)
    limit = threshold(HEAVY_RATE_BPS, PACKET_BYTES)
    hh.set(limit)
    hh.send(ue, 40)
    got = hh.digest()
    assert got is not None, "no digest of a UE sending back to back"
    assert got[:5] == (ue, DN_ADDR, IP_PROTO_UDP, UE_PORT, APP_PORT)
    assert got[5] < limit, f"digested with EWMA {got[5]}, not under the threshold {limit}"
    assert got[6] == cell(ue), "the switch's cell is not crc32(UE) mod HH_CELLS"
    # Still heavy, already reported: nothing more until it idles.
    hh.send(ue, 20)
    assert hh.no_digest(), "a heavy UE was reported twice without idling"


def test_a_light_ue_is_not_digested(sw, hh):
    ue = next(_ues)
    limit = threshold(HEAVY_RATE_BPS, PACKET_BYTES)
    hh.set(limit)
    hh.send(ue, 8, gap_s=0.15)  # a gap 3x the threshold's
    assert hh.no_digest(), "a UE sending slower than the threshold was reported"


def test_after_the_idle_time_a_heavy_ue_is_reported_again(sw, hh):
    ue = next(_ues)
    idle_us = 1_000_000
    hh.set(threshold(HEAVY_RATE_BPS, PACKET_BYTES), idle_us)
    hh.send(ue, 40)
    first = hh.digest()
    assert first is not None and first[0] == ue
    assert hh.no_digest(timeout=0.3)
    time.sleep(1.5 * idle_us / 1e6)
    hh.send(ue, 40)
    again = hh.digest()
    assert again is not None, "not reported again after idling"
    assert again[0] == ue and again[6] == first[6]


def test_the_register_cell_read_back_is_the_one_the_test_hashes(sw, hh):
    ue = next(_ues)
    limit = threshold(HEAVY_RATE_BPS, PACKET_BYTES)
    hh.set(limit)
    hh.send(ue, 40)
    got = hh.digest()
    assert got is not None and got[6] == cell(ue)
    index = cell(ue)
    assert _read_cell(sw, "hh_owner", index) == int(ipaddress.IPv4Address(ue))
    assert _read_cell(sw, "hh_reported", index) == 1
    assert 0 < _read_cell(sw, "hh_ewma", index) < limit
    # The neighbouring cell is untouched (no other test's UE hashes there).
    neighbour = (index + 1) % HH_CELLS
    assert neighbour not in {cell(f"10.250.1.{n}") for n in range(1, 64)}
    assert _read_cell(sw, "hh_owner", neighbour) == 0


@pytest.mark.parametrize("threshold_fp,idle_us", [
    (0, IDLE_US),                                   # the default: off
    (threshold(HEAVY_RATE_BPS, PACKET_BYTES), 0),   # no idle time: off
    # A threshold gap at or above the idle time would make every UE that is
    # not idle heavy: taken as off.
    (8 * 40_000, 40_000),
    ((1 << 32) - 1, 1),
])
def test_settings_the_detector_cannot_use_turn_it_off(sw, hh, threshold_fp, idle_us):
    ue = next(_ues)
    hh.set(threshold_fp, idle_us)
    hh.send(ue, 40)
    assert hh.no_digest(), f"threshold {threshold_fp}, idle {idle_us} us reported a UE"


def test_a_setting_wider_than_its_parameter_is_refused_and_changes_nothing(sw, hh):
    ue = next(_ues)
    hh.set(threshold(HEAVY_RATE_BPS, PACKET_BYTES))
    entry = hh.settings_entry(0, IDLE_US)
    entry.action.action.params[0].value = (1 << 32).to_bytes(5, "big")  # threshold is bit<32>
    with pytest.raises(WriteError) as refused:
        sw.client.modify(entry)
    assert refused.value.update_codes()[0] in ("INVALID_ARGUMENT", "OUT_OF_RANGE")
    # The setting before the refusal still holds: a heavy UE is reported.
    hh.send(ue, 40)
    got = hh.digest()
    assert got is not None and got[0] == ue


# The IPv4 bytes of one of Hh.send's packets (what hh_win_bytes counts).
IP_BYTES = PACKET_BYTES - 14 - 4


def test_a_short_burst_is_not_reported_under_a_minimum_observation(sw, hh):
    """A burst back to back makes the EWMA heavy (a TCP flow's first
    flight): reported without a minimum observation, not with one whose
    window it does not fill."""
    limit = threshold(HEAVY_RATE_BPS, PACKET_BYTES)
    hh.set(limit)
    bursty = next(_ues)
    hh.send(bursty, 15)
    got = hh.digest()
    assert got is not None and got[0] == bursty, "without an observation a burst is reported"
    # 1 s at 100 kbit/s: 12,500 bytes; the burst is 15 packets, ~9,100.
    hh.observe(1_000_000, HEAVY_RATE_BPS // 8)
    light = next(_ues)
    hh.send(light, 15)
    assert hh.no_digest(timeout=1.5), "a burst shorter than the window was reported"
    # The window ends on its next packet, light: a new window, no report.
    hh.send(light, 3, gap_s=0.15)
    assert hh.no_digest(), "a window that ended light was reported"


def test_a_sustained_heavy_ue_is_reported_once_observed(sw, hh):
    """Heavy for longer than the window: reported, and not before the
    window has passed."""
    limit = threshold(HEAVY_RATE_BPS, PACKET_BYTES)
    hh.set(limit)
    min_us = 500_000
    hh.observe(min_us, 10 * IP_BYTES)   # 10 packets in 0.5 s: 100 kbit/s, the threshold's rate
    ue = next(_ues)
    start = time.monotonic()
    seen = None
    # Every 10 ms (a fifth of the threshold's gap), for up to 3 s.
    while seen is None and time.monotonic() - start < 3.0:
        hh.send(ue, 1)
        found = sw.client.digest_list(timeout=0.01)
        if found is not None:
            seen = time.monotonic() - start, found
    assert seen is not None, "a UE heavy for 3 s was not reported"
    elapsed, found = seen
    # The switch's window started at the first packet, which the test sent
    # earlier; the digest came later than the packet that made it.
    assert elapsed >= min_us / 1e6, f"reported after {elapsed:.3f} s, under the {min_us} us window"
    [data] = found.data
    assert str(ipaddress.IPv4Address(int.from_bytes(data.struct.members[0].bitstring, "big"))) == ue
    assert int.from_bytes(data.struct.members[5].bitstring, "big") < limit
    hh.send(ue, 20)
    assert hh.no_digest(), "reported twice without idling"


@pytest.mark.parametrize("min_us,min_bytes", [(1 << 32, 0), (0, 1 << 48)])
def test_an_observation_wider_than_its_parameter_is_refused(sw, hh, min_us, min_bytes):
    entry = sw.entry("hh.hh_observation", action="hh.set_hh_observation",
                     params={"min_us": 0, "min_bytes": 0})
    entry.is_default_action = True
    param = 0 if min_us else 1   # min_us is bit<32>, min_bytes bit<48>
    width = 5 if min_us else 7
    entry.action.action.params[param].value = max(min_us, min_bytes).to_bytes(width, "big")
    with pytest.raises(WriteError) as refused:
        sw.client.modify(entry)
    assert refused.value.update_codes()[0] in ("INVALID_ARGUMENT", "OUT_OF_RANGE")


ETHERTYPE_HH_REPORT = 0x88b8  # defines.p4


def report_frame(digest):
    """A heavy-hitter report as the controller gets it by packet-in:
    Ethernet (the packet's addresses, ETHERTYPE_HH_REPORT), then hh_report_t:
    the digest's fields in its order (UE, app, proto, UE port, app port,
    EWMA 48 bits, cell)."""
    ue, app, proto, ue_port, app_port, ewma, index = digest
    body = (ipaddress.IPv4Address(ue).packed + ipaddress.IPv4Address(app).packed
            + struct.pack("!BHH", proto, ue_port, app_port)
            + ewma.to_bytes(6, "big") + struct.pack("!I", index))
    return Ether(dst=ROUTER_MAC, src=DN_MAC, type=ETHERTYPE_HH_REPORT) / Raw(body)


def test_a_report_also_comes_by_packet_in_when_the_controller_asks(sw, hh):
    """Where the controller takes no digests (ONOS 2.7), hh_cpu_report makes
    the switch send each report as a packet-in too: Ethernet of type 0x88b8
    and the digest's fields, the payload left behind, once per report."""
    sw.add_clone_session(99, [sw.target.cpu_port])
    ue = next(_ues)
    limit = threshold(HEAVY_RATE_BPS, PACKET_BYTES)
    hh.set(limit)
    hh.cpu_report(1)
    hh.send(ue, 40)
    got = hh.digest()
    assert got is not None and got[:5] == (ue, DN_ADDR, IP_PROTO_UDP, UE_PORT, APP_PORT)
    assert sw.expect_packet_in(report_frame(got))["ingress_port"] == hh.dn
    hh.send(ue, 20)
    sw.expect_no_packet_in()  # reported already: no second report


def test_without_the_cpu_report_a_report_sends_no_packet_in(sw, hh):
    sw.add_clone_session(99, [sw.target.cpu_port])
    ue = next(_ues)
    hh.set(threshold(HEAVY_RATE_BPS, PACKET_BYTES))
    hh.send(ue, 40)
    assert hh.digest() is not None
    sw.expect_no_packet_in()
