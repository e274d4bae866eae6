# SPDX-License-Identifier: Apache-2.0
"""Congestion-avoidance labs: pbswitch instances in the root namespace
joined by veth pairs, hosts in namespaces, the embedded host over all of
them. A `Topology` says which; two are defined here.

FOUR_SWITCH (test/congestion's tests):

    h1 - s1 -p2- s2 - s4 - h2        the upper path (the primary: lower ports)
          \\-p3- s3 -/               the lower path (the backup)

One port of the upper path (s1's port 2 by default, or s2's port 2, after
which s2 has no backup and must notify s1) can be given a rate, so that a
flow faster than it queues there (the congestion the data plane must see).

paper_topology() (test/scenarios/congestion.py): Turkovic et al.'s Fig. 3.
"""
import dataclasses
import json
import os
import pathlib
import tempfile

from test.lab.netns import Lab
from test.lab.procs import ProcessLab
from test.lab.servicelab import BMV2_JSON, HOST_JAR, P4INFO, ROOT, Rest
from test.packet.client import Client
from test.packet.p4info import P4Info


@dataclasses.dataclass(frozen=True)
class Topology:
    """switches; cables (switch, port, switch, port); hosts name -> (switch,
    port, ip, mac); shaped (switch, port) -> bits/s; queue_len packets per
    port queue (None: pbswitch's default)."""
    switches: tuple
    cables: tuple
    hosts: dict
    shaped: dict = dataclasses.field(default_factory=dict)
    queue_len: int = None


FOUR_SWITCH = Topology(
    switches=("s1", "s2", "s3", "s4"),
    cables=(("s1", 2, "s2", 1), ("s1", 3, "s3", 1), ("s2", 2, "s4", 1), ("s3", 2, "s4", 2)),
    hosts={"h1": ("s1", 1, "10.0.7.1", "00:00:00:00:07:01"),
           "h2": ("s4", 3, "10.0.7.2", "00:00:00:00:07:02")})
# The four-switch names test/congestion imports.
SWITCHES, CABLES, HOSTS = FOUR_SWITCH.switches, FOUR_SWITCH.cables, FOUR_SWITCH.hosts


def paper_topology(rate_bps, queue_len):
    """The paper's Fig. 3: the tactile flow ht (s1) -> hr (s7) has the
    primary s1-s3-s5-s7 and the disjoint backup s1-s4-s6-s7 (the primary
    takes the lower ports). s2 hangs off s3 and brings cross traffic from hx
    to hy at s5, so that it shares one link with the primary, s3 -> s5, and
    none with the backup: the queue builds on s3's port 2, where s3 has no
    backup and must notify s1. Every inter-switch port runs at rate_bps (the
    paper limits every bmv2 queue) with queue_len packets per queue.

    A second cross pair, hw (s5) -> hz (s7), shares only s5's port towards
    s7 with the primary: congestion there, where neither s5 nor s3 has a
    backup, must reach s1 by a notification relayed s5 -> s3 -> s1."""
    cables = (("s1", 2, "s3", 1), ("s1", 3, "s4", 1), ("s3", 2, "s5", 1), ("s5", 2, "s7", 1),
              ("s4", 2, "s6", 1), ("s6", 2, "s7", 2), ("s2", 1, "s3", 3))
    shaped = {}
    for a, pa, b, pb in cables:
        shaped[(a, pa)] = shaped[(b, pb)] = rate_bps
    return Topology(
        switches=tuple(f"s{i}" for i in range(1, 8)), cables=cables,
        hosts={"ht": ("s1", 1, "10.0.8.1", "00:00:00:00:08:01"),
               "hr": ("s7", 3, "10.0.8.2", "00:00:00:00:08:02"),
               "hx": ("s2", 2, "10.0.8.3", "00:00:00:00:08:03"),
               "hy": ("s5", 3, "10.0.8.4", "00:00:00:00:08:04"),
               "hw": ("s5", 4, "10.0.8.5", "00:00:00:00:08:05"),
               "hz": ("s7", 4, "10.0.8.6", "00:00:00:00:08:06")},
        shaped=shaped, queue_len=queue_len)


def lab_ports(prefix, rest_port, p4rt_base):
    """(prefix, rest_port, p4rt_base) for a lab: the test's own, or those of
    FLOWBUF_CC_LAB="PREFIX,REST_PORT,P4RT_BASE", so that two people running
    the congestion labs at once do not share namespaces or ports."""
    override = os.environ.get("FLOWBUF_CC_LAB")
    if not override:
        return prefix, rest_port, p4rt_base
    pre, rest, base = override.split(",")
    return pre, int(rest), int(base)


def device(sw):
    return f"device:{sw}"


def cp(sw, port):
    return f"{device(sw)}/{port}"


class CongestionLab(ProcessLab):
    """Context manager: `hosts`, `rest`, `p4rt` (port by switch), `links`
    (root-namespace interface by (switch, port)), `logs`.

    Ports: REST `rest_port`, P4Runtime p4rt_base.. (one per switch), the
    buffer API after them (one per switch). `buffered` {switch: vport
    numbers} gives those switches in-process buffers on these vport ports,
    in the netcfg too (a merge buffer for orderedSwitchover needs one).
    `switch_priority` runs every switch under SCHED_RR at that priority
    (chrt), ahead of the host, the traffic and whatever else the machine
    runs: what the switches do without this machine's scheduling stalls.
    """

    def __init__(self, prefix="fbc-", rest_port=8212, p4rt_base=28461, shaped_bps=None,
                 shaped_port=("s1", 2), congestion=None, topology=FOUR_SWITCH, buffered=None,
                 switch_priority=None):
        if shaped_bps:
            topology = dataclasses.replace(topology, shaped={shaped_port: shaped_bps})
        self.topology = topology
        self.prefix, self.rest_port = prefix, rest_port
        self.p4rt = {s: p4rt_base + i for i, s in enumerate(topology.switches)}
        self.congestion = congestion or {}
        self.buffered = buffered or {}
        self.switch_priority = switch_priority

    def _start(self):
        self._start_network()
        cfg = pathlib.Path(self.logs) / "netcfg.json"
        cfg.write_text(json.dumps(self.netcfg(), indent=2))
        self._run(["java", "-jar", str(HOST_JAR), "--netcfg", str(cfg), "--p4info", str(P4INFO),
                   "--device-config", str(BMV2_JSON),
                   "--listen", f"127.0.0.1:{self.rest_port}"], "host", self.rest_port,
                  timeout=90)
        self.rest = Rest(f"http://127.0.0.1:{self.rest_port}/onos/flowbuf")

    def _start_network(self):
        """The hosts, the cables and the switches, without a controller."""
        self.logs = tempfile.mkdtemp(prefix="flowbuf-congestion-")
        self.lab = Lab(self.prefix)
        self.lab.remove_leftovers()
        self._stack.append(self.lab.close)
        self.links, self.hosts, self._argv, self._procs = {}, {}, {}, {}
        self._add_hosts()
        for a, pa, b, pb in self.topology.cables:
            ea, eb = self.lab.add_root_veth(f"{a}p{pa}", f"{b}p{pb}")
            self.links[(a, pa)], self.links[(b, pb)] = ea, eb
        for sw in self.topology.switches:
            self._argv[sw] = self._switch_argv(sw)
            self._procs[sw] = self._run(self._argv[sw], sw, self.p4rt[sw])

    def _add_hosts(self):
        """One namespace per host on its switch port; static ARP between all."""
        hosts = self.topology.hosts
        for name, (sw, port, ip, mac) in hosts.items():
            host = self.lab.add_host(name)
            self.links[(sw, port)] = self.lab.link_host(host, "eth0", f"{sw}{name}",
                                                        ip=ip + "/24", mac=mac)
            self.hosts[name] = host
        for name, (_, _, ip, mac) in hosts.items():
            for other in hosts:
                if other != name:
                    self.hosts[other].run("ip", "neigh", "replace", ip, "lladdr", mac,
                                          "dev", "eth0")

    def _switch_argv(self, sw):
        # In-process buffers are not used here; their API still takes a port.
        n = len(self.topology.switches)
        argv = ["chrt", "--rr", str(self.switch_priority)] if self.switch_priority else []
        argv += [str(ROOT / "bin" / "pbswitch"), "--p4rt-listen", f"127.0.0.1:{self.p4rt[sw]}",
                "--buffer-listen", f"127.0.0.1:{self.p4rt[sw] + n}"]
        if self.topology.queue_len:
            argv += ["--queue-len", str(self.topology.queue_len)]
        for number in self.buffered.get(sw, ()):
            argv += ["--vport", str(number)]
        for (s, number), ifname in sorted(self.links.items()):
            if s == sw:
                rate = self.topology.shaped.get((sw, number))
                argv += ["--port", f"{number}={ifname}" + (f"@{rate}" if rate else "")]
        return argv

    def entry_counts(self, sw, tables):
        """{table: entries} of the named P4 tables on one switch, read over
        P4Runtime by a backup client (the host stays primary)."""
        info = P4Info()
        client = Client(f"127.0.0.1:{self.p4rt[sw]}", device_id=1, election_id=(0, 1))
        try:
            return {t: len(client.table_entries(info.table_id(t))) for t in tables}
        finally:
            client.close()

    def restart(self, sw):
        """Stops a switch and starts it again: empty tables, registers and
        pipeline, which the host must notice and write again."""
        self._procs[sw].stop()
        self._procs[sw] = self._run(self._argv[sw], f"{sw}-restarted", self.p4rt[sw])

    def netcfg(self):
        t = self.topology
        devices = {device(sw): {"basic": {
            "managementAddress": f"grpc://127.0.0.1:{self.p4rt[sw]}?device_id=1",
            "driver": "stratum-bmv2", "pipeconf": "org.flowbuf.pipeconf", "name": sw}}
            for sw in t.switches}
        n = len(t.switches)
        for sw, vports in self.buffered.items():
            devices[device(sw)]["flowbuf"] = {
                "agentAddress": f"127.0.0.1:{self.p4rt[sw] + n}", "inProcess": True,
                "vports": [{"id": f"vp{v}", "switchPort": v} for v in vports]}
        links = {f"{cp(a, pa)}-{cp(b, pb)}": {"basic": {}} for a, pa, b, pb in t.cables}
        hosts = {f"{mac}/None": {"basic": {"name": name, "ips": [ip], "locations": [cp(sw, port)]}}
                 for name, (sw, port, ip, mac) in t.hosts.items()}
        cfg = {"devices": devices, "links": links, "hosts": hosts}
        if self.congestion:
            cfg["apps"] = {"org.flowbuf.app": {"congestion": self.congestion}}
        return cfg
