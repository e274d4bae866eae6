# SPDX-License-Identifier: Apache-2.0
"""The mobility lab: a server, an anchor switch, two eNB switches and a UE.

    server -- 1 sa 2 -- 1 s1 (eNB 1) 2 ~~ radio 1 ~~ r1
                   3 -- 1 s2 (eNB 2) 2 ~~ radio 2 ~~ r2   UE (10.0.0.10)
                          s1 3 ---- X2 ---- 3 s2

Every switch is a pbswitch with in-process buffers on vports 100-102, all
driven by one embedded host. The UE's rate is limited with tc tbf (at the
server for the downlink, at the UE for the uplink); a detach is a cut of the
radio (the UE stops taking its frames), an attach opens the target radio and
moves the UE's route there (the UE owns one address, on lo, reached through
either radio). Radio changes go through one long-running `ip -batch` in the
UE's namespace (with shape_at="ue", one libnftables process: RadioGates), so
a cut or an attach costs well under a millisecond (FMM hands off 50 times a
second). With cpu_rate_bps the eNB switches carry no more than that to the
controller (pbswitch --cpu-rate: a switch's punt path, what controller
buffering depends on). With rtt_ms the anchor delays what it sends each way
by half of it (pbswitch --port-delay: this kernel has no sch_netem). With
shape_at="ue" the downlink's rate limit sits at the UE's ingress (each
radio's frames through an ifb of its own with a small-burst tbf: the radio's
air interface, after which a cut radio's gate drops what it brings) and the
eNB buffers send at the radio's rate (vport txRateBps), so that the buffer
is the eNB's radio queue, as in a real eNB: a detach then costs air time,
and a release after an attach goes out at the radio's rate.
Everything is torn down on close.
"""
import json
import pathlib
import re
import subprocess
import tempfile
import time

from .netns import Lab
from .procs import ProcessLab
from .servicelab import BMV2_JSON, HOST_JAR, P4INFO, ROOT, Rest

SERVER_IP, UE_IP = "10.0.0.1", "10.0.0.10"
# The UE's signal: one UDP datagram to this port, sent on the radio it just
# joined (what RRC's "reconfiguration complete" is to a real eNB) and, with
# receive reports, on the radio it is leaving; see test/lab/ue_signal.py.
ATTACH_SIGNAL_PORT = 9
ATTACH_SIGNAL = {"ipv4Src": UE_IP + "/32", "ipProto": 17, "l4DstPort": ATTACH_SIGNAL_PORT}
SERVER_MAC, UE_MAC = "00:00:00:00:00:01", "00:00:00:00:00:0a"
SWITCHES = ("sa", "s1", "s2")
UE_IFS = {"s1": "r1", "s2": "r2"}  # the UE's end of each eNB's radio
# How long a radio's air queue may hold what its eNB sent (tbf latency):
# short, as the radio queue of the throughput comparisons; a loss test uses
# a longer one (MobilityLab air_queue).
AIR_QUEUE_LATENCY = "1ms"
PAPER_RTT_MS = 20.0  # the paper's server-UE round trip, the scenarios' default
RADIO_RATE = "50mbit"  # each radio's rate (the paper's 500 Mbit/s, scaled to 2 cores)
# The air queue shaper's token bucket (tbf burst, bytes): small, so that a
# radio banks no more than 1.3 ms of air time while the UE is detached.
AIR_BURST_BYTES = 8 * 1024
# The token bucket of a shaper at the server (shape_at="server", tbf burst).
SERVER_BURST_BYTES = 64 * 1024


def add_rtt_option(parser):
    """--rtt-ms, the round trip a scenario's lab adds at the anchor."""
    parser.add_argument("--rtt-ms", type=float, default=PAPER_RTT_MS,
                        help=f"server-UE round trip added at the anchor (default "
                             f"{PAPER_RTT_MS:g})")
VPORTS = (100, 101, 102)


def device(switch):
    return f"device:{switch}"


def cp(switch, port):
    return f"{device(switch)}/{port}"


def plan(source, target):
    """The LMM handoff plan from eNB `source` ("s1"/"s2") to `target`."""
    anchor_port = {"s1": 2, "s2": 3}
    return {"downlink": {"ipv4Dst": UE_IP + "/32"},
            "anchor": {"in": cp("sa", 1), "toSource": cp("sa", anchor_port[source]),
                       "toTarget": cp("sa", anchor_port[target])},
            "source": {"in": cp(source, 1), "x2": cp(source, 3)},
            "target": {"in": cp(target, 1), "x2": cp(target, 3), "ue": cp(target, 2)}}


def fmm_plan(serving, window=4096, attach_signal=False, ue_reports=False):
    """The FMM session plan: the anchor multicasts to both eNBs; with
    attach_signal, the UE's attach datagram releases the target eNB; with
    ue_reports too, the UE's datagram as it leaves holds the source, and the
    target purges to the receive report of the one as it joins."""
    plan = {"downlink": {"ipv4Dst": UE_IP + "/32"}, "anchorIn": cp("sa", 1),
            "cells": [{"anchor": cp("sa", 2), "in": cp("s1", 1), "ue": cp("s1", 2)},
                      {"anchor": cp("sa", 3), "in": cp("s2", 1), "ue": cp("s2", 2)}],
            "serving": device(serving), "windowPackets": window}
    if attach_signal or ue_reports:
        plan["attachSignal"] = ATTACH_SIGNAL
    if ue_reports:
        plan["ueReports"] = True
    return plan


def bits_per_second(rate):
    """tc's "50mbit" as a number."""
    units = {"kbit": 1e3, "mbit": 1e6, "gbit": 1e9}
    for unit, scale in units.items():
        if rate.endswith(unit):
            return int(float(rate[:-len(unit)]) * scale)
    raise ValueError(f"rate {rate!r} is not like 50mbit")


# The radio's TCP goodput capacity is its shaper's rate times the share of a
# full frame that is iperf3's payload: 1448 bytes (MTU 1500 less the IPv4, TCP
# and timestamp headers) of the 1514-byte Ethernet frame the shaper counts.
PAYLOAD_SHARE = (1500 - 20 - 20 - 12) / (1500 + 14)
# What timing a few hundred detaches from Python may be off by, as a share of
# the radio's capacity bound (README: +-1-2 %).
TIMING_SLACK = 0.03


class ImplausibleRun(RuntimeError):
    """A run's figure the lab's radio cannot have carried: the lab, not the
    mode, was measured wrong."""


def radio_goodput_mbps(rate=RADIO_RATE):
    """The radio's TCP goodput capacity, Mbit/s."""
    return bits_per_second(rate) * PAYLOAD_SHARE / 1e6


def attached_capacity_mbps(seconds, detached_s, attaches, rate=RADIO_RATE,
                           burst_bytes=AIR_BURST_BYTES):
    """The most TCP goodput, averaged over `seconds`, that the radio carries
    to a UE detached for detached_s of them: its goodput capacity for the
    attached time, plus the full token bucket (burst_bytes) its shaper
    starts each attach with (crossed at the veth's speed), plus
    TIMING_SLACK."""
    bits = (radio_goodput_mbps(rate) * 1e6 * (seconds - detached_s)
            + (attaches + 1) * burst_bytes * 8 * PAYLOAD_SHARE)
    return bits / seconds / 1e6 * (1 + TIMING_SLACK)


def check_plausible(what, run, seconds, rate=RADIO_RATE, burst_bytes=AIR_BURST_BYTES):
    """Raises ImplausibleRun when a TCP run's figure (run: mbps, detached_s,
    handoffs) exceeds what the radio carries in the time the UE was
    attached."""
    bound = attached_capacity_mbps(seconds, run["detached_s"], run["handoffs"], rate,
                                   burst_bytes)
    if run["mbps"] > bound:
        raise ImplausibleRun(
            f"{what}: {run['mbps']:.2f} Mbit/s received, more than the radio carries in "
            f"the {seconds - run['detached_s']:.2f} s of {seconds:g} s the UE was attached "
            f"({bound:.2f} Mbit/s at most, {run['handoffs']} handoffs): the lab delivered "
            f"through a cut radio or the figure is not what the UE received")


def tbf(rate):
    return ["tbf", "rate", rate, "burst", str(SERVER_BURST_BYTES), "latency", "50ms"]


class LineServer:
    """A long-running process in a namespace that answers each request with
    one line on stdout, so a change costs no process start; its errors go
    to its log."""

    def __init__(self, host, argv, log_path, what, cwd=None):
        self._log = open(log_path, "w")
        self._what = what
        self.proc = subprocess.Popen(host.popen_argv(argv), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._log, text=True,
                                     cwd=cwd)

    def request(self, text):
        """Writes text and returns the process's answer, once it came."""
        self.proc.stdin.write(text)
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError(f"{self._what} exited; see {self._log.name}")
        return answer.strip()

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
        self._log.close()


class IpBatch(LineServer):
    """One `ip -force -batch -` in a namespace: each line runs as it is
    written; run() returns once ip has applied the lines (it reads back a
    one-line `link show` written after them, so the lines themselves must
    print nothing), so a radio is up before an attach releases frames
    towards it."""

    _FENCE = "link show dev lo"

    def __init__(self, host, log_path):
        # Line-buffered stdout: the fence's line comes back at once.
        super().__init__(host, ["stdbuf", "-oL", "ip", "-oneline", "-force", "-batch", "-"],
                         log_path, "ip -batch")

    def run(self, *lines):
        self.request("".join(line + "\n" for line in (*lines, self._FENCE)))


class RadioGates(LineServer):
    """The radios' gates in the UE's namespace: one table, changed through one
    long-running libnftables process (test/lab/nft_lines.py: 0.15 to 0.35 ms
    a change, the pipe to it included). A set of the radios that are cut,
    and a prerouting rule that drops what a cut radio brings: it sees a
    radio's frames after the radio's air queue (the ifb hands them back to
    the radio) and before the UE's stack and its receive report (raw IP
    sockets, test/lab/ue_signal.py) do, so a report never names a packet the
    cut dropped. The uplink's radio is a map element, the packet mark that
    the UE's policy routes follow (a route chain marks what the UE sends, so
    the kernel routes it again). A cut or an attach is then a set or map
    element: no rtnl lock and no RCU grace period, which taking a link down
    and replacing a route wait for (under stress-ng, 43.9 and 46.6 s once
    each: the flow outran the eNBs' windows). run() returns once the kernel
    has committed the lines."""

    TABLE = "inet fbradio"
    # libnftables' Python binding is a Debian package: the system python.
    PYTHON = "/usr/bin/python3"

    def __init__(self, host, radios, log_path):
        super().__init__(host, [self.PYTHON, str(ROOT / "test" / "lab" / "nft_lines.py")],
                         log_path, "nft line server")
        self.marks = {ue_if: mark for mark, ue_if in enumerate(radios, 1)}
        t = self.TABLE
        self.run(f"add table {t}",
                 f"add set {t} cut {{ type ifname; }}",
                 f"add map {t} uplink {{ type ipv4_addr : mark; }}",
                 f"add chain {t} out {{ type route hook output priority mangle; }}",
                 f"add rule {t} out meta mark set ip daddr map @uplink",
                 f"add chain {t} pre {{ type filter hook prerouting priority raw; }}",
                 f"add rule {t} pre iifname @cut counter drop")

    def run(self, *lines):
        """Applies each line as one nft transaction, in order."""
        for line in lines:
            answer = self.request(line + "\n")
            if answer != "ok":
                raise RuntimeError(f"nft {line!r}: {answer}")

    def cut(self, ue_if):
        self.run(f'add element {self.TABLE} cut {{ "{ue_if}" }}')

    def open(self, ue_if):
        self.run(f'delete element {self.TABLE} cut {{ "{ue_if}" }}')

    def uplink_via(self, ue_if, server_ip):
        # One line, one transaction: no moment without an uplink.
        self.run(f"flush map {self.TABLE} uplink; add element {self.TABLE} uplink "
                 f"{{ {server_ip} : {self.marks[ue_if]} }}")


class UeSignal(LineServer):
    """The UE's signals, sent by one long-running process in the UE's
    namespace (test/lab/ue_signal.py), each with the UE's receive report;
    send() returns once the datagram has left the UE."""

    def __init__(self, ue, log_path):
        super().__init__(ue, [str(ROOT / ".venv" / "bin" / "python"), "-m", "test.lab.ue_signal",
                              UE_IP, SERVER_IP, str(ATTACH_SIGNAL_PORT)],
                         log_path, "UE signal sender", cwd=ROOT)

    def send(self, ue_if):
        self.request(ue_if + "\n")

    def await_taken(self, packet_id, timeout_s):
        """True once the UE has taken the packet of `packet_id` (the REST
        lastOutPacketId's JSON), False after timeout_s."""
        pid = f"{packet_id['ipv4Id']:04x}{packet_id['l4Checksum']:04x}"
        return self.request(f"await {pid} {timeout_s}\n") == "ok"


# What the UE's radios must have received before a throughput run's
# handoffs start: more than iperf3's connection setup and parameter
# exchange (a few kB), so its test's data is flowing.
TEST_DATA_BYTES = 512 * 1024
# How long iperf3 may take to start sending on a loaded machine.
TEST_START_TIMEOUT_S = 30.0


def iperf_to_ue(lab, seconds, drive=None):
    """iperf3 TCP from the server to the UE for `seconds`, with drive()
    (the handoffs) run once the test's data reaches the UE; returns the
    receiver's Mbit/s. Handoffs started with the client cut its setup
    under a mode without buffers: TCP's SYN and control retransmissions
    (1, 2, 4 s) then started the test after the handoffs were over, and
    the no-buffering baseline measured a link without handoffs (46.25
    Mbit/s at 50 handoffs/s, 2026-11-28)."""
    server = subprocess.Popen(lab.ue.popen_argv(["iperf3", "-s", "-1", "-B", UE_IP]),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    before = lab.received_bytes()
    client = subprocess.Popen(lab.server.popen_argv(
        ["iperf3", "-c", UE_IP, "-t", str(seconds), "-J"]), stdout=subprocess.PIPE, text=True)
    if drive:
        lab.await_received_bytes(before + TEST_DATA_BYTES, TEST_START_TIMEOUT_S)
        drive()
    report = json.loads(client.communicate(timeout=seconds + 60)[0])
    server.wait(timeout=10)
    return report["end"]["sum_received"]["bits_per_second"] / 1e6


class Radio:
    """One eNB-UE link. Without an air queue, a cut gives the UE's end
    another MAC address: the eNB's frames still leave (the eNB does not know
    the UE is gone) and the UE's stack drops them as not its own, as a
    detached radio would lose them. (Taking the link down does not work:
    pbswitch waits for a down port.) With one (air_ifb: the radio's frames
    are redirected through that ifb's shaper), a cut closes the radio's
    gate (RadioGates): what comes out of the air queue is dropped until the
    radio opens, so nothing crosses a cut radio. The uplink is rate-limited
    with tc tbf here; the downlink at the server, or in the air queue
    (pbswitch writes past qdiscs). This kernel has no sch_netem: the lab's
    delay is the anchor's (MobilityLab rtt_ms)."""

    DETACHED_MAC = "02:00:00:00:de:ad"

    def __init__(self, ue, ue_if, rate, batch, air_ifb=None, gates=None):
        self.ue, self.ue_if, self.batch, self.gates = ue, ue_if, batch, gates
        self.is_cut = False
        ue.run("tc", "qdisc", "add", "dev", ue_if, "root", *tbf(rate))
        if air_ifb:
            ue.run("tc", "qdisc", "add", "dev", ue_if, "handle", "ffff:", "ingress")
            ue.run("tc", "filter", "add", "dev", ue_if, "parent", "ffff:", "protocol", "all",
                   "u32", "match", "u32", "0", "0", "action", "mirred", "egress", "redirect",
                   "dev", air_ifb)

    def up(self):
        if self.is_cut:
            if self.gates:
                self.gates.open(self.ue_if)
            else:
                self.batch.run(f"link set {self.ue_if} address {UE_MAC}")
        self.is_cut = False

    def cut(self):
        if self.gates:
            self.gates.cut(self.ue_if)
        else:
            self.batch.run(f"link set {self.ue_if} address {self.DETACHED_MAC}")
        self.is_cut = True


class MobilityLab(ProcessLab):
    """Context manager: topology, switches, host; `rest`, `radios`, `attach_to`."""

    def __init__(self, prefix="fbm-", rest_port=8195, p4rt_base=28301, agent_base=28311,
                 rate=RADIO_RATE, shape_at="server", rtt_ms=0, cpu_rate_bps=0,
                 air_queue=AIR_QUEUE_LATENCY):
        if shape_at not in ("server", "ue"):
            raise ValueError(f"shape_at is 'server' or 'ue', not {shape_at!r}")
        self.prefix, self.rest_port = prefix, rest_port
        self.p4rt = {s: p4rt_base + i for i, s in enumerate(SWITCHES)}
        self.agent = {s: agent_base + i for i, s in enumerate(SWITCHES)}
        self.rate, self.shape_at, self.rtt_ms = rate, shape_at, rtt_ms
        self.cpu_rate_bps = cpu_rate_bps
        self.air_queue = air_queue

    def _start(self):
        self._start_network()
        cfg = pathlib.Path(self.logs) / "netcfg.json"
        cfg.write_text(json.dumps(self.netcfg(), indent=2))
        self._run(["java", "-jar", str(HOST_JAR), "--netcfg", str(cfg), "--p4info", str(P4INFO),
                   "--device-config", str(BMV2_JSON),
                   "--listen", f"127.0.0.1:{self.rest_port}"], "host", self.rest_port,
                  timeout=60)
        self.rest = Rest(f"http://127.0.0.1:{self.rest_port}/onos/flowbuf")

    def _start_network(self):
        """The hosts, the radios and the switches, without a controller; the
        UE attached to s1."""
        self.logs = tempfile.mkdtemp(prefix="flowbuf-mobility-")
        self.lab = Lab(self.prefix)
        self.lab.remove_leftovers()
        self._stack.append(self.lab.close)
        ports = {s: [] for s in SWITCHES}
        self.server = self.lab.add_host("srv")
        self.ue = self.lab.add_host("ue")
        srv_if = self.lab.link_host(self.server, "eth0", "srv", ip=SERVER_IP + "/24",
                                    mac=SERVER_MAC)
        if self.shape_at == "server":
            self.server.run("tc", "qdisc", "add", "dev", "eth0", "root", *tbf(self.rate))
        ports["sa"].append((1, srv_if))
        for a, pa, b, pb in (("sa", 2, "s1", 1), ("sa", 3, "s2", 1), ("s1", 3, "s2", 3)):
            ea, eb = self.lab.add_root_veth(f"{a}p{pa}", f"{b}p{pb}")
            ports[a].append((pa, ea))
            ports[b].append((pb, eb))
        self.radios = {}
        self.ue_batch = IpBatch(self.ue, pathlib.Path(self.logs) / "ue-ip-batch.log")
        self._stack.append(self.ue_batch.close)
        air = {ue_if: self._air_queue(ue_if) if self.shape_at == "ue" else None
               for ue_if in UE_IFS.values()}
        self.ue_signal = UeSignal(self.ue, pathlib.Path(self.logs) / "ue-signal.log")
        self._stack.append(self.ue_signal.close)
        self.gates = None
        for enb, ue_if in UE_IFS.items():
            sw_if = self.lab.link_host(self.ue, ue_if, f"{enb}radio", mac=UE_MAC)
            ports[enb].append((2, sw_if))
        if self.shape_at == "ue":
            self.gates = RadioGates(self.ue, list(UE_IFS.values()),
                                    pathlib.Path(self.logs) / "ue-nft.log")
            self._stack.append(self.gates.close)
        for enb, ue_if in UE_IFS.items():
            self.radios[enb] = Radio(self.ue, ue_if, self.rate, self.ue_batch, air[ue_if],
                                     self.gates)
        self._address_ue()
        self.server.run("ip", "neigh", "add", UE_IP, "lladdr", UE_MAC, "dev", "eth0")
        for sw in SWITCHES:
            argv = self._switch_argv(sw, ports[sw])
            if sw != "sa" and self.cpu_rate_bps:
                # The eNBs' path to the controller, as a switch polices its punts.
                argv += ["--cpu-rate", str(int(self.cpu_rate_bps))]
            if sw == "sa" and self.rtt_ms:
                # Half the RTT each way, on the anchor: towards the server
                # (the uplink) and towards both eNBs (the downlink).
                for number, _ in ports[sw]:
                    argv += ["--port-delay", f"{number}={self.rtt_ms / 2:g}ms"]
            self._run(argv, sw, self.p4rt[sw])
        self.radios["s2"].cut()
        self.attached = "s1"

    def _switch_argv(self, sw, ports):
        """pbswitch's command line for `sw` with its (number, ifname) ports:
        in-process buffers on VPORTS."""
        argv = [str(ROOT / "bin" / "pbswitch"),
                "--p4rt-listen", f"127.0.0.1:{self.p4rt[sw]}",
                "--buffer-listen", f"127.0.0.1:{self.agent[sw]}"]
        for number, ifname in ports:
            argv += ["--port", f"{number}={ifname}"]
        for number in VPORTS:
            argv += ["--vport", str(number)]
        return argv

    def _air_queue(self, ue_if):
        # A radio's air interface: its shaper, with a small burst, so that a
        # radio banks no air time while the UE is detached, and a queue of
        # self.air_queue (tbf latency).
        ifb = f"air{ue_if}"
        self.ue.run("ip", "link", "add", ifb, "type", "ifb")
        self.ue.run("sysctl", "-qw", f"net.ipv6.conf.{ifb}.disable_ipv6=1")
        self.ue.run("ip", "link", "set", ifb, "up")
        self.ue.run("tc", "qdisc", "add", "dev", ifb, "root", "tbf", "rate", self.rate,
                    "burst", str(AIR_BURST_BYTES), "latency", self.air_queue)
        return ifb

    def air_drops(self):
        """Packets each air queue's shaper dropped (not what a cut radio's
        gate dropped after it), by eNB."""
        drops = {}
        for enb, ue_if in UE_IFS.items():
            out = self.ue.run("tc", "-s", "qdisc", "show", "dev", f"air{ue_if}").stdout
            found = re.search(r"dropped (\d+)", out)
            drops[enb] = int(found.group(1)) if found else None
        return drops

    def _address_ue(self):
        # One address for the UE whichever radio carries it (weak host model).
        self.ue.run("ip", "addr", "add", UE_IP + "/32", "dev", "lo")
        self.ue.run("sysctl", "-qw", "net.ipv4.conf.all.rp_filter=0")
        for ue_if in ("r1", "r2"):
            self.ue.run("sysctl", "-qw", f"net.ipv4.conf.{ue_if}.rp_filter=0")
        if self.gates:
            # A route table per radio, chosen by the gates' mark: an attach
            # then changes no route.
            for ue_if, mark in self.gates.marks.items():
                table = str(100 + mark)
                self.ue.run("ip", "neigh", "replace", SERVER_IP, "lladdr", SERVER_MAC,
                            "dev", ue_if)
                self.ue.run("ip", "route", "add", f"{SERVER_IP}/32", "dev", ue_if,
                            "src", UE_IP, "table", table)
                self.ue.run("ip", "rule", "add", "fwmark", str(mark), "table", table)
            # What the UE sends needs a route before the mark picks the radio's.
            self.ue.run("ip", "route", "add", f"{SERVER_IP}/32", "dev", "r1", "src", UE_IP)
        self._uplink_via("r1")

    def _uplink_via(self, ue_if):
        if self.gates:
            self.gates.uplink_via(ue_if, SERVER_IP)
            return
        self.ue_batch.run(f"neigh replace {SERVER_IP} lladdr {SERVER_MAC} dev {ue_if}",
                          f"route replace {SERVER_IP}/32 dev {ue_if} src {UE_IP}")

    def netcfg(self):
        devices = {}
        for sw in SWITCHES:
            entry = {"basic": {"managementAddress":
                               f"grpc://127.0.0.1:{self.p4rt[sw]}?device_id=1",
                               "driver": "stratum-bmv2", "pipeconf": "org.flowbuf.pipeconf",
                               "name": sw}}
            if sw != "sa":
                entry["flowbuf"] = {"agentAddress": f"127.0.0.1:{self.agent[sw]}",
                                    "inProcess": True,
                                    "vports": [self._vport(n) for n in VPORTS]}
            devices[device(sw)] = entry
        links = {f"{cp(a, pa)}-{cp(b, pb)}": {"basic": {}}
                 for a, pa, b, pb in (("sa", 2, "s1", 1), ("sa", 3, "s2", 1),
                                      ("s1", 3, "s2", 3))}
        hosts = {f"{SERVER_MAC}/None": {"basic": {"name": "server", "ips": [SERVER_IP],
                                                  "locations": [cp("sa", 1)]}},
                 f"{UE_MAC}/None": {"basic": {"name": "ue", "ips": [UE_IP],
                                              "locations": [cp("s1", 2), cp("s2", 2)]}}}
        return {"devices": devices, "links": links, "hosts": hosts}

    def _vport(self, number):
        vport = {"id": f"vp{number}", "switchPort": number}
        if self.shape_at == "ue":
            # The eNB's buffer is its radio queue: it sends at the radio's rate.
            vport["txRateBps"] = bits_per_second(self.rate)
        return vport

    def received_bytes(self):
        """Bytes the UE's radios have brought it (before the gates)."""
        paths = [f"/sys/class/net/{ue_if}/statistics/rx_bytes" for ue_if in UE_IFS.values()]
        return sum(int(n) for n in self.ue.run("cat", *paths).stdout.split())

    def await_received_bytes(self, total, timeout_s):
        """Returns once the UE's radios have received `total` bytes;
        raises TimeoutError after timeout_s."""
        deadline = time.monotonic() + timeout_s
        while self.received_bytes() < total:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the UE's radios received {self.received_bytes()} bytes, "
                                   f"not {total}, within {timeout_s:g} s")
            time.sleep(0.05)

    def detach(self):
        """The UE leaves its eNB: the radio is cut."""
        self.radios[self.attached].cut()

    def attach_to(self, enb):
        """The UE joins `enb`: its radio opens and the UE's uplink moves to
        it. Returns time.perf_counter() once the radio was up."""
        self.radios[enb].up()
        up_at = time.perf_counter()
        self._uplink_via(UE_IFS[enb])
        self.attached = enb
        return up_at

    def signal(self):
        """The UE sends its signal, with its receive report, on the radio it
        is attached to (just joined, or about to leave)."""
        self.ue_signal.send(UE_IFS[self.attached])
