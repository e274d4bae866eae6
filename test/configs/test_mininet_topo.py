# SPDX-License-Identifier: Apache-2.0
"""stratum-configs/mininet-topo.py: runs on the Python of the pinned
mn-stratum image, and hands stratum.py what its start() reads.

Mininet and stratum.py are not installed here, so they are stand-ins that
record what the script asks of them. The stand-in switch keeps the contract
of stratum.py's StratumBmv2Switch in mn-stratum 22.06 and later: start()
writes getChassisConfig() to the chassis config file and runs stratum_bmv2
with -device_id=<nodeId> and -external_stratum_urls=0.0.0.0:<grpcPort>.
"""
import importlib.util
import json
import pathlib
import subprocess
import sys
import types

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "stratum-configs"
SCRIPT = CONFIGS / "mininet-topo.py"
TOPO = json.loads((CONFIGS / "topology.json").read_text())
sys.path.insert(0, str(CONFIGS))
import gen_configs  # noqa: E402


class FakeTopo:
    """Mininet's Topo: build() at construction, nodes and links recorded."""

    def __init__(self, *args, **params):
        self.switches, self.hosts, self.links = {}, {}, []
        self.build(*args, **params)

    def addSwitch(self, name, **opts):
        self.switches[name] = opts
        return name

    def addHost(self, name, **opts):
        self.hosts[name] = opts
        return name

    def addLink(self, node1, node2, **opts):
        self.links.append((node1, node2, opts))


class FakeStratumBmv2Switch:
    """stratum.py's switch, reduced to what start() reads."""
    next_grpc_port = 50001

    def __init__(self, name, json=None, loglevel="warn", cpuport=255, pipeconf="",
                 onosdevid=None, adminstate=True, **kwargs):
        self.name = name
        self.cpuPort = cpuport
        self.grpcPort = FakeStratumBmv2Switch.next_grpc_port
        FakeStratumBmv2Switch.next_grpc_port += 1
        self.nodeId = 1
        self.loglevel = loglevel

    def getChassisConfig(self):
        return "derived from Mininet links"

    def start_args(self):
        return {"chassis_config": self.getChassisConfig(),
                "-device_id": self.nodeId,
                "-external_stratum_urls": "0.0.0.0:%d" % self.grpcPort,
                "-cpu_port": self.cpuPort,
                "-bmv2_log_level": self.loglevel}


class FakeNoOffloadHost:
    pass


@pytest.fixture
def topo_module(monkeypatch):
    fakes = {
        "mininet": types.ModuleType("mininet"),
        "mininet.cli": types.ModuleType("mininet.cli"),
        "mininet.log": types.ModuleType("mininet.log"),
        "mininet.net": types.ModuleType("mininet.net"),
        "mininet.topo": types.ModuleType("mininet.topo"),
        "stratum": types.ModuleType("stratum"),
    }
    fakes["mininet.cli"].CLI = None
    fakes["mininet.log"].setLogLevel = None
    fakes["mininet.net"].Mininet = None
    fakes["mininet.topo"].Topo = FakeTopo
    fakes["stratum"].StratumBmv2Switch = FakeStratumBmv2Switch
    fakes["stratum"].NoOffloadHost = FakeNoOffloadHost
    for name, module in fakes.items():
        monkeypatch.setitem(sys.modules, name, module)
    spec = importlib.util.spec_from_file_location("mininet_topo", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_it_runs_on_python_2_7_and_3():
    # mn-stratum 22.06, the pinned image, has Mininet on Python 2.7 only.
    vermin = pathlib.Path(sys.executable).parent / "vermin"
    proc = subprocess.run(
        [str(vermin), "-q", "--no-tips", "-t=2.7-", "-t=3.5-", "--violations", str(SCRIPT)],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, ("mininet-topo.py needs more than Python 2.7/3.5:\n"
                                  + proc.stdout + proc.stderr)


def test_each_switch_starts_on_flowbufs_chassis_config_port_and_device_id(topo_module, tmp_path):
    two = json.loads(json.dumps(TOPO))
    two["switches"].append({"name": "s2", "device_id": 7, "grpc_port": 50011, "agent_port": 50111,
                            "ports": [{"number": 1, "interface": "s2-vp1", "vport": "vp1",
                                       "agent_interface": "ag2-vp1"}]})
    assert gen_configs.problems(two) == []
    for name, content in gen_configs.outputs(two).items():
        (tmp_path / name).write_text(content)
    net = topo_module.FlowBufTopo(topo=two, configs=str(tmp_path), bmv2_log_level="debug")
    for sw in two["switches"]:
        opts = dict(net.switches[sw["name"]])
        assert opts.pop("cls") is topo_module.FlowBufStratumSwitch
        switch = topo_module.FlowBufStratumSwitch(sw["name"], **opts)
        args = switch.start_args()
        assert args["-device_id"] == sw["device_id"]
        assert args["-external_stratum_urls"] == "0.0.0.0:%d" % sw["grpc_port"]
        assert args["-cpu_port"] == two["cpu_port"]
        assert args["-bmv2_log_level"] == "debug"
        rendered = tmp_path / f'chassis-config-{sw["name"]}.pb.txt'
        assert args["chassis_config"] == rendered.read_text()


def test_hosts_are_linked_on_their_port_and_interface(topo_module):
    net = topo_module.FlowBufTopo(topo=TOPO, configs=str(CONFIGS))
    links = {host: (switch, opts) for host, switch, opts in net.links}
    for sw in TOPO["switches"]:
        for port in sw["ports"]:
            if "host" in port:
                switch, opts = links[port["host"]]
                assert switch == sw["name"]
                assert opts == {"port2": port["number"], "intfName2": port["interface"]}
    assert len(net.links) == len(TOPO["hosts"])
    for spec in TOPO["hosts"]:
        assert net.hosts[spec["name"]] == {"cls": FakeNoOffloadHost, "mac": spec["mac"],
                                           "ip": spec["ip"]}


def test_every_vport_gets_a_veth_pair(topo_module):
    assert topo_module.vport_links(TOPO) == [("s1-vp100", "ag1-vp100"), ("s1-vp101", "ag1-vp101")]


def test_a_missing_chassis_config_is_named_before_anything_starts(topo_module, tmp_path):
    with pytest.raises(SystemExit) as stop:
        topo_module.load(str(CONFIGS / "topology.json"), str(tmp_path))
    assert "chassis-config-s1.pb.txt" in str(stop.value)
    assert "make netcfg" in str(stop.value)
