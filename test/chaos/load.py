# SPDX-License-Identifier: Apache-2.0
"""`make bench-load`: mixed REST load from concurrent clients against the
embedded host, with live sequence-numbered flows paused and resumed in it.

For each mode (in-process buffers in pbswitch, and/or an external
buffer-agent), one lab (prefix fbl-, REST 8197, P4Runtime 28421, agent
28422, 12 vports) and:
- 2 live clients: each owns a UDP flow with sequence numbers (h1 -> h2:9000
  and h3 -> h2:9001, 500 packets/s each) and its own buffer, and pauses and
  resumes it all run long (held 50-300 ms, then forwarding 50-300 ms);
- N-2 churn clients (N = 32, then 128 by default), each a loop of scenarios on flows
  of their own (h3 -> h2, distinct UDP ports, no traffic), drawn at random:
  pause / resume / withdraw both into a shared pool buffer; a pause-batch and
  resume-batch of 8 flows, then their 16 withdrawals; a buffer created on a
  free vport, queried and removed; a pause that allocates its own buffer,
  its resume, withdrawals and the buffer's removal; a create racing the
  other clients for one of 4 shared ids; the same flow paused into a second
  buffer and an intent withdrawn twice (both refused with 409); a buffer
  list.
Every REST call is one op: counted, timed, and classified by status. A 409
is expected where the scenario races for something (a free vport, a shared
id); every other non-2xx, and any 5xx or connection error, is unexpected.
Memory: the RSS of the host (JVM), pbswitch and the agent sampled every
2 s; "before" is after a warm-up of the same load (the JVM compiles and
sizes its heap first), and the JVM's live heap after a full GC (jcmd) is
reported before and after as well, to tell a leak from heap sizing; the
growth of all their RSS over the measured run is given in MB per minute.
With --profile, the host (JVM) is recorded with Java Flight Recorder over
the measured run and the top methods of its CPU samples are printed (where
the time goes).
After the load: every churn buffer removed, no churn intent left installed,
the live buffers empty, and the live flows' receivers count lost /
reordered / duplicated packets.

JSON lines {"metric", "value", "unit", "conditions"} and a summary line.
Run as root from the repository root: .venv/bin/python -m test.chaos.load
"""
import argparse
import collections
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import threading
import time

from test.lab import servicelab
from test.lab.servicelab import (DEVICE, HOSTS, ROOT, RestError, ServiceLab, ensure_built,
                                 ip_of)

PREFIX, REST_PORT, P4RT_PORT, AGENT_PORT = "fbl-", 8197, 28421, 28422
VPORTS = tuple(range(100, 112))
LIVE = (("h1", 9000), ("h3", 9001))  # (sender, UDP port): both to h2
LIVE_PPS = 500
POOL = ("pool-0", "pool-1", "pool-2", "pool-3")
RACE_IDS = 4
BATCH = 8
SAMPLE_S = 2.0
OUT_PORT = HOSTS["h2"]
CHURN_PORT_BASE = 10000
# (scenario, weight): what a churn client draws each turn.
MIX = (("single", 4), ("batch", 2), ("create_remove", 2), ("auto", 1), ("race", 1),
       ("conflict", 1), ("list", 1))
GOALS = (("load_unexpected_errors", "<=", 0), ("load_5xx", "<=", 0),
         ("load_rss_growth_mb", "<=", 50), ("load_live_lost", "<=", 0),
         ("load_live_reordered", "<=", 0))


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def rss_mb(pid):
    """Resident set size of a process and its children's threads (VmRSS), MB."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def live_heap_mb(pid):
    """The JVM's heap in use after a full GC (jcmd GC.run, GC.heap_info), MB;
    None without jcmd."""
    try:
        subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True, timeout=30,
                       check=True)
        out = subprocess.run(["jcmd", str(pid), "GC.heap_info"], capture_output=True,
                             text=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"used (\d+)K", out)
    return round(int(m.group(1)) / 1024, 1) if m else None


CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid="self"):
    """CPU seconds (user + system, all threads) a process has used so far;
    None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime


def machine_busy_s():
    """CPU seconds every core of the machine has spent busy so far (/proc/stat)."""
    with open("/proc/stat") as f:
        ticks = [int(v) for v in f.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks[:8]) - idle) / CLK_TCK


def log_bytes(logs):
    """Bytes the lab's processes have logged so far."""
    return sum(os.path.getsize(os.path.join(logs, name)) for name in os.listdir(logs)
               if name.endswith(".log"))


def slope_mb_per_min(samples):
    """Least-squares slope of (seconds, MB) samples, MB per minute."""
    if len(samples) < 3:
        return None
    n = len(samples)
    mx = sum(t for t, _ in samples) / n
    my = sum(v for _, v in samples) / n
    sxx = sum((t - mx) ** 2 for t, _ in samples)
    if sxx == 0:
        return None
    return sum((t - mx) * (v - my) for t, v in samples) / sxx * 60


class Tally:
    """Every op's latency and status, shared by the clients."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = collections.defaultdict(list)  # op -> ms
        self.statuses = collections.Counter()  # (op, status, expected) -> n
        self.unexpected = []  # first few refusals that were not expected
        self.counting = False

    def record(self, op, ms, status, expected, body=None):
        with self.lock:
            if not self.counting:
                return
            self.latencies[op].append(ms)
            self.statuses[(op, status, expected)] += 1
            if not expected and len(self.unexpected) < 20:
                self.unexpected.append({"op": op, "status": status, "body": body})

    def reset(self, counting):
        with self.lock:
            self.latencies.clear()
            self.statuses.clear()
            self.unexpected.clear()
            self.counting = counting


class Refused(Exception):
    """A non-2xx answer the scenario expected (it stops that scenario)."""

    def __init__(self, status, body):
        super().__init__(f"{status}: {body}")
        self.status, self.body = status, body


class Client:
    """One REST client of the load: its own keep-alive connection (Rest keeps
    one per thread), its own flows."""

    def __init__(self, rest, tally, index, stop, clients=64):
        self.rest, self.tally, self.index, self.stop = rest, tally, index, stop
        self.rng = random.Random(index)
        self.turn = 0
        span = (65535 - CHURN_PORT_BASE) // max(64, clients)  # each client its own ports
        self.ports = range(CHURN_PORT_BASE + index * span, CHURN_PORT_BASE + (index + 1) * span)

    def call(self, op, method, path, body=None, expect=()):
        """One op; returns its answer, raises Refused for an expected
        refusal (`expect`: (status, text in the body) pairs), RestError or
        OSError for an unexpected one (recorded either way)."""
        start = time.perf_counter()
        try:
            result = self.rest.call(method, path, body)
        except RestError as e:
            ms = (time.perf_counter() - start) * 1e3
            ok = any(e.status == status and text in e.body for status, text in expect)
            self.tally.record(op, ms, e.status, ok, e.body[:300])
            if ok:
                raise Refused(e.status, e.body) from None
            raise
        except (OSError, ValueError) as e:
            ms = (time.perf_counter() - start) * 1e3
            self.tally.record(op, ms, "connection", False, repr(e)[:300])
            raise
        self.tally.record(op, (time.perf_counter() - start) * 1e3, "2xx", True)
        return result

    def flow(self):
        self.turn += 1
        port = self.ports[self.turn % len(self.ports)]
        return {"ipv4Src": ip_of("h3") + "/32", "ipv4Dst": ip_of("h2") + "/32", "ipProto": 17,
                "l4DstPort": port}

    def run(self):
        scenarios = [name for name, weight in MIX for _ in range(weight)]
        while not self.stop.is_set():
            name = self.rng.choice(scenarios)
            try:
                getattr(self, "scenario_" + name)()
            except Refused:
                continue
            except (RestError, OSError, ValueError):
                # Recorded; the scenario's leftovers are cleaned at the end.
                time.sleep(0.05)

    def withdraw(self, *intents):
        for intent in intents:
            self.call("withdraw", "DELETE", f"intents/{intent['id']}")

    def scenario_single(self):
        f, pool = self.flow(), self.rng.choice(POOL)
        paused = self.call("pause", "POST", "intents/pause", {
            "deviceId": DEVICE, "inPort": HOSTS["h3"], "filter": f, "bufferId": pool})
        resumed = self.call("resume", "POST", "intents/resume", {
            "deviceId": DEVICE, "outPort": OUT_PORT, "filter": f, "bufferId": pool})
        self.withdraw(paused, resumed)

    def scenario_batch(self):
        flows, pool = [self.flow() for _ in range(BATCH)], self.rng.choice(POOL)
        paused = self.call("pause_batch", "POST", "intents/pause-batch", {
            "deviceId": DEVICE, "bufferId": pool,
            "flows": [{"inPort": HOSTS["h3"], "filter": f} for f in flows]})["intents"]
        resumed = self.call("resume_batch", "POST", "intents/resume-batch", {
            "deviceId": DEVICE, "bufferId": pool, "outPort": OUT_PORT,
            "filters": flows})["intents"]
        self.withdraw(*paused, *resumed)

    NO_VPORT = (409, "is bound to a buffer")

    def scenario_create_remove(self):
        bid = f"c{self.index}-{self.turn}"
        self.turn += 1
        self.call("create", "POST", f"buffers/{DEVICE}", {"id": bid, "state": "BUFFERING"},
                  expect=(self.NO_VPORT,))
        self.call("get_buffer", "GET", f"buffers/{DEVICE}/{bid}")
        self.call("remove", "DELETE", f"buffers/{DEVICE}/{bid}?discard=true")

    def scenario_auto(self):
        f = self.flow()
        paused = self.call("pause", "POST", "intents/pause", {
            "deviceId": DEVICE, "inPort": HOSTS["h3"], "filter": f}, expect=(self.NO_VPORT,))
        resumed = self.call("resume", "POST", "intents/resume", {
            "deviceId": DEVICE, "outPort": OUT_PORT, "filter": f})
        self.withdraw(paused, resumed)
        self.call("remove", "DELETE", f"buffers/{DEVICE}/{paused['bufferId']}?discard=true")

    def scenario_race(self):
        bid = f"race-{self.rng.randrange(RACE_IDS)}"
        self.call("create", "POST", f"buffers/{DEVICE}", {"id": bid, "state": "FREE"},
                  expect=(self.NO_VPORT, (409, "already exists")))
        self.call("remove", "DELETE", f"buffers/{DEVICE}/{bid}?discard=true")

    STEERED = (409, "already steers into buffer")

    def scenario_conflict(self):
        """Requests that conflict with the state: the same flow paused into a
        second buffer (its steering entry exists), an intent withdrawn twice."""
        f = self.flow()
        a, b = self.rng.sample(POOL, 2)
        paused = self.call("pause", "POST", "intents/pause", {
            "deviceId": DEVICE, "inPort": HOSTS["h3"], "filter": f, "bufferId": a})
        try:
            self.call("pause", "POST", "intents/pause", {
                "deviceId": DEVICE, "inPort": HOSTS["h3"], "filter": f, "bufferId": b},
                expect=(self.STEERED,))
        except Refused:
            pass
        resumed = self.call("resume", "POST", "intents/resume", {
            "deviceId": DEVICE, "outPort": OUT_PORT, "filter": f, "bufferId": a})
        self.withdraw(paused, resumed)
        self.call("withdraw", "DELETE", f"intents/{paused['id']}",
                  expect=((409, "not INSTALLED"),))

    def scenario_list(self):
        self.call("list", "GET", f"buffers/{DEVICE}")


class LiveClient(Client):
    """Pauses and resumes one live flow into its own buffer, run long."""

    def __init__(self, rest, tally, index, stop, sender, port):
        super().__init__(rest, tally, index, stop)
        self.in_port = HOSTS[sender]
        self.buffer = f"live-{index}"
        self.filter = {"ipv4Src": ip_of(sender) + "/32", "ipv4Dst": ip_of("h2") + "/32",
                       "ipProto": 17, "l4DstPort": port}
        self.cycles = 0

    def run(self):
        while not self.stop.is_set():
            try:
                self.call("pause", "POST", "intents/pause", {
                    "deviceId": DEVICE, "inPort": self.in_port, "filter": self.filter,
                    "bufferId": self.buffer})
                self.stop.wait(self.rng.uniform(0.05, 0.3))
                self.resume()
                self.cycles += 1
            except (RestError, OSError, ValueError):
                time.sleep(0.05)
            self.stop.wait(self.rng.uniform(0.05, 0.3))

    def resume(self):
        self.call("resume", "POST", "intents/resume", {
            "deviceId": DEVICE, "outPort": OUT_PORT, "filter": self.filter,
            "bufferId": self.buffer})


class Sampler(threading.Thread):
    """RSS of the lab's processes every SAMPLE_S seconds."""

    def __init__(self, pids):
        super().__init__(daemon=True)
        self.pids = pids  # name -> pid
        self.samples = {name: [] for name in pids}  # name -> [(t, MB)]
        self.start_time = time.monotonic()
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            t = time.monotonic() - self.start_time
            for name, pid in self.pids.items():
                mb = rss_mb(pid)
                if mb is not None:
                    self.samples[name].append((t, mb))
            self.done.wait(SAMPLE_S)


def emit(results, metric, value, unit, **conditions):
    results[metric] = value
    print(json.dumps({"metric": metric, "value": value, "unit": unit,
                      "conditions": conditions}), flush=True)


def set_up(rest):
    for bid in POOL:
        rest.post(f"buffers/{DEVICE}", {"id": bid, "state": "BUFFERING"})
    for i, _ in enumerate(LIVE):
        rest.post(f"buffers/{DEVICE}", {"id": f"live-{i}", "state": "FORWARDING"})


def leftovers(rest):
    """What the churn left behind: buffers other than the pool and live
    ones, and installed intents on churn flows (not the live ones)."""
    keep = set(POOL) | {f"live-{i}" for i in range(len(LIVE))}
    buffers = [b["id"] for b in rest.get(f"buffers/{DEVICE}")["buffers"]
               if b["id"] not in keep]
    live_ports = {port for _, port in LIVE}
    intents = [i for i in rest.get("intents")["intents"]
               if i["state"] == "INSTALLED"
               and i.get("filter", {}).get("l4DstPort") not in live_ports]
    return buffers, intents


def profile_start(pid, path):
    """Starts a Flight Recording of the JVM (profile settings: CPU samples
    every 10-20 ms per thread); False without jcmd."""
    try:
        subprocess.run(["jcmd", str(pid), "JFR.start", "name=load", "settings=profile",
                        f"filename={path}"], capture_output=True, timeout=30, check=True)
        return True
    except (OSError, subprocess.SubprocessError):
        return False


# Where a CPU sample's top frame lives: the layer its time is spent in.
LAYERS = (("REST (Jersey, Jackson, JDK HTTP server)",
           ("org.glassfish.", "com.fasterxml.", "sun.net.httpserver.", "javax.ws.", "org.onlab.rest")),
          ("gRPC / Netty (agent, P4Runtime)", ("io.grpc.", "com.google.protobuf.", "p4.")),
          ("FlowBuf", ("org.flowbuf.",)),
          ("ONOS model", ("org.onosproject.", "org.onlab.")),
          ("JDK / other", ("",)))


def profile_top(pid, path, top=15):
    """Stops the recording and returns what its CPU samples say: the top
    methods (share of samples with the method on top of the stack), the
    FlowBuf methods most often on the stack (inclusive share), the share of
    each layer (by the top frame), and the number of samples."""
    try:
        subprocess.run(["jcmd", str(pid), "JFR.stop", "name=load"], capture_output=True,
                       timeout=60, check=True)
        out = subprocess.run(["jfr", "print", "--stack-depth", "64", "--events",
                              "jdk.ExecutionSample", path],
                             capture_output=True, text=True, timeout=300, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return {}, 0
    stacks, stack = [], None
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("stackTrace = ["):
            stack = []
        elif stack is not None and (line.startswith("]") or not line):
            stacks.append(stack)
            stack = None
        elif stack is not None and line != "...":
            stack.append(re.sub(r"\s+line:.*$", "", line))
    stacks = [st for st in stacks if st]
    if not stacks:
        return {}, 0
    n = len(stacks)
    tops = collections.Counter(st[0] for st in stacks)
    ours = collections.Counter(f for st in stacks for f in set(st) if f.startswith("org.flowbuf."))
    layers = collections.Counter(
        next(name for name, prefixes in LAYERS if st[0].startswith(prefixes)) for st in stacks)
    return {"top_methods": [(round(c / n, 3), f) for f, c in tops.most_common(top)],
            "flowbuf_inclusive": [(round(c / n, 3), f) for f, c in ours.most_common(top)],
            "layers": {name: round(c / n, 3) for name, c in layers.most_common()}}, n


def run_mode(mode, clients, seconds, warmup_s, results, tag=None, profile=False):
    """One lab, one load; emits the figures with the mode in their names'
    conditions and returns the dict of this mode's results (under
    results[tag], default the mode; metric names start load_<tag>_).
    profile: record the host's CPU samples over the measured run."""
    external = mode == "external"
    tag = tag or mode
    python = str(ROOT / ".venv" / "bin" / "python")
    mine = {}
    with ServiceLab(external_agent=external, prefix=PREFIX, rest_port=REST_PORT,
                    p4rt_port=P4RT_PORT, agent_port=AGENT_PORT, vports=VPORTS) as lab:
        lab.keep_logs = True  # the results name the directory
        rest = lab.rest
        set_up(rest)
        pids = {"host": lab.host.popen.pid, "pbswitch": lab.switch.popen.pid}
        if external:
            pids["agent"] = lab.agent.popen.pid
        rss_start = {name: rss_mb(pid) for name, pid in pids.items()}
        total_s = warmup_s + seconds
        receivers, senders = [], []
        for sender, port in LIVE:
            recv = subprocess.Popen(lab.hosts["h2"].popen_argv(
                [python, "-m", "test.lab.seqflow", "recv", str(port), "--idle", "5",
                 "--expect", str(int(LIVE_PPS * (total_s + 5))), "--timeout",
                 str(total_s + 120)]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
            recv.stdout.readline()
            receivers.append(recv)
        for sender, port in LIVE:
            senders.append(subprocess.Popen(lab.hosts[sender].popen_argv(
                [python, "-m", "test.lab.seqflow", "send", ip_of("h2"), str(port), "--pps",
                 str(LIVE_PPS), "--seconds", str(total_s + 5)]),
                stdout=subprocess.PIPE, text=True, cwd=ROOT))
        tally, stop = Tally(), threading.Event()
        live = [LiveClient(rest, tally, i, stop, sender, port)
                for i, (sender, port) in enumerate(LIVE)]
        churn = [Client(rest, tally, i, stop, clients) for i in range(len(LIVE), clients)]
        threads = [threading.Thread(target=c.run, daemon=True) for c in live + churn]
        sampler = Sampler(pids)
        try:
            for t in threads:
                t.start()
            # Warm-up: the same load, not counted.
            time.sleep(warmup_s)
            heap_before = live_heap_mb(pids["host"])
            rss_before = {name: rss_mb(pid) for name, pid in pids.items()}
            log_before = log_bytes(lab.logs)
            jfr_path = os.path.join(lab.logs, "host.jfr")
            profiling = profile and profile_start(pids["host"], jfr_path)
            sampler.start()
            tally.reset(counting=True)
            load_before = os.getloadavg()[0]
            cpu_pids = dict(pids, clients="self")
            live_pids = [p.pid for p in senders + receivers]
            cpu_before = {name: cpu_s(pid) for name, pid in cpu_pids.items()}
            live_before = sum(cpu_s(pid) or 0 for pid in live_pids)
            busy_before = machine_busy_s()
            start = time.perf_counter()
            time.sleep(seconds)
            cpu_elapsed = time.perf_counter() - start
            cpu_after = {name: cpu_s(pid) for name, pid in cpu_pids.items()}
            live_after = sum(cpu_s(pid) or 0 for pid in live_pids)
            busy_after = machine_busy_s()
            with tally.lock:
                cpu_ops = sum(len(v) for v in tally.latencies.values())
            stop.set()
            for t in threads:
                t.join(timeout=60)
            elapsed = time.perf_counter() - start
            load_after = os.getloadavg()[0]
            tally.counting = False
            log_growth = log_bytes(lab.logs) - log_before
            sampler.done.set()
            sampler.join()
            stuck = sum(t.is_alive() for t in threads)
            hot, hot_samples = (profile_top(pids["host"], jfr_path) if profiling
                                else ({}, 0))
            for c in live:  # the last cycle may have stopped between pause and resume
                c.resume()
            rss_after = {name: rss_mb(pid) for name, pid in pids.items()}
            heap_after = live_heap_mb(pids["host"])
            sent = [json.loads(s.communicate(timeout=total_s + 60)[0]) for s in senders]
            time.sleep(1)  # the last datagrams on their way
            for r in receivers:
                r.terminate()
            flows = [json.loads(r.communicate(timeout=60)[0].strip().splitlines()[-1])
                     for r in receivers]
            left_buffers, left_intents = leftovers(rest)
            held = {f"live-{i}": rest.get(f"buffers/{DEVICE}/live-{i}")["occupancyPackets"]
                    for i in range(len(LIVE))}
        finally:
            stop.set()
            for proc in senders + receivers:
                if proc.poll() is None:
                    proc.kill()
        logs = lab.logs

    ops = sum(len(v) for v in tally.latencies.values())
    all_ms = [ms for v in tally.latencies.values() for ms in v]
    by_status = collections.Counter()
    expected = collections.Counter()
    unexpected = collections.Counter()
    for (op, status, ok), n in tally.statuses.items():
        by_status[str(status)] += n
        if status != "2xx":
            (expected if ok else unexpected)[f"{op}:{status}"] += n
    fivexx = sum(n for (op, status, ok), n in tally.statuses.items()
                 if isinstance(status, int) and status >= 500)
    cond = {"mode": mode, "clients": clients,
            "seconds": round(elapsed, 1),
            "live_flows": len(LIVE), "vports": len(VPORTS),
            "note": "the client threads, the JVM, pbswitch (and the agent) share this "
                    "machine's cores with whatever else runs on it: see loadavg_1min"}
    per_op = {op: {"n": len(v), "p50": round(percentile(v, 50), 2),
                   "p99": round(percentile(v, 99), 2)}
              for op, v in sorted(tally.latencies.items())}
    p = f"load_{tag}_"
    emit(mine, p + "ops_per_s", round(ops / elapsed, 1), "ops/s", ops=ops,
         loadavg_1min=[load_before, load_after], **cond)
    # Where the machine's CPU went over the measured run (until the clients
    # were told to stop): cores used on average by each process, and CPU
    # milliseconds per op of the host and of the clients (this process).
    cores = {name: round((cpu_after[name] - cpu_before[name]) / cpu_elapsed, 3)
             for name in cpu_pids if None not in (cpu_before[name], cpu_after[name])}
    cores["live_flows"] = round((live_after - live_before) / cpu_elapsed, 3)
    cores["machine_busy"] = round((busy_after - busy_before) / cpu_elapsed, 3)
    cores["other"] = round(cores["machine_busy"] - sum(v for k, v in cores.items()
                                                       if k != "machine_busy"), 3)
    emit(mine, p + "cpu_cores", cores, "cores", machine_cores=os.cpu_count(), ops=cpu_ops,
         what="CPU used on average over the measured run by the host (JVM), pbswitch, the "
              "agent, the load's clients (this Python process), the live flows' senders "
              "and receivers, and the rest of the machine (other), in cores", **cond)
    for name in ("host", "clients"):
        ms_per_op = (cpu_after[name] - cpu_before[name]) * 1e3 / cpu_ops if cpu_ops else None
        emit(mine, p + f"{name}_cpu_ms_per_op",
             None if ms_per_op is None else round(ms_per_op, 3),
             "CPU ms/op", ops=cpu_ops, cpu_s=round(cpu_after[name] - cpu_before[name], 2),
             **cond)
    emit(mine, p + "latency_ms_p50", round(percentile(all_ms, 50), 2), "ms", per_op=per_op,
         **cond)
    emit(mine, p + "latency_ms_p99", round(percentile(all_ms, 99), 2), "ms", **cond)
    emit(mine, p + "status_counts", dict(by_status), "calls", **cond)
    emit(mine, p + "expected_409", sum(expected.values()), "calls", by_op=dict(expected),
         **cond)
    emit(mine, p + "unexpected_errors", sum(unexpected.values()), "calls",
         by_op=dict(unexpected), samples=tally.unexpected[:5], **cond)
    emit(mine, p + "5xx", fivexx, "calls", **cond)
    for name in pids:
        emit(mine, p + f"{name}_rss_mb_before", round(rss_before[name], 1), "MB",
             at_lab_start=round(rss_start[name], 1), after_warmup_s=warmup_s, **cond)
        emit(mine, p + f"{name}_rss_mb_after", round(rss_after[name], 1), "MB", **cond)
        half = [(t, v) for t, v in sampler.samples[name] if t >= seconds / 2]
        slope = slope_mb_per_min(half)
        emit(mine, p + f"{name}_rss_slope_mb_per_min", None if slope is None else round(slope, 2),
             "MB/min", over="second half of the run", samples=len(half),
             every_s=SAMPLE_S, series=[round(v, 1) for _, v in sampler.samples[name]], **cond)
    growth = sum(rss_after[n] - rss_before[n] for n in pids)
    emit(mine, p + "rss_growth_mb", round(growth, 1), "MB",
         what="host + pbswitch" + (" + agent" if external else "") + " RSS, after - before",
         **cond)
    emit(mine, p + "rss_growth_mb_per_min", round(growth / elapsed * 60, 1), "MB/min",
         what="host + pbswitch" + (" + agent" if external else "")
              + " RSS growth over the measured run, per minute (after a warm-up of the "
                "same load; the JVM may still size its heap: see host_live_heap_mb)",
         **cond)
    if profile:
        emit(mine, p + "host_profile_top", hot, "share of CPU samples",
             samples=hot_samples, what="methods on top of the host's stacks in Java Flight "
                                       "Recorder CPU samples over the measured run", **cond)
    emit(mine, p + "host_live_heap_mb", heap_after, "MB", before=heap_before,
         what="JVM heap in use after a full GC (jcmd), after the run", **cond)
    emit(mine, p + "log_mb_per_min", round(log_growth / 1e6 / elapsed * 60, 3), "MB/min",
         what="what the host, pbswitch (and the agent) wrote to their logs during the run",
         **cond)
    lost = sum(f["lost"] for f in flows)
    reordered = sum(f["reordered"] for f in flows)
    emit(mine, p + "live_lost", lost, "packets", flows=flows, sent=sent,
         pause_cycles=[c.cycles for c in live], **cond)
    emit(mine, p + "live_reordered", reordered, "packets",
         duplicates=sum(f["duplicates"] for f in flows), **cond)
    mine[p + "live_duplicates"] = sum(f["duplicates"] for f in flows)
    mine[p + "live_pause_cycles"] = [c.cycles for c in live]
    mine[p + "host_live_heap_mb_before"] = heap_before
    emit(mine, p + "leftovers", len(left_buffers) + len(left_intents), "objects",
         buffers=left_buffers[:10], intents=[i["id"] for i in left_intents[:10]],
         live_held_after_resume=held, stuck_clients=stuck, logs=logs,
         what="churn buffers and installed churn intents left after the run "
              "(non-zero only after unexpected errors)", **cond)
    results[tag] = mine
    return mine


def verdict(mode, mine, quick):
    met, missed = [], []
    p = f"load_{mode}_"
    for metric, op, bound in GOALS:
        if quick and metric == "load_rss_growth_mb":
            continue  # a goal for 60 s: in 10 s the JVM still sizes its heap
        key = p + metric[len("load_"):]
        value = mine.get(key)
        ok = value is not None and (value <= bound if op == "<=" else value >= bound)
        (met if ok else missed).append(f"{key}={value} (goal {op} {bound})")
    return met, missed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="~10 s of load per mode")
    parser.add_argument("--seconds", type=float, help="load duration per mode (default 60)")
    parser.add_argument("--clients", default="32,128",
                        help="client counts to run, one load each (default 32,128); the "
                             "first is the baseline of the others' ratios")
    parser.add_argument("--mode", choices=("inprocess", "external", "both"), default="both")
    parser.add_argument("--profile", action="store_true",
                        help="record the host with Java Flight Recorder (first client "
                             "count) and print its top methods")
    parser.add_argument("--host-jar", help="the embedded host's jar to load (default: this "
                                           "tree's host/target/flowbuf-host.jar), e.g. "
                                           "another tree's build as a baseline")
    args = parser.parse_args(argv)
    if args.host_jar:
        servicelab.HOST_JAR = pathlib.Path(args.host_jar).resolve()
    if os.geteuid() != 0:
        print("bench-load: needs root (network namespaces)", file=sys.stderr)
        return 2
    seconds = args.seconds or (10 if args.quick else 60)
    warmup_s = 10 if args.quick else 15
    ensure_built()
    modes = ("inprocess", "external") if args.mode == "both" else (args.mode,)
    counts = [int(c) for c in args.clients.split(",")]
    base = counts[0]
    results = {}
    for mode in modes:
        for n in counts:
            run_mode(mode, n, seconds, warmup_s, results, tag=run_name(mode, n, base),
                     profile=args.profile and n == base)
    parts = []
    failed = False
    for mode in modes:
        for n in counts:
            name = run_name(mode, n, base)
            mine = results[name]
            p = f"load_{name}_"
            met, missed = verdict(name, mine, args.quick)
            if n != base:
                ratio = mine[p + "ops_per_s"] / results[mode][f"load_{mode}_ops_per_s"]
                emit(mine, p + f"vs_{base}_ops", round(ratio, 2), "ratio",
                     baseline=f"load_{mode}_ops_per_s ({base} clients), same run", goal=">= 1")
            failed |= bool(missed)
            parts.append(f"{mode} x{n}: {mine[p + 'ops_per_s']} ops/s, p50 "
                         f"{mine[p + 'latency_ms_p50']} / p99 {mine[p + 'latency_ms_p99']} ms, "
                         f"host {mine[p + 'host_cpu_ms_per_op']} / clients "
                         f"{mine[p + 'clients_cpu_ms_per_op']} CPU ms/op, "
                         f"RSS {mine[p + 'rss_growth_mb_per_min']} MB/min, "
                         f"{mine[p + 'expected_409']} expected 409, "
                         f"missed: {'; '.join(missed) or 'none'}")
    if len(modes) == 2:
        ratio = (results["external"]["load_external_ops_per_s"]
                 / results["inprocess"]["load_inprocess_ops_per_s"])
        emit({}, "load_external_vs_inprocess_ops", round(ratio, 2), "ratio",
             baseline=f"load_inprocess_ops_per_s, same run (the modes one after the other, "
                      f"{base} clients)")
    note = " (QUICK: load_rss_growth_mb is judged on 60 s runs only)" if args.quick else ""
    print(f"bench-load ({args.clients} clients, {seconds:g} s{note}): " + " | ".join(parts))
    return 1 if failed else 0


def run_name(mode, clients, base):
    """The name of one load's metrics: the mode for the baseline count,
    mode_<n>c for the others (load_inprocess_128c_ops_per_s)."""
    return mode if clients == base else f"{mode}_{clients}c"


if __name__ == "__main__":
    sys.exit(main())
