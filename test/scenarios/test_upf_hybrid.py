# SPDX-License-Identifier: Apache-2.0
"""A short upf_hybrid scenario (test/scenarios/upf_hybrid.py): one trace
(1,000 UEs, Zipf) replayed switch-only, x86-only with the slow path shaped
to a third of the offered rate, and hybrid with the same shaping, on one lab.

What must hold on any machine, loaded or not, because it follows from the
tables and the shaper rather than from timing (run_configs already fails on
a figure that cannot be true: more received than sent, a UE without a
session delivered, the shaped path faster than its shaper): switch-only
delivers only the UEs in its table; x86-only sends every packet through
the slow path; the hybrid promotes the heaviest UE (a third of the trace,
hundreds of packets a second), carries part of the bytes on the fast path
and so delivers more than the shaped x86-only; what it moved between the
paths arrives in order.
"""
import os

import pytest

from test.lab.servicelab import ensure_built
from test.scenarios import upf_hybrid as uh

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

PPS, SECONDS = 1500, 8


@pytest.fixture(scope="module")
def result():
    ensure_built()
    trace, table, runs = uh.run_configs(PPS, SECONDS, configs=(
        ("switch_only", True), ("x86_only", True), ("hybrid", True)))
    return trace, table, {r["config"]: r for r in runs}


def test_switch_only_delivers_the_ues_in_its_table_only(result):
    trace, table, runs = result
    got = runs["switch_only"]["got"]["received"]
    assert all(got[i] > 0 for i in table), [(i, got[i]) for i in table if not got[i]]
    assert sum(got) < sum(trace["counts"])  # the others' packets were dropped


def test_x86_only_takes_the_slow_path_at_its_shaped_rate(result):
    _, _, runs = result
    r = runs["x86_only"]
    assert r["moved"] == [] and r["bytes"]["to_slow"] >= r["bytes"]["dn_in"] * 0.99, r["bytes"]
    assert uh.delivered_pps(r) < PPS * 0.5, uh.delivered_pps(r)


def test_the_hybrid_promotes_the_heaviest_ue_and_delivers_more(result):
    trace, _, runs = result
    r = runs["hybrid"]
    assert trace["ues"][0] in r["moved"], r["moved"][:10]
    share = 1 - r["bytes"]["to_slow"] / r["bytes"]["dn_in"]
    assert share > 0.2, r["bytes"]
    assert uh.delivered_pps(r) > uh.delivered_pps(runs["x86_only"])


def test_nothing_the_hybrid_moved_was_reordered(result):
    trace, _, runs = result
    r = runs["hybrid"]
    moved = [trace["ues"].index(ue) for ue in r["moved"]]
    assert sum(r["got"]["reordered"][i] for i in moved) == 0
    assert sum(r["got"]["duplicates"][i] for i in moved) == 0
