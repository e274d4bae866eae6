# SPDX-License-Identifier: Apache-2.0
"""The committed p4info.txt and bmv2.json are what p4c makes of the P4 source.

Needs p4c (p4c-bm2-ss on PATH), which is in no package registry FlowBuf
uses; without it the test skips and says so. pbswitch and the Java pipeconf
read the committed p4info, so a P4 change that is not recompiled would make
them disagree with the program.
"""
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = ROOT / "pipeconf" / "p4src" / "build"
P4C = os.environ.get("P4C", "p4c-bm2-ss")
# The hybrid UPF's profiles (tools/p4-build.sh) and their session tables' size.
PROFILES = {"upf-fast": 4096, "upf-slow": 1048576}

needs_p4c = pytest.mark.skipif(shutil.which(P4C) is None,
                               reason=f"needs p4c ({P4C} on PATH); not in any registry")


def _p4info(path):
    info = p4info_pb2.P4Info()
    text_format.Parse(path.read_text(), info)
    return info


@needs_p4c
def test_committed_p4info_is_the_compiler_output():
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([str(ROOT / "tools" / "p4-build.sh")], check=True,
                       env=dict(os.environ, OUT=out))
        for profile in ("", *PROFILES):
            fresh = _p4info(pathlib.Path(out) / profile / "p4info.txt")
            committed = _p4info(BUILD / profile / "p4info.txt")
            assert fresh == committed, \
                f"stale {profile or 'default'} p4info.txt: run `make p4-build` and commit"
            assert (pathlib.Path(out) / profile / "bmv2.json").read_text() == \
                (BUILD / profile / "bmv2.json").read_text(), \
                f"stale {profile or 'default'} bmv2.json: run `make p4-build`"


def test_committed_p4info_parses():
    info = _p4info(BUILD / "p4info.txt")
    assert info.tables, "p4info has no tables"
    assert {m.preamble.name for m in info.controller_packet_metadata} == \
        {"packet_in", "packet_out"}


def test_profiles_size_the_session_tables():
    for profile, sessions in {"": 65536, **PROFILES}.items():
        sizes = {t.preamble.name: t.size for t in _p4info(BUILD / profile / "p4info.txt").tables}
        for table in ("upf.uplink_sessions", "upf.downlink_sessions",
                      "upf.uplink_terminations", "upf.downlink_terminations"):
            assert sizes["IngressPipeImpl." + table] == sessions, (profile, table)
