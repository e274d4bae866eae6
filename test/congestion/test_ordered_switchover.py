# SPDX-License-Identifier: Apache-2.0
"""Ordered switch-over end to end (issue 23, "a switch-over that reorders
nothing"): REST -> embedded host -> four pbswitch instances, s4 (the merge
switch) with in-process buffers.

Own lab: prefix for-, REST 8241, P4Runtime 28801-28804 (buffer API
28805-28808). The same burst as test_congestion_service's congest(): 300
packets of 1 kB queue on s1's port 2 (2 Mbit/s, about 1.2 s), s1 moves the
flow to its backup, which is idle. Without the option the packets queued
on the old path arrive after the first ones of the backup (reordered);
with it, s4 holds the backup's packets until s1's end marker comes out of
that queue, then releases them behind the old path's last packets.
"""
import json
import os

import pytest

from test.congestion.congestionlab import HOSTS, CongestionLab, device, lab_ports
from test.congestion.test_congestion_service import (cc_entries, congest, flow_body,
                                                     switches_of)
from test.lab.procs import wait_until
from test.lab.servicelab import RestError, ensure_built

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

SHAPED_BPS = 2_000_000
# Thresholds (X = 5 times these idle delays) of 20 ms queueing and 100 ms
# processing: the burst queues 1.2 s on s1's port, far above them, while an
# idle backup only crosses them when a loaded machine stalls a switch that
# long for m = 3 packets in a row (with 100 µs / 5 ms, stalls of a few ms
# moved the flow back and forth in CI: 2-6 switch-overs in each of 3 runs).
# A marker bound above the burst's 1.2 s: the marker leaves that queue
# behind the old path's last packets.
CONGESTION = {"factor": 5, "idleQueueUs": 4000, "idleProcUs": 20000, "markerBoundMs": 3000}
ORDER_TABLES = ("cc_ingress.cc_ordered", "cc_ingress.cc_marker_sinks")


@pytest.fixture(scope="module")
def lab():
    ensure_built()
    prefix, rest_port, p4rt_base = lab_ports("for-", 8241, 28801)
    with CongestionLab(prefix=prefix, rest_port=rest_port, p4rt_base=p4rt_base,
                       shaped_bps=SHAPED_BPS, congestion=CONGESTION,
                       buffered={"s4": (100, 101, 102, 103)}) as lab:
        yield lab


def reordered(seqs):
    """Packets that arrived after one with a higher sequence number."""
    top, late = -1, 0
    for s in seqs:
        if s < top:
            late += 1
        top = max(top, s)
    return late


def order_entries(lab, sw):
    return lab.entry_counts(sw, ORDER_TABLES)


def owned_buffers(lab, sw):
    return [b for b in lab.rest.get(f"buffers/{device(sw)}")["buffers"]
            if b["owner"] == "org.flowbuf.apps.congestion"]


def test_an_ordered_flow_gets_a_merge_buffer_and_loses_it_with_the_flow(lab):
    flow = lab.rest.post("congestion/flows", flow_body(5101, orderedSwitchover=True))
    try:
        assert flow["orderedSwitchover"] is True
        assert flow["ordered"] == {"mergeSwitch": device("s4"), "markersSeen": 0,
                                   "boundExpiries": 0, "armed": True}
        assert order_entries(lab, "s1") == {"cc_ingress.cc_ordered": 1,
                                            "cc_ingress.cc_marker_sinks": 0}
        assert order_entries(lab, "s4") == {"cc_ingress.cc_ordered": 0,
                                            "cc_ingress.cc_marker_sinks": 1}
        # The trigger and the hold of the backup's port into s4.
        assert len(owned_buffers(lab, "s4")) == 2
    finally:
        lab.rest.delete(f"congestion/flows/{flow['id']}")
    assert owned_buffers(lab, "s4") == []
    for sw in ("s1", "s4"):
        assert set(order_entries(lab, sw).values()) == {0}, sw
        assert set(cc_entries(lab, sw).values()) == {0}, sw


def test_an_ordered_flow_needs_a_buffer_agent_at_its_merge_switch(lab):
    # h2 -> h1 merges at s1, which has no buffer agent here.
    body = {"srcHost": "h2", "dstHost": "h1", "budgetUs": 1_000_000, "m": 3,
            "orderedSwitchover": True,
            "filter": {"ipv4Dst": HOSTS["h1"][2] + "/32", "ipProto": 17, "l4DstPort": 5102}}
    with pytest.raises(RestError) as e:
        lab.rest.post("congestion/flows", body)
    assert e.value.status == 400, e.value
    assert "no buffer agent" in json.loads(e.value.body)["message"]
    nocc = flow_body(5102, mode="NOCC", orderedSwitchover=True)
    with pytest.raises(RestError) as e:
        lab.rest.post("congestion/flows", nocc)
    assert e.value.status == 400, e.value
    assert "DATAPLANE" in json.loads(e.value.body)["message"]
    for sw in ("s1", "s2", "s3", "s4"):
        assert set(cc_entries(lab, sw).values()) == {0}, sw
    assert owned_buffers(lab, "s4") == []
    assert lab.rest.get("congestion/flows")["flows"] == []


def one_switch_over(lab, ordered, dports):
    """The burst against a flow until a run moves it exactly once (at most
    len(dports) runs; any run that moved it when `ordered` is False): a
    stall of a loaded machine can move it back, and the merge buffer
    promises nothing for a second switch-over that comes before it is armed
    again. The sequence numbers h2 got and the flow after the run, or None."""
    for dport in dports:
        flow = lab.rest.post("congestion/flows", flow_body(dport, m=3, orderedSwitchover=ordered))
        try:
            got, moved = congest(lab, flow, dport)
            if not ordered:
                return got, moved
            # Settled and armed again for the new backup.
            moved = wait_until(lambda: (f := lab.rest.get(f"congestion/flows/{flow['id']}"))
                               ["ordered"]["armed"] and f, timeout=10, what="re-armed")
            if len(moved["switchOvers"]) == 1:
                assert len(owned_buffers(lab, "s4")) == 3  # a hold for each path
                return got, moved
            print(f"port {dport}: {len(moved['switchOvers'])} switch-overs, run again")
        finally:
            lab.rest.delete(f"congestion/flows/{flow['id']}")
    return None


def test_the_same_switch_over_reorders_without_the_merge_buffer_and_not_with_it(lab):
    results = {}
    for ordered, dports in ((False, (5103,)), (True, (5104, 5106, 5108))):
        run = one_switch_over(lab, ordered, dports)
        assert run is not None, "no run of 3 moved the ordered flow exactly once"
        got, moved = run
        assert moved["switchOvers"][0]["deviceId"] == device("s1")
        assert len(set(got)) == 1500, f"ordered {ordered}: {1500 - len(set(got))} of 1500 lost"
        results[ordered] = reordered(got)
        if ordered:
            assert switches_of(moved["primary"]) == [device(s) for s in ("s1", "s3", "s4")]
            # Released by the marker, not by the bound.
            assert (moved["ordered"]["markersSeen"], moved["ordered"]["boundExpiries"]) == (1, 0)
    print(f"reordered without the merge buffer {results[False]}, with it {results[True]}")
    assert results[False] > 0, "the burst did not reorder the flow without the merge buffer"
    assert results[True] == 0
