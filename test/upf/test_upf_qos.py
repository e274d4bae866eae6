# SPDX-License-Identifier: Apache-2.0
"""UPF-QoS end to end in the embedded mode (hybrid P4 UPF, section 6.3.1):
REST upf/qos -> the DC class (a UPF application and its QFI's queue) ->
real downlink frames; the heavy-hitter detector's digest -> the policy's
reroute (one flow_steering entry to the high-bandwidth port) -> the UE's
frames leave by that port, raw, before the UPF; undone once idle.

Own lab: prefix fuq-, REST 8231, P4Runtime 28471, buffer API 28472.
h1 is the gNodeB (the shared link, port 1), h2 the data network, h3 the
end of the high-bandwidth path (port 3). L2 forwarding as in
test_upf_service.py: the data network sends to the UE pool with h1's MAC.
"""
import json
import os
import subprocess

import pytest
from scapy.contrib.gtp import GTPPDUSessionContainer
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from test.lab.procs import wait_until
from test.lab.servicelab import DEVICE, ROOT, RestError, ServiceLab, ensure_built, ip_of, mac_of
from test.packet.client import Client
from test.packet.p4info import P4Info

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

REST_PORT, P4RT_PORT, AGENT_PORT = 8231, 28471, 28472
PYTHON = str(ROOT / ".venv" / "bin" / "python")
GNB, DN, HB = "h1", "h2", "h3"
HB_PORT = 3
N3 = "10.0.0.100"
UE_POOL = "10.250.0.0/16"
DC_HEAVY, DC_LIGHT, OTHER_HEAVY = "10.250.1.1", "10.250.1.2", "10.250.2.1"
DC_QFI, SESSION_QFI = 9, 1
GTPU_PORT = 2152
# Over 50 kbit/s of 625-byte packets (a mean gap under 100 ms) is heavy: a
# burst of 40 frames from one sender is, on a loaded machine too; a frame
# or two is not (a UE must keep up its rate for at least 6 packets).
HH_SETTINGS = {"enabled": True, "rateBps": 50_000, "packetBytes": 625, "idleMs": 10_000}
POLICY = {"deviceId": DEVICE, "appId": 1, "priority": 10,
          "filter": {"ueAddress": "10.250.1.0/24"}, "qfi": DC_QFI, "queue": 7,
          "highBandwidthPort": HB_PORT, "idleMs": 15000}
# The reroute must outlive the sniffers' start and their 4 s waits for frames
# that must not come (10 s and more on a loaded machine): idleMs is 15 s
# here, and the test waits up to IDLE_WAIT_S for the undo.
IDLE_WAIT_S = 45.0


@pytest.fixture(scope="module")
def lab():
    ensure_built()
    with ServiceLab(prefix="fuq-", rest_port=REST_PORT, p4rt_port=P4RT_PORT,
                    agent_port=AGENT_PORT) as lab:
        lab.rest.post("upf/interfaces", {"deviceId": DEVICE, "kind": "ACCESS",
                                         "prefix": N3 + "/32"})
        lab.rest.post("upf/interfaces", {"deviceId": DEVICE, "kind": "CORE", "prefix": UE_POOL})
        lab.rest.post("upf/sessions/batch", {"sessions": [
            {"deviceId": DEVICE, "ueAddress": ue, "n3Address": N3, "uplinkTeid": 0x100 + i,
             "gnbAddress": ip_of(GNB), "downlinkTeid": 0x200 + i, "qfi": SESSION_QFI}
            for i, ue in enumerate((DC_HEAVY, DC_LIGHT, OTHER_HEAVY))]})
        lab.rest.call("PUT", "upf/heavy-hitters/settings", HH_SETTINGS)
        yield lab


@pytest.fixture(scope="module")
def switch():
    """A read-only P4Runtime client (a backup: the host is primary)."""
    with Client(f"127.0.0.1:{P4RT_PORT}", device_id=1, election_id=(0, 1)) as client:
        yield client


def downlink(ue, seq):
    return (Ether(src=mac_of(DN), dst=mac_of(GNB)) / IP(src=ip_of(DN), dst=ue)
            / UDP(sport=8080, dport=4000) / Raw(b"FLOWBUF-QOS" + seq.to_bytes(4, "big")))


def send_and_capture(lab, frames, receivers, bpf, expect):
    """Sends `frames` from the data network; returns {receiver: frames its
    eth0 captured with `bpf`}, each waiting for `expect` frames (4 s at most)."""
    sniffers = {}
    try:
        for name in receivers:
            sniffers[name] = subprocess.Popen(lab.hosts[name].popen_argv(
                [PYTHON, "-m", "test.upf.gtpio", "sniff", "eth0", bpf, str(expect), "4"]),
                stdout=subprocess.PIPE, text=True, cwd=ROOT)
            assert sniffers[name].stdout.readline().strip() == "ready"
        subprocess.run(lab.hosts[DN].popen_argv(
            [PYTHON, "-m", "test.upf.gtpio", "send", "eth0", *(bytes(f).hex() for f in frames)]),
            check=True, cwd=ROOT)
        got = {}
        for name, sniff in sniffers.items():
            out, _ = sniff.communicate(timeout=30)
            got[name] = [Ether(bytes.fromhex(h)) for h in json.loads(out.strip().splitlines()[-1])]
        return got
    finally:
        for sniff in sniffers.values():
            if sniff.poll() is None:
                sniff.kill()


def to_ue(ue):
    """BPF: the UE's downlink, raw or inside GTP-U (its address at the inner
    header's offset: outer IPv4 20 + UDP 8 + GTP-U 16 bytes)."""
    return f"(dst host {ue}) or (udp dst port {GTPU_PORT} and ip[60:4] = {ip_int(ue)})"


def ip_int(address):
    a, b, c, d = (int(x) for x in address.split("."))
    return (a << 24) | (b << 16) | (c << 8) | d


def reroutes(lab):
    return {r["ueAddress"]: r for r in lab.rest.get("upf/qos/reroutes")["reroutes"]}


def steering_entries(switch):
    return list(switch.table_entries(P4Info().table_id("steering.flow_steering")))


def reported(lab, ue):
    return [h for h in lab.rest.get("upf/heavy-hitters")["heavyHitters"] if h["ueAddress"] == ue]


def test_dc_flows_take_their_qfi_and_a_dc_heavy_hitter_is_rerouted_until_idle(lab, switch):
    assert lab.rest.post("upf/qos", POLICY) == POLICY
    try:
        # The DC class: a light DC UE's downlink leaves towards the gNodeB
        # with the DC QFI (queue 7), a UE outside it with its session's.
        got = send_and_capture(lab, [downlink(DC_LIGHT, 0), downlink(OTHER_HEAVY, 0)], [GNB],
                               f"udp dst port {GTPU_PORT}", 2)[GNB]
        assert sorted(g[GTPPDUSessionContainer].QFI for g in got) == [SESSION_QFI, DC_QFI]
        queues = lab.rest.get("upf/queues")["queues"]
        assert {"deviceId": DEVICE, "qfi": DC_QFI, "queue": 7} in queues
        base = steering_entries(switch)

        # Two heavy UEs: the DC one is rerouted (one steering entry), the other not.
        for ue in (DC_HEAVY, OTHER_HEAVY):
            send_and_capture(lab, [downlink(ue, s) for s in range(40)], [], "", 0)
        wait_until(lambda: reported(lab, DC_HEAVY) and reported(lab, OTHER_HEAVY), timeout=10.0)
        wait_until(lambda: DC_HEAVY in reroutes(lab), timeout=10.0)
        assert set(reroutes(lab)) == {DC_HEAVY}
        [entry] = [e for e in steering_entries(switch) if e not in base]
        assert int.from_bytes(entry.action.action.params[0].value, "big") == HB_PORT

        # Its frames now leave by the high-bandwidth port, raw (before the
        # UPF), and none towards the gNodeB; the others' as before.
        frames = [downlink(DC_HEAVY, 100 + s) for s in range(5)]
        got = send_and_capture(lab, frames, [HB, GNB], to_ue(DC_HEAVY), 5)
        assert [bytes(g[IP]) for g in got[HB]] == [bytes(f[IP]) for f in frames]
        assert got[GNB] == []
        wait_until(lambda: reroutes(lab).get(DC_HEAVY, {}).get("bytes", 0) > 0, timeout=5.0)
        got = send_and_capture(lab, [downlink(DC_LIGHT, 1), downlink(OTHER_HEAVY, 1)], [HB, GNB],
                               f"{to_ue(DC_LIGHT)} or {to_ue(OTHER_HEAVY)}", 2)
        assert got[HB] == [] and len(got[GNB]) == 2

        # Idle for idleMs: the reroute is undone, the UE's downlink is the UPF's again.
        wait_until(lambda: not reroutes(lab), timeout=IDLE_WAIT_S)
        assert steering_entries(switch) == base
        got = send_and_capture(lab, [downlink(DC_HEAVY, 200)], [HB, GNB], to_ue(DC_HEAVY), 1)
        assert got[HB] == [] and [g[GTPPDUSessionContainer].QFI for g in got[GNB]] == [DC_QFI]
    finally:
        lab.rest.delete(f"upf/qos/{DEVICE}")
    assert lab.rest.get("upf/qos")["policies"] == []
    assert {"deviceId": DEVICE, "qfi": DC_QFI, "queue": 7} not in lab.rest.get("upf/queues")["queues"]


def bad_policies():
    def with_(**change):
        body = dict(POLICY)
        body.update(change)
        return {k: v for k, v in body.items() if v is not None}
    return [
        (with_(highBandwidthPort=0), 400, "highBandwidthPort must be"),
        (with_(highBandwidthPort=512), 400, "highBandwidthPort must be"),
        (with_(idleMs=0), 400, "idleMs must be"),
        (with_(queue=8), 400, "queue must be"),
        (with_(qfi=64), 400, "qfi must be"),
        (with_(appId=0), 400, "appId must be"),
        (with_(filter={}), 400, "names no field"),
        (with_(filter={"ueAddress": "10.250.1.0/33"}), 400, "ueAddress"),
        (with_(bogus=1), 400, "bogus"),
        (with_(deviceId="device:nope"), 404, "unknown device"),
        (with_(qfi=SESSION_QFI, appId=2), 409, "already has queue"),
    ]


@pytest.mark.parametrize("body,status,message", bad_policies())
def test_bad_policies_are_refused_with_a_message_and_change_nothing(lab, switch, body, status,
                                                                    message):
    lab.rest.post("upf/queues", {"deviceId": DEVICE, "qfi": SESSION_QFI, "queue": 3})
    try:
        before = (lab.rest.get("upf/qos"), lab.rest.get("upf/applications"),
                  lab.rest.get("upf/queues"))
        with pytest.raises(RestError) as refused:
            lab.rest.post("upf/qos", body)
        assert refused.value.status == status and message in refused.value.body
        assert (lab.rest.get("upf/qos"), lab.rest.get("upf/applications"),
                lab.rest.get("upf/queues")) == before
    finally:
        lab.rest.delete(f"upf/queues/{DEVICE}/{SESSION_QFI}")


def test_a_second_policy_and_unknown_ones_are_refused(lab):
    lab.rest.post("upf/qos", POLICY)
    try:
        with pytest.raises(RestError) as refused:
            lab.rest.post("upf/qos", dict(POLICY, appId=2, qfi=10))
        assert refused.value.status == 409 and "remove it first" in refused.value.body
        assert lab.rest.get(f"upf/qos/{DEVICE}") == POLICY
    finally:
        lab.rest.delete(f"upf/qos/{DEVICE}")
    for method, path in (("GET", f"upf/qos/{DEVICE}"), ("DELETE", f"upf/qos/{DEVICE}")):
        with pytest.raises(RestError) as refused:
            lab.rest.call(method, path)
        assert refused.value.status == 404 and "no UPF-QoS policy" in refused.value.body
