# SPDX-License-Identifier: Apache-2.0
"""Three ONOS 2.7 instances as one cluster for the live tests, started,
killed and stopped with tools/onos/cluster.sh (each instance a copy of
ONOS_ROOT with its own loopback address; the test's ports on each)."""
import os
import pathlib
import subprocess
import time

from test.onos.onos import HTTP_PORT, SSH_PORT, START_TIMEOUT_S, KarafShell, Onos, onos_root
from test.lab.servicelab import ROOT

CLUSTER_SH = ROOT / "tools" / "onos" / "cluster.sh"
SIZE = 3


def cluster_dir():
    return pathlib.Path(os.environ.get("ONOS_CLUSTER_DIR", "/work/onos-cluster"))


def _env():
    return dict(os.environ, ONOS_ROOT=str(onos_root()), ONOS_CLUSTER_DIR=str(cluster_dir()),
                ONOS_SSH_PORT=str(SSH_PORT), ONOS_HTTP_PORT=str(HTTP_PORT))


class OnosCluster:
    """The three instances; members[n - 1] is instance n (an Onos on its address)."""

    def __init__(self):
        self.members = []
        self.start_seconds = None

    def cluster_sh(self, *args, timeout=START_TIMEOUT_S + 120):
        done = subprocess.run([str(CLUSTER_SH), *args], env=_env(), capture_output=True,
                              text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"cluster.sh {' '.join(args)}: {done.stdout}{done.stderr}")
        return done.stdout

    def start(self):
        """Every instance laid out afresh and started; returns when all three
        see each other READY."""
        started = time.monotonic()
        self.cluster_sh("start")
        try:
            self.cluster_sh("wait", str(START_TIMEOUT_S))
        finally:
            self.members = [Onos(cluster_dir() / f"onos-{n}", self.cluster_sh("ip", str(n))
                                 .strip()) for n in range(1, SIZE + 1)]
        self.start_seconds = time.monotonic() - started
        for member in self.members:
            member.shell = KarafShell(SSH_PORT, member.host)

    def member_of_node(self, node_id):
        """The member whose ONOS node id (cluster.json's "onos-N") is node_id."""
        return self.members[int(node_id.rsplit("-", 1)[1]) - 1]

    def kill(self, member):
        """kill -9 of the member's Karaf and JVM: a crash, not a shutdown."""
        if member.shell:
            member.shell.close()
            member.shell = None
        self.cluster_sh("kill", str(self.members.index(member) + 1), timeout=60)

    def stop(self):
        for member in self.members:
            if member.shell:
                member.shell.close()
                member.shell = None
        self.cluster_sh("stop", timeout=300)
