# SPDX-License-Identifier: Apache-2.0
"""Scenario: UPF-QoS, heavy hitters rerouted off the delay-critical queue
(hybrid P4 UPF, section 6.3.1 and Fig. 14).

The paper: 20 delay-critical (DC) TCP flows download 15 MB each over a
switch port shaped from 10G to 1G; heavy hitters (HHs, ~40 % of the link)
share their queue; the switch's HH detector reports them and the
controller reroutes them to the x86 path with more bandwidth, after which
the DC flows' completion times (FCT) are back at their no-HH baseline.

Here, scaled to a loaded 2-core machine (ServiceLab, pbswitch, the
embedded host; every packet through the pipeconf's UPF):
  h2 (data network) --port 2-- s1 --port 1, shaped RATE_BPS-- h1 (gNodeB)
                                  \\-port 3, shaped HB_RATE_BPS-- h3 (HB path)
The UEs live in h1: a relay decapsulates the UPF's GTP-U into a TUN device
(test/scenarios/upf_qos_traffic.py), so the UEs' own sockets get their
downlink; their uplink goes plain to h2. 20 DC UEs download DC_BYTES each
at once from h2 (TCP, the kernel's pacing capped at DC_PACING_BPS per
flow); HH_UES UEs get UDP at HH_BPS each. The UPF-QoS policy (REST
upf/qos) puts every UE of the pool in the DC class (QFI 9 -> queue 7: the
HHs are DC flows that misbehave, as in the paper) and, in the reroute
case, sends each reported HH out of port 3 (h3 stands in for the x86
UPF: the rerouted packets leave raw and are not delivered to their UE;
what the reroute took is read from its direct counter).

Cases, interleaved in each repeat (the machine's load drifts):
  baseline        DC flows alone
  hh_no_reroute   DC flows + HHs, the policy without highBandwidthPort
  hh_reroute      DC flows + HHs, the policy rerouting HHs to port 3
Metrics (JSON lines): dc_fct_p50_ms and dc_fct_p99_ms per case (over every
repeat's flows), dc_fct_p99_reroute_vs_baseline (goal <= 1.2) and
dc_fct_p99_no_reroute_vs_baseline with the per-repeat ratios' spread,
hh_report_to_reroute_ms, hh_rerouted_bytes, dc_ues_reported_heavy per case
(DC UEs the detector took for HHs: should be 0; in the reroute case they
were rerouted too). Plot: test/artifacts/upf_qos_fct.png
(the FCT distributions, as Fig. 14b).

Run as root:  .venv/bin/python -m test.scenarios.upf_qos [--quick] [--repeats N]
"""
import argparse
import datetime
import json
import math
import statistics
import subprocess
import sys
import time

from test.lab.procs import wait_until
from test.lab.servicelab import DEVICE, ROOT, RestError, ServiceLab, ensure_built, ip_of
from test.scenarios.report import emit, save, subplots

PYTHON = str(ROOT / ".venv" / "bin" / "python")
TRAFFIC = "test.scenarios.upf_qos_traffic"
REST_PORT, P4RT_PORT, AGENT_PORT = 8232, 28481, 28482
GNB, DN, HB = "h1", "h2", "h3"
HB_PORT = 3
# The paper's 1G shared port and 10G path, scaled by 1/100.
RATE_BPS, HB_RATE_BPS = 10_000_000, 100_000_000
DC_FLOWS = 20
DC_BYTES = 100_000          # the paper's 15 MB, scaled to ~2 s for 20 flows at RATE_BPS
DC_PACING_BPS = 1_200_000   # per DC flow: ~2.4x its fair share, and light for the detector
HH_UES, HH_BPS, HH_BYTES = 2, 2_500_000, 1400   # 50 % of the shared link
# Heavy: over 2 Mbit/s of 1,400-byte packets (a mean gap under 5.6 ms):
# an HH's gap is 4.5 ms, a DC flow's at its pacing cap 9.3 ms.
HH_SETTINGS = {"enabled": True, "rateBps": 2_000_000, "packetBytes": HH_BYTES, "idleMs": 500}
# A UE is reported only after a 300 ms window in which it sent 2 Mbit/s on
# average (75 kB): a DC flow's first flight fills no such window (its
# pacing cap is 1.2 Mbit/s), an HH's 2.5 Mbit/s does (94 kB).
MIN_OBSERVE_MS = 300
N3, UE_POOL = "10.0.0.100", "10.250.0.0/16"
DC_UES = [f"10.250.0.{i}" for i in range(1, DC_FLOWS + 1)]
HH_LIST = [f"10.250.0.{101 + i}" for i in range(HH_UES)]
SERVER_PORT = 5001
INNER_MTU = 1400            # GTP-U adds 36 bytes; the veths carry 1500
DC_INITCWND = 4
CASES = ("baseline", "hh_no_reroute", "hh_reroute")


class QosLab(ServiceLab):
    """ServiceLab with the shared port and the HB port shaped by pbswitch
    (its strict-priority queues are where DC flows and HHs meet)."""

    def _switch_argv(self, ports):
        shaped = {"1": RATE_BPS, str(HB_PORT): HB_RATE_BPS}
        spec = []
        for flag, value in zip(ports[::2], ports[1::2]):
            number = value.partition("=")[0]
            spec += [flag, value + (f"@{shaped[number]}" if number in shaped else "")]
        return super()._switch_argv(spec)


def policy(reroute):
    body = {"deviceId": DEVICE, "appId": 1, "priority": 10, "filter": {"ueAddress": UE_POOL},
            "qfi": 9, "queue": 7, "idleMs": 1000}
    if reroute:
        body["highBandwidthPort"] = HB_PORT
    return body


def prepare(lab, min_observe_ms):
    """The UPF's interfaces and sessions, the detector's settings, the UEs
    in h1 behind the GTP relay, the download server in h2."""
    rest = lab.rest
    rest.post("upf/interfaces", {"deviceId": DEVICE, "kind": "ACCESS", "prefix": N3 + "/32"})
    rest.post("upf/interfaces", {"deviceId": DEVICE, "kind": "CORE", "prefix": UE_POOL})
    rest.post("upf/sessions/batch", {"sessions": [
        {"deviceId": DEVICE, "ueAddress": ue, "n3Address": N3, "uplinkTeid": 0x1000 + i,
         "gnbAddress": ip_of(GNB), "downlinkTeid": 0x2000 + i, "qfi": 1}
        for i, ue in enumerate(DC_UES + HH_LIST)]})
    rest.call("PUT", "upf/heavy-hitters/settings",
              {**HH_SETTINGS, "minObserveMs": min_observe_ms})
    gnb, dn = lab.hosts[GNB], lab.hosts[DN]
    for key in ("all", "default"):
        gnb.run("sysctl", "-qw", f"net.ipv4.conf.{key}.rp_filter=0")
    for ue in DC_UES + HH_LIST:
        gnb.run("ip", "addr", "add", ue + "/32", "dev", "lo")
    relay = start(lab, GNB, ["relay"])
    gnb.run("ip", "link", "set", "ue0", "up")
    # initcwnd 4: the detector reports a UE after ~7 packets back to back
    # (it starts a UE at twice the threshold gap, decaying by 7/8 a packet);
    # Linux's initial window of 10 leaves the server in one burst, which
    # made every DC flow a heavy hitter in its first RTT.
    dn.run("ip", "route", "add", UE_POOL, "via", ip_of(GNB), "dev", "eth0", "mtu", str(INNER_MTU),
           "initcwnd", str(DC_INITCWND))
    server = start(lab, DN, ["server", str(SERVER_PORT), str(DC_PACING_BPS)])
    return [relay, server]


def start(lab, host, args):
    proc = subprocess.Popen(lab.hosts[host].popen_argv([PYTHON, "-m", TRAFFIC, *args]),
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)
    if proc.stdout.readline().strip() != "ready":
        proc.kill()
        raise RuntimeError(f"{args[0]} in {host} did not start")
    return proc


def stop(proc):
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def run_case(lab, case):
    """One case: returns {"fct_ms": [...], "reroutes": [...], "reported": n}."""
    rest = lab.rest
    rest.post("upf/qos", policy(reroute=case == "hh_reroute"))
    reported_before = len(rest.get("upf/heavy-hitters")["heavyHitters"])
    hh = None
    try:
        if case != "baseline":
            hh = start(lab, DN, ["hh", "120", str(HH_BPS), str(HH_BYTES), *HH_LIST])
            # The detector needs a 300 ms window of each HH; the reroute
            # case starts its DC flows once both HHs are rerouted.
            if case == "hh_reroute":
                wait_until(lambda: len(rest.get("upf/qos/reroutes")["reroutes"]) >= HH_UES,
                           timeout=10.0, what="both heavy hitters rerouted")
            else:
                wait_until(lambda: len(rest.get("upf/heavy-hitters")["heavyHitters"])
                           >= reported_before + HH_UES, timeout=10.0, what="both HHs reported")
        started = datetime.datetime.now(datetime.timezone.utc)
        out = subprocess.run(lab.hosts[GNB].popen_argv(
            [PYTHON, "-m", TRAFFIC, "download", ip_of(DN), str(SERVER_PORT), str(DC_BYTES),
             *DC_UES]), capture_output=True, text=True, cwd=ROOT, timeout=120)
        if out.returncode != 0:
            raise RuntimeError(f"downloads failed: {out.stderr.strip()[-500:]}")
        reroutes = rest.get("upf/qos/reroutes")["reroutes"]
        reports = rest.get("upf/heavy-hitters")["heavyHitters"][reported_before:]
        dc_reports = [h for h in reports if h["ueAddress"] in DC_UES]
        log_dc_reports(case, started, dc_reports, reroutes)
        return {"fct_ms": json.loads(out.stdout.strip().splitlines()[-1]), "reroutes": reroutes,
                "dc_reported": sorted({h["ueAddress"] for h in dc_reports})}
    finally:
        if hh is not None:
            stop(hh)
        rest.delete(f"upf/qos/{DEVICE}")
        # The detector forgets a UE idle for its idleMs: the next case's
        # HHs are reported afresh.
        time.sleep(HH_SETTINGS["idleMs"] / 1000.0 * 3)


def since_ms(start, iso):
    return (datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")) - start
            ).total_seconds() * 1000.0


def log_dc_reports(case, started, reports, reroutes):
    """Which DC UEs the detector reported, when (ms after the downloads
    started) and at what EWMA gap; which of them were rerouted."""
    rerouted = {x["ueAddress"] for x in reroutes}
    for h in sorted(reports, key=lambda h: h["reportedAt"]):
        print(f"upf_qos: {case}: DC UE {h['ueAddress']} reported heavy at "
              f"{since_ms(started, h['reportedAt']):.0f} ms, EWMA gap {h['ewmaGapUs']:.0f} us"
              f"{', rerouted' if h['ueAddress'] in rerouted else ''}", file=sys.stderr, flush=True)


def percentile(values, q):
    """Nearest rank: the smallest value with at least q % of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100.0 * len(ordered)) - 1)]


def report(runs, repeats, conditions):
    pooled = {c: [f for run in runs for f in run[c]["fct_ms"]] for c in CASES}
    for case in CASES:
        emit("dc_fct_p50_ms", round(percentile(pooled[case], 50), 1), "ms", case=case,
             flows=len(pooled[case]), **conditions)
        emit("dc_fct_p99_ms", round(percentile(pooled[case], 99), 1), "ms", case=case,
             flows=len(pooled[case]), **conditions)
    p99 = {c: percentile(pooled[c], 99) for c in CASES}
    for case, metric in (("hh_reroute", "dc_fct_p99_reroute_vs_baseline"),
                         ("hh_no_reroute", "dc_fct_p99_no_reroute_vs_baseline")):
        per_repeat = [percentile(r[case]["fct_ms"], 99) / percentile(r["baseline"]["fct_ms"], 99)
                      for r in runs]
        emit(metric, round(p99[case] / p99["baseline"], 3), "ratio", repeats=repeats,
             per_repeat_min=round(min(per_repeat), 3), per_repeat_max=round(max(per_repeat), 3),
             per_repeat=[round(x, 3) for x in per_repeat], **conditions)
    reroutes = [x for r in runs for x in r["hh_reroute"]["reroutes"]]
    delays = [(datetime.datetime.fromisoformat(x["since"].replace("Z", "+00:00"))
               - datetime.datetime.fromisoformat(x["cause"]["reportedAt"].replace("Z", "+00:00"))
               ).total_seconds() * 1000.0 for x in reroutes]
    if delays:
        emit("hh_report_to_reroute_ms", round(statistics.median(delays), 2), "ms",
             what="digest received -> steering entry written, median", max=round(max(delays), 2),
             reroutes=len(delays))
    emit("hh_rerouted_bytes", sum(x["bytes"] for x in reroutes), "bytes",
         what="the reroutes' direct counters when the DC flows were done", repeats=repeats)
    # A DC UE reported heavy in the reroute case was rerouted (every UE is
    # in the DC class) and its flow sent to h3, where it is lost until the
    # reroute idles: the scenario counts them rather than hide them.
    for case in CASES:
        emit("dc_ues_reported_heavy", sum(len(r[case]["dc_reported"]) for r in runs), "UE reports",
             case=case, repeats=repeats, dc_flows_per_repeat=DC_FLOWS)
    plot(pooled)
    print(f"upf_qos: DC FCT p99 baseline {p99['baseline']:.0f} ms, with HHs "
          f"{p99['hh_no_reroute']:.0f} ms ({p99['hh_no_reroute'] / p99['baseline']:.2f}x), "
          f"HHs rerouted {p99['hh_reroute']:.0f} ms ({p99['hh_reroute'] / p99['baseline']:.2f}x; "
          f"goal <= 1.2) over {repeats} repeat(s)", flush=True)


def plot(pooled):
    fig, ax = subplots(figsize=(6, 4))
    labels = {"baseline": "DC only (baseline)", "hh_no_reroute": "DC + HHs (traditional)",
              "hh_reroute": "DC + HHs rerouted (hybrid)"}
    for case in CASES:
        xs = sorted(pooled[case])
        ax.step(xs, [(i + 1) / len(xs) for i in range(len(xs))], where="post", label=labels[case])
    ax.set_xlabel("DC flow completion time (ms)")
    ax.set_ylabel("CDF")
    ax.set_title(f"UPF-QoS: {DC_FLOWS} DC downloads of {DC_BYTES // 1000} kB, "
                 f"{RATE_BPS // 1_000_000} Mbit/s shared port")
    ax.legend()
    return save(fig, "upf_qos_fct")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--min-observe-ms", type=int, default=MIN_OBSERVE_MS,
                        help="the detector's minimum observation (0: the EWMA alone)")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    ensure_built()
    conditions = {"rate_bps": RATE_BPS, "hb_rate_bps": HB_RATE_BPS, "dc_bytes": DC_BYTES,
                  "hh_ues": HH_UES, "hh_bps": HH_BPS, "switch": "pbswitch",
                  "min_observe_ms": args.min_observe_ms, "load_avg_1m": None}
    runs = []
    with QosLab(prefix="fuw-", rest_port=REST_PORT, p4rt_port=P4RT_PORT,
                agent_port=AGENT_PORT) as lab:
        procs = prepare(lab, args.min_observe_ms)
        try:
            for i in range(repeats):
                # Rotate the order: no case always runs first after a pause.
                order = CASES[i % 3:] + CASES[:i % 3]
                runs.append({case: run_case(lab, case) for case in order})
        finally:
            for proc in procs:
                stop(proc)
    with open("/proc/loadavg") as f:
        conditions["load_avg_1m"] = float(f.read().split()[0])
    report(runs, repeats, conditions)


if __name__ == "__main__":
    try:
        main()
    except (RestError, RuntimeError, TimeoutError) as e:
        print(f"upf_qos failed: {e}", file=sys.stderr)
        sys.exit(1)
