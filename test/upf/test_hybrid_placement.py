# SPDX-License-Identifier: Apache-2.0
"""The hybrid UPF's placement end to end in the embedded mode, with real
packets (test/upf/hybridlab.py: fast path s1, slow path s2, one host).

Every UE's session is on the slow path. A numbered UDP stream from the data
network to a UE makes it heavy on s1 (hh.p4's digest); the host promotes
its downlink to s1 while the stream runs (its packets held in a FlowBuf
buffer on s1 until the end marker came back from s2), and demotes it once
the stream has stopped for the demotion idle time. The gNodeB counts the
stream inside the GTP-U it receives: every datagram, none reordered or
duplicated, through the promotion and the demotion. With a budget of one
fast-path session, a second heavy UE evicts the first while the first
still streams (a demotion under traffic). The choice of the coldest is
checked by PlacementManagerTest.

Own lab: prefix fhy-, REST 8233, P4Runtime 28911-28912, buffer API 28921.
Waits are on conditions (REST state), with deadlines sized for a loaded
2-core machine.
"""
import json
import os
import subprocess

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from test.lab.procs import wait_until
from test.lab.servicelab import ROOT, RestError, ensure_built
from test.upf.hybridlab import DN_PORT, FAST, SLOW, SLOW_PORT, HybridLab, ip_of, mac_of

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

PYTHON = str(ROOT / ".venv" / "bin" / "python")
SETTINGS = "upf/placement/settings"
# Heavy: over 100 kbit/s of 625-byte packets, a packet gap under 50 ms. The
# streams send every 2 ms (500/s), the light UEs far slower.
HEAVY = {"enabled": True, "rateBps": 100_000, "packetBytes": 625, "idleMs": 2000}
HYBRID = {"fastDevice": FAST, "slowDevice": SLOW, "slowPort": SLOW_PORT, "dnPort": DN_PORT,
          "fastTableBudget": 4, "demoteIdleMs": 1500, "windowMs": 250}
UNREACHABLE_GNB = "10.0.0.99"  # a second gNodeB the lab's gnb does not answer for


@pytest.fixture(scope="module")
def lab():
    ensure_built()
    with HybridLab(hybrid=HYBRID, heavy_hitters=HEAVY) as lab:
        lab.prepare_upf()
        yield lab


@pytest.fixture
def settings(lab):
    """Each test starts from HYBRID and leaves it so."""
    lab.rest.call("PUT", SETTINGS, HYBRID)
    yield
    lab.rest.call("PUT", SETTINGS, HYBRID)


def placement(lab, ue):
    return lab.rest.get(f"upf/placement/ues/{ue}")


class Stream:
    """A numbered UDP stream from the data network to a UE, counted inside
    the GTP-U the gNodeB receives."""

    def __init__(self, lab, ue, pps, seconds, receive=True):
        self.expect = int(pps * seconds)
        self.recv = None
        if receive:
            self.recv = subprocess.Popen(lab.hosts["gnb"].popen_argv(
                [PYTHON, "-m", "test.upf.gtpio", "gtp-recv", "--expect", str(self.expect),
                 "--idle", "6"]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
            assert self.recv.stdout.readline().strip() == "ready"
        self.send = subprocess.Popen(lab.hosts["dn"].popen_argv(
            [PYTHON, "-m", "test.lab.seqflow", "send", ue, "9000", "--pps", str(pps),
             "--seconds", str(seconds)]), stdout=subprocess.PIPE, text=True, cwd=ROOT)

    def running(self):
        return self.send.poll() is None

    def result(self):
        sent = json.loads(self.send.communicate(timeout=120)[0])["sent"]
        got = json.loads(self.recv.communicate(timeout=120)[0].strip().splitlines()[-1])
        return sent, got

    def kill(self):
        for proc in (self.send, self.recv):
            if proc is not None and proc.poll() is None:
                proc.kill()


def burst(lab, ue, count=60):
    """`count` frames back to back from the data network to a UE (heavy)."""
    frames = [Ether(src=mac_of("dn"), dst=mac_of("gnb")) / IP(src=ip_of("dn"), dst=ue)
              / UDP(sport=8080, dport=4000) / Raw(b"FLOWBUF-HYBRID" + seq.to_bytes(4, "big"))
              for seq in range(count)]
    subprocess.run(lab.hosts["dn"].popen_argv(
        [PYTHON, "-m", "test.upf.gtpio", "send", "eth0", *(bytes(f).hex() for f in frames)]),
        check=True, cwd=ROOT)


def burst_until_promoted(lab, ue, tries=5):
    """Bursts until the UE is on the fast path: on a loaded machine one
    burst's sender can be descheduled between frames, so that its gaps look
    light to the detector."""
    for _ in range(tries):
        burst(lab, ue)
        try:
            return wait_until(lambda: placement(lab, ue)["path"] == "FAST", timeout=4,
                              step=0.05, what=f"{ue} promoted")
        except TimeoutError:
            continue
    raise TimeoutError(f"{ue} not promoted after {tries} bursts")


def test_a_ue_never_heavy_stays_on_the_slow_path_and_is_delivered(lab, settings):
    ue = "10.250.0.10"
    lab.add_session(ue, 0x10)
    try:
        stream = Stream(lab, ue, pps=10, seconds=3)  # a packet every 100 ms: twice the gap
        try:
            sent, got = stream.result()
        finally:
            stream.kill()
        assert (got["received"], got["lost"], got["reordered"]) == (sent, 0, 0), got
        p = placement(lab, ue)
        assert (p["path"], p["promotions"]) == ("SLOW", 0), p
    finally:
        lab.rest.delete(f"upf/sessions/{ue}")


def test_a_heavy_ue_is_promoted_then_demoted_with_nothing_lost_or_reordered(lab, settings):
    ue = "10.250.0.11"
    lab.add_session(ue, 0x11)
    stream = Stream(lab, ue, pps=500, seconds=6)
    try:
        wait_until(lambda: placement(lab, ue)["path"] == "FAST", timeout=15, step=0.05,
                   what=f"{ue} promoted")
        promoted = placement(lab, ue)
        assert promoted["promotions"] == 1 and promoted["moving"] is False, promoted
        # Its packets count on the fast path now.
        wait_until(lambda: placement(lab, ue)["rateBps"] > 100_000 and stream.running(),
                   timeout=10, step=0.1, what=f"{ue}'s rate on the fast path")
        sent, got = stream.result()
        # Silent for demoteIdleMs: back on the slow path.
        wait_until(lambda: placement(lab, ue)["path"] == "SLOW", timeout=15, step=0.1,
                   what=f"{ue} demoted")
        assert placement(lab, ue)["demotions"] == 1
    finally:
        stream.kill()
        lab.rest.delete(f"upf/sessions/{ue}")
    assert sent == 3000
    assert (got["received"], got["lost"], got["reordered"], got["duplicates"]) == \
        (sent, 0, 0, 0), got


def test_a_full_fast_path_evicts_a_streaming_ue_without_loss(lab, settings):
    """Budget 1: a second heavy UE evicts the first while the first streams;
    the first's stream (promoted, then demoted under traffic) loses and
    reorders nothing."""
    lab.rest.call("PUT", SETTINGS, {**HYBRID, "fastTableBudget": 1})
    first, second = "10.250.0.12", "10.250.0.13"
    lab.add_session(first, 0x12)
    lab.add_session(second, 0x13, gnb=UNREACHABLE_GNB)
    stream = Stream(lab, first, pps=500, seconds=6)
    try:
        wait_until(lambda: placement(lab, first)["path"] == "FAST", timeout=15, step=0.05,
                   what=f"{first} promoted")
        # A UE is evicted only once its rate was measured on the fast path (over
        # the placeholder, the HH rate): one just promoted is not.
        wait_until(lambda: placement(lab, first)["rateBps"] > HEAVY["rateBps"], timeout=10,
                   step=0.05, what=f"{first}'s rate measured on the fast path")
        burst_until_promoted(lab, second)
        evicted = placement(lab, first)
        assert (evicted["path"], evicted["demotions"]) == ("SLOW", 1), evicted
        sent, got = stream.result()
    finally:
        stream.kill()
        lab.rest.delete(f"upf/sessions/{first}")
        lab.rest.delete(f"upf/sessions/{second}")
    assert (got["received"], got["lost"], got["reordered"], got["duplicates"]) == \
        (sent, 0, 0, 0), got


@pytest.mark.parametrize("body", [
    {**HYBRID, "fastTableBudget": 0},
    {**HYBRID, "fastTableBudget": 40_000},
    {**HYBRID, "demoteIdleMs": 10},
    {**HYBRID, "windowMs": 2000, "demoteIdleMs": 1000},
    {**HYBRID, "slowPort": 300},
    {**HYBRID, "slowPort": DN_PORT},
    {**HYBRID, "slowDevice": FAST},
    {**HYBRID, "fastDevice": "device:nope"},
    {**HYBRID, "fastDevice": "nope"},
    {k: v for k, v in HYBRID.items() if k != "dnPort"},
    {**HYBRID, "bogus": 1},
])
def test_bad_settings_are_refused_and_change_nothing(lab, settings, body):
    before = lab.rest.get(SETTINGS)
    with pytest.raises(RestError) as err:
        lab.rest.call("PUT", SETTINGS, body)
    assert err.value.status == 400, err.value
    assert lab.rest.get(SETTINGS) == before


def test_an_unknown_or_malformed_ue_is_a_4xx(lab, settings):
    with pytest.raises(RestError) as err:
        placement(lab, "10.250.9.9")
    assert err.value.status == 404
    with pytest.raises(RestError) as err:
        placement(lab, "not-an-address")
    assert err.value.status == 400


def test_settings_read_back(lab, settings):
    got = lab.rest.get(SETTINGS)
    assert got == {"enabled": True, **HYBRID}
