# SPDX-License-Identifier: Apache-2.0
"""gen_configs.py (make netcfg): renders a topology, and refuses a bad one
with a message naming the problem, writing nothing."""
import contextlib
import copy
import io
import json
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "stratum-configs"
sys.path.insert(0, str(CONFIGS))
import gen_configs  # noqa: E402

REFERENCE = json.loads((CONFIGS / "topology.json").read_text())
# make netcfg, with the venv that make test has set up already.
MAKE_NETCFG = ["make", "-s", "--no-print-directory", "-o", "setup", "netcfg"]


def run(tmp_path, topo, *args, out="out"):
    """Runs the generator's command line (in this process: make netcfg's
    own run is test_make_netcfg_renders_a_topology); returns (status,
    stderr, out dir)."""
    src = tmp_path / "topology.json"
    src.write_text(json.dumps(topo) if not isinstance(topo, str) else topo)
    out_dir = tmp_path / out
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        status = gen_configs.main(["--topology", str(src), "--out", str(out_dir), *args])
    return status, stderr.getvalue(), out_dir


def mutated(change):
    topo = copy.deepcopy(REFERENCE)
    change(topo)
    return topo


def sw(topo):
    return topo["switches"][0]


def port(topo, number):
    return next(p for p in sw(topo)["ports"] if p["number"] == number)


def two_switches(topo):
    """The reference plus a second switch with its own host and vport."""
    s2 = copy.deepcopy(sw(topo))
    s2.update(name="s2", device_id=2, grpc_port=50002, agent_port=50102)
    s2["ports"] = [
        {"number": 1, "interface": "s2-eth1", "host": "h4"},
        {"number": 100, "interface": "s2-vp100", "vport": "vp100",
         "agent_interface": "ag2-vp100", "tx_rate_bps": 50_000_000},
    ]
    topo["switches"].append(s2)
    topo["hosts"].append({"name": "h4", "mac": "00:00:00:00:00:04", "ip": "10.0.0.4/24"})
    return topo


# Each bad topology: how it is broken, and what the error must say.
BAD = [
    ("missing switch field", lambda t: sw(t).pop("grpc_port"),
     "switches[0]: 'grpc_port' is a required property"),
    ("missing port field", lambda t: port(t, 2).pop("interface"),
     "switches[0].ports[1]: 'interface' is a required property"),
    ("missing host field", lambda t: t["hosts"][0].pop("mac"),
     "hosts[0]: 'mac' is a required property"),
    ("missing switches", lambda t: t.pop("switches"), "'switches' is a required property"),
    ("misspelled key", lambda t: sw(t).update(agent_prot=sw(t).pop("agent_port")),
     "'agent_prot' was unexpected"),
    ("switch name without a digit", lambda t: sw(t).update(name="leaf"),
     "switches[0].name: 'leaf' does not match '[0-9]'"),
    ("port as a string", lambda t: port(t, 1).update(number="1"),
     "switches[0].ports[0].number: '1' is not of type 'integer'"),
    ("port beyond 9 bits", lambda t: port(t, 1).update(number=511),
     "switches[0].ports[0].number: 511 is greater than the maximum of 510"),
    ("interface name too long", lambda t: port(t, 1).update(interface="s1-eth1-much-too-long"),
     "switches[0].ports[0].interface"),
    ("vport without its agent end", lambda t: port(t, 100).pop("agent_interface"),
     "'agent_interface' is a dependency of 'vport'"),
    ("rate on a host port", lambda t: port(t, 1).update(tx_rate_bps=1000),
     "'vport' is a dependency of 'tx_rate_bps'"),
    ("bad MAC", lambda t: t["hosts"][0].update(mac="00:00:00:00:00:0g"), "hosts[0].mac"),
    ("duplicate port", lambda t: port(t, 2).update(number=1),
     "switches[0].ports[1].number: port 1 of s1 is for host h2 and also for host h1"),
    ("vport on a host port", lambda t: port(t, 100).update(number=3),
     "switches[0].ports[3].number: port 3 of s1 is for vport vp100 and also for host h3"),
    ("port is the CPU port", lambda t: port(t, 101).update(number=255),
     "switches[0].ports[4].number: 255 is the cpu_port"),
    ("host and vport on one port",
     lambda t: port(t, 1).update(vport="vp9", agent_interface="ag1-vp9"),
     "switches[0].ports[0]: a port has either a host or a vport"),
    ("neither host nor vport", lambda t: port(t, 1).pop("host"),
     "switches[0].ports[0]: a port has either a host or a vport"),
    ("duplicate interface", lambda t: port(t, 2).update(interface="s1-eth1"),
     "switches[0].ports[1].interface: interface s1-eth1 is also switches[0].ports[0].interface"),
    ("agent end named as a switch port", lambda t: port(t, 101).update(agent_interface="s1-vp100"),
     "switches[0].ports[4].agent_interface: interface s1-vp100 is also "
     "switches[0].ports[3].interface"),
    ("duplicate vport id", lambda t: port(t, 101).update(vport="vp100"),
     "switches[0].ports[4].vport: vport id vp100 is also switches[0].ports[3].vport"),
    ("agent on the switch's gRPC port", lambda t: sw(t).update(agent_port=50001),
     "switches[0].agent_port: TCP port 50001 is also switches[0].grpc_port"),
    ("unknown host", lambda t: port(t, 3).update(host="h9"),
     "switches[0].ports[2].host: h9 is not in hosts"),
    ("host on no port", lambda t: t["hosts"].append(
        {"name": "h4", "mac": "00:00:00:00:00:04", "ip": "10.0.0.4/24"}),
     "hosts[3]: host h4 is on no switch port"),
    ("host on two ports", lambda t: port(t, 3).update(host="h1"),
     "switches[0].ports[2].host: host h1 is also switches[0].ports[0].host"),
    ("duplicate MAC", lambda t: t["hosts"][1].update(mac="00:00:00:00:00:01"),
     "hosts[1].mac: 00:00:00:00:00:01 is also hosts[0]'s"),
    ("IP without prefix", lambda t: t["hosts"][0].update(ip="10.0.0.1"),
     "hosts[0].ip: '10.0.0.1' needs a prefix length"),
    ("bad IP", lambda t: t["hosts"][0].update(ip="10.0.0.300/24"),
     "hosts[0].ip: '10.0.0.300/24' is not an address/prefix"),
    ("second switch on s1's TCP ports",
     lambda t: two_switches(t)["switches"][1].update(grpc_port=50001),
     "switches[1].grpc_port: TCP port 50001 is also switches[0].grpc_port"),
    ("second switch with s1's name", lambda t: two_switches(t)["switches"][1].update(name="s1"),
     "switches[1].name: switch name s1 is also switches[0].name"),
]


@pytest.mark.parametrize("change,message", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_topology_is_refused_naming_it_and_nothing_is_written(tmp_path, change, message):
    status, stderr, out = run(tmp_path, mutated(change))
    assert status == 2, stderr
    assert message in stderr
    assert "nothing written" in stderr
    assert not out.exists()


@pytest.mark.parametrize("text,message", [
    ("{not json", "not JSON"),
    ("[]", "topology: [] is not of type 'object'"),
])
def test_a_file_that_is_no_topology_is_refused(tmp_path, text, message):
    status, stderr, out = run(tmp_path, text)
    assert status == 2
    assert message in stderr
    assert not out.exists()


def test_every_problem_is_reported_at_once(tmp_path):
    def two_problems(t):
        port(t, 2).update(number=1)
        t["hosts"][0].update(ip="10.0.0.1")
    status, stderr, _ = run(tmp_path, mutated(two_problems))
    assert status == 2
    assert "port 1 of s1" in stderr and "needs a prefix length" in stderr
    assert "2 problem(s)" in stderr


def test_a_bad_topology_leaves_an_earlier_render_untouched(tmp_path):
    status, _, out = run(tmp_path, REFERENCE)
    assert status == 0
    before = {f.name: f.read_text() for f in out.iterdir()}
    status, _, _ = run(tmp_path, mutated(lambda t: port(t, 2).update(number=1)))
    assert status == 2
    assert {f.name: f.read_text() for f in out.iterdir()} == before


@pytest.mark.parametrize("address", ["not a host", "-x", "10.0.0.1:80", ""])
def test_a_bad_address_is_refused(tmp_path, address):
    status, stderr, out = run(tmp_path, REFERENCE, f"--address={address}")
    assert status == 2
    assert "is not an IP address or a host name" in stderr
    assert not out.exists()


def test_an_out_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "taken").write_text("x")
    status, stderr, _ = run(tmp_path, REFERENCE, out="taken")
    assert status == 2
    assert "not a directory" in stderr
    assert (tmp_path / "taken").read_text() == "x"


def test_the_reference_topology_renders_the_committed_files(tmp_path):
    status, stderr, out = run(tmp_path, REFERENCE)
    assert status == 0, stderr
    for name in ("chassis-config-s1.pb.txt", "netcfg.json"):
        assert (out / name).read_text() == (CONFIGS / name).read_text()
    assert sorted(f.name for f in out.iterdir()) == ["chassis-config-s1.pb.txt", "netcfg.json"]


def test_out_defaults_to_the_topologys_directory(tmp_path):
    src = tmp_path / "lab" / "topology.json"
    src.parent.mkdir()
    src.write_text(json.dumps(REFERENCE))
    with contextlib.redirect_stderr(io.StringIO()):
        assert gen_configs.main(["--topology", str(src)]) == 0
    assert (src.parent / "netcfg.json").read_text() == (CONFIGS / "netcfg.json").read_text()


def test_make_netcfg_renders_a_topology(tmp_path):
    topo = tmp_path / "two.json"
    topo.write_text(json.dumps(mutated(two_switches)))
    proc = subprocess.run(
        [*MAKE_NETCFG, f"TOPO={topo}", f"OUT={tmp_path / 'out'}", "ADDRESS=192.0.2.10"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(f.name for f in (tmp_path / "out").iterdir()) == [
        "chassis-config-s1.pb.txt", "chassis-config-s2.pb.txt", "netcfg.json"]
    cfg = json.loads((tmp_path / "out" / "netcfg.json").read_text())
    assert cfg["devices"]["device:s1"]["flowbuf"]["agentAddress"] == "192.0.2.10:50101"


def test_make_netcfg_refuses_a_bad_topology(tmp_path):
    topo = tmp_path / "bad.json"
    topo.write_text(json.dumps(mutated(lambda t: port(t, 100).update(number=3))))
    proc = subprocess.run(
        [*MAKE_NETCFG, f"TOPO={topo}", f"OUT={tmp_path / 'out'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    assert "port 3 of s1 is for vport vp100 and also for host h3" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_topology_of_two_switches_renders_a_config_per_switch(tmp_path):
    status, stderr, out = run(tmp_path, mutated(two_switches), "--address", "mininet")
    assert status == 0, stderr
    s2 = (out / "chassis-config-s2.pb.txt").read_text()
    assert re.findall(r'^  name: "([^"]+)"$', s2, re.M) == ["s2", "s2-eth1", "s2-vp100"]
    assert re.findall(r"^  node: (\d+)$", s2, re.M) == ["2", "2"]
    cfg = json.loads((out / "netcfg.json").read_text())
    dev = cfg["devices"]["device:s2"]
    assert dev["basic"]["managementAddress"] == "grpc://mininet:50002?device_id=2"
    assert dev["flowbuf"]["agentAddress"] == "mininet:50102"
    assert dev["flowbuf"]["vports"] == [
        {"id": "vp100", "switchPort": 100, "interface": "ag2-vp100", "txRateBps": 50_000_000}]
    assert cfg["hosts"]["00:00:00:00:00:04/None"]["basic"]["locations"] == ["device:s2/1"]


def test_an_ipv6_address_is_bracketed():
    cfg = gen_configs.netcfg(REFERENCE, "2001:db8::1")
    dev = cfg["devices"]["device:s1"]
    assert dev["basic"]["managementAddress"] == "grpc://[2001:db8::1]:50001?device_id=1"
    assert dev["flowbuf"]["agentAddress"] == "[2001:db8::1]:50101"


def test_the_reference_topology_is_valid():
    assert gen_configs.problems(REFERENCE) == []
