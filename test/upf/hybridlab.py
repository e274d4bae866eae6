# SPDX-License-Identifier: Apache-2.0
"""The hybrid UPF lab: a fast-path switch, its slow path, a gNodeB and a
data network, driven by one embedded host.

    gnb -- 1 s1 (fast path) 2 -- dn
               3
               |
               1 s2 (slow path)

Both switches are pbswitch running the FlowBuf program; s1 holds in-process
buffers on vport 100 (tagged: one logical vport per moving or promoted
UE). Every UE's session is installed on s2, which tunnels its downlink and
sends it back through s1 to the gNodeB; s1's downlink session misses go to
s2 (slow_path's default action, set by the host from the netcfg's
apps."org.flowbuf.app".hybrid). The data network sends to the UE pool with
the gNodeB's MAC (the lab has L2 rules only), so the GTP-U leaves with it.
With slow_rate_bps, what s2 sends back to s1 is shaped by s2's own port
(pbswitch's --port ID=IF@RATE): the slow path at a fraction of the fast
path's capacity, as an x86 UPF beside a switch ASIC. (A tc qdisc on the
veth does not shape it: pbswitch's packet sockets bypass it, which the
upf_hybrid scenario's check on the shaped rate found.)
"""
import json
import pathlib
import tempfile

from test.lab.netns import Lab
from test.lab.procs import ProcessLab
from test.lab.servicelab import BMV2_JSON, HOST_JAR, P4INFO, ROOT, Rest

FAST, SLOW = "device:s1", "device:s2"
GNB_PORT, DN_PORT, SLOW_PORT, SLOW_UPLINK = 1, 2, 3, 1
VPORT = 100
HOSTS = {"gnb": ("10.0.0.1", "00:00:00:00:0a:01", GNB_PORT),
         "dn": ("10.0.0.2", "00:00:00:00:0a:02", DN_PORT)}
N3_ADDR = "10.0.0.100"
UE_POOL = "10.250.0.0/16"


def ip_of(name):
    return HOSTS[name][0]


def mac_of(name):
    return HOSTS[name][1]


class HybridLab(ProcessLab):
    """Context manager: the two switches and the host up; `rest`, `hosts`."""

    def __init__(self, prefix="fhy-", rest_port=8233, p4rt_base=28911, agent_base=28921,
                 hybrid=None, heavy_hitters=None, slow_rate_bps=0, vport_tags=64,
                 slow_queue_len=0, ready_buffers=0):
        self.prefix, self.rest_port = prefix, rest_port
        self.p4rt = {"s1": p4rt_base, "s2": p4rt_base + 1}
        self.agent = {"s1": agent_base, "s2": agent_base + 1}
        self.hybrid = hybrid
        self.heavy_hitters = heavy_hitters
        self.slow_rate_bps = slow_rate_bps
        self.slow_queue_len = slow_queue_len  # s2's queues, packets (0: pbswitch's default)
        self.vport_tags = vport_tags
        self.ready_buffers = ready_buffers  # s1's buffers made ahead (netcfg readyBuffers)
        self.hosts = {}
        self.switch_ifs = {}  # s1's root-namespace end of each link: "gnb", "dn", "slow"

    def _start(self):
        self.logs = tempfile.mkdtemp(prefix="flowbuf-hybrid-")
        self.lab = Lab(self.prefix)
        self.lab.remove_leftovers()
        self._stack.append(self.lab.close)
        ports = {"s1": [], "s2": []}
        for name, (ip, mac, number) in HOSTS.items():
            host = self.lab.add_host(name)
            sw_if = self.lab.link_host(host, "eth0", f"e{number}", ip=ip + "/24", mac=mac)
            ports["s1"].append((number, sw_if))
            self.switch_ifs[name] = sw_if
            self.hosts[name] = host
        for name, host in self.hosts.items():
            for other in HOSTS:
                if other != name:
                    host.run("ip", "neigh", "add", ip_of(other), "lladdr", mac_of(other),
                             "dev", "eth0")
        a, b = self.lab.add_root_veth("s1p3", "s2p1")
        ports["s1"].append((SLOW_PORT, a))
        if self.slow_rate_bps:
            b += f"@{int(self.slow_rate_bps)}"
        ports["s2"].append((SLOW_UPLINK, b))
        self.switch_ifs["slow"] = a
        # The data network reaches the UE pool through s1, with the gNodeB's MAC.
        self.hosts["dn"].run("ip", "route", "add", UE_POOL, "via", ip_of("gnb"), "dev", "eth0")
        for sw in ("s1", "s2"):
            argv = [str(ROOT / "bin" / "pbswitch"), "--p4rt-listen", f"127.0.0.1:{self.p4rt[sw]}"]
            for number, ifname in ports[sw]:
                argv += ["--port", f"{number}={ifname}"]
            if sw == "s1":
                argv += ["--vport", str(VPORT), "--buffer-listen", f"127.0.0.1:{self.agent[sw]}"]
            else:
                argv += ["--buffer-listen", ""]
                if self.slow_queue_len:
                    argv += ["--queue-len", str(self.slow_queue_len)]
            self._run(argv, sw, self.p4rt[sw])
        cfg = pathlib.Path(self.logs) / "netcfg.json"
        cfg.write_text(json.dumps(self.netcfg(), indent=2))
        self._run(["java", "-Xms192m", "-Xmx192m", "-jar", str(HOST_JAR), "--netcfg", str(cfg),
                   "--p4info", str(P4INFO), "--device-config", str(BMV2_JSON),
                   "--listen", f"127.0.0.1:{self.rest_port}"], "host", self.rest_port, timeout=60)
        self.rest = Rest(f"http://127.0.0.1:{self.rest_port}/onos/flowbuf")

    def link_bytes(self):
        """Bytes s1 received from the data network and sent to the slow path
        (its ends of the links, kernel counters)."""
        def read(ifname, what):
            return int(pathlib.Path(f"/sys/class/net/{ifname}/statistics/{what}").read_text())
        return {"dn_in": read(self.switch_ifs["dn"], "rx_bytes"),
                "to_slow": read(self.switch_ifs["slow"], "tx_bytes")}

    def netcfg(self):
        def basic(sw):
            return {"managementAddress": f"grpc://127.0.0.1:{self.p4rt[sw]}?device_id=1",
                    "driver": "stratum-bmv2", "pipeconf": "org.flowbuf.pipeconf", "name": sw}
        app = {}
        if self.hybrid is not None:
            app["hybrid"] = self.hybrid
        if self.heavy_hitters is not None:
            app["heavyHitters"] = self.heavy_hitters
        return {
            "devices": {
                FAST: {"basic": basic("s1"),
                       "flowbuf": {"agentAddress": f"127.0.0.1:{self.agent['s1']}",
                                   "inProcess": True,
                                   "vports": [{"id": f"vp{VPORT}", "switchPort": VPORT,
                                               "tags": self.vport_tags}],
                                   "readyBuffers": self.ready_buffers}},
                SLOW: {"basic": basic("s2")},
            },
            "links": {f"{FAST}/{SLOW_PORT}-{SLOW}/{SLOW_UPLINK}": {"basic": {}}},
            "hosts": {f"{mac}/None": {"basic": {"name": name, "ips": [ip],
                                                "locations": [f"{FAST}/{port}"]}}
                      for name, (ip, mac, port) in HOSTS.items()},
            "apps": {"org.flowbuf.app": app},
        }

    def prepare_upf(self):
        """The UE pool on both switches, the N3 address on the slow path."""
        self.rest.post("upf/interfaces", {"deviceId": FAST, "kind": "CORE", "prefix": UE_POOL})
        self.rest.post("upf/interfaces", {"deviceId": SLOW, "kind": "CORE", "prefix": UE_POOL})
        self.rest.post("upf/interfaces", {"deviceId": SLOW, "kind": "ACCESS",
                                          "prefix": N3_ADDR + "/32"})

    def add_session(self, ue, teid, gnb=None):
        """The UE's session on the slow path (where every session lives)."""
        return self.rest.post("upf/sessions", {
            "deviceId": SLOW, "ueAddress": ue, "n3Address": N3_ADDR, "uplinkTeid": teid,
            "gnbAddress": gnb or ip_of("gnb"), "downlinkTeid": teid, "qfi": 9})
