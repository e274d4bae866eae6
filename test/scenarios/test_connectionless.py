# SPDX-License-Identifier: Apache-2.0
"""A short real connectionless upload in the lab: the file is held, stored,
served to the collector in order, nothing lost."""
import os
import time

import pytest

from test.lab.servicelab import ROOT, ServiceLab, ensure_built
from test.scenarios import connectionless

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")


@pytest.fixture(scope="module", autouse=True)
def binaries():
    ensure_built()


def only_ready_buffers(lab):
    return all(b["owner"] == "org.flowbuf.ready" for b in lab.rest.get("buffers")["buffers"])


def wait_for_ready_buffer(lab, timeout=10):
    """The ready buffer is made just after the host starts or one is taken."""
    deadline = time.monotonic() + timeout
    while not any(b["owner"] == "org.flowbuf.ready" for b in lab.rest.get("buffers")["buffers"]):
        assert time.monotonic() < deadline, "no ready buffer was made"
        time.sleep(0.05)


def test_an_upload_is_held_stored_and_served_whole_and_in_order():
    python = str(ROOT / ".venv" / "bin" / "python")
    with ServiceLab(prefix="fbw-", rest_port=8189, p4rt_port=28297, agent_port=28298,
                    ready_buffers=connectionless.READY_BUFFERS) as lab:
        wait_for_ready_buffer(lab)
        for packets in (10, 200):
            request_ms, server_ms, busy_ms, cpu_ms, result = connectionless.upload_once(
                lab, python, packets)
            # The controller's own time is part of the round trip, and four
            # calls' worth of it is the upload's occupancy.
            assert 0 < server_ms < request_ms
            assert server_ms < busy_ms and cpu_ms > 0
            assert (result["received"], result["lost"], result["reordered"],
                    result["duplicates"]) == (packets, 0, 0, 0), result
        uploads = lab.rest.get("apps/cc/uploads")["uploads"]
        assert [u["state"] for u in uploads] == ["RELEASED", "RELEASED"]
        # Each request took the buffer the switch kept ready, and another
        # was made for the next one.
        assert all(u["bufferId"].startswith("ready-") for u in uploads), uploads
        assert len({u["bufferId"] for u in uploads}) == 2
        wait_for_ready_buffer(lab)
        assert only_ready_buffers(lab)


def test_the_controller_buffering_baseline_holds_the_file_in_the_controller():
    python = str(ROOT / ".venv" / "bin" / "python")
    with ServiceLab(prefix="fbw-", rest_port=8189, p4rt_port=28297, agent_port=28298) as lab:
        busy_ms, cpu_ms, held_bytes, result = connectionless.controller_buffered_once(
            lab, python, 200)
        assert (result["received"], result["lost"], result["reordered"],
                result["duplicates"]) == (200, 0, 0, 0), result
        assert held_bytes >= 200 * connectionless.PAYLOAD  # the whole file sat in the controller
        assert cpu_ms > 0
        holds = lab.rest.get("baselines/controller-holds")["holds"]
        assert [(h["state"], h["packetIns"], h["packetOuts"], h["heldPackets"])
                for h in holds] == [("RELEASED", 200, 200, 0)]
        # Its occupancy counts every packet-in the controller took.
        assert 0 < holds[0]["packetInMicros"] / 1e3 < busy_ms
        assert lab.rest.get("buffers")["buffers"] == []  # no switch buffer was involved
