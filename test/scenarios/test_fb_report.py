# SPDX-License-Identifier: Apache-2.0
"""The FB scenario's figures without a lab: a ratio compares each run with
DT's run of the same repetition and is reported as the median of the
repetitions with its spread; the options refuse what they cannot run."""
import argparse
import json

import pytest

from test.scenarios import fb

COND = ("multi_queue", 0.9, 0.75)
RATE_BPS = 50_000_000


def results(per_rep):
    """{scheme: [qct of rep 0, rep 1, ...]} as run_once's results."""
    return {(*COND, scheme, rep): {"qct_avg": qct, "throughput_pct": 50.0, "qct_p99": qct,
                                   "buffer_pct_avg": 10.0, "rate_bps": RATE_BPS}
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
            '"multi_queue", "rate_mbps": 50, "load_pct": 90, "query_pct_of_buffer": 75, '
            '"scheme": "fb", "runs": 3, "min": 0.3, "max": 0.6}') in lines
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
    args = argparse.Namespace(variants="multi_queue", only="multi_queue:90:75", schemes="fb",
                              quick=False, fba_periods=fb.FBA_PERIODS_MS)
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


@pytest.mark.parametrize("periods, says", [
    ("5", "5 ms is outside FBA's 10..3600000 ms"),
    ("1000,5", "5 ms is outside"),
    ("3600001", "3600001 ms is outside"),
    ("-100", "-100 ms is outside"),
    ("", "is not a list of whole milliseconds"),
    ("1000,", "is not a list of whole milliseconds"),
    ("1s", "is not a list of whole milliseconds"),
    ("100.5", "is not a list of whole milliseconds"),
    ("100,1000,100", "names a period twice"),
])
def test_bad_fba_periods_are_refused_with_what_is_wrong(periods, says, capsys):
    with pytest.raises(SystemExit) as exited:
        fb.main(["--only", "multi_queue:90:75", "--schemes", "fba", "--fba-periods", periods])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--fba-periods" in err and says in err, err


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


def plan_of(*argv):
    return fb.make_plan(plan_args(*argv), argparse.ArgumentParser())


def plan_args(*argv):
    """main's options after parsing, as make_plan gets them."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--variants", default=",".join(fb.VARIANTS))
    parser.add_argument("--only", default="")
    parser.add_argument("--schemes", default="")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--fba-periods", default="1000,100")
    args = parser.parse_args(argv)
    args.fba_periods = fb.parse_fba_periods(args.fba_periods, parser)
    return args


def test_the_multi_queue_run_carries_fba_at_the_papers_period_and_at_100ms():
    # The default: both periods, single-queue without FBA (the paper, §5.2).
    assert plan_of("--quick") == [
        ("multi_queue", 0.9, 0.75, ("cs", "dt", "fb", "fba", "fba_100ms", "dt_ecn")),
        ("single_queue", 0.2, 0.75, ("cs", "dt", "fb", "dt_ecn"))]


def test_fba_in_schemes_stands_for_every_period_asked_for():
    assert plan_of("--only", "multi_queue:90:75", "--schemes", "fb,fba",
                   "--fba-periods", "100,250,1000") == [
        ("multi_queue", 0.9, 0.75, ("dt", "fb", "fba_100ms", "fba_250ms", "fba"))]
    assert plan_of("--only", "multi_queue:90:75", "--schemes", "fba", "--fba-periods",
                   "100") == [("multi_queue", 0.9, 0.75, ("dt", "fba_100ms"))]


def test_an_fba_period_is_not_a_scheme_name_of_its_own():
    with pytest.raises(SystemExit):
        plan_of("--only", "multi_queue:90:75", "--schemes", "fba_100ms")


def test_an_fba_schemes_name_says_its_period_and_runs_on_dt():
    assert [fb.fba_scheme(p) for p in (1000, 100, 2500)] == ["fba", "fba_100ms", "fba_2500ms"]
    assert [fb.fba_period_ms(s) for s in ("fba", "fba_100ms", "fba_2500ms")] == [1000, 100, 2500]
    assert [fb.fba_period_ms(s) for s in ("fb", "dt", "dt_ecn", "fba_ms", "fba_xms")] == [
        None] * 5
    assert fb.setting("fba_100ms", "multi_queue")["algorithm"] == "dt"
    assert fb.setting("fba", "multi_queue") == fb.setting("dt", "multi_queue")
    assert [fb.scheme_label(s) for s in ("fb", "fba", "fba_100ms", "fba_2500ms")] == [
        "FB", "FBA 1 s", "FBA 100 ms", "FBA 2.5 s"]


def emitted(capsys):
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_each_fba_period_is_compared_with_fb_of_the_same_repetition(capsys):
    r = results({"dt": [100, 100, 100], "fb": [40, 50, 20], "fba": [60, 100, 20],
                 "fba_100ms": [44, 50, 30]})
    fb.emit_ratios(r)
    got = {(m["metric"], m["conditions"]["scheme"]): m for m in emitted(capsys)}
    slow, fast = got[("fba_qct_vs_fb", "fba")], got[("fba_100ms_qct_vs_fb", "fba_100ms")]
    assert (slow["value"], slow["conditions"]["min"], slow["conditions"]["max"]) == (1.5, 1.0, 2.0)
    assert (fast["value"], fast["conditions"]["min"], fast["conditions"]["max"]) == (1.1, 1.0, 1.5)
    assert slow["conditions"]["fba_period_ms"] == 1000
    assert fast["conditions"]["fba_period_ms"] == 100
    assert "fba_period_ms" not in got[("fb_qct_vs_dt", "fb")]["conditions"]
    # FBA against DT too, per period.
    assert got[("fb_qct_vs_dt", "fba_100ms")]["value"] == 0.44


def test_fba_without_fb_in_the_plan_has_no_ratio_to_fb():
    ratios = fb.ratios(results({"dt": [100], "fba_100ms": [50]}))
    assert set(ratios) == {(*COND, "fba_100ms", "fb_qct_vs_dt"),
                           (*COND, "fba_100ms", "fb_throughput_vs_dt")}


def test_the_summary_line_gives_fb_against_dt_and_each_fba_period_against_fb():
    line = fb.summary(results({"dt": [100], "fb": [40], "fba": [60], "fba_100ms": [46]}), 1)
    assert "multi_queue 50 Mbit/s 90% q75: FB/DT QCT 0.40 [0.40-0.40]" in line
    assert "multi_queue 50 Mbit/s 90% q75: FBA 1 s/FB QCT 1.50 [1.50-1.50]" in line
    assert "multi_queue 50 Mbit/s 90% q75: FBA 100 ms/FB QCT 1.15 [1.15-1.15]" in line


def test_the_plot_has_a_bar_per_fba_period_marked_with_its_ratio_to_fb(monkeypatch):
    saved = {}
    monkeypatch.setattr(fb, "save", lambda fig, name: saved.update(fig=fig, name=name))
    r = results({"dt": [100], "fb": [40], "fba": [60], "fba_100ms": [46], "dt_ecn": [80]})
    fb.plot(fb.medians(r), fb.ratios(r), fb.variant_rates(r))
    ax = saved["fig"].axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "DT", "FB", "FBA 1 s", "FBA 100 ms", "DT_ECN"]
    assert sorted(t.get_text() for t in ax.texts) == ["1.15x FB", "1.50x FB"]


def parsed_rates(text):
    return fb.parse_rates(text, argparse.ArgumentParser())


def test_by_default_each_variant_has_its_own_port_rate():
    # Multi-queue where the 200 ms min RTO costs a query what the paper's
    # 100 ms costs its; single-queue where its figures were measured.
    default = fb.build_parser().parse_args([]).rate_mbps
    assert default == "multi_queue=50,single_queue=10"
    assert parsed_rates(default) == {"multi_queue": 50_000_000, "single_queue": 10_000_000}


@pytest.mark.parametrize("text, rates", [
    ("50", {"multi_queue": 50_000_000, "single_queue": 50_000_000}),
    ("0.5", {"multi_queue": 500_000, "single_queue": 500_000}),
    ("single_queue=20", {"multi_queue": 50_000_000, "single_queue": 20_000_000}),
    ("single_queue=20,multi_queue=100", {"multi_queue": 100_000_000,
                                         "single_queue": 20_000_000}),
])
def test_one_rate_for_all_or_rates_per_variant(text, rates):
    assert parsed_rates(text) == rates


@pytest.mark.parametrize("text, says", [
    ("", "'' is not a rate in Mbit/s"),
    ("fast", "'fast' is not a rate in Mbit/s"),
    ("50,10", "'50,10' is not a rate in Mbit/s"),
    ("0", "0 Mbit/s is outside 0.1..1000 Mbit/s"),
    ("1001", "1001 Mbit/s is outside"),
    ("nan", "nan Mbit/s is outside"),
    ("-10", "-10 Mbit/s is outside"),
    ("multi_queue=50,single_queue=", "'' is not a rate in Mbit/s"),
    ("multi_queue=0.01", "0.01 Mbit/s is outside"),
    ("mq=50", "'mq=50' is not variant=Mbit/s"),
    ("multi_queue=50,10", "'10' is not variant=Mbit/s"),
    ("multi_queue=50,multi_queue=10", "names multi_queue twice"),
])
def test_bad_rates_are_refused_naming_the_option(text, says, capsys):
    with pytest.raises(SystemExit) as exited:
        fb.main(["--quick", "--rate-mbps", text])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--rate-mbps: " in err and says in err, err


def test_each_rate_gets_a_lab_of_its_own_in_the_plans_order():
    plan = [("multi_queue", 0.9, 0.75, ("dt",)), ("single_queue", 0.2, 0.75, ("dt",)),
            ("multi_queue", 0.4, 0.75, ("dt",))]
    split = fb.lab_groups(plan, {"multi_queue": 50_000_000, "single_queue": 10_000_000})
    assert split == [(50_000_000, [plan[0], plan[2]]), (10_000_000, [plan[1]])]
    assert fb.lab_groups(plan, {"multi_queue": 10_000_000, "single_queue": 10_000_000}) == [
        (10_000_000, plan)]


class FakeLab:
    """FbLab's part run_plan uses; records the labs opened and closed."""

    events = []

    def __init__(self, logs, cc=None, rto_min_ms=None, ecn_k=None, rate_bps=None):
        self.logs, self.rate_bps = logs, rate_bps
        FakeLab.events.append(("open", rate_bps, logs.name))

    def close(self):
        FakeLab.events.append(("close", self.rate_bps))


def fake_run_once(lab, logs, scheme, variant, load, query, duration, rep=0, fba_jar=None):
    qct = {"dt": 100.0, "fb": 40.0}[scheme]
    return {"qct_avg": qct, "qct_p99": qct, "queries": 5, "throughput_pct": 60.0,
            "short_fct_p99": 1.0, "short_flows": 3, "buffer_pct_p99": 50.0,
            "buffer_pct_avg": 20.0, "drops": {"query_dt_threshold": 1}, "trace": "t",
            "machine_load": 3.0, "ce_packets": 0, "wall_s": 9.0, "offered_pct": 90.0,
            "written_pct": 80.0, "sink_pct": 70.0, "sender_lag_ms_max": 1.0,
            "sender_cpu_pct": 5.0, "sink_cpu_pct": 2.0, "rate_bps": lab.rate_bps}


def test_every_line_carries_its_variants_rate_and_the_labs_close_in_turn(
        monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(fb, "FbLab", FakeLab)
    monkeypatch.setattr(fb, "run_once", fake_run_once)
    FakeLab.events = []
    plan = [("multi_queue", 0.9, 0.75, ("dt", "fb")), ("single_queue", 0.2, 0.75, ("dt", "fb"))]
    args = argparse.Namespace(cc="reno", rto_min_ms=None, ecn_k=2, first_run=0, fba_jar=None)
    results = fb.run_plan(plan, {"multi_queue": 50_000_000, "single_queue": 10_000_000},
                          tmp_path, args, 5.0, 1)
    assert FakeLab.events == [("open", 50_000_000, "50mbps"), ("close", 50_000_000),
                              ("open", 10_000_000, "10mbps"), ("close", 10_000_000)]
    fb.emit_ratios(results)
    lines = emitted(capsys)
    assert len(lines) > 20 and any(m["metric"] == "fb_single_queue_qct_vs_dt" for m in lines)
    for m in lines:
        want = 50 if m["conditions"]["variant"] == "multi_queue" else 10
        assert m["conditions"]["rate_mbps"] == want, m
    line = fb.summary(results, 1)
    assert "multi_queue 50 Mbit/s 90% q75: FB/DT QCT 0.40" in line
    assert "single_queue 10 Mbit/s 20% q75: FB/DT QCT 0.40" in line


def test_each_variant_at_each_rate_has_a_plot_of_its_own(monkeypatch):
    saved = {}
    monkeypatch.setattr(fb, "save", lambda fig, name: saved.setdefault(name, fig))
    r = results({"dt": [100], "fb": [40]})
    r.update({("single_queue", 0.2, 0.75, s, 0): {**v, "rate_bps": 10_000_000}
              for (*_, s, _rep), v in results({"dt": [90], "fb": [30]}).items()})
    fb.plot(fb.medians(r), fb.ratios(r), fb.variant_rates(r))
    assert sorted(saved) == ["fb_qct_multi_queue_50mbps", "fb_qct_single_queue_10mbps"]
    assert "50 Mbit/s" in saved["fb_qct_multi_queue_50mbps"].axes[0].get_title()
    assert fb.plot_name("multi_queue", 10_000_000) == "fb_qct_multi_queue_10mbps"
