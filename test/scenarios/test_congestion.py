# SPDX-License-Identifier: Apache-2.0
"""A short congestion-avoidance scenario in the paper's seven-switch lab:
Dataplane5_20 and NoCC under the same cross traffic (1.5 x the port rate
through s3). What must hold on any machine, loaded or not: the data plane
moves the flow (s3 notifies s1, s1 switches, the host records s1's digest)
and the backup carries packets; NoCC never switches and its queue on s3
overflows; the data plane loses fewer packets on the congested path than
NoCC and its average delay under the cross traffic is lower. No tight
timing: the bounds are the queue's (64 packets at 10 Mbit/s: about 53 ms)
and the cross traffic's. Also Probing1s (the controller's probe, late or
lost behind s3's queue, moves the flow at s1) and congestion on s5 (the
notification goes s5 -> s3 -> s1, where the flow moves).

Own lab: prefix fct-, REST 8222, P4Runtime/buffer API 28621-28634
(FLOWBUF_CC_LAB=PREFIX,REST,P4RT_BASE runs it on others).
"""
import os

import pytest

from test.congestion.congestionlab import device, lab_ports
from test.lab.servicelab import ensure_built
from test.scenarios import congestion

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

SECONDS = 5
LOAD = 1.5


@pytest.fixture(scope="module")
def runs():
    ensure_built()
    with congestion.lab(*lab_ports("fct-", 8222, 28621)) as lab:
        got = {mode: congestion.one_run(lab, mode, 5, 20, LOAD, SECONDS, port)
               for mode, port in (("DATAPLANE", 7300), ("NOCC", 7301))}
        got["PROBING"] = congestion.one_run(lab, "PROBING", 1, None, LOAD, SECONDS, 7302)
        got["S5"] = congestion.one_run(lab, "DATAPLANE", 5, 20, LOAD, SECONDS, 7303,
                                       cross=congestion.S5_CROSS,
                                       congested=congestion.S5_CONGESTED)
        yield got


def on_schedule(run):
    """The run met its cross traffic: both senders began on time."""
    assert run["late_ms"] < congestion.START_LEAD_S * 1e3, (
        f"a sender began {run['late_ms']:.0f} ms late: its start-up took more "
        f"than the {congestion.START_LEAD_S} s the lab allows")
    return run


def test_the_data_plane_moves_the_flow_and_the_host_hears_of_it(runs):
    run = on_schedule(runs["DATAPLANE"])
    assert run["switch_overs"], "no switch-over recorded"
    # s3 has no backup; its notification makes s1, the source, switch.
    assert run["switch_overs"][0]["deviceId"] == device("s1")
    q = congestion.qos(run)
    assert q["backup_share"] > 0, q
    # Not when: a stall of a loaded machine can hold the flow's packets in a
    # switch's queue past t_q before the cross traffic comes (README).


def test_nocc_never_switches_and_its_queue_overflows(runs):
    run = on_schedule(runs["NOCC"])
    assert run["switch_overs"] == []
    q = congestion.qos(run)
    assert q["backup_share"] == 0, q
    assert q["loss_pct"] > 1, q
    assert q["lost_primary"] > 0, q  # sent towards s3 and never arrived
    # The queue on s3 filled: the worst delay is many cross frames long.
    assert q["delay_max"] > 20, q


def test_the_data_plane_loses_less_and_waits_less_than_nocc(runs):
    dp, nocc = congestion.qos(runs["DATAPLANE"]), congestion.qos(runs["NOCC"])
    # What the congested path lost (sent on s1 -> s3, never received): a
    # stall of the machine can drop packets anywhere, congestion only there.
    # Not 0 for the data plane: congestion.p4 moves the flow back to the
    # primary on a stale notification (README).
    assert dp["lost_primary"] < nocc["lost_primary"], (dp, nocc)
    assert dp["delay_avg"] < nocc["delay_avg"], (dp, nocc)


def test_probing_moves_the_flow_at_s1_when_a_probe_is_late_or_lost(runs):
    run = on_schedule(runs["PROBING"])
    assert run["probes"]["sent"] >= 3, run["probes"]
    assert run["switch_overs"], ("no move", run["probes"])
    first = run["switch_overs"][0]
    assert first["deviceId"] == device("s1")
    assert first["cause"] in ("PROBE_LATE", "PROBE_MISSING"), first
    assert run["probes"]["lost"] + run["probes"]["late"] >= 1, run["probes"]
    assert congestion.qos(run)["backup_share"] > 0


def test_congestion_on_s5_reaches_s1_through_s3(runs):
    # Neither s5 nor s3 has a backup: s5's notification goes to s3, which
    # sends it on to s1, which moves the flow and reports it.
    run = on_schedule(runs["S5"])
    assert run["switch_overs"], "no switch-over recorded"
    assert run["switch_overs"][0]["deviceId"] == device("s1")
    assert run["switch_overs"][0]["cause"] == "DIGEST"
    assert congestion.qos(run)["backup_share"] > 0
