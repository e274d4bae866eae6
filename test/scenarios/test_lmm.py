# SPDX-License-Identifier: Apache-2.0
"""A short real LMM run in the mobility lab: two handoffs (there and back,
the second reusing the buffer the first left the downlink in), 0 lost,
0 reordered, every handoff completed by both end-marker reports."""
import os

import pytest

from test.lab.servicelab import ensure_built
from test.scenarios import lmm

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")


@pytest.fixture(scope="module", autouse=True)
def binaries():
    ensure_built()


def test_handoffs_there_and_back_lose_and_reorder_nothing():
    run = lmm.udp_run(handoffs=2, pps=2000, interval_s=1.0)
    assert run["handoffs"] == 2, run
    assert run["received"] == run["sent"], run
    assert (run["lost"], run["reordered"], run["duplicates"]) == (0, 0, 0), run


def test_the_no_buffering_baseline_loses_what_reaches_a_detached_ue():
    # The same handoffs without buffers: the comparison is only honest if
    # the baseline really loses packets in this lab.
    run = lmm.udp_run(handoffs=2, pps=2000, interval_s=1.0, buffering="none")
    assert run["lost"] > 0, run
