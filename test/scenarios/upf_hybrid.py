# SPDX-License-Identifier: Apache-2.0
"""Scenario: the hybrid UPF against an x86-only and a switch-only UPF
(hybrid P4 UPF, sections 5.3-5.4 and 6.1, Fig. 7-9).

One lab (test/upf/hybridlab.py: fast path s1, slow path s2, both pbswitch
on this machine's two cores, one embedded host) and one trace
(test/upf/hybrid_trace.py: UES UEs, Zipf s = 1.4 packet shares, the
heaviest HH_FRACTION of them the heavy hitters), replayed at the same
offered rate (PPS) in every configuration:

  switch_only  s1 alone with FAST_TABLE sessions (UEs drawn at random among
               those with traffic, as a small table fills in attach order);
               every other UE's packets miss and are dropped (counted)
  x86_only     every session on s2, detection off: every packet takes the
               slow path (s1 passes it on as it came)
  hybrid       every session on s2, s1 detects heavy hitters (hh.p4) and the
               placement promotes them to its FAST_TABLE-session budget

Here both paths are the same software switch, so the paper's hardware gap
does not exist by itself: the shaped runs give the slow path a third of the
offered rate (Fig. 7: the x86 UPF at about a third of the switch), by
shaping s2's port back to s1 (pbswitch's port rate); the unshaped runs
show what the extra hop costs on its own. Runs: switch_only, x86_only and
hybrid on a shaped lab, then x86_only and hybrid on an unshaped one (the
same trace).

Metrics (JSON lines; each run's own figures too):
  hybrid_vs_x86_only_throughput    delivered packets/s of the trace, shaped
                                   runs (and unshaped), goal >= 1.5
  hybrid_ue_scale_vs_switch_only   UEs with traffic whose every packet came,
                                   hybrid over switch-only (unshaped runs:
                                   the metric is about table room; the shaped
                                   hybrid's count is in its conditions)
  hybrid_fast_path_byte_share      1 - bytes s1 sent to the slow path / bytes
                                   it got from the data network (kernel link
                                   counters), shaped hybrid run, goal >= 0.8
  hh_detection_ms_p50/_p99         a heavy hitter's first packet sent ->
                                   its digest received by the controller
  hh_promotion_ms_p50/_p99         the digest received -> the UE's session
                                   active on the fast path (its Write
                                   acknowledged: the placement's lastActiveUs
                                   of its first promotion)
  hh_promotion_released_ms_p50/_p99  the digest received -> its held packets
                                   released (lastMoveUs: after the end
                                   marker's trip through the slow path); the
                                   steps' p50s (host log) in its conditions
  hh_first_packet_to_active_ms_p50/_p99  an HH's first packet sent -> its
                                   session active on the fast path
                                   (detection + promotion)
  hh_detection_false_positive_rate non-HH UEs reported / non-HH UEs with traffic
  hh_detection_missed              HH UEs never reported (the threshold sits
                                   DETECTION_MARGIN above the HH boundary)
  hybrid_promotion_lost/_reordered packets of UEs that moved (unshaped run:
                                   the shaped run's slow path drops by design)
  latency_us_p50/_p99              one-way, per run and class (hh, non_hh)
A figure that cannot be physically true (more received than sent, traffic
through a path that has no session for it, a shaped path faster than its
shaper) fails the run. Plot: test/artifacts/upf_hybrid.png.

Run as root:  .venv/bin/python -m test.scenarios.upf_hybrid [--quick]
Own lab: prefix fhs-, REST 8234, P4Runtime 28931-28932, buffer API 28941.
"""
import argparse
import datetime
import json
import math
import os
import random
import re
import subprocess
import sys
import threading
import time

from test.lab.procs import wait_until
from test.lab.servicelab import ROOT, RestError, ensure_built
from test.scenarios.report import emit, save, subplots
from test.upf import hybrid_trace
from test.upf.hybridlab import DN_PORT, FAST, N3_ADDR, SLOW, SLOW_PORT, HybridLab, ip_of, mac_of

PYTHON = str(ROOT / ".venv" / "bin" / "python")
REST_PORT, P4RT_BASE, AGENT_BASE = 8234, 28931, 28941
UES, HH_FRACTION = 1000, 0.05
# The switch's table in this lab: 4 % of the UEs (the UE-scale metric at
# 1,000 UEs instead of the upf-fast profile's 4,096 sessions: a lab of
# 18 x 4,096 UEs would not fit this machine's two cores).
FAST_TABLE = 40
PAYLOAD_BYTES = 100
FRAME_BYTES = 14 + 20 + 8 + PAYLOAD_BYTES          # as the data network sends it
# pbswitch's traffic manager (between ingress and egress, as BMv2's) charges
# its port rate with the frame as it came in, before the deparser writes the
# GTP-U headers: the slow path's rate is counted in FRAME_BYTES frames.
SHAPED_FRAME_BYTES = FRAME_BYTES
# A shaped slow path holds ~100 ms of its rate, then drops (an x86 UPF's
# rings are short): pbswitch's default 4,096 packets would queue seconds,
# longer than the placement waits for its end marker (1 s).
SLOW_QUEUE_SECONDS = 0.1
SLOW_SHARE = 1 / 3                                 # Fig. 7: UPF-x86 ~ a third of UPF-Tofino
FULL = {"pps": 3000, "seconds": 30}
QUICK = {"pps": 2000, "seconds": 12}
# The detector's threshold rate, over the geometric mean of the last HH's and
# the first non-HH's rates. The trace's UEs send at random (Poisson) times,
# and an EWMA of weight 1/8 over their gaps wanders by about +-26 % (one
# standard deviation): with the threshold at the boundary itself, non-HH
# UEs just under it dip below it within seconds (11 of 700 in a quick run:
# all of the ranks 51-79, none a hash collision - the same UEs in a replay
# of the P4's arithmetic over the trace). Twice the boundary rate keeps
# them out; the HHs under it (the lightest few, ~3 packets/s, under 1 % of
# the bytes each) go undetected: hh_detection_missed counts them.
DETECTION_MARGIN = 2.0
# Demotion after whole windows under the HH rate: 4 s of 1 s windows (a
# boundary HH sends a few packets a second).
DEMOTE_IDLE_MS, WINDOW_MS = 4000, 1000
# Buffers s1 keeps made ahead (netcfg readyBuffers): a promotion's hold
# takes one instead of asking the buffer agent for a new one on its way.
READY_BUFFERS = 8
RUNS = (("switch_only", True), ("x86_only", True), ("hybrid", True),
        ("x86_only", False), ("hybrid", False))


class Impossible(RuntimeError):
    """A figure that cannot be physically true: the run fails."""


def make_trace(pps, seconds):
    trace = hybrid_trace.generate(UES, int(pps * seconds), seed=1)
    counts = [0] * UES
    for i in trace["order"]:
        counts[i] += 1
    trace["counts"] = counts
    return trace


def hh_count():
    return max(1, round(HH_FRACTION * UES))


def hh_settings(trace, pps, enabled):
    """The detector's threshold DETECTION_MARGIN above the boundary between
    the last HH's rate and the first non-HH's (UEs are in weight order), in
    bit/s of FRAME_BYTES packets."""
    w, hh = trace["weights"], hh_count()
    threshold_pps = math.sqrt(w[hh - 1] * w[hh]) * pps * DETECTION_MARGIN
    gap_ms = 1000.0 / threshold_pps
    return {"enabled": enabled, "rateBps": max(1000, int(threshold_pps * FRAME_BYTES * 8)),
            "packetBytes": FRAME_BYTES, "idleMs": int(max(2000, 10 * gap_ms))}


def placement_settings():
    return {"fastDevice": FAST, "slowDevice": SLOW, "slowPort": SLOW_PORT, "dnPort": DN_PORT,
            "fastTableBudget": FAST_TABLE, "demoteIdleMs": DEMOTE_IDLE_MS, "windowMs": WINDOW_MS}


def session(ue, index, device):
    teid = 0x100 + index
    return {"deviceId": device, "ueAddress": ue, "n3Address": N3_ADDR, "uplinkTeid": teid,
            "gnbAddress": ip_of("gnb"), "downlinkTeid": teid, "qfi": 9}


def install_sessions(lab, ues, device):
    indexed = list(ues)
    for start in range(0, len(indexed), 500):
        lab.rest.post("upf/sessions/batch", {"sessions": [
            session(ue, i, device) for i, ue in indexed[start:start + 500]]})


def remove_sessions(lab, ues, device):
    for _, ue in ues:
        lab.rest.delete(f"upf/sessions/{ue}?deviceId={device}")


def switch_only_table(trace):
    """FAST_TABLE UEs with traffic, drawn at random (attach order, not rate)."""
    with_traffic = [i for i, c in enumerate(trace["counts"]) if c]
    return sorted(random.Random(2).sample(with_traffic, FAST_TABLE))


class PlacementWatch:
    """Polls the placement while a run goes: each UE's first promotion's
    lastMoveUs and lastActiveUs (caught while it is the UE's last move)."""

    def __init__(self, lab, before):
        self.lab, self.before = lab, before
        self.promotion_us = {}
        self.active_us = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self):
        while not self.stop.wait(0.25):
            self.sample()

    def sample(self):
        for p in self.lab.rest.get("upf/placement")["placements"]:
            old = self.before.get(p["ueAddress"], {"promotions": 0, "demotions": 0})
            first = (p["promotions"] - old["promotions"] == 1
                     and p["demotions"] == old["demotions"])
            if first and p["path"] == "FAST" and not p["moving"] and p["lastMoveUs"] > 0:
                self.promotion_us.setdefault(p["ueAddress"], p["lastMoveUs"])
                self.active_us.setdefault(p["ueAddress"], p["lastActiveUs"])

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def placements(lab):
    return {p["ueAddress"]: p for p in lab.rest.get("upf/placement")["placements"]}


def replay(lab, trace_path, pps):
    """Receiver in the gNodeB, the trace from the data network; both JSON."""
    recv = subprocess.Popen(lab.hosts["gnb"].popen_argv(
        [PYTHON, "-m", "test.upf.hybrid_trace", "receive", "--ues", str(UES),
         "--hh", str(hh_count()), "--idle", "4"]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        if recv.stdout.readline().strip() != "ready":
            raise RuntimeError("the receiver did not start")
        send = subprocess.Popen(lab.hosts["dn"].popen_argv(
            [PYTHON, "-m", "test.upf.hybrid_trace", "replay", trace_path, "eth0", "--pps",
             str(pps), "--src-mac", mac_of("dn"), "--dst-mac", mac_of("gnb"), "--src-ip",
             ip_of("dn"), "--size", str(PAYLOAD_BYTES), "--per-ue"]),
            stdout=subprocess.PIPE, text=True, cwd=ROOT)
        return send, recv
    except Exception:
        recv.kill()
        raise


def heavy_hitter_reports(lab, since_wall):
    """The fast path's digests the controller received since since_wall."""
    out = []
    for h in lab.rest.get("upf/heavy-hitters")["heavyHitters"]:
        at = datetime.datetime.fromisoformat(h["reportedAt"].replace("Z", "+00:00")).timestamp()
        if h["deviceId"] == FAST and at >= since_wall:
            out.append({"ue": h["ueAddress"], "at": at})
    return out


STEP_LINE = re.compile(r"(\S+) promoted: (?:digest in flight (-?\d+) us, )?begun (-?\d+) us, "
                       r"held (-?\d+) us, written \(active\) (-?\d+) us, marker sent (-?\d+) us, "
                       r"marker back (-?\d+) us, released (-?\d+) us")
# Each step's time since the digest came: in flight (before it: the
# digest's making on the switch, P4Runtime's DigestList timestamp, to its
# arrival), begun (the wait behind other reports, an eviction), held (the
# hold: a buffer and its steering rule), written (the sessions' Write
# acknowledged: active on the fast path), the end marker sent, back from
# the slow path, the held packets released.
STEPS = ("in_flight", "begun", "held", "written", "marker_sent", "marker_back", "released")


def promotion_steps(log_path, offset):
    """The placement's per-promotion step times (us since the digest) logged
    after offset: {step: [us]} (the host logs one line per promotion), and
    "from_emission": the digest's making -> the session active, per
    promotion whose digest carried its making's time."""
    steps = {k: [] for k in STEPS + ("from_emission",)}
    with open(log_path, errors="replace") as f:
        f.seek(offset)
        for line in f:
            m = STEP_LINE.search(line)
            if m:
                values = dict(zip(STEPS, (int(v) if v is not None else -1
                                          for v in m.groups()[1:])))
                for k, v in values.items():
                    if v >= 0:
                        steps[k].append(v)
                if values["in_flight"] >= 0 and values["written"] >= 0:
                    steps["from_emission"].append(values["in_flight"] + values["written"])
    return steps


def host_log(lab):
    return f"{lab.logs}/host.log"


def run(lab, trace, trace_path, pps, config, shaped):
    """One configuration: returns what was sent, received and moved."""
    lab.rest.call("PUT", "upf/heavy-hitters/settings",
                  hh_settings(trace, pps, enabled=config == "hybrid"))
    before = placements(lab)
    log_offset = os.path.getsize(host_log(lab))
    links = lab.link_bytes()
    start_wall = time.time()
    send, recv = replay(lab, trace_path, pps)
    with PlacementWatch(lab, before) as watch:
        sent = json.loads(send.communicate(timeout=3 * len(trace["order"]) / pps + 60)[0])
        got = json.loads(recv.communicate(timeout=120)[0].strip().splitlines()[-1])
    watch.sample()
    after = placements(lab)
    links_after = lab.link_bytes()
    moved = sorted(ue for ue, p in after.items()
                   if p["promotions"] + p["demotions"]
                   > sum(before.get(ue, {}).get(k, 0) for k in ("promotions", "demotions")))
    return {"config": config, "shaped": shaped, "sent": sent, "got": got,
            "slow_queue_len": lab.slow_queue_len,
            "bytes": {k: links_after[k] - links[k] for k in links},
            "reports": heavy_hitter_reports(lab, start_wall) if config == "hybrid" else [],
            "promotion_us": watch.promotion_us, "active_us": watch.active_us, "moved": moved,
            "steps_us": promotion_steps(host_log(lab), log_offset),
            "promotions": sum(after[u]["promotions"] - before.get(u, {}).get("promotions", 0)
                              for u in moved),
            "slow_rate_bps": lab.slow_rate_bps}


def settle(lab):
    """Detection off, and every promoted UE back on the slow path."""
    lab.rest.call("PUT", "upf/heavy-hitters/settings", {"enabled": False})
    wait_until(lambda: all(p["path"] == "SLOW" and not p["moving"]
                           for p in placements(lab).values()),
               timeout=DEMOTE_IDLE_MS / 1000 * 3 + 30, step=0.5, what="every UE demoted")


# --- figures -----------------------------------------------------------------

def percentile(values, q):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100.0 * len(ordered)) - 1)] if ordered else None


def check_physical(r, trace, table=None):
    """Fails the run on a figure that cannot be true."""
    sent, got = r["sent"]["per_ue"], r["got"]["received"]
    if sent != trace["counts"]:
        raise Impossible(f"{r['config']}: the sender sent another trace than generated")
    over = [i for i in range(UES) if got[i] > sent[i]]
    if over:
        raise Impossible(f"{r['config']}: UEs {over[:5]} received more than was sent")
    if table is not None:
        leaked = [i for i in range(UES) if i not in table and got[i]]
        if leaked:
            raise Impossible(f"switch_only: UEs {leaked[:5]} without a session were delivered")
    b = r["bytes"]
    if b["to_slow"] > b["dn_in"] * 1.01 + 10_000:
        raise Impossible(f"{r['config']}: more bytes to the slow path than came in: {b}")
    if r["config"] == "x86_only" and b["to_slow"] < b["dn_in"] * 0.99:
        raise Impossible(f"x86_only: {b} - packets skipped the slow path")
    if r["config"] == "x86_only" and r["shaped"]:
        cap_pps = r["slow_rate_bps"] / (SHAPED_FRAME_BYTES * 8)
        burst = 9216 / SHAPED_FRAME_BYTES  # pbswitch's shaper: a burst of 10 ms, at least 9,216 B
        if sum(got) > cap_pps * (r["got"]["seconds"] + 0.1) * 1.05 + burst:
            raise Impossible(f"x86_only: {sum(got)} packets through a slow path shaped to "
                             f"{cap_pps:.0f} pps in {r['got']['seconds']:.1f} s")


def delivered_pps(r):
    """Packets received over the receiver's span (first to last packet): a
    queue that drains after the sender stopped does not count as rate."""
    return sum(r["got"]["received"]) / max(r["got"]["seconds"], r["sent"]["seconds"])


def served(r, candidates):
    """UEs with traffic whose every packet came, once."""
    sent, got = r["sent"]["per_ue"], r["got"]["received"]
    return sum(1 for i in candidates if sent[i] and got[i] == sent[i])


def report(runs, trace, table, pps, seconds, conditions):
    by = {(r["config"], r["shaped"]): r for r in runs}
    hh = hh_count()
    with_traffic = [i for i, c in enumerate(trace["counts"]) if c]
    base = {**conditions, "offered_pps": pps, "trace_seconds": seconds, "ues": UES,
            "ues_with_traffic": len(with_traffic), "hh_ues": hh, "fast_table": FAST_TABLE}
    slow_cap = round(pps * SLOW_SHARE)
    for r in runs:
        tag = {"config": r["config"], "slow_path": f"shaped to {slow_cap} pps" if r["shaped"]
               and r["config"] != "switch_only" else "unshaped"}
        emit("delivered_pps", round(delivered_pps(r)), "packets/s", **tag, **base,
             sent=r["sent"]["sent"], received=sum(r["got"]["received"]),
             sender_pps=round(r["sent"]["pps"]))
        for cls in ("hh", "non_hh"):
            lat = r["got"]["latency_us"][cls]
            if lat:
                for q in (50, 99):
                    emit(f"latency_us_p{q}", round(percentile(lat, q)), "us", **tag,
                         ue_class=cls, packets=len(lat), **base)
    ratios = {}
    for shaped in (True, False):
        ratio = delivered_pps(by[("hybrid", shaped)]) / delivered_pps(by[("x86_only", shaped)])
        ratios[shaped] = ratio
        emit("hybrid_vs_x86_only_throughput", round(ratio, 2), "ratio", goal=">= 1.5",
             slow_path=(f"shaped to a third of the offered rate ({slow_cap} pps of "
                        f"{SHAPED_FRAME_BYTES} B frames, s2's port rate, queue "
                        f"{by[('x86_only', True)]['slow_queue_len']} packets), the paper's "
                        "capacity ratio"
                        if shaped else "unshaped (the cost of the extra hop)"), **base)
    scale_switch = served(by[("switch_only", True)], table)
    if scale_switch > FAST_TABLE:
        raise Impossible(f"switch_only served {scale_switch} UEs with {FAST_TABLE} sessions")
    scale_hybrid = served(by[("hybrid", False)], with_traffic)
    scale = scale_hybrid / scale_switch if scale_switch else float("inf")
    dropped = sum(c for i, c in enumerate(trace["counts"]) if i not in table)
    emit("hybrid_ue_scale_vs_switch_only", round(scale, 2), "ratio", goal=">= 18",
         hybrid_ues_served=scale_hybrid, switch_only_ues_served=scale_switch,
         shaped_hybrid_ues_served=served(by[("hybrid", True)], with_traffic),
         switch_only_dropped_packets=dropped,
         scaling=f"fast table {FAST_TABLE} sessions for {UES} UEs (the upf-fast profile "
                 f"holds 4,096; the ratio is UEs served per table room)", **base)
    hybrid = by[("hybrid", True)]
    b = hybrid["bytes"]
    share = 1 - b["to_slow"] / b["dn_in"]
    emit("hybrid_fast_path_byte_share", round(share, 3), "fraction", goal=">= 0.8",
         bytes_in=b["dn_in"], bytes_to_slow_path=b["to_slow"],
         trace_hh_packet_share=round(hybrid_trace.stats(trace, HH_FRACTION)["hh_packet_share"], 3),
         **base)
    promotion_figures(runs, trace, base)
    loss_figures(by[("hybrid", False)], by[("hybrid", True)], trace, base)
    path = plot(runs, slow_cap)
    print(f"upf_hybrid: delivered hybrid/x86-only {ratios[True]:.2f}x shaped (goal >= 1.5), "
          f"{ratios[False]:.2f}x unshaped; UE scale {scale:.1f}x switch-only (goal >= 18, "
          f"{FAST_TABLE}-session table); fast-path byte share {share:.2f} (goal >= 0.8); "
          f"{pps} pps offered, slow path shaped to {slow_cap} pps; plot {path}", flush=True)


def promotion_figures(runs, trace, base):
    hh_ues = set(trace["ues"][:hh_count()])
    non_hh_with_traffic = {trace["ues"][i] for i, c in enumerate(trace["counts"])
                           if c and i >= hh_count()}
    for r in (x for x in runs if x["config"] == "hybrid"):
        run_tag = {"slow_path": "shaped" if r["shaped"] else "unshaped"}
        first_wall = r["sent"]["first_wall_ns"]
        first_report = {}
        for rep in r["reports"]:
            first_report.setdefault(rep["ue"], rep["at"])
        detection, false_pos = [], set()
        for ue, at in first_report.items():
            if ue in hh_ues:
                delay_ms = (at - first_wall[trace["ues"].index(ue)] / 1e9) * 1000
                if delay_ms < 0:
                    raise Impossible(f"{ue} reported {-delay_ms:.1f} ms before its first packet")
                detection.append(delay_ms)
            elif ue in non_hh_with_traffic:
                false_pos.add(ue)
        active = [us / 1000.0 for ue, us in r["active_us"].items() if ue in hh_ues]
        released = [us / 1000.0 for ue, us in r["promotion_us"].items() if ue in hh_ues]
        first_to_active = [
            (first_report[ue] - first_wall[trace["ues"].index(ue)] / 1e9) * 1000
            + r["active_us"][ue] / 1000.0
            for ue in r["active_us"] if ue in hh_ues and ue in first_report]
        steps = {f"{k}_us_p50": percentile(v, 50) for k, v in r["steps_us"].items()
                 if v and k != "from_emission"}
        from_emission = [us / 1000.0 for us in r["steps_us"]["from_emission"]]
        for name, values, what, goal in (
                ("hh_detection_ms", detection, "an HH's first packet sent -> its digest received",
                 None),
                ("hh_promotion_ms", active, "digest received -> session active on the fast path "
                                            "(its Write acknowledged: lastActiveUs of the first "
                                            "promotion)", ("<= 5", "<= 20")),
                ("hh_promotion_released_ms", released,
                 "digest received -> its held packets released (lastMoveUs of the first "
                 "promotion: after the end marker's trip through the slow path)", None),
                ("hh_promotion_from_emission_ms", from_emission,
                 "digest made by the switch (P4Runtime DigestList timestamp) -> session active "
                 "on the fast path (host log; every promotion, not only the first)", None),
                ("hh_first_packet_to_active_ms", first_to_active,
                 "an HH's first packet sent -> its session active on the fast path "
                 "(detection + promotion)", None)):
            for i, q in enumerate((50, 99)):
                if values:
                    extra = {"goal": goal[i]} if goal else {}
                    if name == "hh_promotion_released_ms":
                        extra["steps_since_digest"] = steps
                    emit(f"{name}_p{q}", round(percentile(values, q), 2), "ms", what=what,
                         samples=len(values), **run_tag, **extra, **base)
        hh_with_traffic = {ue for ue in hh_ues if r["sent"]["per_ue"][trace["ues"].index(ue)]}
        missed = hh_with_traffic - set(first_report)
        emit("hh_detection_missed", len(missed), "UEs", hh_ues_with_traffic=len(hh_with_traffic),
             missed_packet_share=round(sum(r["sent"]["per_ue"][trace["ues"].index(ue)]
                                           for ue in missed) / r["sent"]["sent"], 4),
             detection_margin=DETECTION_MARGIN, **run_tag, **base)
        rate = len(false_pos) / len(non_hh_with_traffic)
        emit("hh_detection_false_positive_rate", round(rate, 4), "fraction", goal="<= 0.01",
             non_hh_reported=len(false_pos),
             non_hh_ues_with_traffic=len(non_hh_with_traffic),
             hh_reported=len(set(first_report) & hh_ues), **run_tag, **base)


def loss_figures(unshaped, shaped, trace, base):
    for r, which in ((unshaped, "unshaped"), (shaped, "shaped")):
        idx = [trace["ues"].index(ue) for ue in r["moved"]]
        lost = sum(r["sent"]["per_ue"][i] - r["got"]["received"][i] for i in idx)
        reordered = sum(r["got"]["reordered"][i] for i in idx)
        dup = sum(r["got"]["duplicates"][i] for i in idx)
        extra = {"goal": "0"} if which == "unshaped" else {
            "note": "the shaped slow path drops what exceeds it before a UE is promoted"}
        for metric, value in (("hybrid_promotion_lost", lost),
                              ("hybrid_promotion_reordered", reordered)):
            emit(metric if which == "unshaped" else metric + "_shaped", value, "packets",
                 moved_ues=len(idx), promotions=r["promotions"], duplicates=dup,
                 packets_of_moved_ues=sum(r["sent"]["per_ue"][i] for i in idx), **extra, **base)


def plot(runs, slow_cap):
    fig, (ax1, ax2) = subplots(1, 2, figsize=(11, 4))
    labels = [f"{r['config']}\n" + ("shaped" if r["shaped"] and r["config"] != "switch_only"
                                     else "unshaped") for r in runs]
    ax1.bar(range(len(runs)), [delivered_pps(r) for r in runs])
    ax1.set_xticks(range(len(runs)))
    ax1.set_xticklabels(labels, fontsize=8)
    ax1.set_ylabel("delivered packets/s")
    ax1.set_title(f"same trace, same offered rate (slow path shaped: {slow_cap} pps)")
    for r in runs:
        if r["config"] == "hybrid" or (r["config"] == "x86_only" and r["shaped"]):
            for cls, style in (("hh", "-"), ("non_hh", "--")):
                xs = sorted(r["got"]["latency_us"][cls])
                if xs:
                    ax2.step([x / 1000 for x in xs], [(i + 1) / len(xs) for i in range(len(xs))],
                             style, where="post",
                             label=f"{r['config']} {'shaped' if r['shaped'] else 'unshaped'} {cls}")
    ax2.set_xscale("log")
    ax2.set_xlabel("one-way latency (ms)")
    ax2.set_ylabel("CDF")
    ax2.set_title("HH vs non-HH latency (Fig. 9)")
    ax2.legend(fontsize=7)
    return save(fig, "upf_hybrid")


# --- the run -----------------------------------------------------------------

def run_configs(pps, seconds, configs=RUNS):
    """Replays one trace in each (config, shaped) of configs: the shaped
    ones on a lab whose slow path is shaped, then the unshaped ones on a
    fresh lab (pbswitch shapes a port from its start); returns (trace,
    switch_only's table, [run]), each run checked physically."""
    trace = make_trace(pps, seconds)
    table = switch_only_table(trace)
    runs = []
    for shaped in (True, False):
        todo = [config for config, s in configs if s == shaped]
        if todo:
            rate = pps * SLOW_SHARE * SHAPED_FRAME_BYTES * 8 if shaped else 0
            queue = max(16, int(pps * SLOW_SHARE * SLOW_QUEUE_SECONDS)) if shaped else 0
            runs += run_on_lab(trace, table, pps, todo, shaped, rate, queue)
    return trace, table, runs


def run_on_lab(trace, table, pps, todo, shaped, slow_rate_bps, slow_queue_len):
    runs = []
    with HybridLab(prefix="fhs-", rest_port=REST_PORT, p4rt_base=P4RT_BASE,
                   agent_base=AGENT_BASE, heavy_hitters={"enabled": False},
                   slow_rate_bps=slow_rate_bps, slow_queue_len=slow_queue_len,
                   vport_tags=FAST_TABLE + 24, ready_buffers=READY_BUFFERS) as lab:
        trace_path = f"{lab.logs}/trace.json"
        with open(trace_path, "w") as f:
            json.dump({k: trace[k] for k in ("ues", "weights", "order", "params")}, f)
        lab.prepare_upf()
        lab.rest.post("upf/interfaces", {"deviceId": FAST, "kind": "ACCESS",
                                         "prefix": N3_ADDR + "/32"})
        if "switch_only" in todo:
            on_fast = [(i, trace["ues"][i]) for i in table]
            install_sessions(lab, on_fast, FAST)
            r = run(lab, trace, trace_path, pps, "switch_only", shaped)
            check_physical(r, trace, table=set(table))
            remove_sessions(lab, on_fast, FAST)
            runs.append(r)
        install_sessions(lab, enumerate(trace["ues"]), SLOW)
        lab.rest.call("PUT", "upf/placement/settings", placement_settings())
        for config in (c for c in todo if c != "switch_only"):
            r = run(lab, trace, trace_path, pps, config, shaped)
            check_physical(r, trace)
            settle(lab)
            runs.append(r)
    return runs


def scenario(quick):
    params = QUICK if quick else FULL
    pps, seconds = params["pps"], params["seconds"]
    ensure_built()
    trace, table, runs = run_configs(pps, seconds)
    with open("/proc/loadavg") as f:
        load = float(f.read().split()[0])
    report(runs, trace, table, pps, seconds,
           {"switch": "pbswitch (both paths, one 2-core machine loaded by other work)",
            "load_avg_1m": load, "quick": quick})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a shorter trace at a lower rate")
    args = parser.parse_args(argv)
    scenario(args.quick)


if __name__ == "__main__":
    try:
        main()
    except (RestError, RuntimeError, TimeoutError) as e:  # Impossible is a RuntimeError
        print(f"upf_hybrid failed: {e}", file=sys.stderr)
        sys.exit(1)
