# SPDX-License-Identifier: Apache-2.0
"""The hybrid UPF's promotion latency, over many promotions, in the hybrid
lab (test/upf/hybridlab.py: fast path s1 with in-process buffers, slow path
s2, both pbswitch, one embedded host).

Every UE's session is on the slow path. Each UE gets a short heavy stream
(--pps for --ms, test/upf/ue_streams.py) that the fast path's detector
reports (a digest); the placement promotes it while its stream runs. Two
phases on fresh UEs:

  spaced  one UE at a time, --gap-ms apart: a promotion with nothing
          queued before it (the switch calls' own time)
  burst   groups of --group UEs at once: reports arriving together, as at
          a trace's start (the wait behind one another counts)

Figures (JSON lines {"metric", "value", "unit", "conditions"}, then a
summary line), per phase:
  hh_promotion_<phase>_ms_p50/_p99   digest received by the controller ->
        the UE's session active on the fast path (its Write acknowledged:
        the placement's lastActiveUs)
  hh_promotion_<phase>_from_emission_ms_p50/_p99   digest emitted by the
        switch (P4Runtime DigestList.timestamp) -> active (host log)
  hh_promotion_released_<phase>_ms_p50/_p99   digest received -> held
        packets released (after the end marker's trip; lastMoveUs)
  promotion_lost / promotion_reordered   packets of the promoted UEs
        (the gNodeB counts them inside the GTP-U)
and each step's p50 (host log) in the conditions. The machine is shared:
the load average is in the conditions.

Run as root:  .venv/bin/python -m test.bench.service.bench_promotion [--quick]
              [--ready-buffers N] [--jar JAR]
              [--baseline-jar JAR [--baseline-ready-buffers N]]
(--baseline-jar: another build of the host, measured first on a lab of its
own in the same run; the ratios this build / baseline follow.)
Own lab: prefix fpm-, REST 8237, P4Runtime 28971-28972, buffer API 28981.
"""
import argparse
import json
import math
import os
import re
import subprocess
import time

from test.lab.procs import wait_until
from test.lab.servicelab import HOST_JAR, ROOT, ensure_built
from test.upf import hybridlab
from test.upf.hybridlab import DN_PORT, FAST, N3_ADDR, SLOW, SLOW_PORT, HybridLab, ip_of, mac_of

PYTHON = str(ROOT / ".venv" / "bin" / "python")
REST_PORT, P4RT_BASE, AGENT_BASE = 8237, 28971, 28981
PAYLOAD_BYTES = 100
FRAME_BYTES = 14 + 20 + 8 + PAYLOAD_BYTES
# Heavy: 200 kbit/s of FRAME_BYTES frames (a gap under 5.7 ms); the streams
# send every millisecond, so the detector reports a UE after ~6 packets.
HEAVY = {"enabled": True, "rateBps": 200_000, "packetBytes": FRAME_BYTES, "idleMs": 60_000}
# Nobody is demoted while a phase runs (demotions would share the switch).
HOLD_MS = 600_000
FULL = {"ues": 120, "group": 8, "gap_ms": 300, "group_gap_ms": 1200, "pps": 1000, "ms": 150}
QUICK = {"ues": 40, "group": 8, "gap_ms": 300, "group_gap_ms": 1200, "pps": 1000, "ms": 150}
# One line per promotion: "<ue> promoted: <step> <us> us, <step> <us> us, ..." (an
# older host logs fewer steps, in another order: each is read by its name).
STEP_LINE = re.compile(r"(\S+) promoted: (.*)")
STEP_FIELD = re.compile(r"([a-z][a-z ()]*?) (-?\d+) us")
STEP_NAMES = {"digest in flight": "in_flight", "dispatched": "dispatched", "begun": "begun",
              "held": "held", "marker sent": "marker_sent", "written (active)": "written",
              "marker back": "marker_back", "released": "released"}
STEPS = ("in_flight", "dispatched", "begun", "held", "marker_sent", "written", "marker_back",
         "released")


def emit(metric, value, unit, **conditions):
    print(json.dumps({"metric": metric, "value": value, "unit": unit,
                      "conditions": conditions}), flush=True)


def percentile(values, q):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100.0 * len(ordered)) - 1)] if ordered else None


def ue_address(index):
    return f"10.250.{(index + 1) >> 8}.{(index + 1) & 0xFF}"


def settings(ues):
    return {"fastDevice": FAST, "slowDevice": SLOW, "slowPort": SLOW_PORT, "dnPort": DN_PORT,
            "fastTableBudget": ues, "demoteIdleMs": HOLD_MS, "windowMs": 1000}


def install_sessions(lab, count):
    for start in range(0, count, 500):
        lab.rest.post("upf/sessions/batch", {"sessions": [
            {"deviceId": SLOW, "ueAddress": ue_address(i), "n3Address": N3_ADDR,
             "uplinkTeid": 0x100 + i, "gnbAddress": ip_of("gnb"), "downlinkTeid": 0x100 + i,
             "qfi": 9} for i in range(start, min(count, start + 500))]})


def steps_since(log_path, offset):
    """{ue: {step: us since the digest came}} of the promotions logged after offset."""
    out = {}
    with open(log_path, errors="replace") as f:
        f.seek(offset)
        for line in f:
            m = STEP_LINE.search(line)
            if m:
                steps = dict.fromkeys(STEPS, -1)
                for name, us in STEP_FIELD.findall(m.group(2)):
                    if name.strip() in STEP_NAMES:
                        steps[STEP_NAMES[name.strip()]] = int(us)
                out[m.group(1)] = steps
    return out


def run_phase(lab, first, ues, group, gap_ms, pps, ms, receiver_ues):
    """Streams to UEs first..first+ues-1 in groups; returns what was measured."""
    log = f"{lab.logs}/host.log"
    offset = os.path.getsize(log)
    recv = subprocess.Popen(lab.hosts["gnb"].popen_argv(
        [PYTHON, "-m", "test.upf.hybrid_trace", "receive", "--ues", str(receiver_ues),
         "--hh", str(receiver_ues), "--idle", "3"]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        if recv.stdout.readline().strip() != "ready":
            raise RuntimeError("the receiver did not start")
        send = subprocess.Popen(lab.hosts["dn"].popen_argv(
            [PYTHON, "-m", "test.upf.ue_streams", "eth0", "--ues", str(ues), "--first",
             str(first), "--group", str(group), "--gap-ms", str(gap_ms), "--pps", str(pps),
             "--ms", str(ms), "--src-mac", mac_of("dn"), "--dst-mac", mac_of("gnb"),
             "--src-ip", ip_of("dn"), "--size", str(PAYLOAD_BYTES)]),
            stdout=subprocess.PIPE, text=True, cwd=ROOT)
        sent = json.loads(send.communicate(timeout=ues * gap_ms / 1000 + 120)[0])
        got = json.loads(recv.communicate(timeout=120)[0].strip().splitlines()[-1])
    finally:
        recv.kill()
    addresses = [ue_address(first + i) for i in range(ues)]

    def placed():
        return {p["ueAddress"]: p for p in lab.rest.get("upf/placement")["placements"]}

    # Every report's promotion finished (the release follows the marker, or 1 s).
    wait_until(lambda: not any(p["moving"] for p in placed().values()), timeout=30, step=0.2,
               what="every promotion finished")
    now = placed()
    promoted = [a for a in addresses if a in now and now[a]["promotions"] == 1]
    steps = steps_since(log, offset)
    lost = sum(sent["per_ue"][i] - got["received"][first + i] for i in range(ues))
    reordered = sum(got["reordered"][first + i] for i in range(ues))
    duplicates = sum(got["duplicates"][first + i] for i in range(ues))
    return {"active_us": [now[a]["lastActiveUs"] for a in promoted],
            "released_us": [now[a]["lastMoveUs"] for a in promoted],
            "from_emission_us": [s["in_flight"] + s["written"] for a, s in steps.items()
                                 if a in promoted and s["in_flight"] >= 0],
            "steps": steps, "promoted": len(promoted), "ues": ues, "sent": sent["sent"],
            "lost": lost, "reordered": reordered, "duplicates": duplicates}


def report(phase, r, cond):
    c = {**cond, "phase": phase, "promotions": r["promoted"], "ues_streamed": r["ues"]}
    for name, key in (("hh_promotion", "active_us"), ("hh_promotion_released", "released_us"),
                      ("hh_promotion_from_emission", "from_emission_us")):
        values = r[key]
        if not values:
            continue
        for q in (50, 99):
            emit(f"{name}_{phase}_ms_p{q}", round(percentile(values, q) / 1000, 2), "ms", **c,
                 samples=len(values))
    step_p50 = {}
    for step in STEPS:
        values = [s[step] for s in r["steps"].values() if s[step] >= 0]
        if values:
            step_p50[step] = round(percentile(values, 50) / 1000, 2)
    emit(f"promotion_steps_{phase}_ms_p50", step_p50, "ms since the digest came", **c,
         steps="in_flight: emitted -> received; dispatched: a promoter took it; begun: its "
               "session found, an eviction; held: the hold (buffer, steering rule); marker sent "
               "(before the Write since the marker went early); written: the session active; "
               "marker back; released")
    emit(f"promotion_lost_{phase}", r["lost"], "packets", **c, sent=r["sent"])
    emit(f"promotion_reordered_{phase}", r["reordered"], "packets", **c,
         duplicates=r["duplicates"], sent=r["sent"])


def measure(p, host_jar, ready_buffers):
    """Both phases on a fresh lab running the given host jar."""
    ues = p["ues"]
    hybridlab.HOST_JAR = host_jar  # the lab starts this build of the host
    with HybridLab(prefix="fpm-", rest_port=REST_PORT, p4rt_base=P4RT_BASE,
                   agent_base=AGENT_BASE, hybrid=settings(2 * ues), heavy_hitters=HEAVY,
                   vport_tags=2 * ues + ready_buffers + 8, ready_buffers=ready_buffers) as lab:
        lab.prepare_upf()
        install_sessions(lab, 2 * ues)
        spaced = run_phase(lab, 0, ues, 1, p["gap_ms"], p["pps"], p["ms"], 2 * ues)
        burst = run_phase(lab, ues, ues, p["group"], p["group_gap_ms"], p["pps"], p["ms"],
                          2 * ues)
    return spaced, burst


def summary(name, spaced, burst, group):
    def q(r, key, at):
        v = percentile(r[key], at)
        return f"{v / 1000:.1f}" if v is not None else "-"

    return (f"{name}: spaced p50/p99 {q(spaced, 'active_us', 50)}/{q(spaced, 'active_us', 99)} ms "
            f"over {spaced['promoted']}, bursts of {group} {q(burst, 'active_us', 50)}/"
            f"{q(burst, 'active_us', 99)} ms over {burst['promoted']}; lost "
            f"{spaced['lost'] + burst['lost']}, reordered "
            f"{spaced['reordered'] + burst['reordered']}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--ready-buffers", type=int, default=0,
                        help="s1's netcfg readyBuffers (buffers made ahead)")
    parser.add_argument("--baseline-jar",
                        help="another build of the host, measured first in the same run "
                             "(a before/after comparison)")
    parser.add_argument("--baseline-ready-buffers", type=int, default=0)
    parser.add_argument("--jar", default=str(HOST_JAR),
                        help="the build of the host measured as this build (default: the "
                             "worktree's; a copy lets another build go on meanwhile)")
    args = parser.parse_args()
    p = QUICK if args.quick else FULL
    ensure_built()
    start = time.monotonic()
    runs = []
    if args.baseline_jar:
        runs.append(("baseline", args.baseline_jar, args.baseline_ready_buffers))
    runs.append(("this build", args.jar, args.ready_buffers))
    results = {}
    lines = []
    for name, jar, ready in runs:
        load0 = os.getloadavg()[0]
        spaced, burst = measure(p, jar, ready)
        load1 = os.getloadavg()[0]
        results[name] = (spaced, burst)
        cond = {"host": name, "switch": "pbswitch x2, in-process buffers on s1",
                "ready_buffers": ready, "stream": f"{p['pps']} packets/s for {p['ms']} ms per UE",
                "load_avg_start": round(load0, 2), "load_avg_end": round(load1, 2),
                "cores": os.cpu_count()}
        report("spaced", spaced, {**cond, "gap_ms": p["gap_ms"]})
        report("burst", burst, {**cond, "group": p["group"], "group_gap_ms": p["group_gap_ms"]})
        lines.append(f"{summary(name, spaced, burst, p['group'])} (load {load0:.1f}-{load1:.1f})")
    if "baseline" in results:
        for i, phase in enumerate(("spaced", "burst")):
            for at in (50, 99):
                base = percentile(results["baseline"][i]["active_us"], at)
                now = percentile(results["this build"][i]["active_us"], at)
                if base and now:
                    emit(f"hh_promotion_{phase}_ms_p{at}_vs_baseline", round(now / base, 2),
                         "ratio", baseline_ms=round(base / 1000, 2),
                         this_build_ms=round(now / 1000, 2),
                         baseline_ready_buffers=args.baseline_ready_buffers,
                         ready_buffers=args.ready_buffers)
    print(f"promotion ({time.monotonic() - start:.0f}s): " + "; ".join(lines), flush=True)


if __name__ == "__main__":
    main()
