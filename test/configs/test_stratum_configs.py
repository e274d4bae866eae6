# SPDX-License-Identifier: Apache-2.0
"""stratum-configs/: generated files are fresh and agree with each other."""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "stratum-configs"
sys.path.insert(0, str(CONFIGS))
import gen_configs  # noqa: E402

TOPO = json.loads((CONFIGS / "topology.json").read_text())


def test_committed_configs_are_what_the_generator_writes():
    for name, content in gen_configs.outputs(TOPO).items():
        committed = (CONFIGS / name).read_text()
        assert committed == content, f"stale {name}: run make netcfg"


def test_every_switch_port_is_in_its_chassis_config_once():
    for sw in TOPO["switches"]:
        text = (CONFIGS / f'chassis-config-{sw["name"]}.pb.txt').read_text()
        ids = [int(i) for i in re.findall(r"^\s+id: (\d+)$", text, re.M)]
        ports = [p["number"] for p in sw["ports"]]
        assert sorted(ids) == sorted(ports + [sw["device_id"]])
        names = re.findall(r'^\s+name: "([^"]+)"$', text, re.M)
        assert [p["interface"] for p in sw["ports"]] == names[1:]


def test_netcfg_names_the_pipeconf_agent_and_vports_of_each_device():
    cfg = json.loads((CONFIGS / "netcfg.json").read_text())
    for sw in TOPO["switches"]:
        dev = f'device:{sw["name"]}'
        basic = cfg["devices"][dev]["basic"]
        assert basic["pipeconf"] == TOPO["pipeconf"]
        assert basic["managementAddress"].endswith(f'?device_id={sw["device_id"]}')
        # FlowBufDeviceConfig: a device-subject config under the key "flowbuf".
        vports = {v["switchPort"] for v in cfg["devices"][dev]["flowbuf"]["vports"]}
        assert vports == {p["number"] for p in sw["ports"] if "vport" in p}
        assert vports.isdisjoint({p["number"] for p in sw["ports"] if "host" in p})


def test_hosts_sit_on_distinct_switch_ports():
    cfg = json.loads((CONFIGS / "netcfg.json").read_text())
    locations = [h["basic"]["locations"][0] for h in cfg["hosts"].values()]
    assert len(locations) == len(set(locations)) == len(TOPO["hosts"])
