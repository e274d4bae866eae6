# SPDX-License-Identifier: Apache-2.0
"""Scenario: fast mobility management (Programmable Buffers, SOSR'18).

The anchor multicasts the UE's downlink to both eNBs (test/lab/mobilitylab.py);
the serving eNB's buffer delivers, the other holds a drop-head window of
copies. A handoff, as FlowBuf FMM makes it with the UE's reports (the plan's
ueReports): POST apps/fmm/sessions/{id}/handoff (arms the source's hold and
the target's release on their agents), the UE sends its datagram on the radio
it leaves (the source's agent holds there and then: it delivered until the UE
left) and the radio is cut for the detach time; the UE attaches to the target
and sends its datagram there, carrying the newest packet it received (the
target's agent drops its window up to that packet, by IPv4 id + L4 checksum,
and releases the rest); POST .../attach confirms (it holds or releases what a
missing datagram left undone).

Compared in the same run: FlowBuf FMM; FMM without the reports ("fmm-signal":
the handoff call holds the source, the target is purged to the last packet the
source sent, the UE leaves once its handoff command came, behind that packet,
and the UE's attach datagram releases the target); FMM released by the
attach call alone ("fmm-call"); the no-buffering baseline (LMM's "buffering":
"none": only the anchor's path switches; what reaches the detached UE is lost
and TCP retransmits it) and the optimal line (the link without handoffs, times
the share of time the UE is attached).

Scaled to this 2-core machine: a 50 Mbit/s radio instead of 500, shaped at
the UE's ingress (after the buffers, as a radio's queue is, so a detach
costs air time); the paper's 20 ms server-UE round trip, added at the
anchor (pbswitch --port-delay, 10 ms each way: this kernel has no
sch_netem; --rtt-ms 0 runs without it); 10 ms
detaches at 10, 25 and 50 handoffs per second (the paper: 10 ms handoffs
every 10-100 ms). An interval counts from one handoff's start to the next:
at 50/s the UE is detached half of the time.

The optimal line is the no-handoff TCP rate; a backlog that FMM releases at
an attach keeps the radio busier than that lone TCP flow does, so the stricter
fmm_throughput_vs_radio_capacity also compares FMM with the radio's goodput
capacity (its rate times iperf3's payload share of a frame) for the time the
UE was attached.

JSON lines: fmm_throughput_vs_optimal (50/s), fmm_sync_awaits, fmm_throughput_vs_radio_capacity,
fmm_link_vs_radio_capacity, fmm_vs_no_buffering (50/s),
fmm_vs_signal_only and fmm_vs_attach_call (50/s), fmm_throughput_mbps_<mode>_<freq>,
fmm_handoffs_per_s (achieved), fmm_lost, fmm_reordered, fmm_duplicates,
fmm_unsynced, fmm_released_on_signal, fmm_held_on_signal, fmm_attach_ms_p50,
fmm_sync_us_p50; plot test/artifacts/fmm.png.

Every TCP run must fit the radio: a figure above the radio's goodput
capacity for the time the UE was attached (plus the air queue's token
bucket at each attach) fails the run with ImplausibleRun, whatever the mode.
--modes runs a subset (e.g. `--quick --modes none`: the baseline alone at
50/s); --repeat N runs the modes N times at 50/s and reports the ratios'
median with their spread (min, max).
Run as root:  .venv/bin/python -m test.scenarios.fmm [--quick] [--modes M,..] [--repeat N]
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

from test.lab.mobilitylab import (UE_IP, MobilityLab, add_rtt_option, check_plausible,
                                  fmm_plan, iperf_to_ue, plan, radio_goodput_mbps)
from test.lab.bufferapi import BufferAgent
from test.lab.servicelab import ROOT
from test.scenarios.report import emit, emit_ratio, throughput_plot

PYTHON = str(ROOT / ".venv" / "bin" / "python")
# The application id the controller calls the agents with.
AGENT_APP_ID = "org.flowbuf.app"
DETACH_S = 0.010
GOAL_FREQUENCY = 50.0
WARM_UP_CYCLES = 300
COMMAND_S = 0.002
# How far past its planned length udp_run's flow may run to reach its
# handoff count.
MAX_OVERRUN_S = 60.0
# The air queue of the loss-accounting UDP run (see udp_run).
UDP_AIR_QUEUE = "100ms"
# How long the UE waits for the packets its source sent before the handoff
# command (the signal-only modes): longer than the cuts seen under stress-ng.
COMMAND_WAIT_S = 10.0
# From the flow's end to the receiver's count, in udp_run with min_handoffs.
DRAIN_S = 3.0
# FMM with the UE's signals and reports (the product), with the attach signal
# alone, and released by the attach call.
FMM_MODES = ("fmm", "fmm-signal", "fmm-call")
# Every mode the scenario compares: FMM's and the no-buffering baseline.
MODES = (*FMM_MODES, "none")
# The modes in which the UE sends its datagram as it joins, and as it leaves.
SIGNAL_ON_ATTACH = ("fmm", "fmm-signal")
SIGNAL_ON_LEAVE = ("fmm",)


class Phases:
    """How long each step of one handoff took, in ms (a loaded machine's
    slow handoff says where its time went)."""

    def __init__(self):
        self.ms, self.total_ms = {}, 0.0
        self._last = time.perf_counter()

    def mark(self, step):
        now = time.perf_counter()
        self.ms[step] = round((now - self._last) * 1e3, 1)
        self.total_ms += (now - self._last) * 1e3
        self._last = now


class FmmDriver:
    """Hands the UE back and forth between the eNBs of one FMM session."""

    def __init__(self, lab, buffering="fmm", command_s=COMMAND_S, window=4096):
        self.lab, self.buffering, self.command_s = lab, buffering, command_s
        self.attach_ms, self.sync_us, self.detached_s = [], [], 0.0
        self.session, self.warm = None, {}
        self.slowest = Phases()
        # Handoff commands that did not find the source's last packet taken
        # within COMMAND_WAIT_S (the UE left anyway).
        self.late_commands = 0
        if buffering in FMM_MODES:
            self.session = lab.rest.post("apps/fmm/sessions", fmm_plan(
                lab.attached, window=window, attach_signal=buffering in SIGNAL_ON_ATTACH,
                ue_reports=buffering in SIGNAL_ON_LEAVE))

    def warm_up(self, cycles=WARM_UP_CYCLES):
        """Handoffs there and back before traffic, without the radio: the
        embedded host's JVM compiles the REST, gRPC and P4Runtime paths
        (cold, an agent call costs about 2 ms more than warm)."""
        here = self.lab.attached
        there = "s2" if here == "s1" else "s1"
        for i in range(2 * cycles):
            source, target = (here, there) if i % 2 == 0 else (there, here)
            self._complete(self._start(source, target))
        self.warm = dict(self.session["counters"]) if self.session else {}

    def _start(self, source, target):
        if self.buffering in FMM_MODES:
            self.session = self.lab.rest.post(f"apps/fmm/sessions/{self.session['id']}/handoff",
                                              {"target": f"device:{target}"})
            return None
        return self.lab.rest.post("apps/lmm/handoffs",
                                  dict(plan(source, target), buffering="none"))["id"]

    def _command_reaches_ue(self, source):
        """Without the UE's leave signal, the sync point is the newest packet
        the source sent before the handoff call held it; the handoff command
        reaches the UE behind those packets (a radio's queue is first in,
        first out), so the UE leaves once it has taken that packet. On this
        machine's emulated radio the packet can lag by seconds under CPU load
        (its ifb and veth queues wait for softirq time, which a real radio does
        not): a cut before it arrives loses what the air queue holds, as the
        signal-only mode would with a real radio cut early. The product mode,
        with the UE's reports, needs no such wait: its report says what the
        UE took."""
        buffer = self.session["buffers"][f"device:{source}"]
        stats = self.lab.rest.get(f"buffers/device:{source}/{buffer}/statistics")
        last = stats.get("lastOutPacketId")
        if last and not self.lab.ue_signal.await_taken(last, COMMAND_WAIT_S):
            self.late_commands += 1

    def _complete(self, lmm_id):
        if self.buffering in FMM_MODES:
            self.session = self.lab.rest.post(f"apps/fmm/sessions/{self.session['id']}/attach",
                                              None)
            self.sync_us.append(self.session["counters"]["lastSyncMicros"])
        else:
            self.lab.rest.post(f"apps/lmm/handoffs/{lmm_id}/attach", None)

    def handoff(self):
        source = self.lab.attached
        target = "s2" if source == "s1" else "s1"
        phases = Phases()
        lmm_id = self._start(source, target)
        phases.mark("handoff_call")
        # The UE leaves once the handoff command reached it: without the UE's
        # signal the source holds from the call, and this is air time it
        # cannot use, counted as attached.
        time.sleep(self.command_s)
        if self.buffering in SIGNAL_ON_LEAVE:
            self.lab.signal()
            phases.mark("leave_signal")
        elif self.buffering in FMM_MODES:
            self._command_reaches_ue(source)
            phases.mark("command_behind_data")
        self.lab.detach()
        phases.mark("detach")
        # Timed from the cut, as applied, to the radio up: what the optimal
        # line counts as detached.
        cut = time.perf_counter()
        time.sleep(DETACH_S)
        self.detached_s += self.lab.attach_to(target) - cut
        phases.mark("attach_radio")
        if self.buffering in SIGNAL_ON_ATTACH:
            self.lab.signal()
            phases.mark("join_signal")
        start = time.perf_counter()
        self._complete(lmm_id)
        phases.mark("attach_call")
        self.attach_ms.append((time.perf_counter() - start) * 1e3)
        if phases.total_ms > self.slowest.total_ms:
            self.slowest = phases

    def counted(self):
        """The session's counters since the warm-up."""
        now = self.session["counters"]
        return {k: now[k] - self.warm.get(k, 0) for k in ("handoffs", "unsynced",
                                                           "purgedPackets", "releasedOnSignal",
                                                           "heldOnSignal")}

    def sync_awaits(self):
        """What the eNBs' agents did with sync points their window had not
        received yet when it was purged to them (the target's copy trailed
        the source's): how many, how many arrived, how many were given up
        at the agent's bound, and the longest wait in ms; and the frames
        sent again because a UE's report named a packet sent before them
        (they were in flight on a radio that was cut)."""
        if self.session is None:
            return {}
        total = {"awaits": 0, "arrived": 0, "expired": 0, "max_ms": 0.0, "rewound": 0}
        for enb in ("s1", "s2"):
            agent = BufferAgent(f"127.0.0.1:{self.lab.agent[enb]}", AGENT_APP_ID)
            try:
                st = agent.call("QueryBuffer",
                                buffer_id=f"fmm-{self.session['id']}-device_{enb}").stats
            finally:
                agent.close()
            total["awaits"] += st.sync_awaits
            total["arrived"] += st.sync_awaits_arrived
            total["expired"] += st.sync_awaits_expired
            total["max_ms"] = max(total["max_ms"], st.sync_await_max_ns / 1e6)
            # Sent again: a report named a packet sent before them (rewind.go).
            total["rewound"] += st.rewound_packets
        return total

    def every(self, interval_s, until, at_least=0):
        """Hands off every interval_s (start to start) until `until`, and
        on until at_least handoffs are done (a loaded machine is slower)."""
        next_at = time.monotonic() + interval_s
        done = 0
        while next_at < until or done < at_least:
            time.sleep(max(0.0, next_at - time.monotonic()))
            self.handoff()
            done += 1
            next_at = max(next_at + interval_s, time.monotonic())

    def close(self):
        if self.session is not None:
            closed = self.lab.rest.delete(f"apps/fmm/sessions/{self.session['id']}")
            if closed["state"] != "CLOSED":
                raise RuntimeError(f"FMM session did not close: {closed}")
            return closed
        return None


def udp_run(seconds=3.0, frequency=GOAL_FREQUENCY, pps=2000, rtt_ms=0, command_s=COMMAND_S,
            mode="fmm", min_handoffs=0, window=4096):
    """A sequenced UDP flow across FMM handoffs at `frequency`/s: the loss,
    order and duplicate accounting (duplicates would be sync misses). With
    min_handoffs, the flow runs on past `seconds` until that many handoffs
    are done (then a tail of 0.3 s), however slow the machine makes them,
    and the receiver counts until the flow is over, however long a handoff
    held it: a loaded machine can stretch a 10 ms detach to seconds (the
    lab's earlier cut, `ip link set` of the air queue's ifb down, waited 2.5
    to 8.2 s for rtnl and RCU under stress-ng); `window` (packets per eNB)
    must then hold what the flow sends meanwhile."""
    # The sender's duration is an upper bound when handoffs set the end.
    send_s = seconds + (MAX_OVERRUN_S if min_handoffs else 0)
    idle_s = send_s + 30 if min_handoffs else 3
    # Here the eNBs send at the radio's rate, so the air queue only absorbs
    # the emulation's own jitter: a softirq delayed by CPU load (the ifb's
    # dequeue waits for one) made a 1 ms queue drop what the eNB sent at the
    # radio's rate, a loss no real radio has at its own rate (32 packets in
    # a loaded run). The throughput runs keep the 1 ms queue: without
    # buffers TCP fills a longer one and each cut drops all of it (a run
    # with 100 ms put no buffering 57x behind FMM).
    with MobilityLab(shape_at="ue", rtt_ms=rtt_ms, air_queue=UDP_AIR_QUEUE) as lab:
        recv = subprocess.Popen(lab.ue.popen_argv(
            [PYTHON, "-m", "test.lab.seqflow", "recv", "9000", "--idle", str(idle_s),
             "--timeout", str(send_s + 30)]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
        recv.stdout.readline()
        driver = FmmDriver(lab, mode, command_s, window)
        driver.warm_up()
        driver.sync_us.clear()
        send = subprocess.Popen(lab.server.popen_argv(
            [PYTHON, "-m", "test.lab.seqflow", "send", UE_IP, "9000", "--pps", str(pps),
             "--seconds", str(send_s)]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
        start = time.monotonic()
        driver.every(1.0 / frequency, start + seconds - 0.3, at_least=min_handoffs)
        elapsed = time.monotonic() - start
        if min_handoffs:
            time.sleep(max(0.0, start + seconds - time.monotonic()) + 0.3)
            send.terminate()
        sent = json.loads(send.communicate(timeout=send_s + 30)[0])["sent"]
        if min_handoffs:
            # The UE is attached and its eNB delivers: what is held drains in
            # well under a second at the radio's rate.
            time.sleep(DRAIN_S)
            recv.terminate()
        got = json.loads(recv.communicate(timeout=send_s + 40)[0].strip().splitlines()[-1])
        counters = driver.counted()
        air_drops = lab.air_drops()
        awaits = driver.sync_awaits()
        driver.close()
    return {"sent": sent, "handoffs": counters["handoffs"], "unsynced": counters["unsynced"],
            "purged": counters["purgedPackets"], "on_signal": counters["releasedOnSignal"],
            "held_on_signal": counters["heldOnSignal"],
            "handoffs_per_s": counters["handoffs"] / elapsed,
            "attach_ms": driver.attach_ms, "sync_us": driver.sync_us,
            "slowest_handoff_ms": driver.slowest.ms, "late_commands": driver.late_commands,
            "air_drops": air_drops, "sync_awaits": awaits, **got}


def tcp_run(buffering, frequency, seconds, rtt_ms=0, command_s=COMMAND_S):
    """iperf3 TCP server->UE for `seconds` with handoffs at `frequency`/s
    (0: none); returns Mbit/s, handoffs, the detached time and sync times.
    Raises ImplausibleRun (mobilitylab) for a figure the radio cannot
    have carried."""
    with MobilityLab(shape_at="ue", rtt_ms=rtt_ms) as lab:
        driver = FmmDriver(lab, buffering, command_s) if frequency else None
        if driver:
            driver.warm_up()
        mbps = iperf_to_ue(lab, seconds, driver and (lambda: driver.every(
            1.0 / frequency, time.monotonic() + seconds - 0.5)))
        if driver:
            driver.close()
    run = {"mbps": mbps,
           "handoffs": len(driver.attach_ms) if driver else 0,
           "detached_s": driver.detached_s if driver else 0.0,
           "attach_ms": driver.attach_ms if driver else []}
    check_plausible(f"{buffering} at {frequency:g} handoffs/s", run, seconds)
    return run


def plot(frequencies, optimal, results):
    return throughput_plot("fmm", "FMM, 10 ms detach, 50 Mbit/s radio", frequencies, [
        ("optimal", "k--", optimal), ("FlowBuf FMM", "o-", results["fmm"]),
        ("FlowBuf FMM, attach signal only (source held by the call)", "d-",
         results["fmm-signal"]),
        ("FlowBuf FMM, released by the attach call", "^-.", results["fmm-call"]),
        ("no buffering (TCP retransmits)", "s:", results["none"])])


def modes_option(text):
    """--modes: a comma-separated subset of MODES."""
    modes = tuple(m.strip() for m in text.split(",") if m.strip())
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise argparse.ArgumentTypeError(f"modes are some of {', '.join(MODES)}, not {text!r}")
    return modes


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="6 s runs at 50 handoffs/s only (default: 15 s at 10, 25, 50/s)")
    add_rtt_option(parser)
    parser.add_argument("--command-ms", type=float, default=COMMAND_S * 1000,
                        help="from the handoff call's return to the UE leaving: the handoff "
                             f"command's latency (default {COMMAND_S * 1000:g})")
    parser.add_argument("--modes", type=modes_option, default=MODES,
                        help=f"the modes to run, comma-separated (default {','.join(MODES)}); "
                             "the UDP accounting runs with fmm, a ratio with both its modes")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each mode at 50/s: the ratios at 50/s are the median of "
                             "the runs' ratios, with their spread (default 1)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat is at least 1, not {args.repeat}")
    return args


def main(argv=None):
    args = parse_args(argv)
    rtt, command_s, modes = args.rtt_ms, args.command_ms / 1000, args.modes
    seconds = 6 if args.quick else 15
    frequencies = [GOAL_FREQUENCY] if args.quick else [10.0, 25.0, GOAL_FREQUENCY]
    udp = None
    if "fmm" in modes:
        udp = udp_run(seconds=3.0 if args.quick else 6.0, rtt_ms=rtt, command_s=command_s)
    link = tcp_run("fmm", 0, seconds, rtt)["mbps"]
    capacity = radio_goodput_mbps()
    emit("fmm_link_mbps", round(link, 2), "Mbit/s", what="no handoffs, same run", rtt_ms=rtt)
    emit("fmm_link_vs_radio_capacity", round(link / capacity, 3), "ratio",
         radio_goodput_mbps=round(capacity, 2),
         what="TCP without handoffs against the radio's goodput capacity")
    # runs[mode][f]: one run per repetition (only 50/s is repeated).
    runs = {mode: {f: [] for f in frequencies} for mode in modes}
    for rep in range(args.repeat):
        for f in (frequencies if rep == 0 else [GOAL_FREQUENCY]):
            for mode in modes:
                run = tcp_run(mode, f, seconds, rtt, command_s)
                runs[mode][f].append(run)
                emit(f"fmm_throughput_mbps_{mode}_{f:g}", round(run["mbps"], 2), "Mbit/s",
                     handoffs=run["handoffs"], seconds=seconds,
                     detached_share=round(run["detached_s"] / seconds, 3), run=rep + 1)
    if "fmm" not in modes:
        print(f"scenario fmm: {', '.join(modes)} only: "
              + ", ".join(f"{m} {statistics.median(r['mbps'] for r in runs[m][GOAL_FREQUENCY]):.2f}"
                          for m in modes)
              + f" Mbit/s at {GOAL_FREQUENCY:g} handoffs/s (link {link:.2f}), every figure "
                "within the radio's capacity for the attached time")
        return 0
    return report_fmm(args, udp, link, runs, frequencies, seconds, command_s)


def ratios(runs, mode, other):
    """FMM's Mbit/s over `other`'s, run by run at GOAL_FREQUENCY."""
    return [a["mbps"] / b["mbps"] for a, b in zip(runs[mode][GOAL_FREQUENCY],
                                                   runs[other][GOAL_FREQUENCY])]


def report_fmm(args, udp, link, runs, frequencies, seconds, command_s):
    """The FMM metrics, the plot and the summary line; the exit status."""
    capacity = radio_goodput_mbps()
    goal = GOAL_FREQUENCY
    attach_ms = list(udp["attach_ms"])
    optimal, attached = {}, {}
    for f in frequencies:
        first = runs["fmm"][f][0]
        attach_ms += first["attach_ms"]
        attached[f] = 1 - first["detached_s"] / seconds
        optimal[f] = link * attached[f]
        emit("fmm_handoffs_per_s", round(first["handoffs"] / seconds, 1), "1/s",
             asked=f, detached_share=round(first["detached_s"] / seconds, 3))
    for f in frequencies:
        emit(f"fmm_throughput_vs_optimal_{f:g}", round(runs["fmm"][f][0]["mbps"] / optimal[f], 3),
             "ratio", optimal_mbps=round(optimal[f], 2))
    vs_optimal = runs["fmm"][goal][0]["mbps"] / optimal[goal]
    emit("fmm_throughput_vs_radio_capacity",
         round(runs["fmm"][goal][0]["mbps"] / (capacity * attached[goal]), 3),
         "ratio", handoffs_per_s=goal,
         what="against the radio's goodput capacity for the time the UE was attached (the "
              "stricter bound: the no-handoff TCP run leaves part of the radio idle)")
    emit("fmm_throughput_vs_optimal", round(vs_optimal, 3), "ratio",
         handoffs_per_s=goal, detach_ms=DETACH_S * 1000,
         command_ms=command_s * 1000, goal=">= 0.95")
    summary = {}
    for other, metric, what in (
            ("none", "fmm_vs_no_buffering", "only the anchor's path switches"),
            ("fmm-signal", "fmm_vs_signal_only",
             "with the UE's leave signal and receive reports vs the attach signal alone "
             "(the source held by the handoff call)"),
            ("fmm-call", "fmm_vs_attach_call",
             "with the UE's signals and reports vs released by the REST attach call")):
        if other in runs:
            summary[other] = ratios(runs, "fmm", other)
            emit_ratio(metric, summary[other], handoffs_per_s=goal, what=what)
    emit_udp(udp, attach_ms)
    path = None
    if set(runs) == set(MODES):
        path = plot(frequencies, optimal, {m: {f: runs[m][f][0]["mbps"] for f in frequencies}
                                           for m in MODES})
    clean = (udp["lost"], udp["reordered"], udp["duplicates"]) == (0, 0, 0)
    versus = ", ".join(f"{statistics.median(r):.2f}x {m}" for m, r in summary.items())
    print(f"scenario fmm: throughput {vs_optimal:.3f} of optimal at {goal:g} "
          f"handoffs/s (goal 0.95: {'met' if vs_optimal >= 0.95 else 'MISSED'}), "
          f"{versus or 'no other mode run'}, "
          f"{udp['on_signal']} of {udp['handoffs']} released on the UE's signal, "
          f"{udp['lost']} lost / {udp['reordered']} reordered / "
          f"{udp['duplicates']} duplicated over {udp['handoffs']} handoffs at "
          f"{udp['handoffs_per_s']:.0f}/s (goal 0/0/0: {'met' if clean else 'MISSED'})"
          + (f"; plot {path.relative_to(ROOT)}" if path else ""))
    return 0 if clean else 1


def emit_udp(udp, attach_ms):
    """The UDP run's accounting and the attach and sync times."""
    emit("fmm_lost", udp["lost"], "packets", sent=udp["sent"], handoffs=udp["handoffs"],
         handoffs_per_s=round(udp["handoffs_per_s"], 1))
    emit("fmm_reordered", udp["reordered"], "packets", sent=udp["sent"])
    emit("fmm_duplicates", udp["duplicates"], "packets", sent=udp["sent"])
    emit("fmm_unsynced", udp["unsynced"], "handoffs", handoffs=udp["handoffs"],
         purged=udp["purged"])
    emit("fmm_sync_awaits", udp["sync_awaits"].get("awaits", 0), "handoffs",
         arrived=udp["sync_awaits"].get("arrived", 0),
         expired=udp["sync_awaits"].get("expired", 0),
         max_wait_ms=udp["sync_awaits"].get("max_ms", 0.0),
         what="syncs whose target had not received the sync point yet: its agent dropped "
              "the late copies up to it")
    emit("fmm_rewound", udp["sync_awaits"].get("rewound", 0), "packets",
         what="sent again by a target whose UE reported a packet sent before them: they were "
              "in flight on a radio that was cut")
    emit("fmm_released_on_signal", udp["on_signal"], "handoffs", handoffs=udp["handoffs"],
         what="attaches the target's agent had released on the UE's signal before the call")
    emit("fmm_held_on_signal", udp["held_on_signal"], "handoffs", handoffs=udp["handoffs"],
         what="handoffs whose source's agent held on the UE's signal as it left")
    emit("fmm_attach_ms_p50", round(statistics.median(attach_ms), 2), "ms",
         what="REST attach round trip: the disarms, and the hold or release a missing "
              "datagram of the UE left undone (off the data path when both came)")
    emit("fmm_sync_us_p50", round(statistics.median(udp["sync_us"])), "us",
         what="in the app at the attach: the wait for the target's arm, the disarms, what a "
              "missing datagram left undone")


if __name__ == "__main__":
    sys.exit(main())
