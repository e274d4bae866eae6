# SPDX-License-Identifier: Apache-2.0
"""A four-switch lab for congestion avoidance: pbswitch instances in the
root namespace joined by veth pairs, two hosts in namespaces, the embedded
host over all of them.

    h1 - s1 -p2- s2 - s4 - h2        the upper path (the primary: lower ports)
          \\-p3- s3 -/               the lower path (the backup)

One port of the upper path (s1's port 2 by default, or s2's port 2, after
which s2 has no backup and must notify s1) can be given a rate, so that a
flow faster than it queues there (the congestion the data plane must see).
"""
import json
import pathlib
import tempfile

from test.lab.netns import Lab
from test.lab.procs import ProcessLab
from test.lab.servicelab import BMV2_JSON, HOST_JAR, P4INFO, ROOT, Rest

SWITCHES = ("s1", "s2", "s3", "s4")
# (switch, port, switch, port): the cables.
CABLES = (("s1", 2, "s2", 1), ("s1", 3, "s3", 1), ("s2", 2, "s4", 1), ("s3", 2, "s4", 2))
HOSTS = {"h1": ("s1", 1, "10.0.7.1", "00:00:00:00:07:01"),
         "h2": ("s4", 3, "10.0.7.2", "00:00:00:00:07:02")}


def device(sw):
    return f"device:{sw}"


def cp(sw, port):
    return f"{device(sw)}/{port}"


class CongestionLab(ProcessLab):
    """Context manager: `hosts`, `rest`, `p4rt` (port by switch), `logs`.

    Ports: REST `rest_port`, P4Runtime p4rt_base.. +3, buffer API +4.. +7.
    """

    def __init__(self, prefix="fbc-", rest_port=8212, p4rt_base=28461, shaped_bps=None,
                 shaped_port=("s1", 2), congestion=None):
        self.prefix, self.rest_port = prefix, rest_port
        self.p4rt = {s: p4rt_base + i for i, s in enumerate(SWITCHES)}
        self.shaped_bps, self.shaped_port = shaped_bps, shaped_port
        self.congestion = congestion or {}

    def _start(self):
        self.logs = tempfile.mkdtemp(prefix="flowbuf-congestion-")
        self.lab = Lab(self.prefix)
        self.lab.remove_leftovers()
        self._stack.append(self.lab.close)
        ports = {s: [] for s in SWITCHES}
        self.hosts, self._argv, self._procs = {}, {}, {}
        for name, (sw, port, ip, mac) in HOSTS.items():
            host = self.lab.add_host(name)
            ports[sw].append((port, self.lab.link_host(host, "eth0", f"{sw}{name}",
                                                       ip=ip + "/24", mac=mac)))
            self.hosts[name] = host
        for name, (_, _, ip, mac) in HOSTS.items():
            for other in HOSTS:
                if other != name:
                    self.hosts[other].run("ip", "neigh", "replace", ip, "lladdr", mac,
                                          "dev", "eth0")
        for a, pa, b, pb in CABLES:
            ea, eb = self.lab.add_root_veth(f"{a}p{pa}", f"{b}p{pb}")
            ports[a].append((pa, ea))
            ports[b].append((pb, eb))
        for sw in SWITCHES:
            # In-process buffers are not used here; their API still takes a port.
            argv = [str(ROOT / "bin" / "pbswitch"), "--p4rt-listen",
                    f"127.0.0.1:{self.p4rt[sw]}",
                    "--buffer-listen", f"127.0.0.1:{self.p4rt[sw] + len(SWITCHES)}"]
            for number, ifname in ports[sw]:
                rate = f"@{self.shaped_bps}" if self.shaped_bps \
                    and (sw, number) == self.shaped_port else ""
                argv += ["--port", f"{number}={ifname}{rate}"]
            self._argv[sw] = argv
            self._procs[sw] = self._run(argv, sw, self.p4rt[sw])
        cfg = pathlib.Path(self.logs) / "netcfg.json"
        cfg.write_text(json.dumps(self.netcfg(), indent=2))
        self._run(["java", "-jar", str(HOST_JAR), "--netcfg", str(cfg), "--p4info", str(P4INFO),
                   "--device-config", str(BMV2_JSON),
                   "--listen", f"127.0.0.1:{self.rest_port}"], "host", self.rest_port,
                  timeout=90)
        self.rest = Rest(f"http://127.0.0.1:{self.rest_port}/onos/flowbuf")

    def restart(self, sw):
        """Stops a switch and starts it again: empty tables, registers and
        pipeline, which the host must notice and write again."""
        self._procs[sw].stop()
        self._procs[sw] = self._run(self._argv[sw], f"{sw}-restarted", self.p4rt[sw])

    def netcfg(self):
        devices = {device(sw): {"basic": {
            "managementAddress": f"grpc://127.0.0.1:{self.p4rt[sw]}?device_id=1",
            "driver": "stratum-bmv2", "pipeconf": "org.flowbuf.pipeconf", "name": sw}}
            for sw in SWITCHES}
        links = {f"{cp(a, pa)}-{cp(b, pb)}": {"basic": {}} for a, pa, b, pb in CABLES}
        hosts = {f"{mac}/None": {"basic": {"name": name, "ips": [ip], "locations": [cp(sw, port)]}}
                 for name, (sw, port, ip, mac) in HOSTS.items()}
        cfg = {"devices": devices, "links": links, "hosts": hosts}
        if self.congestion:
            cfg["apps"] = {"org.flowbuf.app": {"congestion": self.congestion}}
        return cfg
