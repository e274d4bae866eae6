# SPDX-License-Identifier: Apache-2.0
"""The hybrid UPF's trace generator (test/upf/hybrid_trace.py): heavy-tailed
per-UE rates, reproducible by seed, frames a UPF takes, bad parameters
refused. No lab: the frames are checked with scapy."""
import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from test.upf import hybrid_trace as ht


def test_a_few_percent_of_ues_carry_most_packets():
    trace = ht.generate(1000, 50_000, seed=3)
    s = ht.stats(trace, hh_fraction=0.05)
    assert s["hh_ues"] == 50
    assert s["hh_packet_share"] >= 0.8, s
    assert s["median_ue_packets"] < s["max_ue_packets"] / 100, s


def test_lognormal_is_heavy_tailed_too():
    s = ht.stats(ht.generate(1000, 50_000, dist="lognormal", sigma=2.5, seed=3))
    assert s["hh_packet_share"] >= 0.5, s


def test_the_same_seed_gives_the_same_trace():
    assert ht.generate(100, 1000, seed=7)["order"] == ht.generate(100, 1000, seed=7)["order"]
    assert ht.generate(100, 1000, seed=7)["order"] != ht.generate(100, 1000, seed=8)["order"]


def test_a_frame_is_udp_to_the_ue_with_its_sequence():
    f = Ether(ht.frame("00:00:00:00:0a:02", "00:00:00:00:0a:01", "10.0.0.2", "10.250.0.7",
                       6, 41, 100))
    assert f[IP].dst == "10.250.0.7" and f[IP].src == "10.0.0.2"
    assert IP(bytes(f[IP])).chksum == f[IP].chksum  # scapy agrees with the checksum
    assert f[UDP].dport == ht.UDP_DST_PORT and len(f[UDP].payload) == 100
    magic, ue, seq, _ = ht.PAYLOAD.unpack_from(bytes(f[UDP].payload))
    assert (magic, ue, seq) == (ht.MAGIC, 6, 41)


@pytest.mark.parametrize("kwargs", [
    {"ues": 0, "packets": 10}, {"ues": 10, "packets": 0},
    {"ues": 10, "packets": 10, "dist": "pareto"},
    {"ues": 10, "packets": 10, "zipf_s": 0},
    {"ues": 10, "packets": 10, "dist": "lognormal", "sigma": -1},
])
def test_bad_parameters_are_refused(kwargs):
    with pytest.raises(ValueError):
        ht.generate(**kwargs)


def test_the_cli_refuses_bad_parameters_with_a_message(capsys):
    with pytest.raises(SystemExit) as exit_:
        ht.main(["generate", "--ues", "0", "--out", "/dev/null"])
    assert exit_.value.code == 2
    assert "--ues must be at least 1" in capsys.readouterr().err


def _payload(ue, seq, sent_ns=0):
    return ht.PAYLOAD.pack(ht.MAGIC, ue, seq, sent_ns) + bytes(8)


def test_the_receiver_counts_loss_reordering_and_duplicates_per_ue():
    tally = ht.Tally(ues=3, hh=1)
    for ue, seq in [(0, 0), (0, 2), (0, 1), (0, 1), (2, 0), (2, 3)]:
        assert tally.add(_payload(ue, seq, sent_ns=1000), now_ns=3000)
    assert not tally.add(bytes(ht.PAYLOAD.size), now_ns=3000)  # not the trace's magic
    assert not tally.add(_payload(7, 0), now_ns=3000)  # no such UE
    got = tally.result()
    assert got["received"] == [3, 0, 2]
    assert got["reordered"] == [1, 0, 0] and got["duplicates"] == [1, 0, 0]
    assert len(got["latency_us"]["hh"]) == 3 and len(got["latency_us"]["non_hh"]) == 2
    assert got["latency_us"]["hh"][0] == 2.0
