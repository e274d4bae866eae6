# SPDX-License-Identifier: Apache-2.0
"""Heavy-hitter detection end to end in the embedded mode: REST settings ->
embedded host -> hh_settings on pbswitch (the pipeconf's compiled hh.p4) ->
real downlink frames from a data-network namespace -> hh_digest_t ->
the host's report, listed by REST.

Own lab: prefix fhh-, REST 8199, P4Runtime 28441, buffer API 28442.

The UE pool is a CORE interface and no UE has a session: the downlink
misses the sessions (as a UE on the slow path does), which is what the
detector must see; the frames are dropped after it.
"""
import os
import subprocess
import time

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from test.lab.procs import wait_until
from test.lab.servicelab import DEVICE, ROOT, RestError, ServiceLab, ensure_built, ip_of, mac_of

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

REST_PORT, P4RT_PORT, AGENT_PORT = 8199, 28441, 28442
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DN = "h2"
UE_POOL = "10.250.0.0/16"
SETTINGS = "upf/heavy-hitters/settings"
# A UE over 100 kbit/s of 625-byte packets (a packet every 50 ms) is heavy;
# the heavy UE sends back to back, the light one a packet every 150 ms.
HEAVY = {"enabled": True, "rateBps": 100_000, "packetBytes": 625, "idleMs": 10_000}


@pytest.fixture(scope="module")
def lab():
    ensure_built()
    with ServiceLab(prefix="fhh-", rest_port=REST_PORT, p4rt_port=P4RT_PORT,
                    agent_port=AGENT_PORT) as lab:
        lab.hosts[DN].run("ip", "route", "add", UE_POOL, "dev", "eth0")
        lab.rest.post("upf/interfaces", {"deviceId": DEVICE, "kind": "CORE", "prefix": UE_POOL})
        yield lab


def downlink(ue, seq):
    return (Ether(src=mac_of(DN), dst=mac_of("h1")) / IP(src=ip_of(DN), dst=ue)
            / UDP(sport=8080, dport=4000) / Raw(b"FLOWBUF-HH" + seq.to_bytes(4, "big")))


def send(lab, frames):
    """Sends the frames from the data network's eth0, back to back."""
    subprocess.run(lab.hosts[DN].popen_argv(
        [PYTHON, "-m", "test.upf.gtpio", "send", "eth0", *(bytes(f).hex() for f in frames)]),
        check=True, cwd=ROOT)


def reported(lab, ue):
    return [h for h in lab.rest.get("upf/heavy-hitters")["heavyHitters"] if h["ueAddress"] == ue]


def test_detection_is_off_until_enabled(lab):
    assert lab.rest.get(SETTINGS)["enabled"] is False
    send(lab, [downlink("10.250.0.9", seq) for seq in range(40)])
    # The heavy UE of the next test is reported within a second of its frames.
    with pytest.raises(TimeoutError):
        wait_until(lambda: reported(lab, "10.250.0.9"), timeout=2.0)


def test_a_heavy_ue_is_reported_once_with_its_flow(lab):
    settings = lab.rest.call("PUT", SETTINGS, HEAVY)
    assert settings["thresholdEighthsUs"] == 400_000 and settings["idleUs"] == 10_000_000
    ue = "10.250.0.1"
    send(lab, [downlink(ue, seq) for seq in range(40)])
    wait_until(lambda: reported(lab, ue), timeout=10.0)
    [h] = reported(lab, ue)
    assert (h["deviceId"], h["appAddress"], h["ipProto"], h["uePort"], h["appPort"]) == (
        DEVICE, ip_of(DN), 17, 4000, 8080)
    assert 0 < h["ewmaGapUs"] < 50_000
    # Still heavy: not reported again before it idles.
    send(lab, [downlink(ue, seq) for seq in range(40, 60)])
    with pytest.raises(TimeoutError):
        wait_until(lambda: len(reported(lab, ue)) > 1, timeout=2.0)


def test_a_light_ue_is_not_reported(lab):
    lab.rest.call("PUT", SETTINGS, HEAVY)
    ue = "10.250.0.2"
    for seq in range(8):
        send(lab, [downlink(ue, seq)])
        time.sleep(0.15)  # besides the sender's own start, ~1 s
    with pytest.raises(TimeoutError):
        wait_until(lambda: reported(lab, ue), timeout=2.0)


@pytest.mark.parametrize("body,status", [
    ({"rateBps": 10}, 400),
    ({"enabled": True, "rateBps": 2_000_000, "packetBytes": 1500, "idleMs": 5}, 400),
    ({"idleMs": -1}, 400),
    ({"bogus": 1}, 400),
])
def test_bad_settings_are_refused_and_change_nothing(lab, body, status):
    before = lab.rest.call("PUT", SETTINGS, HEAVY)
    with pytest.raises(RestError) as err:
        lab.rest.call("PUT", SETTINGS, body)
    assert err.value.status == status
    assert lab.rest.get(SETTINGS) == before
