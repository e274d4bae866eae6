# SPDX-License-Identifier: Apache-2.0
"""FB burst absorption (Apostolaki et al., FB, §6), scaled to this lab.

pbswitch runs the FlowBuf program with one shared buffer of B bytes over
all its ports' queues. Two background sinks and the aggregator sit behind
ports shaped to R; long-lived TCP flows fill the sinks' queues during "on"
periods (the load: the share of time they are on), and every interval the
aggregator sends an incast query: 8 responders on two other ports answer
at once. A query whose burst does not fit loses packets and waits for
TCP's retransmission timeout (200 ms at least): the query completion time
(QCT) shows how much of the buffer the bursts found.

    ports 1 agg (R)   2 responders a   3 responders b
          4 bulk senders   5 sink 1 (R)   6 sink 2 (R)

For each variant (single queue: everything in queue 0; multi-queue: the
queries marked EF go to queue 7, FB's high buffer priority), load and
algorithm (CS, DT, FB on pbswitch's traffic manager, switched at run time
through its admin API; FBA: DT with each queue's alpha re-tuned every
second by the controller's FBA, host/.../fba/FbaMain), one run; JSON lines per algorithm and load:
fb_qct_ms_avg / _p99, fb_throughput_pct (the background's throughput as
a share of the sinks' ports, so about the load when it loses nothing),
fb_buffer_pct (mean occupancy of B), and fb_qct_vs_dt / fb_throughput_vs_dt.
A query's ideal QCT is its 40 KB at R: 32 ms.

    .venv/bin/python -m test.scenarios.fb [--quick]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from test.lab import Lab, Process, wait_for_tcp
from test.lab.servicelab import ROOT
from test.packet.client import Client
from test.packet.p4info import P4Info
from test.packet.targets import _free_tcp_port
from test.scenarios.report import emit, save, subplots

PREFIX = "fbq-"
RATE_BPS = 10_000_000                 # R, each shaped port
BUFFER_BYTES = 128 * 1024             # B
RESPONSE_BYTES = 5000                 # per responder and query: 8 x 5000 = 40 KB bursts
QUERY_INTERVAL_S = 0.1
ON_OFF_PERIOD_S = 1.0
EF = 46
HIGH_QUEUE = 7
ALGORITHMS = ("cs", "dt", "fb", "fba")
FBA_PERIOD_MS = 1000                  # the paper's
VARIANTS = ("single_queue", "multi_queue")
PYTHON = str(ROOT / ".venv" / "bin" / "python")
HOST_JAR = ROOT / "host" / "target" / "flowbuf-host.jar"

# name: (switch port, address, shaped)
HOSTS = {
    "agg": (1, "10.9.0.1", True),
    "ra": (2, "10.9.0.2", False),
    "rb": (3, "10.9.0.3", False),
    "bs": (4, "10.9.0.4", False),
    "k1": (5, "10.9.0.5", True),
    "k2": (6, "10.9.0.6", True),
}
RESPONDER_PORT, SINK_PORT = 7000, 7100


def mac_of(port):
    return f"02:fb:00:00:00:{port:02x}"


class FbLab:
    """The namespaces, pbswitch with the FlowBuf program, forwarding."""

    def __init__(self, logs):
        self.logs = logs
        self.lab = Lab(PREFIX)
        self.procs = []
        try:
            self.hosts = {}
            ports = []
            for name, (port, ip, shaped) in HOSTS.items():
                host = self.lab.add_host(name)
                sw_if = self.lab.link_host(host, "eth0", f"s{port}", ip=f"{ip}/24",
                                           mac=mac_of(port))
                self.hosts[name] = host
                ports += ["--port", f"{port}={sw_if}" + (f"@{RATE_BPS}" if shaped else "")]
            for name, host in self.hosts.items():
                for other, (port, ip, _) in HOSTS.items():
                    if other != name:
                        host.run("ip", "neigh", "replace", ip, "lladdr", mac_of(port),
                                 "dev", "eth0")
            self.admin = f"127.0.0.1:{_free_tcp_port()}"
            grpc_port = _free_tcp_port()
            build = ROOT / "pipeconf" / "p4src" / "build"
            self.switch = self.start("pbswitch", [
                str(ROOT / "bin" / "pbswitch"), "--p4rt-listen", f"127.0.0.1:{grpc_port}",
                "--buffer-listen", "", "--bmv2-json", str(build / "bmv2.json"),
                "--p4info", str(build / "p4info.txt"), "--admin-listen", self.admin,
                "--shared-buffer-bytes", str(BUFFER_BYTES), *ports])
            wait_for_tcp("127.0.0.1", grpc_port, proc=self.switch.popen)
            self.program(f"127.0.0.1:{grpc_port}")
        except BaseException:
            self.close()
            raise

    def start(self, name, argv, host=None):
        proc = Process(host.popen_argv(argv) if host else argv, str(self.logs / f"{name}.log"),
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.procs.append(proc)
        return proc

    def program(self, address):
        """L2 forwarding to every host, and EF into the high queue."""
        info = P4Info()
        with Client(address, 1) as client:
            for name, (port, _, _) in HOSTS.items():
                client.insert(info.table_entry("forwarding.l2_exact",
                                               match={"eth_dst": mac_of(port)},
                                               action="forwarding.set_egress_port",
                                               params={"port": port}))
            client.insert(info.table_entry("qos.dscp_queues", match={"dscp": EF},
                                           action="qos.set_queue",
                                           params={"queue": HIGH_QUEUE}))

    def admission(self, algorithm, multi_queue):
        """Switches the buffer's algorithm; the high queue gets alpha 2 (and
        FB's high priority) in the multi-queue variant."""
        classes = [{"queue": HIGH_QUEUE, "alpha": 2, "priority": "high"}] if multi_queue else []
        body = json.dumps({"algorithm": algorithm, "classes": classes}).encode()
        req = urllib.request.Request(f"http://{self.admin}/v1/buffer", data=body, method="PUT")
        urllib.request.urlopen(req, timeout=5).read()

    def used_bytes(self):
        with urllib.request.urlopen(f"http://{self.admin}/v1/buffer", timeout=5) as r:
            return json.load(r)["used_bytes"]

    def close(self):
        for proc in reversed(self.procs):
            proc.stop()
        self.lab.close()


def wait_listening(proc, timeout=20.0):
    """Waits for a traffic server's "listening on" line in its log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.popen.poll() is not None:
            raise RuntimeError(f"a traffic server exited: {proc.log_tail()}")
        if "listening on" in Path(proc.log_path).read_text():
            return
        time.sleep(0.05)
    raise TimeoutError(f"a traffic server did not listen: {proc.log_tail()}")


def traffic(*args):
    return [PYTHON, "-m", "test.scenarios.fb_traffic", *args]


def run_once(lab, logs, algorithm, load, multi_queue, duration):
    """One run; returns (QCTs in ms, the sinks' ports' utilisation by the
    background in %, mean buffer use in bytes)."""
    tag = f"{algorithm}-{int(load * 100)}-{'mq' if multi_queue else 'sq'}"
    lab.admission("dt" if algorithm == "fba" else algorithm, multi_queue)
    tuner = None
    if algorithm == "fba":  # DT, its alphas re-tuned by the controller's FBA
        tuner = lab.start(f"{tag}-fba", ["java", "-cp", str(HOST_JAR),
                                         "org.flowbuf.host.fba.FbaMain", lab.admin,
                                         str(FBA_PERIOD_MS)])
    dscp = str(EF if multi_queue else 0)
    servers = []
    for name in ("ra", "rb"):
        servers.append(lab.start(f"{tag}-{name}", traffic("responder", "--listen",
                                                          str(RESPONDER_PORT), "--dscp", dscp),
                                 lab.hosts[name]))
    counts = {}
    for name in ("k1", "k2"):
        counts[name] = logs / f"{tag}-{name}.bytes"
        servers.append(lab.start(f"{tag}-{name}", traffic("sink", "--listen", str(SINK_PORT),
                                                          "--out", str(counts[name])),
                                 lab.hosts[name]))
    for proc in servers:
        wait_listening(proc)
    on = ON_OFF_PERIOD_S * load
    senders = [lab.start(f"{tag}-bulk-{name}", traffic(
        "bulk", "--to", f"{HOSTS[name][1]}:{SINK_PORT}", "--flows", "2", "--on", str(on),
        "--off", str(ON_OFF_PERIOD_S - on), "--duration", str(duration + 1)), lab.hosts["bs"])
        for name in ("k1", "k2")]
    time.sleep(0.5)  # the background's queues fill before the first query
    qct_file = logs / f"{tag}-qct.json"
    responders = ",".join(f"{HOSTS[n][1]}:{RESPONDER_PORT}" for n in ("ra", "rb") for _ in range(4))
    agg = lab.start(f"{tag}-agg", traffic(
        "aggregator", "--responders", responders, "--size", str(RESPONSE_BYTES),
        "--interval", str(QUERY_INTERVAL_S), "--duration", str(duration), "--out", str(qct_file),
        "--dscp", dscp), lab.hosts["agg"])
    used, received = [], []  # buffer bytes; (time, background bytes)
    while agg.popen.poll() is None:
        used.append(lab.used_bytes())
        received.append((time.monotonic(),
                         sum(int(counts[n].read_text()) for n in counts if counts[n].exists())))
        time.sleep(0.02)
    for proc in senders:
        proc.popen.wait(timeout=30)
    for proc in servers + ([tuner] if tuner else []):
        proc.stop()
    # The switch's drops by queue and cause, for whoever reads the logs.
    with urllib.request.urlopen(f"http://{lab.admin}/v1/stats", timeout=5) as r:
        (logs / f"{tag}-stats.json").write_bytes(r.read())
    qcts = json.loads(qct_file.read_text())
    # The background's throughput over the queries' window, as the share of
    # what the two sinks' shaped ports carry (at most 100 %; about the load
    # when the background loses nothing to the bursts).
    (t0, b0), (t1, b1) = received[0], received[-1]
    return qcts, 100 * (b1 - b0) / (2 * RATE_BPS / 8 * (t1 - t0)), statistics.mean(used)


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def run_all(lab, logs, duration, loads):
    """Every variant, load and algorithm; emits each run's figures."""
    results = {}
    for variant in VARIANTS:
        for load in loads:
            for algorithm in ALGORITHMS:
                qcts, throughput, used = run_once(lab, logs, algorithm, load,
                                                  variant == "multi_queue", duration)
                r = {"qct_avg": statistics.mean(qcts), "qct_p99": p99(qcts),
                     "throughput_pct": throughput, "buffer_pct": 100 * used / BUFFER_BYTES}
                results[(variant, load, algorithm)] = r
                cond = {"variant": variant, "load_pct": int(load * 100),
                        "algorithm": algorithm, "queries": len(qcts)}
                emit("fb_qct_ms_avg", round(r["qct_avg"], 2), "ms", **cond)
                emit("fb_qct_ms_p99", round(r["qct_p99"], 2), "ms", **cond)
                emit("fb_throughput_pct", round(r["throughput_pct"], 1), "%", **cond)
                emit("fb_buffer_pct", round(r["buffer_pct"], 1), "%", **cond)
    return results


def emit_against_dt(results, loads):
    """Each algorithm's QCT and throughput against DT's in the same run."""
    for variant in VARIANTS:
        for load in loads:
            dt = results[(variant, load, "dt")]
            for algorithm in ("cs", "fb", "fba"):
                mine = results[(variant, load, algorithm)]
                cond = {"variant": variant, "load_pct": int(load * 100), "algorithm": algorithm}
                emit("fb_qct_vs_dt", round(mine["qct_avg"] / dt["qct_avg"], 3), "ratio", **cond)
                emit("fb_throughput_vs_dt",
                     round(mine["throughput_pct"] / max(dt["throughput_pct"], 1e-9), 3),
                     "ratio", **cond)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    duration = 4.0 if args.quick else 12.0
    loads = (0.4, 0.9)
    logs = Path(tempfile.mkdtemp(prefix="fb-scenario-"))
    lab = FbLab(logs)
    try:
        results = run_all(lab, logs, duration, loads)
    except BaseException:
        sys.stderr.write((logs / "pbswitch.log").read_text()[-3000:])
        raise
    finally:
        lab.close()
    emit_against_dt(results, loads)
    plot(results, loads)
    fb, dt = (results[("multi_queue", 0.9, a)]["qct_avg"] for a in ("fb", "dt"))
    print(f"fb scenario: multi-queue, 90% load: FB's average QCT is {fb / dt:.2f}x DT's "
          f"(paper: 0.33); logs in {logs}")


def plot(results, loads):
    fig, axes = subplots(1, 2, figsize=(10, 4))
    for ax, variant in zip(axes, VARIANTS):
        width = 0.8 / len(ALGORITHMS)
        for i, algorithm in enumerate(ALGORITHMS):
            ax.bar([x + i * width for x in range(len(loads))],
                   [results[(variant, load, algorithm)]["qct_avg"] for load in loads],
                   width, label=algorithm.upper())
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(loads))])
        ax.set_xticklabels([f"{int(load * 100)}% load" for load in loads])
        ax.set_ylabel("average query completion time (ms)")
        ax.set_title(variant.replace("_", " "))
        ax.legend()
    save(fig, "fb_qct")


if __name__ == "__main__":
    main()
