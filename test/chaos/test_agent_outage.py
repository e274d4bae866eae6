# SPDX-License-Identifier: Apache-2.0
"""An external buffer-agent killed (kill -9) while a buffer holds a
sequence-numbered flow, and restarted on the same address (and state dir),
with the embedded host and pbswitch running: while it is gone the API says so
(503 naming the agent) instead of answering stale figures, pauses and resumes
are refused and change nothing, and a reconciliation reaches it as soon as it
listens again instead of waiting out the host's gRPC reconnect backoff. The
restarted agent re-attaches the buffer from its state dir: every packet held
before the kill is delivered after the resume, in order; the packets sent
while it was down are reported lost (the reconcile's count) and are exactly
the receiver's loss.

Own lab: prefix fbo-, REST 8188, P4Runtime 28283, agent 28284."""
import json
import os
import subprocess
import sys
import time

import pytest

from test.lab.servicelab import DEVICE, ROOT, RestError, ServiceLab, ensure_built, ip_of

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

AGENT = "127.0.0.1:28284"
PORT = 9400
HELD = 10_000  # sent and held before the kill
DOWN = 400  # sent while the agent is down: cannot be held
PPS = 5000


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


def send(lab, first, count):
    """Sends `count` datagrams numbered from `first`, h1 to h2."""
    subprocess.run(lab.hosts["h1"].popen_argv(
        [sys.executable, "-m", "test.lab.seqflow", "send", ip_of("h2"), str(PORT), "--pps",
         str(PPS), "--seconds", str(count / PPS), "--first", str(first)]),
        check=True, capture_output=True, cwd=ROOT)


def wait_held(rest, n, timeout=10):
    deadline = time.monotonic() + timeout
    while True:
        held = rest.get(f"buffers/{DEVICE}/held")["occupancyPackets"]
        if held == n or time.monotonic() > deadline:
            return held
        time.sleep(0.1)


def test_an_agent_outage_is_reported_refused_and_ends_at_once(lab):
    rest = lab.rest
    rest.post(f"buffers/{DEVICE}", {"id": "held", "state": "BUFFERING"})
    paused = rest.post("intents/pause", {"deviceId": DEVICE, "inPort": 1, "filter": flow("h1"),
                                         "bufferId": "held"})
    assert paused["state"] == "INSTALLED"
    assert rest.get(f"buffers/{DEVICE}/held")["occupancyPackets"] == 0
    recv = subprocess.Popen(lab.hosts["h2"].popen_argv(
        [sys.executable, "-m", "test.lab.seqflow", "recv", str(PORT), "--expect",
         str(HELD + DOWN), "--idle", "3", "--timeout", "90"]),
        stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        recv.stdout.readline()  # listening
        send(lab, 0, HELD)
        assert wait_held(rest, HELD) == HELD
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
        # Still steered into the dead agent's vport: these cannot be held.
        send(lab, HELD, DOWN)

        # Back on the same address: the first reconcile reaches it. The refused
        # calls above left the host's channel in gRPC's reconnect backoff (about a
        # second after a failed attempt), which the reconcile cuts short.
        lab.start_agent()
        start = time.monotonic()
        events = rest.post(f"devices/{DEVICE}/reconcile", None)["events"]
        took_ms = (time.monotonic() - start) * 1e3
        # The restarted agent re-attached the buffer from its state dir, with what
        # it held, and counted what reached its vport while it was down.
        assert [(e["type"], e["buffer"]["id"]) for e in events] == [("BUFFER_REATTACHED", "held")]
        assert (events[0]["reattachedPackets"], events[0]["lostPackets"]) == (HELD, DOWN), events
        assert took_ms < 500, took_ms
        held = rest.get(f"buffers/{DEVICE}/held")
        assert (held["state"], held["occupancyPackets"]) == ("BUFFERING", HELD), held
        assert rest.post(f"devices/{DEVICE}/reconcile", None)["events"] == []  # said once
        resumed = rest.post("intents/resume", {"deviceId": DEVICE, "outPort": 2,
                                               "filter": flow("h1")})
        assert resumed["state"] == "INSTALLED"
        result = json.loads(recv.communicate(timeout=120)[0].strip().splitlines()[-1])
        for metric, value in [("chaos_agent_kill_lost", HELD - result["received"]),
                              ("chaos_agent_kill_reordered", result["reordered"]),
                              ("chaos_agent_kill_duplicated", result["duplicates"]),
                              ("chaos_agent_kill_missed_while_down", events[0]["lostPackets"])]:
            print(json.dumps({"metric": metric, "value": value, "unit": "packets",
                              "conditions": {"held": HELD, "sent_while_down": DOWN, "pps": PPS}}))
        print(json.dumps({"metric": "chaos_agent_kill_reconcile_ms", "value": round(took_ms, 1),
                          "unit": "ms", "conditions": {"held": HELD}}))
        # chaos_agent_kill_lost = 0 for what was held: the only loss is what was
        # sent while the agent was down, and the controller said how much.
        assert result == {**result, "received": HELD, "lost": DOWN, "reordered": 0,
                          "duplicates": 0}, result
    finally:
        if recv.poll() is None:  # a failed assertion: the receiver is not left behind
            recv.kill()
            recv.wait()
