#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates the Stratum chassis configs and the ONOS netcfg from
topology.json, so the switch, the controller and the lab never disagree on a
port number. Run it after editing topology.json; a test fails when the
committed files are stale.

    python3 stratum-configs/gen_configs.py
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
PORT_SPEED_BPS = 10_000_000_000


def chassis_config(topo, switch):
    """Stratum ChassisConfig (text format) for one bmv2 switch."""
    lines = [
        f'description: "FlowBuf {switch["name"]}: host ports and buffer vports"',
        "chassis {",
        "  platform: PLT_P4_SOFT_SWITCH",
        f'  name: "{switch["name"]}"',
        "}",
        "nodes {",
        f'  id: {switch["device_id"]}',
        "  slot: 1",
        "  index: 1",
        "}",
    ]
    for port in switch["ports"]:
        lines += [
            "singleton_ports {",
            f'  id: {port["number"]}',
            f'  name: "{port["interface"]}"',
            "  slot: 1",
            f'  port: {port["number"]}',
            "  channel: 1",
            f"  speed_bps: {PORT_SPEED_BPS}",
            "  config_params {",
            "    admin_state: ADMIN_STATE_ENABLED",
            "  }",
            f'  node: {switch["device_id"]}',
            "}",
        ]
    return "\n".join(lines) + "\n"


def netcfg(topo):
    """ONOS network configuration: devices, hosts and FlowBuf's own
    per-device section (where the device's buffer agent listens and which
    ports are vports)."""
    devices, hosts = {}, {}
    for sw in topo["switches"]:
        dev = f'device:{sw["name"]}'
        devices[dev] = {
            "basic": {
                "managementAddress":
                    f'grpc://127.0.0.1:{sw["grpc_port"]}?device_id={sw["device_id"]}',
                "driver": "stratum-bmv2",
                "pipeconf": topo["pipeconf"],
                "name": sw["name"],
            }
        }
        vports = []
        for port in sw["ports"]:
            if "vport" in port:
                vports.append({
                    "id": port["vport"],
                    "switchPort": port["number"],
                    "interface": port["agent_interface"],
                })
        # FlowBufDeviceConfig is a device-subject config under the key "flowbuf".
        devices[dev]["flowbuf"] = {
            "agentAddress": f'127.0.0.1:{sw["agent_port"]}',
            "inProcess": False,
            "vports": vports,
        }
    host_ports = {p["host"]: (sw["name"], p["number"])
                  for sw in topo["switches"] for p in sw["ports"] if "host" in p}
    for host in topo["hosts"]:
        sw_name, number = host_ports[host["name"]]
        hosts[f'{host["mac"]}/None'] = {
            "basic": {
                "name": host["name"],
                "ips": [host["ip"].split("/")[0]],
                "locations": [f"device:{sw_name}/{number}"],
            }
        }
    return {"devices": devices, "hosts": hosts}


def outputs(topo):
    """Maps each generated file name to its content."""
    files = {f'chassis-config-{sw["name"]}.pb.txt': chassis_config(topo, sw)
             for sw in topo["switches"]}
    files["netcfg.json"] = json.dumps(netcfg(topo), indent=2) + "\n"
    return files


def main():
    topo = json.loads((HERE / "topology.json").read_text())
    for name, content in outputs(topo).items():
        (HERE / name).write_text(content)
        print(f"wrote stratum-configs/{name}", file=sys.stderr)


if __name__ == "__main__":
    main()
