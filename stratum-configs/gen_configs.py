#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates the Stratum chassis configs and the ONOS netcfg from a topology
(topology.json; its format is topology.schema.json), so the switch, the
controller and the lab never disagree on a port number.

    make netcfg                                  # topology.json -> this directory
    make netcfg TOPO=lab/topology.json OUT=lab/configs ADDRESS=192.0.2.10

which run `.venv/bin/python stratum-configs/gen_configs.py [--topology FILE]
[--out DIR] [--address HOST]`. ADDRESS is where ONOS reaches the switches'
gRPC servers and their buffer-agents (default 127.0.0.1: ONOS on the switch
host, or in its network namespace as in docker-compose.yml). A topology that
is not valid gets one line per problem on stderr, exit status 2, and nothing
is written. Run it after editing topology.json; a test fails when the
committed files beside this script are stale.
"""
import argparse
import ipaddress
import json
import os
import pathlib
import re
import sys

from jsonschema import Draft202012Validator

HERE = pathlib.Path(__file__).resolve().parent
SCHEMA = json.loads((HERE / "topology.schema.json").read_text())
PORT_SPEED_BPS = 10_000_000_000
DEFAULT_ADDRESS = "127.0.0.1"
HOST_NAME = re.compile(r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                       r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")


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


def netcfg(topo, address=DEFAULT_ADDRESS):
    """ONOS network configuration: devices, hosts and FlowBuf's own
    per-device section (where the device's buffer agent listens and which
    ports are vports). ONOS reaches switches and agents at address."""
    host = f"[{address}]" if ":" in address else address
    devices, hosts = {}, {}
    for sw in topo["switches"]:
        dev = f'device:{sw["name"]}'
        devices[dev] = {
            "basic": {
                "managementAddress":
                    f'grpc://{host}:{sw["grpc_port"]}?device_id={sw["device_id"]}',
                "driver": "stratum-bmv2",
                "pipeconf": topo["pipeconf"],
                "name": sw["name"],
            }
        }
        vports = []
        for port in sw["ports"]:
            if "vport" in port:
                vport = {
                    "id": port["vport"],
                    "switchPort": port["number"],
                    "interface": port["agent_interface"],
                }
                if "tx_rate_bps" in port:
                    vport["txRateBps"] = port["tx_rate_bps"]
                vports.append(vport)
        # FlowBufDeviceConfig is a device-subject config under the key "flowbuf".
        devices[dev]["flowbuf"] = {
            "agentAddress": f'{host}:{sw["agent_port"]}',
            "inProcess": False,
            "vports": vports,
        }
    host_ports = {p["host"]: (sw["name"], p["number"])
                  for sw in topo["switches"] for p in sw["ports"] if "host" in p}
    for spec in topo["hosts"]:
        sw_name, number = host_ports[spec["name"]]
        hosts[f'{spec["mac"]}/None'] = {
            "basic": {
                "name": spec["name"],
                "ips": [spec["ip"].split("/")[0]],
                "locations": [f"device:{sw_name}/{number}"],
            }
        }
    return {"devices": devices, "hosts": hosts}


def outputs(topo, address=DEFAULT_ADDRESS):
    """Maps each generated file name to its content."""
    files = {f'chassis-config-{sw["name"]}.pb.txt': chassis_config(topo, sw)
             for sw in topo["switches"]}
    files["netcfg.json"] = json.dumps(netcfg(topo, address), indent=2) + "\n"
    return files


def problems(topo):
    """What is wrong with a topology, one line per problem (empty: valid).
    The schema first; the rules across entries only on a well-formed one."""
    errors = sorted(Draft202012Validator(SCHEMA).iter_errors(topo),
                    key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        return [f"{_where(e.absolute_path)}: {e.message}" for e in errors]
    return _host_problems(topo) + _switch_problems(topo)


def address_problem(address):
    """Why address cannot be where ONOS reaches the switches, or None."""
    try:
        ipaddress.ip_address(address)
        return None
    except ValueError:
        pass
    if HOST_NAME.fullmatch(address):
        return None
    return f"address {address!r} is not an IP address or a host name"


def _where(path):
    """switches[0].ports[2].number, from a JSON path."""
    where = ""
    for part in path:
        where += f"[{part}]" if isinstance(part, int) else f".{part}" if where else part
    return where or "topology"


def _host_problems(topo):
    found, names, macs, ips = [], {}, {}, {}
    for i, spec in enumerate(topo["hosts"]):
        where = f"hosts[{i}]"
        for key, seen in (("name", names), ("mac", macs)):
            value = spec[key].lower()
            if value in seen:
                found.append(f"{where}.{key}: {spec[key]} is also {seen[value]}'s")
            seen.setdefault(value, where)
        try:
            iface = ipaddress.ip_interface(spec["ip"])
        except ValueError:
            found.append(f'{where}.ip: {spec["ip"]!r} is not an address/prefix')
            continue
        if "/" not in spec["ip"]:
            found.append(f'{where}.ip: {spec["ip"]!r} needs a prefix length (e.g. 10.0.0.1/24)')
        elif iface.ip in ips:
            found.append(f'{where}.ip: {iface.ip} is also {ips[iface.ip]}\'s')
        ips.setdefault(iface.ip, where)
    return found


def _switch_problems(topo):
    """Ports, names and TCP ports that clash, and hosts on no port or two.
    All switches and agents share one network namespace (the Mininet host),
    so interface names and TCP ports must be unique across switches."""
    found = []
    hosts = {spec["name"] for spec in topo["hosts"]}
    switch_names, tcp_ports, interfaces, attached = {}, {}, {}, {}

    def claim(seen, key, where, what):
        if key in seen:
            found.append(f"{where}: {what} is also {seen[key]}")
        else:
            seen[key] = where

    for s, sw in enumerate(topo["switches"]):
        where = f"switches[{s}]"
        claim(switch_names, sw["name"], f"{where}.name", f'switch name {sw["name"]}')
        for key in ("grpc_port", "agent_port"):
            claim(tcp_ports, sw[key], f"{where}.{key}", f"TCP port {sw[key]}")
        numbers, vports = {}, {}
        for p, port in enumerate(sw["ports"]):
            pw = f"{where}.ports[{p}]"
            if ("host" in port) == ("vport" in port):
                found.append(f"{pw}: a port has either a host or a vport "
                             "(with its agent_interface)")
                continue
            use = f'host {port["host"]}' if "host" in port else f'vport {port["vport"]}'
            number = port["number"]
            if number == topo["cpu_port"]:
                found.append(f"{pw}.number: {number} is the cpu_port")
            if number in numbers:
                found.append(f'{pw}.number: port {number} of {sw["name"]} is for {use} '
                             f"and also for {numbers[number]}")
            else:
                numbers[number] = f"{use} ({pw})"
            claim(interfaces, port["interface"], f"{pw}.interface",
                  f'interface {port["interface"]}')
            if "vport" in port:
                claim(interfaces, port["agent_interface"], f"{pw}.agent_interface",
                      f'interface {port["agent_interface"]}')
                claim(vports, port["vport"], f"{pw}.vport", f'vport id {port["vport"]}')
            elif port["host"] not in hosts:
                found.append(f'{pw}.host: {port["host"]} is not in hosts')
            else:
                claim(attached, port["host"], f"{pw}.host", f'host {port["host"]}')
    for i, spec in enumerate(topo["hosts"]):
        if spec["name"] not in attached:
            found.append(f'hosts[{i}]: host {spec["name"]} is on no switch port')
    return found


def write_all(out, files):
    """Writes each file through a temporary name, so none is left half
    written."""
    out.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        tmp = out / f".{name}.tmp"
        tmp.write_text(content)
        os.replace(tmp, out / name)
        print(f"wrote {out / name}", file=sys.stderr)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Render Stratum chassis configs and ONOS netcfg for a FlowBuf topology.")
    parser.add_argument("--topology", type=pathlib.Path, default=HERE / "topology.json",
                        help="topology file (default: %(default)s)")
    parser.add_argument("--out", type=pathlib.Path,
                        help="directory to write into (default: the topology's directory)")
    parser.add_argument("--address", default=DEFAULT_ADDRESS,
                        help="where ONOS reaches the switches and their agents "
                             "(default: %(default)s)")
    args = parser.parse_args(argv)
    out = args.out if args.out is not None else args.topology.parent
    try:
        topo = json.loads(args.topology.read_text())
    except OSError as e:
        print(f"{args.topology}: {e.strerror}; nothing written", file=sys.stderr)
        return 2
    except json.JSONDecodeError as e:
        print(f"{args.topology}: not JSON: {e}; nothing written", file=sys.stderr)
        return 2
    found = problems(topo)
    bad_address = address_problem(args.address)
    if bad_address:
        found.append(bad_address)
    if found:
        for problem in found:
            print(f"{args.topology}: {problem}", file=sys.stderr)
        print(f"{args.topology}: {len(found)} problem(s); nothing written", file=sys.stderr)
        return 2
    files = outputs(topo, args.address)
    if out.exists() and not out.is_dir():
        print(f"{out}: not a directory; nothing written", file=sys.stderr)
        return 2
    write_all(out, files)
    return 0


if __name__ == "__main__":
    sys.exit(main())
