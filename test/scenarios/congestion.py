# SPDX-License-Identifier: Apache-2.0
"""Scenario: congestion detection and avoidance in the data plane
(Turkovic et al., "Fast network congestion detection and avoidance using
P4"; ../shared/papers/congestion-avoidance.txt, Sec. 3).

The paper's topology (test/congestion/congestionlab.paper_topology): seven
pbswitch instances, the tactile flow ht (s1) -> hr (s7) on the primary
s1-s3-s5-s7 with the disjoint backup s1-s4-s6-s7, cross traffic hx (s2) ->
hy (s5) through s3's port towards s5, the primary's only link it shares.
Every inter-switch port runs at RATE_BPS with QUEUE_LEN packets per queue
(the paper limits every bmv2 queue so that queues build; 64 is bmv2's
default depth). s3 has no backup: it notifies s1, which moves the flow.

Each run: the flow registered through the controller's REST (POST
congestion/flows, mode DATAPLANE with x and m, NOCC: one path, nothing
reacts, or PROBING every 1, 2 or 5 s: the controller's probe along the
primary, late over PROBE_BUDGET_US or lost, moves the flow), TACTILE_PPS
datagrams/s (--tactile-pps) of TACTILE_SIZE bytes (--tactile-size) with sequence numbers and
send times (test/lab/seqflow.py) for `seconds`, cross traffic of 1000 bytes
from 2 s on at `load` times the port rate (--rate-mbps), until the flow ends. The
receiver stamps each arrival in the kernel (SO_TIMESTAMPNS; one wall clock
for every namespace), so one-way delays are exact to the clock; a sniffer on
s4's port 1 (the backup's first link) tells which packets took the backup.

Per configuration and load (JSON lines, tagged): ca_detection_ms,
ca_dataplane_switch_ms and ca_detection_in_switch_ms (mean and max over
repeats; see detection_ms), ca_loss_pct, ca_delay_ms (avg, max),
ca_jitter_ms (max |delay difference| of consecutive arrivals),
ca_backup_share, ca_reordered, ca_switchovers, ca_probes (PROBING). Summary
lines for Dataplane5_5 at the highest load: ca_dataplane_loss_pct,
ca_nocc_loss_pct, ca_probing1s_loss_pct, ca_dataplane_detection_ms_max,
ca_dataplane_detection_in_switch_ms_max, ca_dataplane_switch_ms_max,
ca_dataplane_max_delay_vs_best_baseline (over the lowest maximum delay of
NoCC and Probing 1/2/5 s), ca_dataplane_reordered, and
ca_ordered_switchover_reordered: Dataplane5_5_ordered, the same flow
registered with orderedSwitchover (s7's buffer holds the backup's packets
until s1's end marker comes down the primary), with its maximum delay
beside Dataplane5_5's.

Congestion on s5 (run_s5): the cross traffic hw -> hz shares only s5's port
towards s7 with the primary; neither s5 nor s3 has a backup, so s5's
notification must go on through s3 to s1. Dataplane5_5 and NoCC at the
highest load: ca_s5_loss_pct, ca_s5_notification_switchovers (the moves the
controller recorded from s1's digest) and ca_s5_backup_share. Plots:
test/artifacts/congestion_delay.png (delay over time, per load and
configuration) and congestion_qos.png (the paper's Fig. 6 metrics).

Run as root:  .venv/bin/python -m test.scenarios.congestion [--quick]
              [--prefix fcs- --rest-port 8221 --p4rt-base 28601]
"""
import argparse
import collections
import datetime
import json
import os
import pathlib
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

from test.congestion.congestionlab import CongestionLab, device, paper_topology
from test.lab.seqflow import Stamped
from test.lab.servicelab import ROOT
from test.scenarios.report import ARTIFACTS, emit, save, subplots

SO_RCVBUFFORCE = getattr(socket, "SO_RCVBUFFORCE", 33)
PYTHON = str(ROOT / ".venv" / "bin" / "python")
RATE_BPS = 10_000_000
QUEUE_LEN = 64
TACTILE_PPS, TACTILE_SIZE = 1000, 64
# The tactile flow's rate and the inter-switch ports' rate. The paper's
# flow sends 8,000 packets/s past a 200 Mbit/s bottleneck: this machine's
# seven software switches run the default, 1,000 against 10 Mbit/s, and
# --tactile-pps/--rate-mbps run others (and --tactile-size: the paper's
# packets are 64-byte frames, 22 bytes of UDP payload).
Traffic = collections.namedtuple("Traffic", "tactile_pps rate_bps tactile_size")
DEFAULT_TRAFFIC = Traffic(TACTILE_PPS, RATE_BPS, TACTILE_SIZE)
CROSS_SIZE = 1000
# A cross datagram's frame: UDP payload + UDP, IPv4 and Ethernet headers.
CROSS_FRAME_BITS = (CROSS_SIZE + 8 + 20 + 14) * 8
CROSS_START_S = 2.0
# How long before the tactile flow's first packet both senders are started
# (a Python start-up takes ~50 ms idle, up to hundreds under load).
START_LEAD_S = 1.0
TACTILE_PORT, CROSS_PORT = 7000, 7100
# Idle delays per switch (the netcfg's defaults for every link): queuing
# 200 us, about a quarter of a cross frame's 0.83 ms on a 10 Mbit/s port,
# the wait a tactile packet meets behind one; processing 5 ms, so that the
# scheduler of a loaded 2-core machine does not move the flow by itself.
IDLE = {"idleQueueUs": 200, "idleProcUs": 5000}
BUDGET_US = 1_000_000  # so that X alone sets the thresholds
# A PROBING flow's budget: a probe whose one-way time (packet-out at s1 to
# packet-in from s7, through the controller) is over it is late. 20 ms is
# about 40 % of s3's full queue (64 cross frames: 53 ms) and several times
# an idle probe's few ms; the data plane's t_q at s3 is 1 ms (X = 5).
PROBE_BUDGET_US = 20_000
# Detection of a run without thresholds (PROBING) is timed from the first
# packet over the idle delay by Dataplane5's t_q at s3, to compare.
REFERENCE_TQ_US = 5 * 200
CONGESTED = device("s3")
CROSS = ("hx", "hy")
# The s5 case: cross traffic through s5's port towards s7 only.
S5_CROSS = ("hw", "hz")
S5_CONGESTED = device("s5")
# PROBING configurations carry the probe interval in seconds where the
# others carry X, and no m. ORDERED: DATAPLANE with orderedSwitchover (a
# merge buffer on s7).
PROBING_CONFIGS = [("PROBING", n, None) for n in (1, 2, 5)]
FULL_CONFIGS = ([("DATAPLANE", x, m) for x in (2, 5, 12) for m in (1, 5, 20)]
                + [("NOCC", 5, 5), ("ORDERED", 5, 5)] + PROBING_CONFIGS)
QUICK_CONFIGS = [("DATAPLANE", 5, 5), ("NOCC", 5, 5), ("ORDERED", 5, 5)] + PROBING_CONFIGS
S5_CONFIGS = [("DATAPLANE", 5, 5), ("NOCC", 5, 5)]
DEFAULT = "Dataplane5_5"
ORDERED = DEFAULT + "_ordered"
BASELINES = ("NoCC", "Probing1s", "Probing2s", "Probing5s")
# s7's in-process buffers (the merge buffer's hold per path and trigger).
MERGE_VPORTS = (100, 101, 102, 103)


def name_of(mode, x, m):
    if mode == "PROBING":
        return f"Probing{x}s"
    if mode == "ORDERED":
        return f"Dataplane{x}_{m}_ordered"
    return "NoCC" if mode == "NOCC" else f"Dataplane{x}_{m}"


def lab(prefix="fcs-", rest_port=8221, p4rt_base=28601, rate_bps=RATE_BPS,
        switch_priority=None):
    """The paper's topology under the embedded host."""
    return CongestionLab(prefix=prefix, rest_port=rest_port, p4rt_base=p4rt_base,
                         congestion=dict(IDLE, factor=5), switch_priority=switch_priority,
                         topology=paper_topology(rate_bps, QUEUE_LEN),
                         buffered={"s7": MERGE_VPORTS})


class LinkSniffer:
    """Sequence numbers of the tactile packets that cross one link, read
    from its root-namespace interface beside the switch that reads it too:
    which path each packet took, and where the lost ones were lost. With
    `stamped`, also when each first crossed it as the kernel stamped it
    (`times`, seq -> ns): on the sender's link, when it left the sender."""

    def __init__(self, ifname, dport, stamped=False):
        self.dport, self.seqs, self.times = dport, set(), {}
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x0800))
        # Root may exceed net.core.rmem_max: a sniffer the scheduler runs
        # late must not miss what it is there to count.
        self.sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 16 << 20)
        self.sock.bind((ifname, 0))
        self.sock.settimeout(0.2)
        self._stamped = Stamped(self.sock) if stamped else None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        while not self._stop.is_set():
            try:
                ip, at = (self._stamped.recv_stamped(2048) if self._stamped
                          else (self.sock.recv(2048), None))
            except socket.timeout:
                continue
            ihl = (ip[0] & 0x0F) * 4
            if ip[9] == socket.IPPROTO_UDP and len(ip) >= ihl + 16:
                if struct.unpack_from("!H", ip, ihl + 2)[0] == self.dport:
                    seq = struct.unpack_from("!Q", ip, ihl + 8)[0]
                    self.seqs.add(seq)
                    if at is not None:
                        self.times.setdefault(seq, at)

    def stop(self):
        self._stop.set()
        self._thread.join()
        self.sock.close()
        return self.seqs


def register(lab_, mode, x, m, dport, congested=CONGESTED):
    """POSTs the tactile flow; refuses a layout where the cross traffic
    would not meet the flow (a primary not through the congested switch)."""
    body = {"srcHost": "ht", "dstHost": "hr", "budgetUs": BUDGET_US,
            "mode": "DATAPLANE" if mode == "ORDERED" else mode,
            "orderedSwitchover": mode == "ORDERED",
            "filter": {"ipv4Dst": lab_.topology.hosts["hr"][2] + "/32", "ipProto": 17,
                       "l4DstPort": dport}}
    if mode == "PROBING":
        body.update(budgetUs=PROBE_BUDGET_US, probeIntervalMs=int(x * 1000))
    else:
        body.update(m=m, x=x)
    flow = lab_.rest.post("congestion/flows", body)
    hops = [h["deviceId"] for h in flow["primary"]]
    if congested not in hops:
        lab_.rest.delete(f"congestion/flows/{flow['id']}")
        raise RuntimeError(f"primary {hops} does not cross {congested}")
    return flow


def start(lab_, host, argv):
    return subprocess.Popen(lab_.hosts[host].popen_argv([PYTHON, "-m", "test.lab.seqflow",
                                                         *argv]),
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)


def receiver(lab_, host, port, delays, timeout):
    proc = start(lab_, host, ["recv", str(port), "--idle", "30", "--timeout", str(timeout),
                              "--delays", delays])
    proc.stdout.readline()  # listening
    return proc


def last_json(proc, timeout):
    return json.loads(proc.communicate(timeout=timeout)[0].strip().splitlines()[-1])


def one_run(lab_, mode, x, m, load, seconds, dport, cross=CROSS, congested=CONGESTED,
            traffic=DEFAULT_TRAFFIC):
    """One tactile flow under cross traffic at `load` times traffic's port
    rate from cross[0] to cross[1]; the raw record. The lab's ports must
    run at traffic.rate_bps (lab(rate_bps=...))."""
    src, dst = cross
    flow = register(lab_, mode, x, m, dport, congested)
    tmp = tempfile.mkdtemp(prefix="flowbuf-ccs-")
    tactile_file, cross_file = f"{tmp}/tactile.json", f"{tmp}/cross.json"
    try:
        # The first link of each path, at the far switch's port, and the
        # sender's link at s1 (when each packet really left ht).
        sniffers = {path: LinkSniffer(lab_.links[port], dport)
                    for path, port in (("primary", ("s3", 1)), ("backup", ("s4", 1)))}
        sniffers["sender"] = LinkSniffer(lab_.links[("s1", 1)], dport, stamped=True)
        rx = receiver(lab_, "hr", dport, tactile_file, seconds + 60)
        cross_rx = receiver(lab_, dst, CROSS_PORT, cross_file, seconds + 60)
        # Both senders on one wall-clock schedule, started together: the
        # cross traffic's start does not wait for its interpreter, which a
        # loaded machine can hold for seconds (the flow then ends before
        # the congestion it was to meet).
        t0 = time.time() + START_LEAD_S
        tx = start(lab_, "ht", ["send", lab_.topology.hosts["hr"][2], str(dport), "--pps",
                                str(traffic.tactile_pps), "--seconds", str(seconds),
                                "--size", str(traffic.tactile_size), "--at", f"{t0:.6f}"])
        cross_pps = load * traffic.rate_bps / CROSS_FRAME_BITS
        cross_tx = start(lab_, src, ["send", lab_.topology.hosts[dst][2], str(CROSS_PORT),
                                      "--pps", f"{cross_pps:.1f}", "--seconds",
                                      str(seconds - CROSS_START_S), "--size", str(CROSS_SIZE),
                                      "--at", f"{t0 + CROSS_START_S:.6f}"])
        sent = json.loads(tx.communicate(timeout=seconds + 60)[0])
        cross_sent = json.loads(cross_tx.communicate(timeout=seconds + 60)[0])
        time.sleep(1.0)  # what is queued drains (64 packets: 53 ms)
        for proc in (rx, cross_rx):
            proc.send_signal(signal.SIGTERM)
        got, cross_got = last_json(rx, 30), last_json(cross_rx, 30)
        seen = {path: sniffer.stop() for path, sniffer in sniffers.items()}
        left = sniffers["sender"].times
        after = lab_.rest.get(f"congestion/flows/{flow['id']}")
        arrivals = json.loads(pathlib.Path(tactile_file).read_text())
        cross_arrivals = json.loads(pathlib.Path(cross_file).read_text())
    finally:
        lab_.rest.delete(f"congestion/flows/{flow['id']}")
        shutil.rmtree(tmp, ignore_errors=True)
    return {"config": name_of(mode, x, m), "mode": mode, "load": load, "sent": sent["sent"],
            "late_ms": max(sent["late_ms"], cross_sent["late_ms"]),
            "received": got["received"], "reordered": got["reordered"],
            "duplicates": got["duplicates"], "arrivals": arrivals, "backup": seen["backup"],
            "left_ns": sorted(left.items()),
            "primary": seen["primary"],
            "cross_sent": cross_sent, "cross_received": cross_got["received"],
            "cross_start_ns": min((a[1] for a in cross_arrivals), default=None),
            "thresholds": after["thresholds"], "switch_overs": after["switchOvers"],
            "ordered": after.get("ordered"), "probes": after.get("probes"),
            "congested": congested, "load_average": os.getloadavg()[0],
            "switch_priority": lab_.switch_priority,
            "tactile_pps": traffic.tactile_pps, "rate_bps": traffic.rate_bps,
            "tactile_size": traffic.tactile_size}


def traffic_of(runs):
    """The Traffic the runs had (runs saved before it was recorded: the default)."""
    return Traffic(runs[0].get("tactile_pps", TACTILE_PPS), runs[0].get("rate_bps", RATE_BPS),
                   runs[0].get("tactile_size", TACTILE_SIZE))


def instant_ns(text):
    """An ISO-8601 instant as Java prints it (2026-11-25T22:19:03.123456789Z) in ns."""
    whole, _, frac = text.rstrip("Z").partition(".")
    base = datetime.datetime.fromisoformat(whole).replace(tzinfo=datetime.timezone.utc)
    return int(base.timestamp()) * 1_000_000_000 + int((frac + "000000000")[:9])


def congested_thresholds(run):
    """The congested switch's thresholds ({queueUs, procUs, m}), or None."""
    at = run.get("congested", CONGESTED)
    return next((t for t in run["thresholds"] if t["deviceId"] == at), None)


def queue_threshold_us(run):
    """t_q at the congested switch; Dataplane5's at s3 for a PROBING run
    (no thresholds), so that its detection is timed from the same packet."""
    limits = congested_thresholds(run)
    if limits is None:
        return REFERENCE_TQ_US if run["mode"] == "PROBING" else None
    return limits["queueUs"]


def in_switch_detection_ms(run, over_ns, start):
    """How long the congested switch took to declare congestion once its
    queue held the flow over t_q: from the first to the m-th of the first m
    consecutive tactile packets that left its queue over t_q, by their
    arrival times at hr (each one's time from that queue to hr is the idle
    path's, so the difference is the switch's). The switch counts what
    leaves its queue, so a packet it dropped does not break a run; one on
    time does. A proxy from the outside: a delay over t_q end to end may be
    made elsewhere (a stall of the machine); None when no m packets were
    over it in a row, or the run has no m."""
    limits = congested_thresholds(run)
    if limits is None:
        return None
    primary = sorted((a for a in run["arrivals"]
                      if a[1] >= start and a[0] not in run["backup"]), key=lambda a: a[0])
    first, count = None, 0
    for a in primary:
        if a[2] - a[1] < over_ns:
            first, count = None, 0
            continue
        first, count = first or a, count + 1
        if count == limits["m"]:
            return (a[2] - first[2]) / 1e6
    return None


def idle_delay_ns(run):
    """The median one-way delay before the cross traffic: this lab's own."""
    idle = [a[2] - a[1] for a in run["arrivals"] if a[1] < run["cross_start_ns"]]
    return statistics.median(idle) if idle else 0


def detection_ms(run):
    """For a data-plane run that switched over, from t_over, the send time
    of the first tactile packet sent after the cross traffic started whose
    one-way delay exceeds the idle one (idle_delay_ns) by s3's queuing
    threshold t_q (the first packet the congested switch can count, seen end
    to end), to:
      to_digest: the controller's record of the first switch-over (the time
        the host took s1's digest; it includes s3's notification to s1, the
        next tactile packet, which raises the digest, and the digest's trip);
      to_backup: the send time of the first packet that took the backup (the
        data plane's own reaction, seen on s4's port 1).
    And in_switch: the congested switch's own detection, from its queue
    holding the flow over t_q to its m-th such packet (in_switch_detection_ms).
    Also to_digest and to_backup from the cross traffic's first packet. None when the run has
    no thresholds or no cross traffic; to_digest None without a record
    (congestion.p4 can lose the digest: README).
    A stall of this loaded machine delays packets by tens of ms with no
    queue at all, so t_over can be such a stall just before the queue."""
    tq = queue_threshold_us(run)
    start = run["cross_start_ns"]
    if tq is None or start is None:
        return None
    base = idle_delay_ns(run)
    switched = instant_ns(run["switch_overs"][0]["time"]) if run["switch_overs"] else None
    after = [a for a in run["arrivals"] if a[1] >= start]
    t_over = min((a[1] for a in after if a[2] - a[1] - base >= tq * 1000), default=None)
    t_backup = min((a[1] for a in run["arrivals"] if a[0] in run["backup"]), default=None)
    if t_backup is not None and t_backup < start:
        # Moved before any cross traffic: a false positive (a stall of
        # the machine queued the flow), no detection to time.
        return {"false_positive": True, "to_digest": None, "to_backup": None,
                "in_switch": None, "from_cross_start": None, "backup_from_cross_start": None}

    def ms(t1, t0):
        return None if t1 is None or t0 is None else (t1 - t0) / 1e6
    in_switch = (in_switch_detection_ms(run, base + tq * 1000, start)
                 if t_backup is not None else None)
    return {"false_positive": False,
            "to_digest": ms(switched, t_over), "to_backup": ms(t_backup, t_over),
            "in_switch": in_switch, "from_cross_start": ms(switched, start),
            "backup_from_cross_start": ms(t_backup, start)}


def qos(run):
    """Loss (whole flow; where: on the primary, on the backup, or before
    either: at s1 or the sender), delay and jitter while the cross traffic
    runs, the idle delay before it, backup share and order."""
    start = run["cross_start_ns"] or 0
    seqs = {a[0] for a in run["arrivals"]}
    # A PROBING flow's probes cross the sniffed links on the flow's 5-tuple;
    # their payload reads as a sequence number past the flow's.
    run = dict(run, primary={s for s in run["primary"] if s < run["sent"]},
               backup={s for s in run["backup"] if s < run["sent"]})
    loaded = [(a[2] - a[1]) / 1e6 for a in run["arrivals"] if a[1] >= start]
    idle = [(a[2] - a[1]) / 1e6 for a in run["arrivals"] if a[1] < start]
    jitter = max((abs(b - a) for a, b in zip(loaded, loaded[1:])), default=0.0)
    lag, from_wire = sender_lag(run, start)
    return {"sender_lag_max": max(lag, default=None),
            "delay_max_from_wire": max(from_wire, default=None),
            "loss_pct": 100.0 * (run["sent"] - len(seqs)) / run["sent"],
            "lost_primary": len(run["primary"] - seqs), "lost_backup": len(run["backup"] - seqs),
            "lost_before": run["sent"] - len(seqs | run["primary"] | run["backup"]),
            "delay_avg": statistics.mean(loaded) if loaded else None,
            "delay_max": max(loaded, default=None), "jitter_max": jitter,
            "idle_delay_p50": statistics.median(idle) if idle else None,
            "idle_delay_max": max(idle, default=None),
            "backup_share": len(seqs & run["backup"]) / len(seqs) if seqs else 0.0,
            "reordered": run["reordered"] + run["duplicates"],
            "switchovers": len(run["switch_overs"])}


def sender_lag(run, start):
    """The sender's own lateness per packet (ms): from its send time stamp
    to the kernel's stamp of it on its link at s1 (a sender the scheduler
    held between the two adds that to the one-way delay), and the one-way
    delays under the cross traffic from that stamp instead. Empty for runs
    saved before the sender's link was sniffed."""
    left = dict(run.get("left_ns", ()))
    lag = [(left[a[0]] - a[1]) / 1e6 for a in run["arrivals"] if a[0] in left]
    from_wire = [(a[2] - left[a[0]]) / 1e6 for a in run["arrivals"]
                 if a[1] >= start and a[0] in left]
    return lag, from_wire


def emit_config(runs):
    """The JSON lines of one configuration at one load over its repeats."""
    first = runs[0]
    traffic = traffic_of(runs)
    tags = {"configuration": first["config"], "load": first["load"], "repeats": len(runs),
            "tactile_pps": traffic.tactile_pps}
    if first.get("switch_priority"):
        tags["switch_priority"] = first["switch_priority"]
    q = [qos(r) for r in runs]
    achieved = [r["cross_sent"]["sent"] * CROSS_FRAME_BITS / r["cross_sent"]["seconds"]
                / traffic.rate_bps for r in runs]
    tags["cross_load_achieved"] = round(statistics.mean(achieved), 3)
    tags["senders_late_ms_max"] = round(max(r.get("late_ms", 0) for r in runs), 1)
    emit("ca_loss_pct", round(statistics.mean(x["loss_pct"] for x in q), 3), "%", **tags,
         sent=sum(r["sent"] for r in runs),
         lost_on_primary=sum(x["lost_primary"] for x in q),
         lost_on_backup=sum(x["lost_backup"] for x in q),
         lost_before_either=sum(x["lost_before"] for x in q))
    emit("ca_delay_ms", round(statistics.mean(x["delay_avg"] for x in q), 3), "ms", stat="avg",
         **tags)
    emit("ca_delay_ms", round(max(x["delay_max"] for x in q), 3), "ms", stat="max", **tags)
    emit("ca_idle_delay_ms", round(max(x["idle_delay_max"] for x in q), 3), "ms", stat="max",
         **tags, p50=round(statistics.median(x["idle_delay_p50"] for x in q), 3),
         what="before the cross traffic: this machine's own delays, no queue")
    emit("ca_jitter_ms", round(max(x["jitter_max"] for x in q), 3), "ms", stat="max", **tags)
    lags = [x["sender_lag_max"] for x in q if x["sender_lag_max"] is not None]
    if lags:
        emit("ca_sender_lag_ms", round(max(lags), 3), "ms", stat="max", **tags,
             delay_max_from_wire_ms=round(max(x["delay_max_from_wire"] for x in q
                                              if x["delay_max_from_wire"] is not None), 3),
             what="the tactile sender's time stamp -> its packet on the wire at s1: "
                  "the sender's share of ca_delay_ms")
    emit("ca_backup_share", round(statistics.mean(x["backup_share"] for x in q), 3), "ratio",
         **tags)
    emit("ca_reordered", sum(x["reordered"] for x in q), "packets", **tags)
    emit("ca_switchovers", sum(x["switchovers"] for x in q), "count", **tags,
         what="switch-over digests the controller recorded")
    if first["mode"] in ("DATAPLANE", "ORDERED", "PROBING"):
        emit_detection(runs, tags)
    if first["mode"] == "PROBING":
        probes = [r["probes"] or {} for r in runs]
        emit("ca_probes", sum(p.get("sent", 0) for p in probes), "probes", **tags,
             lost=sum(p.get("lost", 0) for p in probes),
             late=sum(p.get("late", 0) for p in probes),
             what="probes sent; lost: not back within the interval; late: over the budget")
    return q


def emit_detection(runs, tags):
    """ca_detection_ms (to the controller's record) and
    ca_dataplane_switch_ms (to the first packet on the backup), mean and
    max over the runs that switched (see detection_ms)."""
    det = [d for d in map(detection_ms, runs) if d]
    tags = dict(tags, false_positives=sum(d["false_positive"] for d in det))
    measures = [("ca_detection_ms", "to_digest", "first over-threshold packet sent -> the "
                                                 "controller's switch-over record"),
                ("ca_dataplane_switch_ms", "to_backup", "first over-threshold packet sent -> "
                                                        "first packet sent on the backup")]
    if runs[0]["mode"] != "PROBING":
        measures.append(("ca_detection_in_switch_ms", "in_switch",
                         "the congested switch: first -> m-th consecutive packet out of its "
                         "queue over t_q (arrival times at hr)"))
    for metric, key, what in measures:
        if runs[0]["mode"] == "PROBING":
            # No data-plane move: the controller's write is the move.
            metric = metric.replace("ca_dataplane_switch_ms", "ca_reroute_ms")
        values = [d[key] for d in det if d[key] is not None]
        if not values:
            emit(metric, None, "ms", **tags, runs_detected=0,
                 what="no switch-over under the cross traffic (or no record of it)")
            continue
        since = {"to_digest": "from_cross_start", "to_backup": "backup_from_cross_start"}
        from_cross = [d[since[key]] for d in det if key in since and d[since[key]] is not None]
        extra = {"from_cross_start_ms": round(statistics.mean(from_cross), 2)} if from_cross else {}
        emit(metric, round(statistics.mean(values), 3), "ms", stat="mean", **tags,
             runs_detected=len(values), what=what, **extra)
        emit(metric, round(max(values), 3), "ms", stat="max", **tags, runs_detected=len(values))


def plot_delays(results, loads):
    """Delay over time per load and configuration (one run each)."""
    fig, axes = subplots(len(loads), 1, figsize=(8, 3 * len(loads)), squeeze=False)
    rate_bps = traffic_of(results[DEFAULT][loads[0]]).rate_bps  # DEFAULT always runs
    for ax, load in zip(axes[:, 0], loads):
        for config, by_load in results.items():
            run = by_load[load][0]
            t0 = run["arrivals"][0][1] if run["arrivals"] else 0
            style = ({"lw": 1.2} if config in (DEFAULT, "NoCC", ORDERED)
                     else {"lw": 0.8, "ls": "--"} if config.startswith("Probing")
                     else {"lw": 0.5, "alpha": 0.5})
            ax.plot([(a[1] - t0) / 1e9 for a in run["arrivals"]],
                    [(a[2] - a[1]) / 1e6 for a in run["arrivals"]], label=config, **style)
        ax.axvline(CROSS_START_S, color="k", ls=":", lw=0.8)
        # Up to 1.5 full queues: the machine's stalls (hundreds of ms) would
        # flatten what the queue does.
        ax.set_ylim(0, 1.5 * QUEUE_LEN * CROSS_FRAME_BITS / rate_bps * 1e3)
        ax.set_title(f"cross traffic {load:g} x port rate from {CROSS_START_S:g} s "
                     "(stalls above clipped)")
        ax.set_xlabel("send time (s)")
        ax.set_ylabel("one-way delay (ms)")
        ax.legend(fontsize=6, ncol=2)
    return save(fig, "congestion_delay")


def plot_qos(summary, loads):
    """Loss, average and maximum delay against load (the paper's Fig. 6)."""
    fig, axes = subplots(1, 3, figsize=(12, 3.5))
    for ax, key, label in zip(axes, ("loss_pct", "delay_avg", "delay_max"),
                              ("loss (%)", "average delay (ms)", "maximum delay (ms)")):
        for config, by_load in summary.items():
            ax.plot(loads, [statistics.mean(q[key] for q in by_load[load]) for load in loads],
                    "o-" if config in (DEFAULT, "NoCC", ORDERED)
                    else "s--" if config.startswith("Probing") else ".:", label=config)
        ax.set_xlabel("cross traffic / port rate")
        ax.set_ylabel(label)
    axes[0].legend(fontsize=6)
    return save(fig, "congestion_qos")


def run_all(configs, loads, seconds, repeats, lab_, traffic=DEFAULT_TRAFFIC):
    """{config: {load: [run]}}, every configuration at every load, repeated;
    each run on its own destination port, so none meets another's state."""
    results = {}
    dport = TACTILE_PORT
    for _ in range(repeats):
        for load in loads:
            for mode, x, m in configs:
                run = one_run(lab_, mode, x, m, load, seconds, dport, traffic=traffic)
                dport += 1
                results.setdefault(run["config"], {}).setdefault(load, []).append(run)
    return results


def run_s5(load, seconds, repeats, lab_, dport, traffic=DEFAULT_TRAFFIC):
    """{config: {load: [run]}} of the s5 case: the cross traffic through
    s5's port towards s7 only (S5_CROSS), Dataplane5_5 and NoCC."""
    results = {}
    for _ in range(repeats):
        for mode, x, m in S5_CONFIGS:
            run = one_run(lab_, mode, x, m, load, seconds, dport, cross=S5_CROSS,
                          congested=S5_CONGESTED, traffic=traffic)
            dport += 1
            results.setdefault(run["config"], {}).setdefault(load, []).append(run)
    return results


def emit_s5(results):
    """The s5 case's lines: per configuration its loss (ca_s5_loss_pct),
    and for the data plane the moves the controller recorded (each from
    s1's digest: s5 notified s3, which has no backup either and sent it on
    to s1) and the share of the flow the backup carried."""
    out = {}
    for config, by_load in results.items():
        for load, runs in by_load.items():
            q = [qos(r) for r in runs]
            tags = {"configuration": config, "load": load, "repeats": len(runs),
                    "congested": S5_CONGESTED}
            loss = statistics.mean(x["loss_pct"] for x in q)
            emit("ca_s5_loss_pct", round(loss, 3), "%", **tags,
                 lost_on_primary=sum(x["lost_primary"] for x in q),
                 lost_on_backup=sum(x["lost_backup"] for x in q),
                 delay_avg_ms=round(statistics.mean(x["delay_avg"] for x in q), 3),
                 delay_max_ms=round(max(x["delay_max"] for x in q), 3))
            moves = [s for r in runs for s in r["switch_overs"]]
            at_s1 = [s for s in moves if s["deviceId"] == device("s1")]
            if runs[0]["mode"] == "DATAPLANE":
                emit("ca_s5_notification_switchovers", len(at_s1), "count", **tags,
                     runs_moved_at_s1=sum(1 for r in runs if any(
                         s["deviceId"] == device("s1") for s in r["switch_overs"])),
                     other_switches=len(moves) - len(at_s1),
                     queue_us_reported=[s["queueUs"] for s in at_s1],
                     what="moves recorded from s1's digest: s5's notification relayed by s3")
                emit("ca_s5_backup_share",
                     round(statistics.mean(x["backup_share"] for x in q), 3), "ratio", **tags)
                emit_detection(runs, tags)
            out[config] = {"loss_pct": loss, "moves_at_s1": len(at_s1),
                           "backup_share": statistics.mean(x["backup_share"] for x in q)}
    return out


def save_runs(results, name="congestion_runs.json"):
    """Every run's raw record (arrivals, sniffed paths, switch-overs) in
    test/artifacts/congestion_runs.json (the s5 case's in
    congestion_s5_runs.json), to look into a figure later."""
    raw = {c: {str(load): [dict(r, backup=sorted(r["backup"]), primary=sorted(r["primary"]))
                           for r in runs] for load, runs in by_load.items()}
           for c, by_load in results.items()}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / name).write_text(json.dumps(raw))


def headline(results, summary, loads):
    """The summary lines for the default configuration at the highest load."""
    top = loads[-1]
    dp, nocc = summary[DEFAULT][top], summary.get("NoCC", {}).get(top, [])
    dp_loss = statistics.mean(q["loss_pct"] for q in dp)
    nocc_loss = statistics.mean(q["loss_pct"] for q in nocc) if nocc else None
    # The baselines measured at this load, by their highest maximum delay.
    baselines = {c: max(q["delay_max"] for q in summary[c][top])
                 for c in BASELINES if top in summary.get(c, {})}
    best = min(baselines, key=baselines.get) if baselines else None
    dets = [d for d in map(detection_ms, results[DEFAULT][top]) if d]
    det = [d["to_digest"] for d in dets if d["to_digest"] is not None]
    switch = [d["to_backup"] for d in dets if d["to_backup"] is not None]
    in_switch = [d["in_switch"] for d in dets if d["in_switch"] is not None]
    ratio = max(q["delay_max"] for q in dp) / baselines[best] if best else None
    reordered = sum(q["reordered"] for q in dp)
    tags = {"configuration": DEFAULT, "load": top,
            "load_average_max": round(max_load_average(results), 1)}
    emit("ca_dataplane_loss_pct", round(dp_loss, 3), "%", **tags, goal="0 where NoCC loses")
    emit("ca_nocc_loss_pct", None if nocc_loss is None else round(nocc_loss, 3), "%", **tags)
    if top in summary.get("Probing1s", {}):
        p1 = summary["Probing1s"][top]
        emit("ca_probing1s_loss_pct", round(statistics.mean(q["loss_pct"] for q in p1), 3), "%",
             **dict(tags, configuration="Probing1s"),
             lost_on_primary=sum(q["lost_primary"] for q in p1),
             probe_budget_us=PROBE_BUDGET_US)
    else:
        emit("ca_probing1s_loss_pct", None, "%", what="not run")
    emit("ca_dataplane_detection_ms_max", round(max(det), 2) if det else None, "ms", **tags,
         what="first over-threshold packet sent -> the controller's switch-over record")
    emit("ca_dataplane_detection_in_switch_ms_max",
         round(max(in_switch), 3) if in_switch else None, "ms", **tags, goal="<= 1",
         tactile_pps=traffic_of(results[DEFAULT][top]).tactile_pps,
         what="s3: first -> m-th consecutive packet out of its queue over t_q")
    emit("ca_dataplane_switch_ms_max", round(max(switch), 2) if switch else None, "ms", **tags,
         what="first over-threshold packet sent -> first packet sent on the backup")
    emit("ca_dataplane_lost_on_congested_path", sum(q["lost_primary"] for q in dp), "packets",
         **tags, nocc=sum(q["lost_primary"] for q in nocc) if nocc else None,
         baselines={c: sum(q["lost_primary"] for q in summary[c][top]) for c in baselines},
         what="sent on s1 -> s3 and never received")
    emit("ca_dataplane_max_delay_vs_best_baseline", None if ratio is None else round(ratio, 3),
         "ratio", **tags,
         baselines={c: round(v, 3) for c, v in baselines.items()}, best=best,
         dataplane_max_ms=round(max(q["delay_max"] for q in dp), 3), goal="< 1")
    emit("ca_dataplane_reordered", reordered, "packets", **tags)
    ordered = ordered_headline(results, summary, top, tags)
    return dp_loss, nocc_loss, in_switch, ratio, reordered, best, ordered


def ordered_headline(results, summary, top, tags):
    """ca_ordered_switchover_reordered: the default configuration with the
    merge buffer at the highest load, its maximum delay beside the
    default's and what released its holds (end markers, bound expiries)."""
    if ORDERED not in summary:
        emit("ca_ordered_switchover_reordered", None, "packets", configuration=ORDERED,
             what="not measured in this run")
        return None
    q, dp = summary[ORDERED][top], summary[DEFAULT][top]
    reordered = sum(x["reordered"] for x in q)
    states = [r["ordered"] or {} for r in results[ORDERED][top]]
    emit("ca_ordered_switchover_reordered", reordered, "packets",
         **dict(tags, configuration=ORDERED), goal="0 at every load",
         delay_max_ms=round(max(x["delay_max"] for x in q), 3),
         dataplane_delay_max_ms=round(max(x["delay_max"] for x in dp), 3),
         switchovers=sum(x["switchovers"] for x in q),
         markers_seen=sum(s.get("markersSeen", 0) for s in states),
         bound_expiries=sum(s.get("boundExpiries", 0) for s in states))
    return reordered


def max_load_average(results):
    """The highest 1-minute load average seen at the end of a run (runs
    saved before it was recorded: now)."""
    return max(r.get("load_average", os.getloadavg()[0])
               for by_load in results.values() for runs in by_load.values() for r in runs)


def load_runs(path):
    """The runs save_runs wrote, as run_all returns them."""
    raw = json.loads(pathlib.Path(path).read_text())
    return {c: {float(load): [dict(r, backup=set(r["backup"]), primary=set(r["primary"]))
                              for r in runs] for load, runs in by_load.items()}
            for c, by_load in raw.items()}


def s5_text(s5_out):
    """The s5 case in the closing line."""
    if DEFAULT not in s5_out:
        return "s5 case not run"
    dp, nocc = s5_out[DEFAULT], s5_out.get("NoCC", {})
    moved = dp["moves_at_s1"] > 0
    return (f"congestion on s5: {'moved at s1' if moved else 'NOT moved at s1 (MISSED)'} "
            f"({dp['moves_at_s1']} recorded), loss {dp['loss_pct']:.2f} % vs NoCC "
            f"{nocc.get('loss_pct', float('nan')):.2f} %")


def chosen(configs, names, parser):
    """The configurations named (comma-separated), the default among them."""
    if not names:
        return configs
    wanted = set(names.split(",")) | {DEFAULT}
    unknown = wanted - {name_of(*c) for c in configs}
    if unknown:
        parser.error(f"--configs: no configuration {', '.join(sorted(unknown))} in this run")
    return [c for c in configs if name_of(*c) in wanted]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--prefix", default="fcs-", help="the lab's namespace prefix")
    parser.add_argument("--rest-port", type=int, default=8221)
    parser.add_argument("--p4rt-base", type=int, default=28601,
                        help="first P4Runtime port (7 switches, then 7 buffer API ports)")
    parser.add_argument("--from-runs", metavar="JSON",
                        help="report on the runs a previous run saved "
                             "(test/artifacts/congestion_runs.json, and congestion_s5_runs.json "
                             "beside it) instead of running the lab")
    parser.add_argument("--no-s5", action="store_true", help="skip the congestion-on-s5 case")
    parser.add_argument("--tactile-pps", type=int, default=TACTILE_PPS,
                        help="the tactile flow's packets/s (the paper's: 8000)")
    parser.add_argument("--tactile-size", type=int, default=TACTILE_SIZE,
                        help="its UDP payload bytes (at least 16: sequence number and time)")
    parser.add_argument("--rate-mbps", type=float, default=RATE_BPS / 1e6,
                        help="every inter-switch port's rate")
    parser.add_argument("--switch-priority", type=int, metavar="N",
                        help="run the switches under SCHED_RR priority N (1..99): without "
                             "this machine's scheduling stalls, to tell them from the design's")
    parser.add_argument("--configs", metavar="NAME,...",
                        help=f"only these configurations (names as in the output; {DEFAULT} "
                             "is always run: the summary is about it)")
    args = parser.parse_args(argv)
    configs = chosen(QUICK_CONFIGS if args.quick else FULL_CONFIGS, args.configs, parser)
    if args.switch_priority is not None and not 1 <= args.switch_priority <= 99:
        parser.error("--switch-priority is 1..99")
    if args.tactile_size < 16 or args.tactile_pps <= 0 or args.rate_mbps <= 0:
        parser.error("--tactile-size is at least 16 bytes; --tactile-pps and --rate-mbps "
                     "are positive")
    traffic = Traffic(args.tactile_pps, int(args.rate_mbps * 1e6), args.tactile_size)
    loads = [1.5] if args.quick else [0.5, 1.0, 1.5]
    seconds = 6 if args.quick else 15
    s5 = {}
    if args.from_runs:
        results = load_runs(args.from_runs)
        loads = sorted(next(iter(results.values())))
        s5_file = pathlib.Path(args.from_runs).with_name("congestion_s5_runs.json")
        if not args.no_s5 and s5_file.exists():
            s5 = load_runs(s5_file)
    else:
        with lab(args.prefix, args.rest_port, args.p4rt_base, traffic.rate_bps,
                 args.switch_priority) as lab_:
            results = run_all(configs, loads, seconds, args.repeats, lab_, traffic)
            if not args.no_s5:
                s5 = run_s5(loads[-1], seconds, args.repeats, lab_, TACTILE_PORT + 500, traffic)
        save_runs(results)
        if s5:
            save_runs(s5, "congestion_s5_runs.json")
    summary = {c: {load: emit_config(runs) for load, runs in by_load.items()}
               for c, by_load in results.items()}
    dp_loss, nocc_loss, det, ratio, reordered, best, ordered = headline(results, summary, loads)
    s5_out = emit_s5(s5) if s5 else {}
    paths = [plot_delays(results, loads), plot_qos(summary, loads)]
    det_max = max(det) if det else None
    traffic = traffic_of(results[DEFAULT][loads[-1]])
    nocc_text = "not run" if nocc_loss is None else f"{nocc_loss:.2f} %"
    ratio_text = ("no baseline run" if ratio is None else
                  f"{ratio:.2f}x {best}'s, the best baseline's (goal < 1: "
                  f"{'met' if ratio < 1 else 'MISSED'})")
    print(f"scenario congestion ({DEFAULT}, {traffic.tactile_pps} tactile packets/s, cross "
          f"traffic {loads[-1]:g}x the {traffic.rate_bps / 1e6:g} Mbit/s port rate, "
          f"load average up to {max_load_average(results):.1f}): loss {dp_loss:.2f} % vs NoCC "
          f"{nocc_text} (goal 0: "
          f"{'met' if nocc_loss is not None and dp_loss == 0 < nocc_loss else 'MISSED'}), "
          f"detection in s3 max {det_max if det_max is None else round(det_max, 3)} ms (goal 1: "
          f"{'met' if det_max is not None and det_max <= 1 else 'MISSED'}), max delay "
          f"{ratio_text}, {reordered} reordered, {ordered} with the "
          f"merge buffer (goal 0: {'met' if ordered == 0 else 'MISSED'}); {s5_text(s5_out)}; plots "
          f"{', '.join(str(p.relative_to(ROOT)) for p in paths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
