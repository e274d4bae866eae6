# SPDX-License-Identifier: Apache-2.0
"""The short form of `make chaos` (test/chaos/faults.py): each fault once,
with 1,000 packets held instead of 10,000, and what must hold asserted.

Every fault: the packets that arrived, plus those the API reported lost,
are the packets sent; none duplicated, none reordered. The flow stops
before each fault, so only what a buffer held can be lost, and only when
the process that held it died and the API said so (a BUFFER_RECREATED event
for the buffer: "what it held is gone"). A loss without that report is a
silent one and fails.

Own lab: prefix fbx-, REST 8196, P4Runtime 28401, agent 28402."""
import os

import pytest

from test.chaos import faults
from test.lab.servicelab import ensure_built

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

HELD = 1000
PPS = 5000


@pytest.fixture(scope="module", autouse=True)
def binaries():
    ensure_built()


def assert_accounted(r):
    """delivered + reported lost == sent, nothing twice, nothing out of order."""
    reported = r.get("reported_lost", 0)
    assert r["received"] + reported == r["sent"], r
    assert r["lost"] == reported, r
    assert (r["duplicates"], r["reordered"]) == (0, 0), r
    assert r["held"] >= HELD, r


def test_an_agent_killed_while_holding_is_reported_and_reconciled():
    r = faults.agent_kill(HELD, PPS)
    assert_accounted(r)
    # While it is gone, what it holds is not answered from stale figures;
    # nor once it is back without the buffer, before the reconcile: 409
    # naming the reconcile (unless the agent kept the buffer and its packets).
    assert r["outage_query_status"] == 503, r
    status, body = r["query_before_reconcile"]
    assert (status == 409 and "POST devices/device:s1/reconcile" in body
            or status == 200 and body["occupancyPackets"] == r["held"]), r
    assert r["reconcile_status"] == 200 and r["resume_state"] == "INSTALLED", r
    # The agent keeps what it holds in its state dir on tmpfs: the restarted
    # agent re-attaches the buffer with every packet (BUFFER_REATTACHED,
    # nothing counted lost, since the flow stopped before the kill). Before
    # the state dir, all were lost and BUFFER_RECREATED said so.
    assert r["lost"] == 0, r
    assert r["events"] == ["BUFFER_REATTACHED"], r
    # The reconcile call; measured 16-145 ms here, the bound leaves room for
    # a loaded machine.
    assert r["recovery_ms"] < 2000, r


def test_an_agent_killed_without_its_state_dir_loses_what_it_held_and_says_so():
    r = faults.agent_kill(HELD, PPS, state_dir=False)
    assert_accounted(r)
    # Memory only: everything held is gone, and the API says so, before the
    # reconcile (409 naming it) and by it (BUFFER_RECREATED).
    assert r["lost"] == r["held"], r
    assert r["events"] == ["BUFFER_RECREATED"], r
    status, body = r["query_before_reconcile"]
    assert status == 409 and "POST devices/device:s1/reconcile" in body, r
    assert r["reconcile_status"] == 200 and r["resume_state"] == "INSTALLED", r


@pytest.mark.parametrize("phase", ["pause", "resume"])
def test_a_host_killed_mid_pause_or_mid_replay_loses_nothing(phase):
    r = faults.host_kill(HELD, PPS, phase)
    assert_accounted(r)
    assert r["lost"] == 0, r
    # The restarted host adopts the buffer from the agent, in the mode it
    # has there (still receiving, or still replaying).
    state = "BUFFERING" if phase == "pause" else "FORWARDING"
    assert [(b, s) for b, s, _ in r["buffers_after_restart"]] == [("held", state)], r
    # It adopts the steering rules the switch kept as INSTALLED intents (the
    # pause, and the resume when it was killed during the replay): the
    # paused flow is listed and resumes by its filter, as before the kill.
    assert r["intents_after_restart"] == (1 if phase == "pause" else 2), r
    if phase == "pause":
        assert r["resume_by_filter"] == 200, r


def test_a_switch_killed_while_holding_in_process_is_reported_and_taken_back():
    r = faults.switch_kill(HELD, PPS)
    # In-process buffers die with pbswitch: everything held is lost, and the
    # API says so: 503 while it is gone, then a BUFFER_RECREATED event. (If
    # pbswitch's buffers come to survive too, BUFFER_REATTACHED counts what
    # was lost; then tighten to r["lost"] == 0.)
    assert r["events"][-1] in ("BUFFER_RECREATED", "BUFFER_REATTACHED"), r
    assert_accounted(r)
    assert r["lost"] in (0, r["held"]), r
    assert r["query_while_down"] == 503, r
    # The host takes the restarted switch back by itself (pipeline, base
    # rules, the pause rule) and the paused flow resumes by its filter.
    assert r["recovered"] and r["resume"] == "INSTALLED", r
    assert r["query_after"] == (200, 0), r
    # The pause rule and an application's rule (the controller-buffering
    # baseline's punt) are both written again.
    assert r["steering_before"] == r["steering_after"] == 2, r


def test_an_agent_unreachable_for_5_s_refuses_calls_and_keeps_what_it_holds():
    r = faults.agent_outage(HELD, PPS)
    assert_accounted(r)
    assert r["lost"] == 0 and r["held_after"] == r["held"], r
    # Each call waits out the agent's 2 s deadline and the service takes one
    # at a time: 2 fit in the window on a quiet machine, 1 on a loaded one.
    assert r["calls_in_window"] >= 1 and r["refused_503"] == r["calls_in_window"], r
    assert r["answered_after_window"] == [], r
    assert r["state_unchanged"], r
    # Measured 8-470 ms after SIGCONT, the most on a loaded machine.
    assert r["recovery_ms"] < 5000, r


def test_a_batch_refused_halfway_leaves_nothing_installed():
    r = faults.batch_refused(HELD, PPS)
    assert_accounted(r)
    assert r["lost"] == 0, r
    assert r["batch_status"] == 409 and "RESOURCE_EXHAUSTED" in r["batch_error"], r
    # Read back from the switch: the updates it had applied were deleted.
    assert r["entries_after"] == r["entries_before"], r
    assert r["batch_intents"] == ["FAILED"], r
    assert (r["state_after"], r["held_after"]) == ("BUFFERING", r["held"]), r
