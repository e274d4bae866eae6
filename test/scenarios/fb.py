# SPDX-License-Identifier: Apache-2.0
"""FB's evaluation regime (Apostolaki et al., FB, §6.2), scaled to this lab.

One pbswitch with the FlowBuf program stands for a leaf: four servers, each
behind a port shaped to R, share one buffer of B bytes. Every server runs
the paper's two kinds of traffic at once:

- background: web-search flows (DCTCP's size distribution, sizes x SCALE),
  Poisson arrivals tuned so each server's port receives `load` x R, each
  flow to a server drawn at random on a new TCP connection;
- queries: Poisson arrivals (QUERY_RATE per server, the paper's 1/s), each
  asking N responders (persistent connections spread over the other
  servers) for 1/N of a query of `query` x B bytes; a query completes when
  all of it has arrived (QCT).

Multi-queue as the paper's: round-robin ports (pbswitch --scheduler rr),
the background spread over four low-priority queues (0-3) by a tag each
flow draws at random, the queries in queue 7 (FB's high priority).
Single-queue: every port one queue (pbswitch's single_queue).

Schemes in the same run, switched through pbswitch's admin API: CS, DT,
FB, FBA (DT whose per-queue alphas the controller's FBA re-tunes every
period, host/.../fba/FbaMain; one scheme per period of --fba-periods,
default the paper's 1 s, "fba", and 100 ms, "fba_100ms"; multi-queue only:
the paper, §5.2, "FBA cannot approximate FB if only a single queue is
available per port"), and
DT+ECN, the paper's DCTCP rows as far as this kernel allows: DT, the P4
program marking CE from ECN_K packets ahead in a queue (include/ecn.p4,
RED with min = max = K as the paper's), the servers' TCP asking for ECN
(net.ipv4.tcp_ecn=1) in these runs only. The kernel has no DCTCP
(CONFIG_TCP_CONG_DCTCP is off, no modules), so the senders react to CE as
RFC 3168 says (halving once per RTT, with --cc reno; BBR ignores
CE, so these runs are refused under it).

Each scheme runs --repeat times per condition (default 3, --quick 1), each
repetition with other arrivals and sizes; a ratio compares a scheme with DT
in the same repetition and is emitted as the median of the repetitions,
with min and max. --cc and --rto-min-ms set the servers' TCP (per-netns
sysctl, per-route rto_min: the paper's min RTO is 100 ms).
Alphas as the paper's (§6.2): multi-queue, DT and FB alpha_L 0.5 for the
background (queues 0-3) and alpha_H 20 for the queries (queue 7, FB's high
priority); single-queue, DT alpha 0.5 for all, FB alpha_H 20 for the short flows, which the senders
mark as the device's classifier would (queries and background flows under
SHORT_BYTES), alpha_L 0.5 for the rest.

Scaled from the paper's (1 Gbit/s ports, 1 MB for 44 ports, 40 responders,
RTT 200 us, min RTO 100 ms): R = 50 Mbit/s multi-queue, 10 Mbit/s
single-queue (--rate-mbps, each rate on a lab of its own); B keeps the
paper's bytes per port (1 MiB / 44 = 23.8 KB, 16 MTU frames); per Gbit/s it
would be 238 bytes per port at 10 Mbit/s, less than a frame. N = 8; flow
sizes / 10; the lab's RTT is what veths and pbswitch give (no netem here)
and Linux's min RTO 200 ms.

Metrics per variant (its rate_mbps in every line), load, query size and
scheme (JSON lines): fb_qct_ms_avg
and _p99, fb_throughput_pct (the background's share of the servers'
ports), fb_short_fct_ms_p99 (background flows under SHORT_BYTES),
fb_buffer_pct_p99 and _avg (occupancy of B, sampled every POLL_S; the
paper's BUF is the average), fb_drops (per
cause and class); then fb_qct_vs_dt, fb_throughput_vs_dt,
fb_single_queue_qct_vs_dt, and FBA's QCT against FB's per period,
fba_qct_vs_fb (1 s) and fba_100ms_qct_vs_fb (100 ms), the period in their
conditions. The per-queue trace
(thresholds, lengths, drops over time) of each run is in the logs.

    .venv/bin/python -m test.scenarios.fb [--quick] [--variants single_queue] [--repeat N]
    .venv/bin/python -m test.scenarios.fb --only multi_queue:90:75 --schemes fb,dt_ecn
    .venv/bin/python -m test.scenarios.fb --diagnose   # issue 44's question
    .venv/bin/python -m test.scenarios.fb --only multi_queue:90:75 --repeat 5
    .venv/bin/python -m test.scenarios.fb --only multi_queue:90:75 --schemes fb,fba \
        --fba-periods 1000,250,100   # FBA at three periods
    .venv/bin/python -m test.scenarios.fb --quick --rate-mbps 10   # every variant at 10
    .venv/bin/python -m test.scenarios.fb --rate-mbps single_queue=50  # multi-queue's default

Multi-queue at 50 Mbit/s has the paper's ratio of a timeout to a query's
transfer with Linux's 200 ms min RTO (a query of 75 % of B takes 11-57 ms
alone to 1/5 of the port, the paper's 6-30 ms against its 100 ms); B stays
the same at every rate.

The background's senders and sinks are Go (test/scenarios/fbtraffic); each
run reports the load they offered and delivered and their CPU, so that a
throughput figure says whether the generator kept up.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from test.lab import Lab, Process, wait_for_tcp
from test.lab.servicelab import ROOT
from test.packet.client import Client
from test.packet.p4info import P4Info
from test.packet.targets import _free_tcp_port
from test.scenarios.fb_traffic import web_search_mean
from test.scenarios.report import emit, save, subplots

PREFIX = "fbq-"
RATE_BPS = 10_000_000                 # R of a lab made without one (test_fb's)
# R per variant (--rate-mbps), each variant on a lab of its own: multi-queue
# at 50 Mbit/s, where Linux's 200 ms min RTO costs a query 3.5-17x its
# transfer, as the paper's 100 ms does (at 10 Mbit/s the queries wait for
# their share of a slow port under every scheme); single-queue at 10 Mbit/s,
# the rate of its figures so far (docs/apps/fb.md).
DEFAULT_RATES_MBPS = {"multi_queue": 50, "single_queue": 10}
MIN_RATE_MBPS, MAX_RATE_MBPS = 0.1, 1000
SERVERS = 4
BUFFER_BYTES = SERVERS * (1 << 20) // 44  # B: the paper's 1 MiB / 44 ports, per port
RESPONDERS = 8                        # N (the paper's 40)
SCALE = 0.1                           # web-search flow sizes x SCALE
SHORT_BYTES = int(100_000 * SCALE)    # "short" flows: the paper's 100 KB, scaled
QUERY_RATE = 1.0                      # queries per second per server (the paper's)
WARMUP_S = 2.0                        # background alone before the first query
POLL_S = 0.02
EF = 46
HIGH_QUEUE = 7
LOW_TAGS = {0: 0, 8: 1, 16: 2, 24: 3}  # DSCP: queue, the paper's four low-priority tags
LOW_QUEUES = tuple(LOW_TAGS.values())
ALPHA_L, ALPHA_H = 0.5, 20.0          # the paper's
FBA_PERIOD_MS = 1000                  # the paper's
# FBA's schemes in one run: the paper's period and 10x faster, where FBA
# approaches FB as the paper expects (issue 44: 1.59 against 1.15 x FB's QCT).
FBA_PERIODS_MS = (FBA_PERIOD_MS, 100)
FBA_MIN_PERIOD_MS, FBA_MAX_PERIOD_MS = 10, 3_600_000  # FbaSetting's bounds
# DT+ECN: CE from ECN_K packets ahead in a queue. The paper's K = 20 with
# B = 1 MB, scaled as B (20 x 95 KB / 1 MB, about 2): at 20 DT's own
# per-queue threshold (at most 32 frames here) drops before ECN marks.
ECN_K = 2
DEFAULT_CC = "reno"                   # the paper's TCP (ns-3.31's default, NewReno)
VARIANTS = ("multi_queue", "single_queue")
SCHEMES = {"multi_queue": ("cs", "dt", "fb", "fba", "dt_ecn"),
           "single_queue": ("cs", "dt", "fb", "dt_ecn")}
ECN_SCHEMES = ("dt_ecn",)             # the servers' TCP negotiates ECN in these runs only
PYTHON = str(ROOT / ".venv" / "bin" / "python")
HOST_JAR = ROOT / "host" / "target" / "flowbuf-host.jar"
FBTRAFFIC = ROOT / "bin" / "fbtraffic"  # the background's senders and sinks (Go)
SINK_PORT, RESPONDER_PORT = 7100, 7000
SEED_STEP = 100_000                   # a repetition's seeds: the first run's + rep x this


SUBNET = "10.9.0.0/24"


def ip_of(server):
    return f"10.9.0.{server}"


def mac_of(port):
    return f"02:fb:00:00:00:{port:02x}"


def fba_scheme(period_ms):
    """The scheme name of FBA at a period: "fba" at the paper's 1 s (the
    name its figures always had), "fba_100ms" and so on otherwise."""
    return "fba" if period_ms == FBA_PERIOD_MS else f"fba_{period_ms}ms"


def fba_period_ms(scheme):
    """The period of an FBA scheme (fba_scheme's inverse), None for the
    other schemes."""
    if scheme == "fba":
        return FBA_PERIOD_MS
    digits = scheme[len("fba_"):-len("ms")]
    if scheme.startswith("fba_") and scheme.endswith("ms") and digits.isdigit():
        return int(digits)
    return None


def scheme_label(scheme):
    """A scheme's name in plots and the summary: FBA with its period."""
    period = fba_period_ms(scheme)
    if period is None:
        return scheme.upper()
    return f"FBA {period / 1000:g} s" if period >= 1000 else f"FBA {period} ms"


def scheme_conditions(scheme):
    """What a scheme's figures add to their conditions: FBA's period."""
    period = fba_period_ms(scheme)
    return {} if period is None else {"fba_period_ms": period}


def setting(scheme, variant, legacy=False):
    """The admin API's buffer setting of a scheme (FBA runs on DT). legacy:
    the issue's first scenario, one queue and alpha 1 for everything."""
    algorithm = "dt" if fba_period_ms(scheme) or scheme == "dt_ecn" else scheme
    if legacy:
        return {"algorithm": algorithm, "single_queue": True}
    low = [{"queue": q, "alpha": ALPHA_L} for q in LOW_QUEUES]
    if variant == "single_queue" and algorithm == "dt":
        classes = low + [{"queue": HIGH_QUEUE, "alpha": ALPHA_L}]
    else:
        classes = low + [{"queue": HIGH_QUEUE, "alpha": ALPHA_H, "priority": "high"}]
    return {"algorithm": algorithm, "classes": classes,
            "single_queue": variant == "single_queue"}


class FbLab:
    """The servers' namespaces, pbswitch with the FlowBuf program, the
    servers' sinks and responders."""

    def __init__(self, logs, cc=None, rto_min_ms=None, ecn_k=ECN_K, rate_bps=RATE_BPS):
        build_traffic()
        self.logs = logs
        self.rate_bps = rate_bps
        self.ecn_k = ecn_k
        self.lab = Lab(PREFIX)
        self.procs = []
        try:
            self.hosts = {}
            ports = []
            for s in range(1, SERVERS + 1):
                host = self.lab.add_host(f"h{s}")
                sw_if = self.lab.link_host(host, "eth0", f"s{s}", ip=f"{ip_of(s)}/24",
                                           mac=mac_of(s))
                self.hosts[s] = host
                ports += ["--port", f"{s}={sw_if}@{rate_bps}"]
            for s, host in self.hosts.items():
                tune_tcp(host, ip_of(s), cc, rto_min_ms)
                for other in self.hosts:
                    if other != s:
                        host.run("ip", "neigh", "replace", ip_of(other), "lladdr",
                                 mac_of(other), "dev", "eth0")
            self.admin = f"127.0.0.1:{_free_tcp_port()}"
            grpc_port = _free_tcp_port()
            build = ROOT / "pipeconf" / "p4src" / "build"
            self.switch = self.start("pbswitch", [
                str(ROOT / "bin" / "pbswitch"), "--p4rt-listen", f"127.0.0.1:{grpc_port}",
                "--buffer-listen", "", "--bmv2-json", str(build / "bmv2.json"),
                "--p4info", str(build / "p4info.txt"), "--admin-listen", self.admin,
                "--shared-buffer-bytes", str(BUFFER_BYTES), "--scheduler", "rr", *ports])
            wait_for_tcp("127.0.0.1", grpc_port, proc=self.switch.popen)
            self.program(f"127.0.0.1:{grpc_port}")
            self.counts = {s: logs / f"sink-{s}.json" for s in self.hosts}
            servers = [self.start(f"sink-{s}", [str(FBTRAFFIC), "sink", "--port",
                                                str(SINK_PORT), "--out", str(self.counts[s])],
                                  self.hosts[s]) for s in self.hosts]
            servers += [self.start(f"responder-{s}", traffic(
                "responder", "--port", str(RESPONDER_PORT), "--dscp", str(EF)),
                self.hosts[s]) for s in self.hosts]
            for proc in servers:
                wait_listening(proc)
        except BaseException:
            self.close()
            raise

    def start(self, name, argv, host=None):
        proc = Process(host.popen_argv(argv) if host else argv, str(self.logs / f"{name}.log"),
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.procs.append(proc)
        return proc

    def program(self, address):
        """L2 forwarding to every server, EF into the high queue and the
        low tags into theirs."""
        info = P4Info()
        with Client(address, 1) as client:
            for s in self.hosts:
                client.insert(info.table_entry("forwarding.l2_exact",
                                               match={"eth_dst": mac_of(s)},
                                               action="forwarding.set_egress_port",
                                               params={"port": s}))
            for s in self.hosts:  # marks ECN-capable packets only (DT+ECN's runs)
                client.insert(info.table_entry(
                    "EgressPipeImpl.ecn_marking.ecn_thresholds", match={"egress_port": s},
                    action="EgressPipeImpl.ecn_marking.mark_above", params={"packets": self.ecn_k}))
            for dscp, queue in {**LOW_TAGS, EF: HIGH_QUEUE}.items():
                if queue:
                    client.insert(info.table_entry("qos.dscp_queues", match={"dscp": dscp},
                                                   action="qos.set_queue",
                                                   params={"queue": queue}))

    def set_buffer(self, body):
        req = urllib.request.Request(f"http://{self.admin}/v1/buffer",
                                     data=json.dumps(body).encode(), method="PUT")
        urllib.request.urlopen(req, timeout=5).read()

    def stats(self):
        with urllib.request.urlopen(f"http://{self.admin}/v1/stats", timeout=5) as r:
            return json.load(r)

    def set_ecn(self, enabled):
        """Whether the servers' TCP asks for ECN on new connections (1) or
        only accepts it (2, Linux's default: no packet is ECN-capable)."""
        for host in self.hosts.values():
            host.run("sysctl", "-q", "-w", f"net.ipv4.tcp_ecn={1 if enabled else 2}")

    def ce_packets(self):
        """CE-marked packets the servers received so far (IpExtInCEPkts)."""
        return sum(netstat(host.run("cat", "/proc/net/netstat").stdout)["IpExt"]["InCEPkts"]
                   for host in self.hosts.values())

    def sinks(self):
        """The sinks' counts: {"bytes": received, "cpu_s": their CPU time}, summed."""
        out = {"bytes": 0, "cpu_s": 0.0}
        for path in self.counts.values():
            if path.exists():
                for key, value in json.loads(path.read_text()).items():
                    out[key] += value
        return out

    def sink_bytes(self):
        return self.sinks()["bytes"]

    def close(self):
        for proc in reversed(self.procs):
            proc.stop()
        self.lab.close()


def netstat(text):
    """/proc/net/netstat as {section: {field: value}}."""
    lines = text.split("\n")
    out = {}
    for names, values in zip(lines[::2], lines[1::2]):
        section, _, names = names.partition(": ")
        out[section] = dict(zip(names.split(), map(int, values.partition(": ")[2].split())))
    return out


def tune_tcp(host, ip, cc, rto_min_ms):
    """The server's TCP: its congestion control (the namespace's sysctl;
    None keeps the kernel's default; a namespace may pick only one of
    net.ipv4.tcp_allowed_congestion_control, here reno and bbr) and the lab subnet's minimum RTO
    (the route's rto_min, as the paper's 100 ms; None keeps Linux's
    200 ms)."""
    if cc:
        host.run("sysctl", "-q", "-w", f"net.ipv4.tcp_congestion_control={cc}")
    if rto_min_ms:
        host.run("ip", "route", "replace", SUBNET, "dev", "eth0", "proto", "kernel", "scope",
                 "link", "src", ip, "rto_min", f"{rto_min_ms}ms")


def wait_listening(proc, timeout=30.0):
    """Waits for a traffic server's "listening on" line in its log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.popen.poll() is not None:
            raise RuntimeError(f"a traffic server exited: {proc.log_tail()}")
        if "listening on" in Path(proc.log_path).read_text():
            return
        time.sleep(0.05)
    raise TimeoutError(f"a traffic server did not listen: {proc.log_tail()}")


def build_traffic():
    """Builds bin/fbtraffic (the Go cache makes this quick)."""
    subprocess.run(["go", "build", "-o", str(FBTRAFFIC), "./test/scenarios/fbtraffic"],
                   cwd=ROOT, check=True)


def wait_fba_round(lab, timeout=60.0):
    """Waits until FBA's tuner has set the queues' alphas once, so that a
    run measures FBA from its start and not the JVM's start-up under DT
    (under load that took seconds, issue 44)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any("alpha" in q for port in lab.stats()["ports"].values() for q in port["queues"]):
            return
        time.sleep(0.05)
    raise TimeoutError(f"FBA set no alpha within {timeout:.0f} s")


def traffic(*args):
    return [PYTHON, "-m", "test.scenarios.fb_traffic", *args]


def responders_of(server):
    """N persistent responders for a server's queries, spread over the
    other servers."""
    others = [s for s in range(1, SERVERS + 1) if s != server]
    return ",".join(f"{ip_of(others[i % len(others)])}:{RESPONDER_PORT}"
                    for i in range(RESPONDERS))


class Tracer(threading.Thread):
    """Polls the switch every POLL_S: buffer occupancy, and per port the
    queues' lengths, thresholds and drops by cause (JSON lines in path)."""

    def __init__(self, lab, path):
        super().__init__(daemon=True)
        self.lab, self.path = lab, path
        self.stop_event = threading.Event()
        self.used, self.first, self.last = [], None, None

    def run(self):
        t0 = time.monotonic()
        with open(self.path, "w") as out:
            while not self.stop_event.is_set():
                try:
                    st = self.lab.stats()
                except OSError:
                    break
                self.first = self.first or st
                self.last = st
                self.used.append(st["buffer"]["used_bytes"])
                out.write(json.dumps({"t": round(time.monotonic() - t0, 3),
                                      "used": st["buffer"]["used_bytes"],
                                      "congested": st["buffer"]["congested"],
                                      "ports": {p: [{k: q[k] for k in ("bytes", "threshold_bytes",
                                                                      "drops", "alpha")
                                                     if k in q}
                                                    for q in v["queues"]
                                                    if q["queue"] in LOW_QUEUES + (HIGH_QUEUE,)]
                                                for p, v in st["ports"].items()}}) + "\n")
                self.stop_event.wait(POLL_S)

    def finish(self):
        self.stop_event.set()
        self.join(timeout=10)

    def drops(self):
        """Drops during the trace, by class ("background" queues 0-3,
        "query" queue 7: in single-queue, the classes) and cause."""
        out = {}
        for name, queues in (("background", LOW_QUEUES), ("query", (HIGH_QUEUE,))):
            for cause in ("buffer_full", "dt_threshold", "fb_threshold", "queue_full"):
                out[f"{name}_{cause}"] = sum(
                    self.last["ports"][p]["queues"][q]["drops"][cause]
                    - self.first["ports"][p]["queues"][q]["drops"][cause]
                    for p in self.last["ports"] for q in queues)
        return out


def run_once(lab, logs, scheme, variant, load, query, duration, legacy=False, rep=0,
             fba_jar=HOST_JAR):
    """One run of one scheme (rep: which repetition, which draws other
    arrivals and sizes; an FBA scheme's name gives its period); returns
    its figures."""
    started = time.monotonic()
    tag = (f"{variant}-{int(load * 100)}-{int(query * 100)}-{scheme}"
           + ("-legacy" if legacy else "") + (f"-r{rep}" if rep else ""))
    lab.set_buffer(setting(scheme, variant, legacy))
    lab.set_ecn(scheme in ECN_SCHEMES)
    ce0 = lab.ce_packets()
    tuner = None
    if fba_period_ms(scheme):
        tuner = lab.start(f"{tag}-fba", ["java", "-cp", str(fba_jar),
                                         "org.flowbuf.host.fba.FbaMain", lab.admin,
                                         str(fba_period_ms(scheme))])
        wait_fba_round(lab)
    # Each server receives load x R on average: it sends as much, its
    # flows going to the others at random.
    flow_rate = load * lab.rate_bps / 8 / (web_search_mean() * SCALE)
    if variant == "single_queue":  # the classifier marks short flows (not in legacy)
        tags = [] if legacy else ["--short-bytes", str(SHORT_BYTES), "--short-dscp", str(EF)]
    else:  # the paper's four low-priority tags
        tags = ["--tags", ",".join(str(t) for t in LOW_TAGS)]
    bg_out = {s: logs / f"{tag}-bg-{s}.json" for s in lab.hosts}
    sink0 = lab.sinks()
    senders = [lab.start(f"{tag}-bg-{s}", [
        str(FBTRAFFIC), "background", "--peers", ",".join(ip_of(o) for o in lab.hosts if o != s),
        "--port", str(SINK_PORT), "--rate", str(flow_rate), "--scale", str(SCALE),
        "--duration", str(WARMUP_S + duration), "--out", str(bg_out[s]),
        "--seed", str(SEED_STEP * rep + 1000 * s + int(load * 100)), *tags], lab.hosts[s])
        for s in lab.hosts]
    time.sleep(WARMUP_S)
    qct_out = {s: logs / f"{tag}-qct-{s}.json" for s in lab.hosts}
    size = int(query * BUFFER_BYTES)
    aggregators = [lab.start(f"{tag}-agg-{s}", traffic(
        "aggregator", "--responders", responders_of(s), "--size", str(size),
        "--rate", str(QUERY_RATE), "--duration", str(duration), "--out", str(qct_out[s]),
        "--dscp", str(EF),
        "--seed", str(SEED_STEP * rep + 2000 * s + int(query * 100))), lab.hosts[s])
        for s in lab.hosts]
    tracer = Tracer(lab, logs / f"{tag}-trace.jsonl")
    tracer.start()
    t0, b0 = time.monotonic(), lab.sink_bytes()
    for proc in aggregators:
        proc.popen.wait(timeout=duration + 60)
    t1, b1 = time.monotonic(), lab.sink_bytes()
    tracer.finish()
    for proc in senders:
        proc.popen.wait(timeout=30)
        if proc.popen.returncode:
            raise RuntimeError(f"a background sender failed: {proc.log_tail()}")
    sink1 = lab.sinks()
    if tuner:
        tuner.stop()
    time.sleep(0.5)  # the queues drain before the next scheme
    ce_marked = lab.ce_packets() - ce0
    lab.set_ecn(False)
    qcts = [q for s in lab.hosts for q in json.loads(qct_out[s].read_text())]
    generated = [json.loads(bg_out[s].read_text()) for s in lab.hosts]
    flows = [f for g in generated for f in g["flows"]]
    short_fcts = [fct for size_, fct in flows if size_ < SHORT_BYTES]
    return {"qct_avg": statistics.mean(qcts), "qct_p99": p99(qcts), "queries": len(qcts),
            "throughput_pct": 100 * (b1 - b0) / (SERVERS * lab.rate_bps / 8 * (t1 - t0)),
            "short_fct_p99": p99(short_fcts) if short_fcts else float("nan"),
            "short_flows": len(short_fcts),
            "buffer_pct_p99": 100 * p99(tracer.used) / BUFFER_BYTES,
            "buffer_pct_avg": 100 * statistics.mean(tracer.used) / BUFFER_BYTES,
            "drops": tracer.drops(), "trace": str(tracer.path),
            "machine_load": os.getloadavg()[0], "ce_packets": ce_marked,
            "wall_s": time.monotonic() - started, "rate_bps": lab.rate_bps,
            **generator_figures(generated, sink0, sink1, lab.rate_bps, WARMUP_S + duration)}


def generator_figures(generated, sink0, sink1, rate_bps, arrivals_s):
    """What the background's generator did over its whole run (arrivals
    and grace): the load it offered (the sizes of the flows it started,
    over its arrival window), what its sockets took and the sinks received,
    how late flows started against their Poisson arrivals, and the CPU the
    senders and sinks used, as a share of one core."""
    wall = max(g["wall_s"] for g in generated)
    capacity = SERVERS * rate_bps / 8
    return {"offered_pct": 100 * sum(g["offered_bytes"] for g in generated)
            / (capacity * arrivals_s),
            "written_pct": 100 * sum(g["written_bytes"] for g in generated) / (capacity * wall),
            "sink_pct": 100 * (sink1["bytes"] - sink0["bytes"]) / (capacity * wall),
            "sender_lag_ms_max": max(g["lag_ms_max"] for g in generated),
            "sender_cpu_pct": 100 * sum(g["cpu_s"] for g in generated) / wall,
            "sink_cpu_pct": 100 * (sink1["cpu_s"] - sink0["cpu_s"]) / wall}


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def conditions(variant, quick):
    """(load, query size) pairs of a variant: Fig. 7's loads and Fig. 8d's
    query sizes (multi-queue), Fig. 9a's loads (single-queue)."""
    if variant == "multi_queue":
        return [(0.9, 0.75)] if quick else [(0.4, 0.75), (0.9, 0.25), (0.9, 0.5), (0.9, 0.75)]
    return [(0.2, 0.75)] if quick else [(0.2, 0.75), (0.4, 0.75), (0.6, 0.75), (0.9, 0.75)]


def emit_run(r, **cond):
    emit("fb_qct_ms_avg", round(r["qct_avg"], 2), "ms", queries=r["queries"],
         machine_load_avg_1min=round(r["machine_load"], 1),
         run_wall_s=round(r["wall_s"], 1), **cond)
    emit("fb_qct_ms_p99", round(r["qct_p99"], 2), "ms", queries=r["queries"], **cond)
    emit("fb_throughput_pct", round(r["throughput_pct"], 1), "%", **cond)
    emit("fb_short_fct_ms_p99", round(r["short_fct_p99"], 2), "ms", flows=r["short_flows"],
         **cond)
    emit("fb_buffer_pct_p99", round(r["buffer_pct_p99"], 1), "%", poll_ms=POLL_S * 1e3, **cond)
    emit("fb_buffer_pct_avg", round(r["buffer_pct_avg"], 1), "%", poll_ms=POLL_S * 1e3, **cond)
    for cause, n in r["drops"].items():
        emit("fb_drops", n, "packets", cause=cause, **cond)
    emit("fb_ecn_ce_packets", r["ce_packets"], "packets", **cond)
    emit("fb_background_offered_pct", round(r["offered_pct"], 1), "%", **cond)
    emit("fb_background_delivered_pct", round(r["sink_pct"], 1), "%",
         written_by_senders_pct=round(r["written_pct"], 1), **cond)
    emit("fb_generator_cpu_pct", round(r["sender_cpu_pct"], 1), "% of a core",
         sinks_pct=round(r["sink_cpu_pct"], 1), arrival_lag_ms_max=round(r["sender_lag_ms_max"], 1),
         **cond)


def run_all(lab, logs, duration, plan, repeat, first_run=0, fba_jar=HOST_JAR):
    """Every (variant, load, query) of plan with its schemes, repeat times
    (each repetition runs every scheme once, DT first, so that a ratio
    compares runs made minutes apart, not a whole plan apart). first_run:
    the first repetition's index (its seeds), so that repetitions split
    over several invocations draw other arrivals."""
    results = {}
    for variant, load, query, schemes in plan:
        for rep in range(first_run, first_run + repeat):
            for scheme in schemes:
                r = run_once(lab, logs, scheme, variant, load, query, duration, rep=rep,
                             fba_jar=fba_jar)
                results[(variant, load, query, scheme, rep)] = r
                emit_run(r, variant=variant, rate_mbps=mbps(lab.rate_bps),
                         load_pct=int(load * 100),
                         query_pct_of_buffer=int(query * 100), scheme=scheme, run=rep,
                         **scheme_conditions(scheme))
    return results


def run_plan(plan, rates, logs, args, duration, repeat):
    """run_all on one lab per port rate (lab_groups), each lab closed
    before the next opens (they share the namespaces' prefix)."""
    results = {}
    for rate_bps, part in lab_groups(plan, rates):
        lab = open_lab(logs, args, rate_bps)
        try:
            results.update(run_all(lab, lab.logs, duration, part, repeat, args.first_run,
                                   args.fba_jar))
        except BaseException:
            sys.stderr.write(pbswitch_log_tail(lab))
            raise
        finally:
            lab.close()
    return results


def open_lab(logs, args, rate_bps):
    """A lab at one port rate, its logs in a directory of their own."""
    lab_logs = logs / f"{mbps(rate_bps)}mbps"
    lab_logs.mkdir()
    return FbLab(lab_logs, cc=args.cc, rto_min_ms=args.rto_min_ms, ecn_k=args.ecn_k,
                 rate_bps=rate_bps)


def pbswitch_log_tail(lab):
    path = lab.logs / "pbswitch.log"
    return path.read_text()[-3000:] if path.exists() else ""


def variant_rates(results):
    """{variant: the port rate its runs had} (one lab, one rate a variant)."""
    return {variant: r["rate_bps"] for (variant, *_), r in results.items()}


def ratios(results):
    """Per (variant, load, query, scheme, metric): each repetition's ratio
    against DT (each FBA period's also against FB: fba_qct_vs_fb at the
    paper's 1 s, fba_100ms_qct_vs_fb at 100 ms) of the same repetition."""
    out = {}
    for (variant, load, query, scheme, rep), mine in results.items():
        if scheme == "dt":
            continue
        dt = results[(variant, load, query, "dt", rep)]
        qct = "fb_single_queue_qct_vs_dt" if variant == "single_queue" and scheme == "fb" \
            else "fb_qct_vs_dt"
        found = {qct: mine["qct_avg"] / dt["qct_avg"],
                 "fb_throughput_vs_dt": mine["throughput_pct"] / max(dt["throughput_pct"], 1e-9)}
        dt_ecn = results.get((variant, load, query, "dt_ecn", rep))
        if scheme == "fb" and dt_ecn:  # the paper's FB (TCP) against DT with DCTCP
            found["fb_qct_vs_dt_ecn"] = mine["qct_avg"] / dt_ecn["qct_avg"]
        fb_run = results.get((variant, load, query, "fb", rep))
        if fba_period_ms(scheme) and fb_run:
            found[f"{scheme}_qct_vs_fb"] = mine["qct_avg"] / fb_run["qct_avg"]
        for metric, value in found.items():
            out.setdefault((variant, load, query, scheme, metric), []).append(value)
    return out


def emit_ratios(results):
    """Each ratio as the median of its repetitions, with their spread."""
    rates = variant_rates(results)
    for (variant, load, query, scheme, metric), values in sorted(ratios(results).items()):
        emit(metric, round(statistics.median(values), 3), "ratio", variant=variant,
             rate_mbps=mbps(rates[variant]), load_pct=int(load * 100),
             query_pct_of_buffer=int(query * 100), scheme=scheme,
             **scheme_conditions(scheme), runs=len(values), min=round(min(values), 3),
             max=round(max(values), 3))


def medians(results):
    """Per (variant, load, query, scheme): the median over repetitions of
    each numeric figure."""
    groups = {}
    for (variant, load, query, scheme, _), r in results.items():
        groups.setdefault((variant, load, query, scheme), []).append(r)
    return {key: {k: statistics.median(r[k] for r in runs)
                  for k in ("qct_avg", "qct_p99", "throughput_pct", "buffer_pct_avg")}
            for key, runs in groups.items()}


def diagnose(lab, logs, duration):
    """Issue 44's question: single-queue FB against DT with the first
    scenario's setting (one queue, one class, alpha 1: the queries meet
    the background's threshold, which FB divides by N) and with the
    paper's (queries in the high class, alpha_H 20, in the same queue)."""
    for legacy in (True, False):
        for scheme in ("dt", "fb"):
            r = run_once(lab, logs, scheme, "single_queue", 0.4, 0.75, duration, legacy)
            thresholds, lengths = query_port_thresholds(r["trace"])
            cond = {"variant": "single_queue", "rate_mbps": mbps(lab.rate_bps),
                    "setting": "legacy" if legacy else "paper",
                    "load_pct": 40, "query_pct_of_buffer": 75, "scheme": scheme}
            emit_run(r, **cond)
            emit("fb_diag_query_threshold_kb_median", round(thresholds / 1e3, 1), "KB", **cond)
            emit("fb_diag_queue_kb_median", round(lengths / 1e3, 1), "KB", **cond)


def query_port_thresholds(trace):
    """Medians over the trace's samples and ports of the threshold a query
    packet met (class 7's) and the bytes of the background's queues."""
    thresholds, lengths = [], []
    with open(trace) as f:
        for line in f:
            for queues in json.loads(line)["ports"].values():
                *low, high = queues
                thresholds.append(high["threshold_bytes"])
                lengths.append(sum(q["bytes"] for q in low))
    return statistics.median(thresholds), statistics.median(lengths)


def parse_only(text, parser):
    """--only's "variant:load%:query%" items as (variant, load, query)."""
    out = []
    for item in (t for t in text.split(",") if t):
        try:
            variant, load, query = item.split(":")
            cond = (variant, int(load) / 100, int(query) / 100)
        except ValueError:
            parser.error(f"--only: {item!r} is not variant:load%:query% (multi_queue:90:75)")
        if variant not in VARIANTS or not (0 < cond[1] <= 1 and 0 < cond[2] <= 1):
            parser.error(f"--only: {item!r}: variant one of {','.join(VARIANTS)}, "
                         "load and query 1-100")
        out.append(cond)
    return out


def parse_fba_periods(text, parser):
    """--fba-periods' "ms,ms,..." as a tuple of periods, each one FBA
    scheme in the same run."""
    try:
        periods = tuple(int(t) for t in text.split(","))
    except ValueError:
        parser.error(f"--fba-periods: {text!r} is not a list of whole milliseconds "
                     "(1000,100)")
    bad = [p for p in periods if not FBA_MIN_PERIOD_MS <= p <= FBA_MAX_PERIOD_MS]
    if bad:
        parser.error(f"--fba-periods: {bad[0]} ms is outside FBA's {FBA_MIN_PERIOD_MS}.."
                     f"{FBA_MAX_PERIOD_MS} ms")
    if len(set(periods)) != len(periods):
        parser.error(f"--fba-periods: {text!r} names a period twice")
    return periods


def parse_rates(text, parser):
    """--rate-mbps as {variant: bits/s}: one rate for every variant ("50")
    or rates per variant ("multi_queue=50,single_queue=10"; a variant not
    named keeps its default, DEFAULT_RATES_MBPS)."""
    if "=" not in text:
        return {v: rate_bps_of(text, parser) for v in VARIANTS}
    rates = {v: int(r * 1e6) for v, r in DEFAULT_RATES_MBPS.items()}
    named = set()
    for item in text.split(","):
        variant, _, value = item.partition("=")
        if variant not in VARIANTS:
            parser.error(f"--rate-mbps: {item!r} is not variant=Mbit/s with a variant of "
                         f"{','.join(VARIANTS)} (multi_queue=50,single_queue=10)")
        if variant in named:
            parser.error(f"--rate-mbps: {text!r} names {variant} twice")
        named.add(variant)
        rates[variant] = rate_bps_of(value, parser)
    return rates


def rate_bps_of(text, parser):
    """One --rate-mbps value, Mbit/s, as bits/s."""
    try:
        rate = float(text)
    except ValueError:
        parser.error(f"--rate-mbps: {text!r} is not a rate in Mbit/s (50)")
    if not MIN_RATE_MBPS <= rate <= MAX_RATE_MBPS:  # NaN too
        parser.error(f"--rate-mbps: {text} Mbit/s is outside {MIN_RATE_MBPS:g}.."
                     f"{MAX_RATE_MBPS:g} Mbit/s")
    return int(rate * 1e6)


def mbps(rate_bps):
    """A port rate in Mbit/s as the figures' conditions carry it (50, 0.5)."""
    rate = rate_bps / 1e6
    return int(rate) if rate == int(rate) else rate


def lab_groups(plan, rates):
    """The plan split by its variants' port rates, in the plan's order:
    [(rate_bps, plan items)]. Each rate gets a lab of its own, since
    pbswitch's port rates are fixed when it starts (a fresh lab also
    carries no queue, connection or FBA state from the other rate)."""
    groups = {}
    for item in plan:
        groups.setdefault(rates[item[0]], []).append(item)
    return list(groups.items())


def expand_fba(schemes, periods):
    """A variant's schemes with "fba" replaced by one FBA scheme per period."""
    out = []
    for scheme in schemes:
        out += [fba_scheme(p) for p in periods] if scheme == "fba" else [scheme]
    return tuple(out)


def make_plan(args, parser):
    """[(variant, load, query, schemes)] the options ask for ("fba" in
    --schemes stands for FBA at every period of --fba-periods)."""
    variants = [v for v in args.variants.split(",") if v]
    if set(variants) - set(VARIANTS):
        parser.error(f"--variants: want some of {','.join(VARIANTS)}")
    conds = parse_only(args.only, parser) if args.only else [
        (v, load, query) for v in variants for load, query in conditions(v, args.quick)]
    plan = []
    for variant, load, query in conds:
        schemes = SCHEMES[variant]
        if args.schemes:
            wanted = set(args.schemes.split(",")) | {"dt"}  # the ratios' baseline
            if wanted - set(schemes):
                parser.error(f"--schemes: {variant} has {','.join(schemes)}")
            schemes = tuple(s for s in schemes if s in wanted)
        plan.append((variant, load, query, expand_fba(schemes, args.fba_periods)))
    return plan


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--only", default="",
                        help="conditions instead of the variants' own, as "
                             "variant:load%%:query%%,... (multi_queue:90:75)")
    parser.add_argument("--schemes", default="",
                        help="a subset of the variant's schemes (DT is always run)")
    parser.add_argument("--repeat", type=int,
                        help="runs of each scheme per condition; ratios are their median "
                             "(default 3, --quick 1)")
    parser.add_argument("--cc", default=DEFAULT_CC,
                        help="the servers' TCP congestion control (default %(default)s, the "
                             "paper's NewReno; bbr is this kernel's default)")
    parser.add_argument("--ecn-k", type=int, default=ECN_K,
                        help="DT+ECN's marking threshold, packets ahead in the queue "
                             "(default %(default)s, the paper's 20 scaled as B)")
    parser.add_argument("--rto-min-ms", type=int,
                        help="the servers' minimum RTO (route rto_min; default Linux's 200)")
    parser.add_argument("--diagnose", action="store_true",
                        help="single-queue DT and FB with the first scenario's setting and "
                             "the paper's (40%% load, queries of 75%% of B)")
    parser.add_argument("--duration", type=float, help="seconds of queries per run")
    parser.add_argument("--first-run", type=int, default=0,
                        help="the first repetition's index (its seeds), to split repetitions "
                             "over several invocations")
    parser.add_argument("--rate-mbps",
                        default=",".join(f"{v}={r}" for v, r in DEFAULT_RATES_MBPS.items()),
                        help="R, each server's port, in Mbit/s: one rate for every variant "
                             "(50) or per variant (default %(default)s; each rate a lab of "
                             "its own; B stays the paper's bytes per port)")
    parser.add_argument("--fba-periods", default=",".join(map(str, FBA_PERIODS_MS)),
                        help="FBA's re-tuning periods in ms, each an FBA scheme of the same "
                             "run (default %(default)s: the paper's 1 s, named fba, and "
                             "100 ms, named fba_100ms)")
    parser.add_argument("--fba-jar", type=Path, default=HOST_JAR,
                        help="the jar FBA's tuner runs from (default the host's; another "
                             "build's, to compare FBA's versions on the same seeds)")
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    duration = args.duration or (5.0 if args.quick else 12.0)
    repeat = args.repeat or (1 if args.quick else 3)
    if repeat < 1 or args.first_run < 0:
        parser.error("--repeat: at least 1; --first-run: at least 0")
    args.fba_periods = parse_fba_periods(args.fba_periods, parser)
    rates = parse_rates(args.rate_mbps, parser)
    plan = make_plan(args, parser)
    if any(fba_period_ms(s) for *_, schemes in plan for s in schemes) \
            and not args.fba_jar.is_file():
        parser.error(f"--fba-jar: no file {args.fba_jar} (FBA's tuner runs from it; "
                     "mvn -pl host -am package builds the host's)")
    cc = args.cc
    if not 0 <= args.ecn_k < 1 << 19:
        parser.error("--ecn-k: 0 to 2^19 - 1 packets (enq_qdepth's width)")
    if cc == "bbr" and any(s in ECN_SCHEMES for *_, schemes in plan for s in schemes):
        parser.error("DT+ECN needs a congestion control that reacts to CE marks (BBR does "
                     "not): --cc reno, or --schemes without dt_ecn")
    logs = Path(tempfile.mkdtemp(prefix="fb-scenario-"))
    ran = ("single_queue",) if args.diagnose else [v for v, *_ in plan]
    emit("fb_setup", BUFFER_BYTES, "bytes", servers=SERVERS,
         rate_mbps={v: mbps(rates[v]) for v in VARIANTS if v in ran},
         responders=RESPONDERS, flow_size_scale=SCALE, query_rate_per_s=QUERY_RATE,
         seconds_per_run=duration, repeat=repeat, first_run=args.first_run, cc=cc,
         ecn_k_packets=args.ecn_k, rto_min_ms=args.rto_min_ms or 200,
         fba_periods_ms=list(args.fba_periods), fba_jar=str(args.fba_jar),
         background="Go senders and sinks (fbtraffic)")
    if args.diagnose:
        lab = open_lab(logs, args, rates["single_queue"])
        try:
            diagnose(lab, lab.logs, duration)
        finally:
            lab.close()
        print(f"fb diagnosis: logs and traces in {logs}")
        return
    results = run_plan(plan, rates, logs, args, duration, repeat)
    emit_ratios(results)
    plot(medians(results), ratios(results), variant_rates(results))
    print(summary(results, repeat) + f"; logs in {logs}")


def summary(results, repeat):
    """One line: FB/DT's QCT per condition, and each FBA period's QCT
    against FB's."""
    parts = []
    rates = variant_rates(results)
    for (variant, load, query, scheme, metric), values in sorted(ratios(results).items()):
        if metric.endswith("qct_vs_dt") and scheme == "fb":
            name = "FB/DT"
        elif metric.endswith("_qct_vs_fb"):
            name = f"{scheme_label(scheme)}/FB"
        else:
            continue
        parts.append(f"{variant} {mbps(rates[variant])} Mbit/s {int(load * 100)}% "
                     f"q{int(query * 100)}: {name} QCT "
                     f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]")
    return (f"fb scenario ({repeat} run(s) each, median [min-max]): " + ", ".join(parts)
            + " (paper: FB/DT 0.33 multi-queue 90%, 0.17 single 20%; FBA 1 s/FB 2.09 TCP, "
              "1.28 DCTCP)")


def plot_schemes(figures, variant):
    """The schemes of a variant that ran, in SCHEMES' order with FBA's
    periods in place of "fba"."""
    ran = {s for (v, _, _, s) in figures if v == variant}
    order = expand_fba(SCHEMES[variant], sorted((fba_period_ms(s) for s in ran
                                                 if fba_period_ms(s)), reverse=True))
    return [s for s in order if s in ran]


def plot(figures, ratio_values, rates):
    """Fig. 8a/9a-like, one figure per variant at its port rate
    (test/artifacts/fb_qct_<variant>_<rate>mbps.png, so that runs at other
    rates keep theirs): median average QCT per load, one bar per scheme;
    an FBA bar carries its QCT against FB's (median of the runs). Returns
    the figures' paths."""
    paths = []
    for variant in sorted({v for (v, *_rest) in figures}):
        fig, ax = subplots(figsize=(5, 4))
        plot_variant(ax, figures, ratio_values, variant, rates[variant])
        paths.append(save(fig, plot_name(variant, rates[variant])))
    return paths


def plot_name(variant, rate_bps):
    return f"fb_qct_{variant}_{mbps(rate_bps)}mbps"


def plot_variant(ax, figures, ratio_values, variant, rate_bps):
    conds = sorted({(lo, q) for (v, lo, q, _) in figures if v == variant})
    schemes = plot_schemes(figures, variant)
    width = 0.8 / len(schemes)
    for i, scheme in enumerate(schemes):
        xs = [x + i * width for x in range(len(conds))]
        heights = [figures.get((variant, lo, q, scheme), {}).get("qct_avg", 0)
                   for lo, q in conds]
        ax.bar(xs, heights, width, label=scheme_label(scheme))
        for x, h, (lo, q) in zip(xs, heights, conds):
            vs_fb = ratio_values.get((variant, lo, q, scheme, f"{scheme}_qct_vs_fb"))
            if vs_fb:
                ax.annotate(f"{statistics.median(vs_fb):.2f}x FB", (x, h), ha="center",
                            va="bottom", fontsize=7)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(conds))])
    ax.set_xticklabels([f"{int(lo * 100)}%, q{int(q * 100)}" for lo, q in conds])
    ax.set_ylabel("average QCT (ms, median of runs)")
    ax.set_title(f"{variant.replace('_', ' ')}, {mbps(rate_bps)} Mbit/s ports "
                 "(load, query % of B)")
    ax.legend()


if __name__ == "__main__":
    main()
