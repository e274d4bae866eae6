# SPDX-License-Identifier: Apache-2.0
"""An external buffer-agent killed (kill -9) and restarted on the same address,
with the embedded host and pbswitch running: while it is gone the API says so
(503 naming the agent) instead of answering stale figures, pauses and resumes
are refused and change nothing, and a reconciliation reaches it as soon as it
listens again instead of waiting out the host's gRPC reconnect backoff.

Own lab: prefix fbo-, REST 8188, P4Runtime 28283, agent 28284."""
import os
import time

import pytest

from test.lab.servicelab import DEVICE, RestError, ServiceLab, ensure_built, ip_of

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

AGENT = "127.0.0.1:28284"


@pytest.fixture(scope="module")
def lab():
    ensure_built()
    with ServiceLab(external_agent=True, prefix="fbo-", rest_port=8188, p4rt_port=28283,
                    agent_port=28284) as lab:
        yield lab


def flow(src):
    return {"ipv4Src": ip_of(src) + "/32", "ipv4Dst": ip_of("h2") + "/32", "ipProto": 17}


def refused(lab, method, path, body=None):
    with pytest.raises(RestError) as e:
        lab.rest.call(method, path, body)
    return e.value


def test_an_agent_outage_is_reported_refused_and_ends_at_once(lab):
    rest = lab.rest
    rest.post(f"buffers/{DEVICE}", {"id": "held", "state": "BUFFERING"})
    paused = rest.post("intents/pause", {"deviceId": DEVICE, "inPort": 1, "filter": flow("h1"),
                                         "bufferId": "held"})
    assert paused["state"] == "INSTALLED"
    assert rest.get(f"buffers/{DEVICE}/held")["occupancyPackets"] == 0
    intents_before = rest.get("intents")["intents"]
    vports_before = rest.get(f"devices/{DEVICE}/vports")["vports"]

    lab.kill_agent()
    # Queries of what the agent holds: 503, naming it, not a stale 0.
    for path in (f"buffers/{DEVICE}/held", f"buffers/{DEVICE}", "buffers",
                 f"buffers/{DEVICE}/held/statistics"):
        e = refused(lab, "GET", path)
        assert e.status == 503, (path, e.body)
        assert f"agent {AGENT} ({DEVICE}) is unreachable" in e.body, (path, e.body)
    # Changes: refused, and nothing recorded or written.
    for path, body in [
            ("intents/pause", {"deviceId": DEVICE, "inPort": 1, "filter": flow("h3"),
                               "bufferId": "held"}),
            ("intents/pause", {"deviceId": DEVICE, "inPort": 3, "filter": flow("h3")}),
            ("intents/resume", {"deviceId": DEVICE, "outPort": 2, "filter": flow("h1")})]:
        e = refused(lab, "POST", path, body)
        assert e.status == 503 and "is unreachable" in e.body, (path, e.body)
    assert rest.get("intents")["intents"] == intents_before
    assert rest.get(f"devices/{DEVICE}/vports")["vports"] == vports_before
    assert refused(lab, "POST", f"devices/{DEVICE}/reconcile").status == 503

    # Back on the same address: the first reconcile reaches it. The refused
    # calls above left the host's channel in gRPC's reconnect backoff (about a
    # second after a failed attempt), which the reconcile cuts short.
    lab.start_agent()
    start = time.monotonic()
    events = rest.post(f"devices/{DEVICE}/reconcile", None)["events"]
    took_ms = (time.monotonic() - start) * 1e3
    # The restarted agent lost the buffer (it held it in its own memory): re-created.
    assert [(e["type"], e["buffer"]["id"]) for e in events] == [("BUFFER_RECREATED", "held")]
    assert took_ms < 500, took_ms
    assert rest.get(f"buffers/{DEVICE}/held")["state"] == "BUFFERING"
    resumed = rest.post("intents/resume", {"deviceId": DEVICE, "outPort": 2,
                                           "filter": flow("h1")})
    assert resumed["state"] == "INSTALLED"
