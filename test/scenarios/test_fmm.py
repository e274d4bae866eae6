# SPDX-License-Identifier: Apache-2.0
"""A short real FMM run in the mobility lab: the anchor multicasts, the UE
is handed back and forth 20 times a second with 10 ms detaches, and a
sequenced UDP flow arrives whole, in order and without duplicates (each
attach's sync purged exactly what the source had delivered), with the
target eNB's agent releasing on the UE's attach datagram."""
import os

import pytest

from test.lab.servicelab import ensure_built
from test.scenarios import fmm

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")


@pytest.fixture(scope="module", autouse=True)
def binaries():
    ensure_built()


def test_fast_handoffs_lose_reorder_and_duplicate_nothing():
    run = fmm.udp_run(seconds=2.0, frequency=20.0, pps=2000)
    assert run["handoffs"] >= 20, run
    assert run["unsynced"] == 0, run
    assert run["purged"] > 0, run
    # Released by the agent before the attach call came, at most attaches.
    assert run["on_signal"] >= run["handoffs"] // 2, run
    assert run["received"] == run["sent"], run
    assert (run["lost"], run["reordered"], run["duplicates"]) == (0, 0, 0), run
