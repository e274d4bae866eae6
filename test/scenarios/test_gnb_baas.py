# SPDX-License-Identifier: Apache-2.0
"""A short gnb_baas run (make test): TCP downloads through the UPF and the
gNodeB's P4 pipeline over a radio that drops 5 % of the downlink frames,
with the BaaS buffer bound and without. Asserts what the buffer does, not
the goodput ratio (the scenario reports it; on a loaded machine it moves):
with the BaaS, PDUs the radio dropped reach the UE through resends of the
buffer and the sender's TCP (cubic, 40 ms away) enters fewer loss
recoveries; without it, none comes back and nothing is resent."""
import os

import pytest

from test.lab.servicelab import ensure_built
from test.scenarios import gnb_baas

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")


@pytest.fixture(scope="module")
def runs():
    ensure_built()
    # run() fails on any figure that cannot be true (check_physical).
    return {r["baas"]: r for r in gnb_baas.run(repeats=1, seconds=4, losses=(0.05,))}


def test_with_the_baas_dropped_pdus_reach_the_ue_through_resends(runs):
    run = runs[True]
    modem, arq = run["modem"], run["arq"]
    assert run["bytes"] > 0, run
    assert modem["radio_dropped"] > 0, run
    assert arq["resent"] >= modem["delivered_after_drop"] > 0, run
    # Most of them: a resend arrives a wheel turn (30 ms) plus the radio
    # queue later, well inside t-Reordering (200 ms) unless the machine
    # stalls the modem that long.
    assert modem["delivered_after_drop"] >= modem["radio_dropped"] // 2, run
    assert arq["acked"] > 0, run


def test_without_the_baas_nothing_dropped_comes_back(runs):
    run = runs[False]
    modem = run["modem"]
    assert run["bytes"] > 0, run
    assert modem["radio_dropped"] > 0, run
    assert modem["delivered_after_drop"] == 0, run
    assert run["arq"] is None


def test_the_baas_hides_radio_losses_from_the_senders_tcp(runs):
    # Without the BaaS each radio loss reaches the sender (a fast
    # retransmit, a recovery that shrinks cubic's window); with it the
    # resends fill the gaps before the UE's TCP sees them, and what is
    # left are the bottleneck queue's drops.
    with_baas, without = runs[True]["tcp"], runs[False]["tcp"]
    assert without["TCPSackRecovery"] > 0, runs[False]
    assert with_baas["TCPSackRecovery"] < without["TCPSackRecovery"], runs
