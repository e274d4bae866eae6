# SPDX-License-Identifier: Apache-2.0
"""The gnb_baas scenario's figures without a lab: each case's goodput is
the median of the repeats and the BaaS/none ratio the median of the
repeats' own ratios; the sender's TCP counters come from /proc/net/netstat;
a run whose TCP is not the one the conditions name fails; the options
refuse what they cannot run."""
import json

import pytest

from test.scenarios import gnb_baas

NETSTAT = """TcpExt: SyncookiesSent TCPSackRecovery TCPFastRetrans TCPLossProbes TCPTimeouts \
TCPSpuriousRTOs TCPDSACKRecv TCPLostRetransmit TCPAbortOnData
TcpExt: 0 36 61 1 2 0 3 4 9
IpExt: InNoRoutes InTruncatedPkts
IpExt: 0 0
"""


def fake_run(loss, baas, mbps, recoveries):
    tcp = dict.fromkeys(gnb_baas.TCP_COUNTERS, 0)
    tcp["TCPSackRecovery"] = recoveries
    return {"loss": loss, "baas": baas, "mbps": mbps, "rtt_ms": 41.0, "retransmits": recoveries,
            "tcp_cc": "cubic", "tcp": tcp,
            "modem": {"radio_dropped": 10, "delivered_after_drop": 9 if baas else 0,
                      "frames": 100, "duplicates": 0, "gaps_skipped": 0, "max_wait_ms": 1.0},
            "arq": {"resent": 10, "acked_after_resend": 9, "packets_in": 100, "drops": {}}
            if baas else None}


def metrics(out):
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_the_tcpext_counters_are_read_by_name():
    counters = gnb_baas.parse_tcpext(NETSTAT)
    assert counters == {"TCPSackRecovery": 36, "TCPFastRetrans": 61, "TCPLossProbes": 1,
                        "TCPTimeouts": 2, "TCPSpuriousRTOs": 0, "TCPDSACKRecv": 3,
                        "TCPLostRetransmit": 4}


@pytest.mark.parametrize("text", ["", "IpExt: InNoRoutes\nIpExt: 0\n",
                                  "TcpExt: TCPSackRecovery\nTcpExt: 1\n"])
def test_a_netstat_without_the_counters_is_an_error(text):
    with pytest.raises(RuntimeError, match="netstat"):
        gnb_baas.parse_tcpext(text)


def test_a_run_with_another_congestion_control_fails():
    run = fake_run(0.05, True, 7.0, 3)
    gnb_baas.check_regime(run, "cubic")
    run["tcp_cc"] = "bbr"
    with pytest.raises(RuntimeError, match="bbr, not cubic"):
        gnb_baas.check_regime(run, "cubic")


def test_goodputs_and_the_ratio_are_medians_of_the_repeats(monkeypatch, capsys):
    monkeypatch.setattr(gnb_baas, "plot", lambda runs: None)
    # Paired repeats: ratios 7.0, 3.5 and 14.0, median 7.0; goodput medians 7.0 and 1.0.
    runs = [fake_run(0.05, True, 7.0, 3), fake_run(0.05, False, 1.0, 30),
            fake_run(0.05, True, 7.0, 4), fake_run(0.05, False, 2.0, 31),
            fake_run(0.05, True, 7.0, 5), fake_run(0.05, False, 0.5, 32)]
    gnb_baas.report(runs, 3, {"core_rtt_ms": 40, "tcp": "iperf3 -R, Linux cubic"})
    out = capsys.readouterr().out
    by = {(m["metric"], m["conditions"].get("case")): m for m in metrics(out)}
    assert by[("gnb_goodput_mbps", "baas")]["value"] == 7.0
    assert by[("gnb_goodput_mbps", "none")]["value"] == 1.0
    ratio = by[("gnb_goodput_baas_vs_none", None)]
    assert ratio["value"] == 7.0
    assert (ratio["conditions"]["min"], ratio["conditions"]["max"]) == (3.5, 14.0)
    assert by[("gnb_sender_tcp", "none")]["conditions"]["TCPSackRecovery"] == [30, 31, 32]
    assert "TCP recoveries 12 vs 93" in out


@pytest.mark.parametrize("argv", [["--loss", "1.5"], ["--loss", "-0.1"], ["--core-rtt-ms", "-1"],
                                  ["--repeats", "0"], ["--tcp", "vegas"]])
def test_bad_options_are_refused_before_any_lab(argv, monkeypatch):
    monkeypatch.setattr(gnb_baas, "ensure_built", lambda: pytest.fail("built despite bad options"))
    with pytest.raises(SystemExit) as exited:
        gnb_baas.main(argv)
    assert exited.value.code == 2
