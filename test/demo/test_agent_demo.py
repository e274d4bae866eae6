# SPDX-License-Identifier: Apache-2.0
"""The agent demo, short: a paused and resumed flow loses and reorders nothing."""
import argparse
import os
import subprocess

import pytest

from . import agent_demo

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (network namespaces)")


@pytest.fixture(scope="module", autouse=True)
def agent_binary():
    subprocess.run(["go", "build", "-o", "bin/", "./buffer-agent/cmd/buffer-agent"],
                   check=True, cwd=agent_demo.ROOT)


def test_paused_flow_is_held_then_delivered_in_order():
    report = agent_demo.run(_args(pps=2000, seconds=2.5, pause_at=0.5, hold=1.0))
    assert report["held_packets"] > 500
    assert report["received"] == report["sent"] == 5000
    assert report["lost"] == 0 and report["reordered"] == 0 and report["duplicates"] == 0


def _args(**kw):
    return argparse.Namespace(**kw)
