# SPDX-License-Identifier: Apache-2.0
"""The mobility lab's radio gates: a change is in the kernel when run()
returns, and a change the kernel refuses raises with nft's message and
changes nothing."""
import os

import pytest

from . import Lab
from .mobilitylab import RadioGates


def elements(ue, kind, name):
    return ue.run("nft", "list", kind, "inet", "fbradio", name).stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="namespace lab needs root")
def test_a_change_is_committed_when_it_returns_and_a_refused_one_raises(tmp_path):
    with Lab("fbr-") as lab:  # no other lab's prefix: a Lab deletes what carries its own
        ue = lab.add_host("ue")
        gates = RadioGates(ue, ["r1", "r2"], tmp_path / "nft.log")
        try:
            gates.cut("r1")
            assert '"r1"' in elements(ue, "set", "cut")
            gates.uplink_via("r2", "10.0.0.1")
            assert "10.0.0.1 : 0x00000002" in elements(ue, "map", "uplink")
            gates.uplink_via("r1", "10.0.0.1")
            uplink = elements(ue, "map", "uplink")
            assert "10.0.0.1 : 0x00000001" in uplink and "0x00000002" not in uplink
            # r2 is not cut: opening it is refused, and the gates are as they were.
            with pytest.raises(RuntimeError, match="No such file or directory"):
                gates.open("r2")
            with pytest.raises(RuntimeError, match="syntax error"):
                gates.run("add element inet fbradio cut { r1 r2 }")
            cut = elements(ue, "set", "cut")
            assert '"r1"' in cut and '"r2"' not in cut
            gates.open("r1")
            assert '"r1"' not in elements(ue, "set", "cut")
        finally:
            gates.close()
