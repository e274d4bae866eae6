# SPDX-License-Identifier: Apache-2.0
"""The FMM scenario's checks on its own figures, without a lab: a TCP figure
the radio cannot have carried in the time the UE was attached fails its run,
and the options refuse what they cannot run (LMM's too)."""
import json

import pytest

from test.lab import mobilitylab
from test.scenarios import fmm, lmm, report


def run(mbps, detached_s, handoffs):
    return {"mbps": mbps, "detached_s": detached_s, "handoffs": handoffs}


def test_a_baseline_above_the_attached_radio_capacity_fails_loudly():
    # The 2026-11-28 quick run: no buffering at 46.25 Mbit/s with the UE
    # detached 47 % of 6 s over 274 handoffs.
    with pytest.raises(mobilitylab.ImplausibleRun, match="none at 50 handoffs/s: 46.25 Mbit/s"):
        mobilitylab.check_plausible("none at 50 handoffs/s", run(46.25, 0.47 * 6, 274), 6)


def test_figures_within_the_attached_capacity_pass():
    # FMM in the same run (26.56 Mbit/s) uses the attached air time and the
    # air queue's token bucket at each attach; the no-handoff link (46.47).
    mobilitylab.check_plausible("fmm at 50 handoffs/s", run(26.56, 0.47 * 6, 274), 6)
    mobilitylab.check_plausible("fmm at 0 handoffs/s", run(46.47, 0.0, 0), 6)


def test_the_bound_is_the_attached_capacity_plus_a_bucket_per_attach():
    goodput = mobilitylab.radio_goodput_mbps()
    assert goodput == pytest.approx(50 * 1448 / 1514)
    no_handoffs = mobilitylab.attached_capacity_mbps(6, 0.0, 0)
    assert no_handoffs == pytest.approx(
        (goodput + mobilitylab.AIR_BURST_BYTES * 8 * mobilitylab.PAYLOAD_SHARE / 6 / 1e6)
        * (1 + mobilitylab.TIMING_SLACK))
    half = mobilitylab.attached_capacity_mbps(6, 3.0, 299)
    buckets = 300 * mobilitylab.AIR_BURST_BYTES * 8 * mobilitylab.PAYLOAD_SHARE / 6 / 1e6
    assert half == pytest.approx((goodput / 2 + buckets) * (1 + mobilitylab.TIMING_SLACK))


def test_modes_and_repeat_options():
    args = fmm.parse_args(["--quick", "--modes", "none,fmm", "--repeat", "5"])
    assert (args.modes, args.repeat) == (("none", "fmm"), 5)
    assert fmm.parse_args([]).modes == fmm.MODES
    for bad in (["--modes", "none,lmm"], ["--modes", ","], ["--repeat", "0"]):
        with pytest.raises(SystemExit):
            fmm.parse_args(bad)


def test_a_server_shaper_bounds_with_its_own_bucket():
    # LMM's lab shapes at the server: a 64 KB bucket refilled by each detach.
    air = mobilitylab.attached_capacity_mbps(6, 0.3, 6)
    server = mobilitylab.attached_capacity_mbps(
        6, 0.3, 6, burst_bytes=mobilitylab.SERVER_BURST_BYTES)
    assert server - air == pytest.approx(
        7 * (64 - 8) * 1024 * 8 * mobilitylab.PAYLOAD_SHARE / 6 / 1e6 * (1 + mobilitylab.TIMING_SLACK))


def test_lmm_refuses_a_repeat_below_one_before_any_lab(capsys):
    with pytest.raises(SystemExit):
        lmm.main(["--repeat", "0"])
    assert "--repeat is at least 1, not 0" in capsys.readouterr().err


def test_a_repeated_ratio_is_its_median_with_its_spread(capsys):
    report.emit_ratio("x_vs_y", [1.2, 0.9, 1.5], what="test")
    line = json.loads(capsys.readouterr().out.strip())
    assert line["value"] == 1.2
    assert line["conditions"] == {"what": "test", "runs": 3, "min": 0.9, "max": 1.5}
    report.emit_ratio("x_vs_y", [1.2345])
    assert json.loads(capsys.readouterr().out.strip())["conditions"] == {}
