# SPDX-License-Identifier: Apache-2.0
"""The FB scenario's figures without a lab: a ratio compares each run with
DT's run of the same repetition and is reported as the median of the
repetitions with its spread; the options refuse what they cannot run."""
import pytest

from test.scenarios import fb

COND = ("multi_queue", 0.9, 0.75)


def results(per_rep):
    """{scheme: [qct of rep 0, rep 1, ...]} as run_once's results."""
    return {(*COND, scheme, rep): {"qct_avg": qct, "throughput_pct": 50.0, "qct_p99": qct,
                                   "buffer_pct_avg": 10.0}
            for scheme, qcts in per_rep.items() for rep, qct in enumerate(qcts)}


def test_each_repetition_is_compared_with_its_own_dt_run():
    # Paired: FB/DT is 0.5 in every repetition although DT varies 3x.
    r = results({"dt": [100, 300, 200], "fb": [50, 150, 100]})
    assert fb.ratios(r)[(*COND, "fb", "fb_qct_vs_dt")] == [0.5, 0.5, 0.5]


def test_the_median_and_spread_of_the_repetitions_are_emitted(capsys):
    r = results({"dt": [100, 100, 100], "fb": [30, 60, 40], "fba": [60, 60, 60],
                 "dt_ecn": [80, 80, 80]})
    fb.emit_ratios(r)
    lines = capsys.readouterr().out
    assert ('"fb_qct_vs_dt", "value": 0.4, "unit": "ratio", "conditions": {"variant": '
            '"multi_queue", "load_pct": 90, "query_pct_of_buffer": 75, "scheme": "fb", '
            '"runs": 3, "min": 0.3, "max": 0.6}') in lines
    assert '"fba_qct_vs_fb", "value": 1.5' in lines  # 60/40, the median of 2, 1, 1.5
    assert '"fb_qct_vs_dt_ecn", "value": 0.5' in lines  # 40/80


@pytest.mark.parametrize("only", ["multi_queue:90", "mq:90:75", "multi_queue:0:75",
                                  "single_queue:40:101", "multi_queue:x:75"])
def test_bad_conditions_are_refused_by_name(only):
    with pytest.raises(SystemExit):
        fb.main(["--only", only])


def test_a_scheme_the_variant_lacks_is_refused():
    with pytest.raises(SystemExit):
        fb.main(["--only", "single_queue:20:75", "--schemes", "fba"])


def test_ecn_runs_are_refused_under_bbr():
    with pytest.raises(SystemExit):
        fb.main(["--only", "multi_queue:90:75", "--schemes", "dt_ecn", "--cc", "bbr"])


def test_the_plan_keeps_dt_for_the_ratios():
    import argparse
    args = argparse.Namespace(variants="multi_queue", only="multi_queue:90:75", schemes="fb",
                              quick=False)
    assert fb.make_plan(args, argparse.ArgumentParser()) == [
        ("multi_queue", 0.9, 0.75, ("dt", "fb"))]


def test_netstat_reads_the_ce_counter():
    text = ("TcpExt: SyncookiesSent Foo\nTcpExt: 0 7\n"
            "IpExt: InNoRoutes InCEPkts\nIpExt: 0 42\n")
    assert fb.netstat(text)["IpExt"]["InCEPkts"] == 42


@pytest.mark.parametrize("k", ["-1", str(1 << 19)])
def test_a_marking_threshold_outside_enq_qdepths_width_is_refused(k):
    with pytest.raises(SystemExit):
        fb.main(["--only", "multi_queue:90:75", "--ecn-k", k])


def test_an_fba_period_below_the_tuners_minimum_is_refused():
    with pytest.raises(SystemExit):
        fb.main(["--only", "multi_queue:90:75", "--schemes", "fba", "--fba-period-ms", "5"])


def test_the_generators_figures_are_shares_of_the_four_ports():
    # Two senders over 10 s of arrivals and 12 s in all, at 10 Mbit/s a
    # port: the four ports carry 5 MB/s, 50 MB in the arrivals' 10 s.
    generated = [{"offered_bytes": 20_000_000, "written_bytes": 24_000_000, "lag_ms_max": 3.0,
                  "cpu_s": 0.6, "wall_s": 12.0},
                 {"offered_bytes": 25_000_000, "written_bytes": 24_000_000, "lag_ms_max": 7.5,
                  "cpu_s": 1.2, "wall_s": 11.9}]
    got = fb.generator_figures(generated, {"bytes": 1_000, "cpu_s": 1.0},
                               {"bytes": 30_001_000, "cpu_s": 2.2}, 10_000_000, 10.0)
    assert got == pytest.approx({"offered_pct": 90.0, "written_pct": 80.0, "sink_pct": 50.0,
                                 "sender_lag_ms_max": 7.5, "sender_cpu_pct": 15.0,
                                 "sink_cpu_pct": 10.0})


def test_a_missing_fba_jar_is_refused(tmp_path):
    with pytest.raises(SystemExit):
        fb.main(["--only", "multi_queue:90:75", "--schemes", "fba",
                 "--fba-jar", str(tmp_path / "none.jar")])
