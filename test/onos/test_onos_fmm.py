# SPDX-License-Identifier: Apache-2.0
"""Fast mobility management (FMM) inside a real ONOS 2.7, live (`make test-onos`).

The mobility lab under ONOS (test_onos_mobility's: the anchor sa, two eNB
pbswitches s1 and s2, an external buffer-agent beside each eNB) in its own
module, so that LMM's resident downlink does not meet FMM's session. An FMM
session opened through FlowBuf's REST under ONOS (`/onos/flowbuf/apps/fmm/
sessions`): ONOS's group service writes the anchor's multicast group and
its flow rule service the rule to it, each eNB's agent holds a window of
copies; a sequenced UDP flow runs from the server to the UE while the UE is
handed s1 -> s2 -> s1 -> s2 with its reports (the product's mode: the UE's
datagram as it leaves holds the source on its agent, the one as it joins
purges the target to what the UE received and releases it) and each attach
is confirmed through ONOS's REST. Bad requests are refused with a 4xx and a
message, and change nothing: the sessions, the eNBs' buffers, FlowBuf's
intents and every switch's entries are read back the same.
"""
import json
import time

import pytest

from test.lab.mobilitylab import SWITCHES, cp, device, fmm_plan
from test.lab.servicelab import RestError
from test.onos.onos import missing, switch_entities, wait

REASON = missing()
if REASON:
    pytest.skip(REASON, allow_module_level=True)

# The shared lab and helpers of the LMM module (one topology, one prefix).
from test.onos.test_onos_mobility import (ENBS, DWELL_S, buffers, last_json,  # noqa: E402
                                          onos_mobility_lab, receiver, sender)
from test.scenarios.fmm import FmmDriver  # noqa: E402

HANDOFFS = ("s2", "s1", "s2", "s1")
# Packets each eNB keeps while it does not serve: far more than the flow
# sends while a loaded machine makes one handoff.
WINDOW = 16384


def close_open_sessions(lab):
    """FMM's sessions closed in FMM's name (their anchor group and rule, the
    eNBs' buffers and intents go), for the modules that follow."""
    for s in lab.rest.get("apps/fmm/sessions")["sessions"]:
        if s["state"] in ("ATTACHED", "DETACHED"):
            lab.rest.delete(f"apps/fmm/sessions/{s['id']}")


@pytest.fixture(scope="module")
def fmm_lab(onos, flowbuf):
    with onos_mobility_lab(onos, close_open_sessions) as lab:
        yield lab


def snapshot(lab):
    """What a refused request must leave as it was: FMM's sessions, the
    eNBs' buffers, FlowBuf's intents and every switch's entries (the
    anchor's multicast groups included)."""
    return {"sessions": lab.rest.get("apps/fmm/sessions")["sessions"],
            "buffers": {sw: sorted(buffers(lab, sw)) for sw in ENBS},
            "intents": sorted(i["id"] for i in lab.rest.get("intents")["intents"]),
            "entries": {sw: sorted(switch_entities(lab.p4rt[sw])) for sw in SWITCHES}}


def test_fmm_handoffs_under_onos_lose_reorder_and_duplicate_nothing(fmm_lab):
    lab = fmm_lab
    rx = receiver(lab)
    driver = FmmDriver(lab, "fmm", window=WINDOW)
    opened = driver.session
    assert opened["state"] == "ATTACHED" and opened["serving"] == device("s1"), opened
    # The anchor multicasts through ONOS: its group is on the anchor, each
    # eNB holds its buffer (the serving one delivers).
    assert any(e.startswith("multicast group") for e in switch_entities(lab.p4rt["sa"])), \
        switch_entities(lab.p4rt["sa"])
    for enb in ENBS:
        assert opened["buffers"][device(enb)] in buffers(lab, enb), opened
    tx = sender(lab)
    time.sleep(0.5)  # the flow reaches the UE through radio 1 first
    started = time.monotonic()
    for target in HANDOFFS:
        assert lab.attached != target
        driver.handoff()
        assert driver.session["state"] == "ATTACHED", driver.session
        assert driver.session["serving"] == device(target), driver.session
        time.sleep(DWELL_S)
    handoffs_s = time.monotonic() - started
    tx.terminate()
    sent = last_json(tx)["sent"]
    got = last_json(rx)
    counters = driver.session["counters"]
    print(f"FMM under ONOS: {len(HANDOFFS)} handoffs in {handoffs_s:.1f} s, sent {sent}, "
          f"flow {json.dumps(got)}, counters {counters}, attach ms "
          f"{[round(m, 1) for m in driver.attach_ms]}, sync awaits {driver.sync_awaits()}")
    assert counters["handoffs"] == len(HANDOFFS), counters
    assert counters["unsynced"] == 0, counters
    assert got["received"] == sent, (sent, got)
    assert (got["lost"], got["reordered"], got["duplicates"]) == (0, 0, 0), got
    # Read back through ONOS's REST, then closed: buffers, intents and the
    # anchor's group gone.
    listed = lab.rest.get(f"apps/fmm/sessions/{opened['id']}")
    assert listed["counters"] == counters, listed
    closed = driver.close()
    assert closed["state"] == "CLOSED", closed
    for enb in ENBS:
        assert opened["buffers"][device(enb)] not in buffers(lab, enb)
    assert not any(i["owner"] == "org.flowbuf.apps.fmm" and i["state"] == "INSTALLED"
                   for i in lab.rest.get("intents")["intents"])
    wait(lambda: not any(e.startswith("multicast group")
                         for e in switch_entities(lab.p4rt["sa"])),
         30, "the anchor's multicast group removed")


# (what, method, path (session id as {id}), body, status, part of the message)
BAD_WITH_A_SESSION = [
    ("a second session of the same downlink", "POST", "apps/fmm/sessions",
     "PLAN", 409, "open"),
    ("a handoff to a device that is no cell", "POST", "apps/fmm/sessions/{id}/handoff",
     {"target": device("sa")}, 400, "not a cell"),
    ("a handoff without a target", "POST", "apps/fmm/sessions/{id}/handoff", {}, 400,
     "target"),
    ("a handoff to a malformed device id", "POST", "apps/fmm/sessions/{id}/handoff",
     {"target": "no colon"}, 400, "no colon"),
    ("an attach with no handoff under way", "POST", "apps/fmm/sessions/{id}/attach",
     None, 409, "no handoff"),
    ("a handoff of an unknown session", "POST", "apps/fmm/sessions/987654/handoff",
     {"target": device("s2")}, 404, "987654"),
    ("an attach of a malformed session id", "POST", "apps/fmm/sessions/x1/attach",
     None, 400, "x1"),
    ("a close of an unknown session", "DELETE", "apps/fmm/sessions/987654", None, 404,
     "987654"),
]

BAD_OPENS = [
    ("an unknown eNB", {"cells": [
        {"anchor": cp("sa", 2), "in": cp("s1", 1), "ue": cp("s1", 2)},
        {"anchor": cp("sa", 3), "in": cp("s9", 1), "ue": cp("s9", 2)}]}, 404, "device:s9"),
    ("one cell only", {"cells": [
        {"anchor": cp("sa", 2), "in": cp("s1", 1), "ue": cp("s1", 2)}]}, 400, "two cells"),
    ("a serving eNB that is no cell", {"serving": device("s9")}, 400, "not one of the cells"),
    ("a body that is no JSON object", None, 400, "JSON object"),
    ("a window of 0 packets", {"windowPackets": 0}, 400, "windowPackets"),
    ("a downlink wider than one UE", {"downlink": {"ipv4Dst": "10.0.0.0/24"}}, 400, "/32"),
]


def call(lab, method, path, body):
    if method == "POST":
        return lab.rest.post(path, body)
    return lab.rest.delete(path)


def assert_refused(lab, method, path, body, status, part):
    before = snapshot(lab)
    with pytest.raises(RestError) as e:
        call(lab, method, path, body)
    assert e.value.status == status, e.value
    assert part in json.loads(e.value.body)["message"], e.value.body
    assert snapshot(lab) == before


@pytest.mark.parametrize("what, changes, status, part", BAD_OPENS,
                         ids=[case[0] for case in BAD_OPENS])
def test_a_bad_session_is_refused_and_changes_nothing(fmm_lab, what, changes, status, part):
    body = "a plan" if changes is None else dict(fmm_plan(fmm_lab.attached), **changes)
    assert_refused(fmm_lab, "POST", "apps/fmm/sessions", body, status, part)


def test_bad_steps_of_an_open_session_are_refused_and_change_nothing(fmm_lab):
    lab = fmm_lab
    plan = fmm_plan(lab.attached)
    session = lab.rest.post("apps/fmm/sessions", plan)
    try:
        for what, method, path, body, status, part in BAD_WITH_A_SESSION:
            body = plan if body == "PLAN" else body
            try:
                assert_refused(lab, method, path.format(id=session["id"]), body, status, part)
            except AssertionError as e:
                raise AssertionError(f"{what}: {e}") from e
    finally:
        closed = lab.rest.delete(f"apps/fmm/sessions/{session['id']}")
    assert closed["state"] == "CLOSED", closed
    # Closed once: a second close is refused and changes nothing.
    assert_refused(lab, "DELETE", f"apps/fmm/sessions/{session['id']}", None, 409, "CLOSED")
