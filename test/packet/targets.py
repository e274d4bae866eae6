# SPDX-License-Identifier: Apache-2.0
"""The P4Runtime targets the packet tests run against.

A target is a P4Runtime address and device id plus, for each switch port
number, the interface at the far end of that port (where the tests send
and watch frames). `pbswitch` (built here) and `bmv2` (simple_switch_grpc,
found on PATH) are started here, in a namespace lab with one host per port;
any other target (stratum_bmv2, a hardware switch) is started by the user
and described with --target grpc=HOST:PORT --port-map 1=IFNAME,2=IFNAME
--device-id N.
"""
import dataclasses
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile

from test.lab import Lab, Process, wait_for_tcp

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Two packet-test runs on one machine need different prefixes (at most 4
# characters: interface names are limited to 15).
LAB_PREFIX = os.environ.get("FLOWBUF_PACKET_LAB_PREFIX", "fpk-")
# Enough ports for multicast: one ingress port plus members on the others.
PBSWITCH_PORTS = (1, 2, 3, 4)
# pbswitch also has a port shaped to a known rate: a bottleneck whose
# strict-priority queues a test can watch (BMv2 sets queue rates through its
# Thrift runtime only, which a P4Runtime test does not reach).
PBSWITCH_SHAPED_PORT = 5
PBSWITCH_SHAPED_BPS = 1_000_000
# BMv2 runs one queue per port unless told otherwise, and drops a packet
# whose priority has no queue; pbswitch has 8 strict-priority queues.
# simple_switch_grpc takes --priority-queues from BMv2 1.15.1 on
# (p4lang/behavioral-model#1101); an older one runs without it, and the tests
# that queue by priority skip.
BMV2_PRIORITY_QUEUES = 8
NO_PRIORITY_QUEUES = ("this simple_switch_grpc has no --priority-queues (BMv2 older than 1.15.1): "
                      "one queue per port, which drops a packet whose priority is not 0")
PBSWITCH_VPORT = 100
CPU_PORT = 255


@dataclasses.dataclass
class PortSpec:
    ifname: str
    netns: str = None  # None: the root namespace


@dataclasses.dataclass
class Target:
    name: str
    grpc_addr: str
    device_id: int
    ports: dict  # switch port number -> PortSpec
    cpu_port: int = CPU_PORT
    # The southbound buffer API of a switch that hosts buffers in-process,
    # and the switch port number of its in-process vport; None elsewhere.
    buffer_api_addr: str = None
    inproc_vport: int = None
    # Whether the target's queues hold a 2000-frame burst sent at the
    # generator's rate (pbswitch's do; BMv2's, 64 packets by default with no
    # setting in simple_switch_grpc, do not).
    holds_bursts: bool = False
    # Switch port number -> the bits/s the target shapes it to, for ports
    # whose rate a test may rely on; empty elsewhere.
    port_rates: dict = dataclasses.field(default_factory=dict)
    # Why the target has no queue per priority (0-7), or None when it has.
    no_priority_queues: str = None

    def close(self):
        pass


def parse_port_map(text):
    """"1=veth1,2=veth3" -> {1: PortSpec("veth1"), 2: PortSpec("veth3")}."""
    ports = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        number, sep, ifname = item.partition("=")
        if not sep or not number.isdigit() or not ifname:
            raise ValueError(f"--port-map item {item!r} is not PORT=IFNAME")
        if int(number) in ports:
            raise ValueError(f"--port-map names port {number} twice")
        ports[int(number)] = PortSpec(ifname)
    return ports


def external_target(spec, port_map, device_id, cpu_port):
    """--target grpc=HOST:PORT: a target someone else runs."""
    address = spec.partition("=")[2]
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--target {spec!r}: expected grpc=HOST:PORT")
    ports = parse_port_map(port_map or "")
    if len(ports) < 2:
        raise ValueError("--target grpc=... needs --port-map with at least two ports")
    return Target(name="grpc", grpc_addr=address, device_id=device_id, ports=ports,
                  cpu_port=cpu_port)


def _free_tcp_port():
    """A port nothing listens on now; other helpers run switches on this
    machine at the same time, so fixed ports could collide."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def build_pbswitch():
    out = ROOT / "bin"
    proc = subprocess.run(["go", "build", "-o", f"{out}/", "./pbswitch/cmd/pbswitch"],
                          cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"go build ./pbswitch/cmd/pbswitch failed:\n{proc.stderr}")
    return out / "pbswitch"


def pbswitch_argv(binary, grpc_port, buffer_port, device_id, switch_ifs, port_rates=None):
    argv = [str(binary), "--p4rt-listen", f"127.0.0.1:{grpc_port}",
            "--device-id", str(device_id), "--cpu-port", str(CPU_PORT),
            "--vport", str(PBSWITCH_VPORT),
            "--buffer-listen", f"127.0.0.1:{buffer_port}"]
    for number, ifname in switch_ifs.items():
        rate = (port_rates or {}).get(number)
        argv += ["--port", f"{number}={ifname}" + (f"@{rate}" if rate else "")]
    return argv


class LabTarget(Target):
    """A switch process on veths whose host ends live in one namespace per
    port (PORTS), started here and stopped at close(). Subclasses name the
    process (`name`, argv()) and the TCP ports it listens on once ready."""

    name = None
    # The port numbers of the lab, one namespace each.
    lab_ports = PBSWITCH_PORTS

    def __init__(self, device_id=1, **extra):
        self.lab = Lab(LAB_PREFIX)
        self.logs = tempfile.TemporaryDirectory(prefix="fpk-logs-")
        self.process = None
        try:
            ports, switch_ifs = {}, {}
            for number in self.lab_ports:
                host = self.lab.add_host(f"h{number}")
                switch_ifs[number] = self.lab.link_host(host, "eth0", f"s{number}")
                ports[number] = PortSpec("eth0", host.name)
            grpc_port = _free_tcp_port()
            argv, listens = self.argv(grpc_port, device_id, switch_ifs, extra)
            self.log_path = os.path.join(self.logs.name, f"{self.name}.log")
            self.process = Process(argv, self.log_path)
            self._wait_ready(grpc_port, *listens)
        except BaseException:
            self.close()
            raise
        super().__init__(name=self.name, grpc_addr=f"127.0.0.1:{grpc_port}",
                         device_id=device_id, ports=ports, **extra)

    def argv(self, grpc_port, device_id, switch_ifs, extra):
        """The command line, and the TCP ports besides grpc_port to wait for;
        may fill `extra` (Target fields such as buffer_api_addr)."""
        raise NotImplementedError

    def _wait_ready(self, *tcp_ports):
        try:
            for port in tcp_ports:
                wait_for_tcp("127.0.0.1", port, timeout=20.0, proc=self.process.popen)
        except (RuntimeError, TimeoutError) as err:
            raise RuntimeError(f"{self.name} did not start: {err}\n"
                               f"--- {self.name} log ---\n{self.log_tail()}") from None

    def log_tail(self):
        return self.process.log_tail() if self.process else ""

    def close(self):
        if self.process is not None:
            self.process.stop()
        self.lab.close()
        self.logs.cleanup()


class PbswitchTarget(LabTarget):
    """pbswitch, built here, with an in-process vport and buffer API."""

    name = "pbswitch"
    lab_ports = PBSWITCH_PORTS + (PBSWITCH_SHAPED_PORT,)

    def argv(self, grpc_port, device_id, switch_ifs, extra):
        buffer_port = _free_tcp_port()
        rates = {PBSWITCH_SHAPED_PORT: PBSWITCH_SHAPED_BPS}
        extra.update(buffer_api_addr=f"127.0.0.1:{buffer_port}", inproc_vport=PBSWITCH_VPORT,
                     holds_bursts=True, port_rates=rates)
        return pbswitch_argv(build_pbswitch(), grpc_port, buffer_port, device_id,
                             switch_ifs, rates), [buffer_port]


BMV2_BINARY = "simple_switch_grpc"


class Bmv2Target(LabTarget):
    """BMv2's simple_switch_grpc (with PI), found on PATH, started without a
    program: the tests push bmv2.json and the p4info as for any target."""

    name = "bmv2"

    @staticmethod
    def binary():
        """The simple_switch_grpc on PATH, or None."""
        return shutil.which(BMV2_BINARY)

    @staticmethod
    def has_priority_queues(binary):
        """Whether simple_switch_grpc takes --priority-queues: its --help
        lists the target's options after the common ones."""
        out = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=30)
        return "--priority-queues" in out.stdout + out.stderr

    def argv(self, grpc_port, device_id, switch_ifs, extra):
        argv = [self.binary(), "--no-p4", "--device-id", str(device_id),
                "--log-console", "--log-level", "warn"]
        for number, ifname in switch_ifs.items():
            argv += ["-i", f"{number}@{ifname}"]
        argv += ["--", "--grpc-server-addr", f"127.0.0.1:{grpc_port}", "--cpu-port", str(CPU_PORT)]
        if self.has_priority_queues(self.binary()):
            argv += ["--priority-queues", str(BMV2_PRIORITY_QUEUES)]
        else:
            extra.update(no_priority_queues=NO_PRIORITY_QUEUES)
        return argv, []
