# SPDX-License-Identifier: Apache-2.0
"""10,000 UEs paused at once on one device with the lab's two vport ports
(logical vports, see ue_scale.py); one UE's live downlink is held, resumed
with nothing lost or reordered, while the others stay held.

FLOWBUF_PAUSED_UES changes the count (default 10,000). The same with an
external buffer-agent (tagged vports sharing a veth each) runs 500."""
import json
import os
import subprocess
import time

import pytest

from test.lab.servicelab import DEVICE, ROOT, RestError, ensure_built

from .ue_scale import FIRST_PORT, pause_all, scale_lab, ue_filter

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

UES = int(os.environ.get("FLOWBUF_PAUSED_UES", "10000"))
EXTERNAL_UES = 500
PYTHON = str(ROOT / ".venv" / "bin" / "python")
PPS, SECONDS = 1000, 2


def _seqflow(lab, host, *args):
    return subprocess.Popen(lab.hosts[host].popen_argv([PYTHON, "-m", "test.lab.seqflow", *args]),
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)


def _held(lab, buffer_id):
    return lab.rest.get(f"buffers/{DEVICE}/{buffer_id}")["occupancyPackets"]


def _wait_held(lab, buffer_id, packets, timeout=30.0):
    deadline = time.monotonic() + timeout
    while (held := _held(lab, buffer_id)) < packets and time.monotonic() < deadline:
        time.sleep(0.05)
    return held


def test_one_ue_among_ten_thousand_paused_resumes_without_loss():
    ensure_built()
    with scale_lab(UES) as lab:
        _one_ue_among(lab, UES)


def test_an_external_agent_demultiplexes_its_shared_veths_the_same():
    ensure_built()
    with scale_lab(EXTERNAL_UES, external_agent=True) as lab:
        _one_ue_among(lab, EXTERNAL_UES)


def _one_ue_among(lab, ues):
    """Pauses `ues` flows; one UE's live flow is held and resumed losslessly,
    the others stay held."""
    ue, other = ues // 2, 7
    buffers, _ = pause_all(lab, ues)
    assert len(set(buffers.values())) == ues  # a buffer of its own each
    # The tags ran out: the next pause is refused, saying so.
    with pytest.raises(RestError) as refused:
        lab.rest.post("intents/pause", {"deviceId": DEVICE, "inPort": 1,
                                        "filter": {"ipv4Src": "10.0.0.3/32", "ipProto": 17}})
    assert refused.value.status == 409 and "tags" in str(refused.value), refused.value

    recv = _seqflow(lab, "h2", "recv", str(FIRST_PORT + ue), "--expect", str(PPS * SECONDS),
                    "--idle", "3", "--timeout", "60")
    try:
        assert recv.stdout.readline().strip()  # ready
        sent = json.loads(_seqflow(lab, "h1", "send", "10.0.0.2", str(FIRST_PORT + ue),
                                   "--pps", str(PPS), "--seconds", str(SECONDS))
                          .communicate(timeout=60)[0])["sent"]
        # Another UE's packets go to its own buffer, on the same ports.
        other_sent = json.loads(_seqflow(lab, "h1", "send", "10.0.0.2",
                                         str(FIRST_PORT + other), "--pps", "100",
                                         "--seconds", "0.5").communicate(timeout=60)[0])["sent"]
        assert _wait_held(lab, buffers[ue], sent) == sent
        assert _wait_held(lab, buffers[other], other_sent) == other_sent
        lab.rest.post("intents/resume", {"deviceId": DEVICE, "outPort": 2,
                                         "filter": ue_filter(ue),
                                         "bufferId": buffers[ue]})
        got = json.loads(recv.communicate(timeout=90)[0].strip().splitlines()[-1])
    finally:
        if recv.poll() is None:
            recv.kill()
    assert (got["received"], got["lost"], got["reordered"], got["duplicates"]) == \
        (sent, 0, 0, 0), got
    # The others are still held: the other UE's packets, and every pause.
    assert _held(lab, buffers[other]) == other_sent
    intents = lab.rest.get("intents")["intents"]
    paused = {i["bufferId"] for i in intents
              if i["type"] == "PAUSE" and i["state"] == "INSTALLED"}
    assert set(buffers.values()) - {buffers[ue]} <= paused
    states = {b["id"]: b["state"] for b in lab.rest.get(f"buffers/{DEVICE}")["buffers"]}
    assert sum(1 for b in buffers.values() if states.get(b) == "BUFFERING") == ues - 1
