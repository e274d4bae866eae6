# SPDX-License-Identifier: Apache-2.0
"""Congestion where the switch has no backup: the queue builds on s2's port
towards s4 (s2 is on the primary only), s2 sends a congestion notification
back out of the port the flow came in by (the clone session the host wrote
for it), s1 moves the flow, and the host, told by s1's digest, installs
the old primary as the new backup.

s2 keeps notifying for the packets queued there before the move; s1 takes
only the notifications that come back along the path the flow takes, so it
moves the flow once.

Its own lab after test_congestion_service's (same prefix and ports, one at
a time): fbc-, REST 8212, P4Runtime 28461-28464.
"""
import os

import pytest

from test.congestion.congestionlab import CongestionLab, device, lab_ports
from test.congestion.test_congestion_service import (CONGESTION, SHAPED_BPS, congest, flow_body,
                                                     switches_of)
from test.lab.servicelab import ensure_built

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")


@pytest.fixture(scope="module")
def lab():
    ensure_built()
    prefix, rest_port, p4rt_base = lab_ports("fbc-", 8212, 28461)
    with CongestionLab(prefix=prefix, rest_port=rest_port, p4rt_base=p4rt_base,
                       shaped_bps=SHAPED_BPS, shaped_port=("s2", 2),
                       congestion=CONGESTION) as lab:
        yield lab


def test_a_queue_after_the_source_is_notified_back_and_the_source_switches(lab):
    flow = lab.rest.post("congestion/flows", flow_body(5006, m=3))
    try:
        got, now = congest(lab, flow, 5006)
        first = now["switchOvers"][0]
        # The digest comes from s1, which moved the flow; the delays are s2's,
        # carried by the notification.
        assert first["deviceId"] == device("s1")
        assert first["queueUs"] >= 500, first
        # s2 sends a notification per m packets queued there, also for those
        # sent before the move; s1 takes only those that come back along the
        # path the flow takes, so it moves once (before congestion.p4 ignored
        # stale ones: 19 moves back and forth in one run) and the old
        # primary becomes the backup.
        final = lab.rest.get(f"congestion/flows/{flow['id']}")
        assert len(final["switchOvers"]) == 1, final["switchOvers"]
        assert switches_of(final["primary"]) == [device(s) for s in ("s1", "s3", "s4")]
        assert switches_of(final["backup"]) == [device(s) for s in ("s1", "s2", "s4")]
        assert all(s["deviceId"] == device("s1") and s["newBackup"]
                   for s in final["switchOvers"]), final["switchOvers"]
        assert len(set(got)) == 1500, f"{1500 - len(set(got))} of 1500 lost"
    finally:
        lab.rest.delete(f"congestion/flows/{flow['id']}")
