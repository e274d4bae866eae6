# SPDX-License-Identifier: Apache-2.0
"""The promotion benchmark's streams (test/upf/ue_streams.py): each group
of UEs starts its gap after the one before, each UE sends pps for ms, the
packets in time order. Pure unit test."""
import pytest

from test.upf.ue_streams import schedule


def test_groups_start_a_gap_apart_and_each_ue_sends_its_share():
    plan = schedule(ues=5, group=2, gap_ms=100, pps=1000, ms=3)
    assert [due for due, _ in plan] == sorted(due for due, _ in plan)
    per_ue = {ue: [due for due, u in plan if u == ue] for ue in range(5)}
    assert all(len(v) == 3 for v in per_ue.values())  # 1,000/s for 3 ms
    assert per_ue[0] == per_ue[1] == pytest.approx([0.0, 0.001, 0.002])
    assert per_ue[2][0] == pytest.approx(0.1) and per_ue[3][0] == pytest.approx(0.1)
    assert per_ue[4] == pytest.approx([0.2, 0.201, 0.202])  # the last group: one UE


@pytest.mark.parametrize("bad", [dict(ues=0), dict(group=0), dict(pps=0), dict(ms=0),
                                 dict(gap_ms=-1)])
def test_bad_parameters_are_refused(bad):
    args = dict(ues=2, group=1, gap_ms=10, pps=100, ms=10)
    args.update(bad)
    with pytest.raises(ValueError):
        schedule(**args)
