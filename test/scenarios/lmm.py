# SPDX-License-Identifier: Apache-2.0
"""Scenario: LTE mobility management (Programmable Buffers, SOSR'18).

A UE moves between two eNBs (test/lab/mobilitylab.py) while the server sends
it a TCP stream (iperf3) or a UDP flow with sequence numbers. Each handoff:
POST apps/lmm/handoffs (the source holds, the target opens two buffers, the
anchor switches), the radio is cut for the detach time, the UE attaches to
the target, POST .../attach (forwarded packets flow, the end marker goes
down the old path; once both eNBs report it the new path flows).

Compared in the same run: FlowBuf, the no-buffering baseline ("buffering":
"none": only the anchor switches; what reaches the detached UE is lost and
TCP retransmits it), the controller-buffering baseline ("buffering":
"controller": both eNBs punt the downlink to the controller, which replays it
by packet-out at the target on attach) and the optimal line (the stream's
rate without handoffs, minus the detach time).

Scaled to this 2-core machine: a 50 Mbit/s radio (tbf) instead of 500; the
paper's 20 ms server-UE round trip, added at the anchor (pbswitch
--port-delay, 10 ms each way: this kernel has no sch_netem; --rtt-ms 0
runs without it); 50 ms detaches at 0.5 and 1 handoffs/s as in the paper.
The full run also compares the two at 1 handoff/s with the eNBs' path to the
controller shaped to 1 Mbit/s (pbswitch --cpu-rate), where controller
buffering's punts queue and trickle in.

JSON lines: lmm_throughput_vs_optimal (FlowBuf, mean over frequencies),
lmm_vs_no_buffering, lmm_vs_controller_buffering,
lmm_throughput_mbps_<mode>_<freq>, lmm_lost, lmm_reordered,
lmm_controller_buffering_lost/_reordered, lmm_handoff_complete_ms_p50,
lmm_vs_controller_buffering_cpu_1mbps (full run); plot
test/artifacts/lmm.png. --repeat N runs FlowBuf and the no-buffering baseline
N times at each frequency and reports lmm_vs_no_buffering as the median of
the runs' ratios with their spread (min, max).
Run as root:  .venv/bin/python -m test.scenarios.lmm [--quick] [--repeat N]
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

from test.lab.mobilitylab import (SERVER_BURST_BYTES, UE_IP, MobilityLab, add_rtt_option,
                                  check_plausible, iperf_to_ue, plan)
from test.lab.servicelab import ROOT
from test.scenarios.report import emit, emit_ratio, throughput_plot

PYTHON = str(ROOT / ".venv" / "bin" / "python")
DETACH_S = 0.05
# The eNBs' path to the controller in the full run's extra comparison: a
# fiftieth of the radio, as a switch that polices what it punts (from 1 Mbit/s
# down, controller buffering does no better than no buffering here).
CPU_PATH_BPS = 1_000_000


def handoff(lab, target, buffering="flowbuf", detach_s=DETACH_S):
    """One handoff of the UE to `target`; returns the completed handoff and
    how long attach-to-complete took (ms)."""
    body = dict(plan(lab.attached, target), buffering=buffering)
    h = lab.rest.post("apps/lmm/handoffs", body)
    lab.detach()
    time.sleep(detach_s)
    lab.attach_to(target)
    start = time.perf_counter()
    h = lab.rest.post(f"apps/lmm/handoffs/{h['id']}/attach", None)
    while h["state"] == "ATTACHED":
        time.sleep(0.002)
        h = lab.rest.get(f"apps/lmm/handoffs/{h['id']}")
    if h["state"] != "COMPLETED":
        raise RuntimeError(f"handoff failed: {h}")
    return h, (time.perf_counter() - start) * 1e3


def handoffs_every(lab, interval_s, until, buffering, done):
    """Hands the UE back and forth every interval_s until `until`."""
    times = []
    next_at = time.monotonic() + interval_s
    while next_at < until:
        time.sleep(max(0.0, next_at - time.monotonic()))
        _, ms = handoff(lab, "s2" if lab.attached == "s1" else "s1", buffering)
        times.append(ms)
        next_at += interval_s
    done.extend(times)


def udp_run(handoffs=2, pps=2000, interval_s=1.0, buffering="flowbuf", rtt_ms=0):
    """A sequenced UDP flow across `handoffs` handoffs: the loss and order
    accounting."""
    seconds = interval_s * (handoffs + 1)
    with MobilityLab(rtt_ms=rtt_ms) as lab:
        recv = subprocess.Popen(lab.ue.popen_argv(
            [PYTHON, "-m", "test.lab.seqflow", "recv", "9000", "--idle", "3", "--timeout",
             str(seconds + 30)]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
        recv.stdout.readline()
        send = subprocess.Popen(lab.server.popen_argv(
            [PYTHON, "-m", "test.lab.seqflow", "send", UE_IP, "9000", "--pps", str(pps),
             "--seconds", str(seconds)]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
        times = []
        handoffs_every(lab, interval_s, time.monotonic() + seconds - 0.3, buffering, times)
        sent = json.loads(send.communicate(timeout=seconds + 30)[0])["sent"]
        got = json.loads(recv.communicate(timeout=seconds + 40)[0].strip().splitlines()[-1])
    return {"sent": sent, "handoffs": len(times), "complete_ms": times, **got}


def tcp_run(buffering, frequency, seconds, rtt_ms=0, cpu_rate_bps=0):
    """iperf3 TCP server->UE for `seconds` with handoffs at `frequency`/s
    (0: none), the eNBs' path to the controller shaped to cpu_rate_bps (0:
    not); returns the receiver's throughput in Mbit/s and the handoffs.
    Raises ImplausibleRun (mobilitylab) for a figure above the radio's
    capacity for the time the UE was attached (the detaches asked: each
    lasts at least that)."""
    times = []
    with MobilityLab(rtt_ms=rtt_ms, cpu_rate_bps=cpu_rate_bps) as lab:
        mbps = iperf_to_ue(lab, seconds, frequency and (lambda: handoffs_every(
            lab, 1.0 / frequency, time.monotonic() + seconds - 0.5, buffering, times)))
    run = {"mbps": mbps, "handoffs": len(times), "complete_ms": times,
           "detached_s": len(times) * DETACH_S}
    # Shaped at the server: its token bucket refills while the UE is away.
    check_plausible(f"{buffering} at {frequency:g} handoffs/s", run, seconds,
                    burst_bytes=SERVER_BURST_BYTES)
    return run


def repeated_vs_none(repeats, frequencies, seconds, rtt):
    """FlowBuf's Mbit/s over no buffering's, mean over the frequencies, for
    `repeats` more pairs of runs."""
    ratios = []
    for rep in range(repeats):
        mbps = {}
        for f in frequencies:
            for mode in ("flowbuf", "none"):
                mbps[mode, f] = tcp_run(mode, f, seconds, rtt)["mbps"]
                emit(f"lmm_throughput_mbps_{mode}_{f:g}", round(mbps[mode, f], 2), "Mbit/s",
                     seconds=seconds, run=rep + 2)
        ratios.append(statistics.mean(mbps["flowbuf", f] / mbps["none", f] for f in frequencies))
    return ratios


def plot(frequencies, optimal, results):
    return throughput_plot("lmm", "LMM, 50 ms detach, 50 Mbit/s radio", frequencies, [
        ("optimal", "k--", optimal), ("FlowBuf", "o-", results["flowbuf"]),
        ("no buffering (TCP retransmits)", "s:", results["none"]),
        ("controller buffering", "^-.", results["controller"])])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of FlowBuf and of no buffering at each frequency: "
                             "lmm_vs_no_buffering is the median of the runs' ratios, with "
                             "their spread (default 1)")
    add_rtt_option(parser)
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat is at least 1, not {args.repeat}")
    rtt = args.rtt_ms
    seconds = 6 if args.quick else 20
    frequencies = [0.5, 1.0]
    udp = udp_run(handoffs=2 if args.quick else 6, rtt_ms=rtt)
    udp_controller = udp_run(handoffs=2 if args.quick else 6, buffering="controller", rtt_ms=rtt)
    link = tcp_run("flowbuf", 0, seconds, rtt)["mbps"]
    results = {"flowbuf": {}, "none": {}, "controller": {}}
    optimal = {}
    completes = list(udp["complete_ms"])
    for f in frequencies:
        for mode in results:
            run = tcp_run(mode, f, seconds, rtt)
            results[mode][f] = run["mbps"]
            if mode == "flowbuf":
                completes += run["complete_ms"]
                optimal[f] = link * (1 - run["handoffs"] * DETACH_S / seconds)
            emit(f"lmm_throughput_mbps_{mode}_{f:g}", round(run["mbps"], 2), "Mbit/s",
                 handoffs=run["handoffs"], seconds=seconds)
    vs_optimal = statistics.mean(results["flowbuf"][f] / optimal[f] for f in frequencies)
    vs_none = [statistics.mean(results["flowbuf"][f] / results["none"][f] for f in frequencies)]
    vs_none += repeated_vs_none(args.repeat - 1, frequencies, seconds, rtt)
    vs_controller = statistics.mean(results["flowbuf"][f] / results["controller"][f]
                                    for f in frequencies)
    emit("lmm_link_mbps", round(link, 2), "Mbit/s", what="no handoffs, same run", rtt_ms=rtt)
    emit("lmm_throughput_vs_optimal", round(vs_optimal, 3), "ratio",
         frequencies=frequencies, detach_ms=DETACH_S * 1000)
    emit_ratio("lmm_vs_no_buffering", vs_none, frequencies=frequencies)
    emit("lmm_vs_controller_buffering", round(vs_controller, 3), "ratio",
         frequencies=frequencies, goal=">= 2 (the paper: more than double)")
    emit("lmm_lost", udp["lost"], "packets", sent=udp["sent"], handoffs=udp["handoffs"])
    emit("lmm_reordered", udp["reordered"] + udp["duplicates"], "packets", sent=udp["sent"])
    emit("lmm_controller_buffering_lost", udp_controller["lost"], "packets",
         sent=udp_controller["sent"], handoffs=udp_controller["handoffs"])
    emit("lmm_controller_buffering_reordered",
         udp_controller["reordered"] + udp_controller["duplicates"], "packets",
         sent=udp_controller["sent"])
    emit("lmm_handoff_complete_ms_p50", round(statistics.median(completes), 1), "ms",
         what="REST attach until both eNBs reported the end marker and the new path flows")
    if not args.quick:
        shaped = {mode: tcp_run(mode, 1.0, seconds, rtt, CPU_PATH_BPS)["mbps"]
                  for mode in ("flowbuf", "controller")}
        emit(f"lmm_vs_controller_buffering_cpu_{CPU_PATH_BPS // 1_000_000}mbps",
             round(shaped["flowbuf"] / shaped["controller"], 3), "ratio", handoffs_per_s=1.0,
             flowbuf_mbps=round(shaped["flowbuf"], 2),
             controller_mbps=round(shaped["controller"], 2),
             what="the eNBs' path to the controller shaped to a fiftieth of the radio")
    path = plot(frequencies, optimal, results)
    clean = udp["lost"] == 0 and udp["reordered"] == 0
    print(f"scenario lmm: throughput {vs_optimal:.3f} of optimal (goal 0.95: "
          f"{'met' if vs_optimal >= 0.95 else 'MISSED'}), "
          f"{statistics.median(vs_none):.2f}x no buffering (median of {len(vs_none)}), "
          f"{vs_controller:.2f}x controller buffering (goal 2: "
          f"{'met' if vs_controller >= 2 else 'MISSED'}), "
          f"{udp['lost']} lost / {udp['reordered']} reordered over {udp['handoffs']} handoffs "
          f"(goal 0/0: {'met' if clean else 'MISSED'}); plot {path.relative_to(ROOT)}")
    return 0 if udp["lost"] == 0 and udp["reordered"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
