#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The FlowBuf reference lab on Stratum bmv2 (production mode).

Runs inside an environment that has Mininet and Stratum's Mininet switch
class (e.g. the mn-stratum image):

    sudo python3 stratum-configs/mininet-topo.py

Hosts and switch ports come from topology.json. The vport veth pairs are
created before the switch starts, because stratum_bmv2 opens every
singleton port of its chassis config at start; the buffer-agent then opens
the other end of each pair (agent_interface).
"""
import json
import pathlib
import subprocess

from mininet.cli import CLI
from mininet.net import Mininet
from mininet.topo import Topo
from stratum import StratumBmv2Switch  # provided by mn-stratum

HERE = pathlib.Path(__file__).resolve().parent
TOPO = json.loads((HERE / "topology.json").read_text())


class FlowBufTopo(Topo):
    """Hosts on their switch ports, as topology.json lists them."""

    def build(self):
        hosts = {h["name"]: h for h in TOPO["hosts"]}
        for sw in TOPO["switches"]:
            switch = self.addSwitch(
                sw["name"], cls=StratumBmv2Switch, cpuport=TOPO["cpu_port"],
                grpcPort=sw["grpc_port"],
                chassisConfig=str(HERE / f'chassis-config-{sw["name"]}.pb.txt'))
            for port in sw["ports"]:
                if "host" not in port:
                    continue
                spec = hosts[port["host"]]
                host = self.addHost(spec["name"], mac=spec["mac"], ip=spec["ip"])
                self.addLink(host, switch, port2=port["number"])


def create_vport_links():
    """veth pairs switch-side <-> agent-side for every vport."""
    for sw in TOPO["switches"]:
        for port in sw["ports"]:
            if "vport" not in port:
                continue
            subprocess.run(["ip", "link", "add", port["interface"], "type", "veth",
                            "peer", "name", port["agent_interface"]], check=False)
            for end in (port["interface"], port["agent_interface"]):
                subprocess.run(["ip", "link", "set", end, "up"], check=True)
                subprocess.run(["ethtool", "-K", end, "gro", "off", "gso", "off",
                                "tso", "off"], check=False)


def main():
    create_vport_links()
    net = Mininet(topo=FlowBufTopo(), controller=None)
    net.start()
    CLI(net)
    net.stop()


if __name__ == "__main__":
    main()
