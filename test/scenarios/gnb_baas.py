# SPDX-License-Identifier: Apache-2.0
"""Scenario: the hybrid gNodeB's buffer-as-a-service over a lossy radio
(hybrid P4 UPF/gNodeB paper, sections 5.6 and 6.3.2, Algorithm 1).

A UE downloads over TCP (iperf3 -R, the sender's congestion control
TCP_CC, cubic) from a server CORE_RTT_MS (40 ms) away through a UPF and a
gNodeB, both pbswitch running the FlowBuf program, driven by one embedded
host:

    dn -- 2 s1 (UPF) 1 ---------- 1 s2 (gNodeB) 2 ~~radio~~ modem -> ue0 (TUN) in ue
  +CORE_RTT_MS  shaped RADIO_BPS     vport 100: the BaaS buffer (s2's in-process agent)

s1's UPF tunnels the UE's downlink (GTP-U to the gNodeB's address, whose
MAC the lab places on s1 port 1); s2's gNodeB pipeline (gnb netcfg
section) decapsulates it, adds RLC/PDCP with the bearer's next SN, sends
it to the radio port and clones it to vport 100. The UE's modem
(test/scenarios/gnb_modem.py) drops LOSS of the radio frames, writes the
rest into the UE's TUN device, acknowledges what it received (PDCP
status, through s2 to the BaaS) and carries the UE's TCP ACKs up as PDCP
data, which s2 GTP-encapsulates to s1's UPF.

Cases, per radio loss (1 %, 5 %), interleaved in each repeat:
  baas   a PDCP ARQ buffer bound to vport 100 (wheel BUCKETS x BUCKET_US,
         MAX_RESENDS); the modem delivers in order (RLC AM: PDCP's
         t-Reordering covers a resend)
  none   nothing bound to vport 100 (the clones are dropped there, counted
         UNBOUND); the modem delivers at once (RLC UM, t-Reordering 0)
Metrics (JSON lines): gnb_goodput_mbps per case, gnb_goodput_baas_vs_none
per loss (goal >= 2 at 5 %), baas_resent_packets, baas_delivered_after_resend_ratio
(the radio-dropped PDUs the UE got later through a resend / all radio-dropped
PDUs), and the radio's counters. The run fails on a figure that cannot be
true: goodput above the radio's rate, more bytes to TCP than the modem
delivered, a resend with no BaaS bound, more PDUs delivered after a resend
than were resent.

Run as root:  .venv/bin/python -m test.scenarios.gnb_baas [--quick] [--repeats N]
                  [--seconds S] [--core-rtt-ms MS] [--tcp cubic|reno|bbr] [--loss P ...]
"""
import argparse
import json
import pathlib
import re
import signal
import statistics
import subprocess
import sys
import tempfile

from test.lab.bufferapi import BufferAgent
from test.lab.netns import Lab
from test.lab.procs import ProcessLab, wait_until
from test.lab.servicelab import BMV2_JSON, HOST_JAR, P4INFO, ROOT, Rest, RestError, ensure_built
from test.scenarios.report import emit, emit_ratio, save, subplots

PYTHON = str(ROOT / ".venv" / "bin" / "python")
UPF, GNB = "device:s1", "device:s2"
DN_IP, DN_MAC = "10.0.0.2", "00:00:00:00:0a:02"
GNB_IP, GNB_MAC = "10.0.0.1", "00:00:00:00:0a:01"   # the gNodeB's N3 address, on s1 port 1
N3_IP, UE_POOL, UE_IP = "10.0.0.100", "10.250.0.0/16", "10.250.0.1"
UE_MAC = "02:00:00:00:0e:01"
UPF_TO_GNB, UPF_DN = 1, 2          # s1's ports
GNB_UPF, GNB_RADIO, BAAS_PORT = 1, 2, 100   # s2's ports
DOWNLINK_TEID, UPLINK_TEID = 0xD00001, 0x1234
# The cell's downlink capacity, enforced before the gNodeB (s1's port 1,
# shaped by pbswitch with a short queue): congestion drops a packet before
# it has an SN, as a real gNodeB's scheduler queue does. A drop after the SN
# (in a queue of the radio port) would leave a gap no resend can fill (the
# clone is made as the PDU leaves) and stall the in-order receiver.
RADIO_BPS = 8_000_000
BOTTLENECK_QUEUE = 64      # packets per queue of s1's ports (~90 ms at RADIO_BPS)
# The radio port itself carries the PDUs and the resends: 25 % more than
# the cell, with pbswitch's default queue (4,096), so that it never drops.
RADIO_PORT_BPS = RADIO_BPS * 5 // 4
INNER_MTU = 1400           # GTP-U adds 36 bytes, RLC/PDCP 10; the veths carry 1500
# The data network's server is an Internet RTT away (pbswitch's egress
# delay on s1's data network port, the UE's ACKs' way): TCP recovers a
# radio loss end to end in this RTT, the BaaS locally in a wheel turn.
CORE_RTT_MS = 40
# The sender's congestion control, named to iperf3 (-C, which sets it on
# both ends' sockets): a new namespace inherits the machine's default,
# which here is BBR, and BBR does not back off on random loss (a radio loss
# then costs TCP one retransmit, BaaS or not). Most Linux hosts run cubic.
TCP_CC = "cubic"
# The sender's TcpExt counters (/proc/net/netstat of the data network's
# namespace, iperf3 alone in it) read around each download: how often TCP
# noticed a loss (recoveries, retransmits, timeouts) and how often a
# retransmit was spurious (the receiver had it already: D-SACK).
TCP_COUNTERS = ("TCPSackRecovery", "TCPFastRetrans", "TCPLossProbes", "TCPTimeouts",
                "TCPSpuriousRTOs", "TCPDSACKRecv", "TCPLostRetransmit")
BUCKETS, BUCKET_US, MAX_RESENDS = 10, 3000, 8   # a resend every 30 ms, 8 at most
# PDCP's t-Reordering in the BaaS case: a resend's wheel turn, plus the
# radio queue it waits in, plus one more turn for a lost resend.
T_REORDERING_MS = 200
LOSSES = (0.01, 0.05)
CASES = ("baas", "none")
APP_ID = "org.flowbuf.scenario.gnb"
IPERF_PORT = 5201


class GnbLab(ProcessLab):
    """The UPF switch, the gNodeB switch with its BaaS vport, the data
    network and the UE namespaces, one embedded host."""

    def __init__(self, prefix="fgb-", rest_port=8236, p4rt_base=28951, agent_port=28961,
                 core_rtt_ms=CORE_RTT_MS):
        self.prefix, self.rest_port = prefix, rest_port
        self.core_rtt_ms = core_rtt_ms
        self.p4rt = {"s1": p4rt_base, "s2": p4rt_base + 1}
        self.agent_port = agent_port
        self.hosts = {}

    def _start(self):
        self.logs = tempfile.mkdtemp(prefix="flowbuf-gnb-")
        self.lab = Lab(self.prefix)
        self.lab.remove_leftovers()
        self._stack.append(self.lab.close)
        dn, ue = self.lab.add_host("dn"), self.lab.add_host("ue")
        self.hosts = {"dn": dn, "ue": ue}
        dn_if = self.lab.link_host(dn, "eth0", "dn", ip=DN_IP + "/24", mac=DN_MAC)
        radio_if = self.lab.link_host(ue, "radio0", "radio", mac=UE_MAC)
        a, b = self.lab.add_root_veth("s1g", "s2u")
        self._switch("s1", [(UPF_TO_GNB, f"{a}@{RADIO_BPS}"), (UPF_DN, dn_if)],
                     ["--buffer-listen", "", "--queue-len", str(BOTTLENECK_QUEUE),
                      "--port-delay", f"{UPF_DN}={self.core_rtt_ms}ms"])
        self._switch("s2", [(GNB_UPF, b), (GNB_RADIO, f"{radio_if}@{RADIO_PORT_BPS}")],
                     ["--vport", str(BAAS_PORT), "--buffer-listen", f"127.0.0.1:{self.agent_port}"])
        cfg = pathlib.Path(self.logs) / "netcfg.json"
        cfg.write_text(json.dumps(self.netcfg(), indent=2))
        self._run(["java", "-Xms192m", "-Xmx192m", "-jar", str(HOST_JAR), "--netcfg", str(cfg),
                   "--p4info", str(P4INFO), "--device-config", str(BMV2_JSON),
                   "--listen", f"127.0.0.1:{self.rest_port}"], "host", self.rest_port, timeout=90)
        self.rest = Rest(f"http://127.0.0.1:{self.rest_port}/onos/flowbuf")
        self.agent = BufferAgent(f"127.0.0.1:{self.agent_port}", APP_ID)
        self._stack.append(self.agent.close)

    def _switch(self, name, ports, extra):
        argv = [str(ROOT / "bin" / "pbswitch"), "--p4rt-listen", f"127.0.0.1:{self.p4rt[name]}"]
        for number, ifname in ports:
            argv += ["--port", f"{number}={ifname}"]
        argv += extra
        self._run(argv, name, self.p4rt[name])

    def netcfg(self):
        def basic(sw):
            return {"managementAddress": f"grpc://127.0.0.1:{self.p4rt[sw]}?device_id=1",
                    "driver": "stratum-bmv2", "pipeconf": "org.flowbuf.pipeconf", "name": sw}
        gnb = {"upfPort": GNB_UPF,
               "cells": [{"id": 1, "radioPort": GNB_RADIO, "baasPort": BAAS_PORT}],
               "bearers": [{"teid": DOWNLINK_TEID, "cell": 1, "ueMac": UE_MAC,
                            "uplinkTeid": UPLINK_TEID, "gnbAddress": GNB_IP,
                            "upfAddress": N3_IP}]}
        hosts = {"dn": (DN_IP, DN_MAC, UPF_DN), "gnb": (GNB_IP, GNB_MAC, UPF_TO_GNB)}
        return {
            "devices": {UPF: {"basic": basic("s1")}, GNB: {"basic": basic("s2"), "gnb": gnb}},
            "hosts": {f"{mac}/None": {"basic": {"name": name, "ips": [ip],
                                                "locations": [f"{UPF}/{port}"]}}
                      for name, (ip, mac, port) in hosts.items()},
            "apps": {"org.flowbuf.app": {}},
        }


def prepare(lab):
    """The UPF's interfaces and the UE's session on s1, the BaaS vport on
    s2's agent, the data network's route to the UE pool, iperf3's server."""
    rest = lab.rest
    rest.post("upf/interfaces", {"deviceId": UPF, "kind": "ACCESS", "prefix": N3_IP + "/32"})
    rest.post("upf/interfaces", {"deviceId": UPF, "kind": "CORE", "prefix": UE_POOL})
    rest.post("upf/sessions", {"deviceId": UPF, "ueAddress": UE_IP, "n3Address": N3_IP,
                               "uplinkTeid": UPLINK_TEID, "gnbAddress": GNB_IP,
                               "downlinkTeid": DOWNLINK_TEID, "qfi": 9})
    pb = lab.agent.pb
    lab.agent.call("CreateVport", vport_id="baas", config=pb.VportConfig(
        mode=pb.VPORT_MODE_RX_TX, in_process=pb.InProcessBackend(port=BAAS_PORT),
        switch_port=BAAS_PORT))
    dn = lab.hosts["dn"]
    dn.run("ip", "neigh", "add", GNB_IP, "lladdr", GNB_MAC, "dev", "eth0")
    dn.run("ip", "route", "add", UE_POOL, "via", GNB_IP, "dev", "eth0", "mtu", str(INNER_MTU))
    return subprocess.Popen(dn.popen_argv(["iperf3", "-s", "-p", str(IPERF_PORT)]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def tun_exists(lab):
    return lab.hosts["ue"].run("ip", "link", "show", "ue0", check=False).returncode == 0


def start_modem(lab, loss, seed, baas):
    # The last case's TUN device goes away with its modem, a moment after
    # the process: the new one must not attach to it.
    wait_until(lambda: not tun_exists(lab), timeout=30.0, what="the last case's ue0 removed")
    mode = ["in-order", str(T_REORDERING_MS)] if baas else ["at-once"]
    proc = subprocess.Popen(lab.hosts["ue"].popen_argv(
        [PYTHON, "-m", "test.scenarios.gnb_modem", "radio0", hex(DOWNLINK_TEID), UE_MAC, DN_MAC,
         str(loss), str(seed), *mode]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
    if proc.stdout.readline().strip() != "ready":
        proc.kill()
        raise RuntimeError("the modem did not start")
    ue = lab.hosts["ue"]
    ue.run("ip", "addr", "add", UE_IP + "/32", "dev", "ue0")
    ue.run("ip", "link", "set", "ue0", "up", "mtu", str(INNER_MTU))
    ue.run("ip", "route", "add", "10.0.0.0/24", "dev", "ue0")
    return proc


def stop_modem(proc):
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    return json.loads(out.strip().splitlines()[-1])


def create_baas(lab, buffer_id):
    pb = lab.agent.pb
    lab.agent.call("CreateBuffer", buffer_id=buffer_id, config=pb.BufferConfig(
        capacity_packets=4096, capacity_bytes=8 << 20, queue_type=pb.QUEUE_TYPE_ARQ,
        overflow=pb.OVERFLOW_POLICY_DROP_TAIL,
        arq=pb.ArqConfig(buckets=BUCKETS, bucket_us=BUCKET_US, max_resends=MAX_RESENDS,
                         protocol=pb.ARQ_PROTOCOL_PDCP)))
    lab.agent.call("Bind", buffer_id=buffer_id, vport_id="baas")


def remove_baas(lab, buffer_id):
    """Unbinds and removes the buffer; returns its last stats."""
    stats = lab.agent.call("QueryBuffer", buffer_id=buffer_id).stats
    lab.agent.call("Unbind", buffer_id=buffer_id, vport_id="baas")
    lab.agent.call("RemoveBuffer", buffer_id=buffer_id, discard=True)
    return stats


def ping_min_ms(lab):
    """The path's RTT UE -> data network before the download (the lowest of
    5 pings, radio loss included), or None when every ping was lost."""
    out = lab.hosts["ue"].run("ping", "-n", "-q", "-c", "5", "-i", "0.2", "-W", "2", DN_IP,
                              check=False).stdout
    found = re.search(r"= ([0-9.]+)/", out)
    return float(found.group(1)) if found else None


def parse_tcpext(netstat):
    """The TCP_COUNTERS of a /proc/net/netstat text (a TcpExt: line of
    names, then one of values)."""
    lines = [line.split() for line in netstat.splitlines() if line.startswith("TcpExt:")]
    if len(lines) != 2 or len(lines[0]) != len(lines[1]):
        raise RuntimeError("/proc/net/netstat has no TcpExt names and values")
    values = dict(zip(lines[0][1:], (int(v) for v in lines[1][1:])))
    missing = [name for name in TCP_COUNTERS if name not in values]
    if missing:
        raise RuntimeError(f"/proc/net/netstat lacks {', '.join(missing)}")
    return {name: values[name] for name in TCP_COUNTERS}


def tcp_counters(host):
    return parse_tcpext(host.run("cat", "/proc/net/netstat").stdout)


def run_case(lab, loss, baas, seconds, seed, tcp_cc):
    """One download: returns goodput, the modem's, the BaaS's and the
    sender's TCP counters."""
    buffer_id = f"baas-{seed}"
    if baas:
        create_baas(lab, buffer_id)
    modem = start_modem(lab, loss, seed, baas)
    try:
        rtt_ms = ping_min_ms(lab)
        before = tcp_counters(lab.hosts["dn"])
        out = subprocess.run(lab.hosts["ue"].popen_argv(
            ["iperf3", "-c", DN_IP, "-p", str(IPERF_PORT), "-B", UE_IP, "-R", "-t", str(seconds),
             "-C", tcp_cc, "-J", "--connect-timeout", "5000"]),
            capture_output=True, text=True, timeout=seconds + 60)
        after = tcp_counters(lab.hosts["dn"])
    finally:
        modem_stats = stop_modem(modem)
        arq = remove_baas(lab, buffer_id) if baas else None
    result = json.loads(out.stdout) if out.stdout.strip() else {}
    if out.returncode != 0 or "error" in result:
        raise RuntimeError(f"iperf3 failed: {result.get('error', out.stderr.strip()[-300:])}")
    received = result["end"]["sum_received"]
    return {"loss": loss, "baas": baas, "seconds": received["seconds"], "rtt_ms": rtt_ms,
            "bytes": received["bytes"], "mbps": received["bits_per_second"] / 1e6,
            "retransmits": result["end"]["sum_sent"].get("retransmits"),
            "tcp_cc": result["end"].get("sender_tcp_congestion"),
            "tcp": {name: after[name] - before[name] for name in TCP_COUNTERS},
            "modem": modem_stats,
            "arq": None if arq is None else {
                "resent": arq.arq_resent, "acked": arq.arq_acked,
                "acked_after_resend": arq.arq_acked_after_resend,
                "packets_in": arq.packets_in,
                "drops": {lab.agent.pb.DropCause.Name(d.cause): d.packets for d in arq.drops}}}


def check_physical(run):
    """Fails the run on a figure that cannot be true."""
    m = run["modem"]
    problems = []
    if run["mbps"] * 1e6 > RADIO_BPS * 1.02:
        problems.append(f"goodput {run['mbps']:.2f} Mbit/s above the radio's {RADIO_BPS / 1e6}")
    if run["bytes"] > m["delivered_bytes"]:
        problems.append(f"TCP got {run['bytes']} bytes, the modem delivered {m['delivered_bytes']}")
    if m["delivered_after_drop"] + m["dropped_never_delivered"] > m["radio_dropped"]:
        problems.append("more dropped PDUs accounted for than the radio dropped")
    if not run["baas"] and m["delivered_after_drop"]:
        problems.append(f"{m['delivered_after_drop']} dropped PDUs came back with no BaaS bound")
    if run["arq"] is not None and m["delivered_after_drop"] > run["arq"]["resent"]:
        problems.append(f"{m['delivered_after_drop']} PDUs delivered after a resend, "
                        f"{run['arq']['resent']} resent")
    if problems:
        raise RuntimeError(f"impossible figures ({run['loss']:.0%} loss, "
                           f"{'baas' if run['baas'] else 'none'}): " + "; ".join(problems))


def check_regime(run, tcp_cc):
    """Fails the run when the sender's TCP is not the congestion control the
    conditions name."""
    if run["tcp_cc"] != tcp_cc:
        raise RuntimeError(f"the sender's TCP ran {run['tcp_cc']}, not {tcp_cc}")


def report(runs, repeats, conditions):
    """Per loss: each case's median goodput over the repeats, the median of
    the repeats' BaaS/none ratios, what the BaaS resent and repaired, and
    what the sender's TCP noticed."""
    summary = []
    for loss in sorted({r["loss"] for r in runs}):
        case = {c: [r for r in runs if r["loss"] == loss and r["baas"] == (c == "baas")]
                for c in CASES}
        mbps = {c: statistics.median(r["mbps"] for r in case[c]) for c in CASES}
        at = {"radio_loss": loss, **conditions}
        for c in CASES:
            emit("gnb_goodput_mbps", round(mbps[c], 3), "Mbit/s", case=c, repeats=repeats,
                 stat="median", per_repeat=[round(r["mbps"], 3) for r in case[c]],
                 idle_rtt_ms=[r["rtt_ms"] for r in case[c]], **at)
            emit("gnb_sender_tcp", sum(r["retransmits"] or 0 for r in case[c]),
                 "retransmits", case=c, repeats=repeats,
                 what="the sender's TCP over all repeats (iperf3's retransmits, "
                      "TcpExt counters of its namespace)",
                 **{name: [r["tcp"][name] for r in case[c]] for name in TCP_COUNTERS},
                 radio_dropped=[r["modem"]["radio_dropped"] for r in case[c]], **at)
        ratios = [b["mbps"] / n["mbps"] if n["mbps"] > 0 else float("inf")
                  for b, n in zip(case["baas"], case["none"])]
        emit_ratio("gnb_goodput_baas_vs_none", ratios, repeats=repeats,
                   per_repeat=[round(x, 3) for x in ratios],
                   goal=">= 2 at 5 % loss" if loss == 0.05 else None, **at)
        baas = case["baas"]
        resent = sum(r["arq"]["resent"] for r in baas)
        dropped = sum(r["modem"]["radio_dropped"] for r in baas)
        after = sum(r["modem"]["delivered_after_drop"] for r in baas)
        emit("baas_resent_packets", resent, "packets", repeats=repeats,
             per_repeat=[r["arq"]["resent"] for r in baas],
             acked_after_resend=[r["arq"]["acked_after_resend"] for r in baas],
             expired=[r["arq"]["drops"].get("DROP_CAUSE_ARQ_EXPIRED", 0) for r in baas],
             pdus=[r["arq"]["packets_in"] for r in baas], **at)
        emit("baas_delivered_after_resend_ratio", round(after / dropped, 4) if dropped else None,
             "ratio", what="radio-dropped PDUs the UE got through a resend / radio-dropped PDUs",
             radio_dropped=dropped, delivered_after_resend=after, repeats=repeats, **at)
        for c in CASES:
            emit("gnb_radio_frames", sum(r["modem"]["frames"] for r in case[c]), "frames", case=c,
                 dropped=sum(r["modem"]["radio_dropped"] for r in case[c]),
                 duplicates=sum(r["modem"]["duplicates"] for r in case[c]),
                 gaps_skipped=sum(r["modem"]["gaps_skipped"] for r in case[c]),
                 max_reorder_wait_ms=round(max(r["modem"]["max_wait_ms"] for r in case[c]), 1),
                 **at)
        summary.append(f"{loss:.0%} loss: BaaS {mbps['baas']:.2f} vs none {mbps['none']:.2f} "
                       f"Mbit/s (median ratio {statistics.median(ratios):.2f}x), {resent} resent, "
                       f"{after}/{dropped} dropped PDUs delivered after a resend, TCP recoveries "
                       f"{sum(r['tcp']['TCPSackRecovery'] for r in baas)} vs "
                       f"{sum(r['tcp']['TCPSackRecovery'] for r in case['none'])}")
    plot(runs)
    print("gnb_baas: " + "; ".join(summary) + f" (goal >= 2x at 5 %; radio {RADIO_BPS // 1_000_000} "
          f"Mbit/s, core RTT {conditions['core_rtt_ms']} ms, {conditions['tcp']}, "
          f"{repeats} repeat(s))", flush=True)


def plot(runs):
    """Each case's median goodput per loss."""
    losses = sorted({r["loss"] for r in runs})
    fig, ax = subplots(figsize=(6, 4))
    width = 0.35
    for i, c in enumerate(CASES):
        values = [statistics.median(r["mbps"] for r in runs
                                    if r["loss"] == loss and r["baas"] == (c == "baas"))
                  for loss in losses]
        ax.bar([x + i * width for x in range(len(losses))], values, width,
               label="BaaS (PDCP ARQ)" if c == "baas" else "no BaaS")
    ax.set_xticks([x + width / 2 for x in range(len(losses))])
    ax.set_xticklabels([f"{loss:.0%} radio loss" for loss in losses])
    ax.set_ylabel("TCP goodput (Mbit/s)")
    ax.set_title(f"gNodeB: TCP download over a {RADIO_BPS // 1_000_000} Mbit/s lossy radio")
    ax.legend()
    return save(fig, "gnb_baas_goodput")


def run(repeats, seconds, losses=LOSSES, core_rtt_ms=CORE_RTT_MS, tcp_cc=TCP_CC):
    """Every case at every loss `repeats` times, interleaved; returns the runs."""
    runs, seed = [], 1
    with GnbLab(core_rtt_ms=core_rtt_ms) as lab:
        iperf = prepare(lab)
        try:
            for i in range(repeats):
                for loss in losses:
                    # Alternate which case goes first: the machine's load drifts.
                    order = (True, False) if i % 2 == 0 else (False, True)
                    for baas in order:
                        result = run_case(lab, loss, baas, seconds, seed, tcp_cc)
                        check_physical(result)
                        check_regime(result, tcp_cc)
                        runs.append(result)
                        seed += 1
        finally:
            iperf.kill()
            iperf.wait()
    return runs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one repeat of 5 s downloads")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--core-rtt-ms", type=int, default=CORE_RTT_MS,
                        help="the data network's added RTT (default %(default)s)")
    parser.add_argument("--tcp", default=TCP_CC, choices=("cubic", "reno", "bbr"),
                        help="the TCP congestion control of both ends (default %(default)s)")
    parser.add_argument("--loss", type=float, action="append",
                        help="a radio loss to run (repeatable; default 0.01 and 0.05)")
    args = parser.parse_args(argv)
    repeats, seconds = (1, 5) if args.quick else (args.repeats, args.seconds)
    losses = tuple(args.loss) if args.loss else LOSSES
    if any(not 0 <= loss < 1 for loss in losses):
        parser.error("--loss takes a fraction in [0, 1)")
    if args.core_rtt_ms < 0 or repeats < 1 or seconds < 1:
        parser.error("--core-rtt-ms must be >= 0, --repeats and --seconds >= 1")
    ensure_built()
    runs = run(repeats, seconds, losses, args.core_rtt_ms, args.tcp)
    with open("/proc/loadavg") as f:
        load = float(f.read().split()[0])
    conditions = {"radio_bps": RADIO_BPS, "radio_port_bps": RADIO_PORT_BPS,
                  "core_rtt_ms": args.core_rtt_ms, "seconds": seconds,
                  "tcp": f"iperf3 -R, Linux {args.tcp}",
                  "wheel_ms": BUCKETS * BUCKET_US / 1000, "max_resends": MAX_RESENDS,
                  "t_reordering_ms": T_REORDERING_MS, "switch": "pbswitch x2",
                  "modem": "python", "load_avg_1m": load}
    report(runs, repeats, conditions)


if __name__ == "__main__":
    try:
        main()
    except (RestError, RuntimeError, TimeoutError) as e:
        print(f"gnb_baas failed: {e}", file=sys.stderr)
        sys.exit(1)
