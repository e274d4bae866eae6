#!/usr/bin/env python
# SPDX-License-Identifier: Apache-2.0
"""The FlowBuf lab on Stratum bmv2 (production mode), in Mininet.

Runs where Mininet and Stratum's Mininet classes (stratum.py) are installed:
the mn-stratum image, as docker-compose.yml beside this script starts it, or
a host with both:

    sudo python stratum-configs/mininet-topo.py [--topology FILE] [--configs DIR]
                                                [--bmv2-log-level LEVEL]

Hosts and switch ports come from the topology (default: topology.json beside
this script). Each switch starts with FlowBuf's chassis config from DIR
(default: the topology's directory; gen_configs.py / make netcfg write it),
not the one stratum.py would derive from the switch's Mininet links: that one
has no vports, and in mn-stratum 22.06 it numbers ports in link order. The
vport veth pairs are made before the switches start, because stratum_bmv2
opens every singleton port of its chassis config at start; the buffer-agent
opens the other end of each pair (agent_interface). Each switch logs to
/tmp/<switch>/stratum_bmv2.log (with --bmv2-log-level debug, every packet's
way through the pipeline) and the P4Runtime writes it received to
/tmp/<switch>/write-reqs.txt.

This script runs on the image's Python: 2.7 in mn-stratum 22.06 (the release
docker-compose.yml pins), 3 in later builds. A test keeps it within both.
"""
import argparse
import json
import os
import subprocess

from mininet.cli import CLI
from mininet.log import setLogLevel
from mininet.net import Mininet
from mininet.topo import Topo
from stratum import NoOffloadHost, StratumBmv2Switch  # provided by mn-stratum

HERE = os.path.dirname(os.path.abspath(__file__))


class FlowBufStratumSwitch(StratumBmv2Switch):
    """stratum_bmv2 on FlowBuf's chassis config, gRPC port and device id."""

    def __init__(self, name, chassis_config=None, grpc_port=None, device_id=1, **params):
        StratumBmv2Switch.__init__(self, name, **params)
        # Set after the base class: by version it takes the next free port
        # from 50001 or a grpcPort argument; this works with both.
        self.grpcPort = grpc_port
        # stratum_bmv2 -device_id: the P4Runtime device id, and the node id
        # that the chassis config's ports must name.
        self.nodeId = device_id
        self.chassisConfigSource = chassis_config

    def getChassisConfig(self):
        with open(self.chassisConfigSource) as f:
            return f.read()


class FlowBufTopo(Topo):
    """Switches and hosts on their ports, as the topology lists them."""

    def build(self, topo=None, configs=None, bmv2_log_level="warn"):
        hosts = dict((h["name"], h) for h in topo["hosts"])
        for sw in topo["switches"]:
            switch = self.addSwitch(
                sw["name"], cls=FlowBufStratumSwitch, cpuport=topo["cpu_port"],
                loglevel=bmv2_log_level,
                grpc_port=sw["grpc_port"], device_id=sw["device_id"],
                chassis_config=chassis_config_path(configs, sw))
            for port in sw["ports"]:
                if "host" not in port:
                    continue
                spec = hosts[port["host"]]
                host = self.addHost(spec["name"], cls=NoOffloadHost, mac=spec["mac"], ip=spec["ip"])
                self.addLink(host, switch, port2=port["number"], intfName2=port["interface"])


def chassis_config_path(configs, switch):
    return os.path.join(configs, "chassis-config-%s.pb.txt" % switch["name"])


def vport_links(topo):
    """(switch end, agent end) of every vport veth pair."""
    return [(port["interface"], port["agent_interface"])
            for sw in topo["switches"] for port in sw["ports"] if "vport" in port]


def create_vport_links(topo):
    for switch_end, agent_end in vport_links(topo):
        if not os.path.exists("/sys/class/net/" + switch_end):
            subprocess.check_call(["ip", "link", "add", switch_end, "type", "veth",
                                   "peer", "name", agent_end])
        for end in (switch_end, agent_end):
            subprocess.check_call(["ip", "link", "set", end, "up"])
            # Merged or split frames would reach the switch and the agent
            # as the wire never carried them.
            subprocess.call(["ethtool", "-K", end, "gro", "off", "gso", "off", "tso", "off"])


def remove_vport_links(topo):
    for switch_end, _ in vport_links(topo):
        subprocess.call(["ip", "link", "del", switch_end])


def load(topology, configs):
    """The topology, after checking each switch's chassis config is there."""
    with open(topology) as f:
        topo = json.load(f)
    missing = [chassis_config_path(configs, sw) for sw in topo["switches"]
               if not os.path.isfile(chassis_config_path(configs, sw))]
    if missing:
        raise SystemExit("no chassis config %s: render them with make netcfg" % ", ".join(missing))
    return topo


def main(argv=None):
    parser = argparse.ArgumentParser(description="The FlowBuf lab on Stratum bmv2 in Mininet.")
    parser.add_argument("--topology", default=os.path.join(HERE, "topology.json"),
                        help="topology file (default: %(default)s)")
    parser.add_argument("--configs",
                        help="directory of chassis-config-<switch>.pb.txt "
                             "(default: the topology's)")
    parser.add_argument("--bmv2-log-level", default="warn",
                        choices=["trace", "debug", "info", "warn", "error", "off"],
                        help="stratum_bmv2 -bmv2_log_level (default: %(default)s)")
    args = parser.parse_args(argv)
    configs = args.configs or os.path.dirname(os.path.abspath(args.topology))
    topo = load(args.topology, configs)
    setLogLevel("info")
    create_vport_links(topo)
    net = Mininet(topo=FlowBufTopo(topo=topo, configs=configs, bmv2_log_level=args.bmv2_log_level),
                  controller=None)
    try:
        net.start()
        CLI(net)
    finally:
        net.stop()
        remove_vport_links(topo)


if __name__ == "__main__":
    main()
