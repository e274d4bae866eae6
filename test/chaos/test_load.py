# SPDX-License-Identifier: Apache-2.0
"""The short form of `make bench-load`: 8 concurrent REST clients for 5 s
of mixed pause / resume / batch / buffer create / remove against the
embedded host, with two live sequence-numbered flows paused and resumed
throughout, in both modes (in-process buffers in pbswitch, an external
buffer-agent). No 5xx, no refusal the scenario did not expect, nothing lost,
reordered or duplicated on the live flows, nothing left behind, and bounded
memory growth.

Own lab (one at a time): prefix fbl-, REST 8197, P4Runtime 28421, agent 28422."""
import os

import pytest

from test.chaos import load
from test.lab.servicelab import ensure_built

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

CLIENTS, SECONDS, WARMUP_S = 8, 5, 5
# Memory, robust on a loaded 2-core machine: in 5 s the JVM is still sizing
# its heap (RSS +114 MB in one run while the heap in use after a full GC
# stayed at 16 MB), so the host is held to its heap in use after a full GC
# (jcmd) and to an RSS under its bounded heap (-Xmx256m) plus the JVM's own;
# pbswitch and the agent (Go) to their RSS growth.
LIVE_HEAP_GROWTH_MB = 20
HOST_RSS_MB = 512
GO_RSS_GROWTH_MB = 50


@pytest.fixture(scope="module", autouse=True)
def built():
    ensure_built()


@pytest.mark.parametrize("mode", ["inprocess", "external"])
def test_mixed_rest_load_loses_nothing_and_fails_nothing(mode):
    results = {}
    r = load.run_mode(mode, CLIENTS, SECONDS, WARMUP_S, results)
    p = f"load_{mode}_"
    assert r[p + "ops_per_s"] * SECONDS > 100, r[p + "ops_per_s"]
    assert r[p + "5xx"] == 0, r
    assert r[p + "unexpected_errors"] == 0, r
    assert r[p + "leftovers"] == 0, r
    assert r[p + "live_lost"] == 0, r
    assert r[p + "live_reordered"] == 0, r
    assert r[p + "live_duplicates"] == 0, r
    assert all(c > 0 for c in r[p + "live_pause_cycles"]), r
    assert r[p + "host_rss_mb_after"] <= HOST_RSS_MB, r
    for name in ("pbswitch", "agent") if mode == "external" else ("pbswitch",):
        growth = r[p + f"{name}_rss_mb_after"] - r[p + f"{name}_rss_mb_before"]
        assert growth <= GO_RSS_GROWTH_MB, (name, r)
    before, after = r[p + "host_live_heap_mb_before"], r[p + "host_live_heap_mb"]
    if before is not None and after is not None:
        assert after - before <= LIVE_HEAP_GROWTH_MB, (before, after)
