# SPDX-License-Identifier: Apache-2.0
"""Scenario: NFV flow migration (Programmable Buffers, SOSR'18).

A UDP flow (h1 -> the NF at 10.0.0.2) reaches the old NF instance (h2, port 2).
The operator migrates the NF: POST apps/nfv/migrations holds the flow in a
buffer; the NF's state moves (emulated by waiting `transfer` seconds); POST
.../complete releases the held packets, in order, into the new instance (h3,
port 3), and the flow follows. (The paper's baselines, no buffering and
controller buffering, are not built yet: the plot shows the optimal line and
FlowBuf only.)

JSON lines: nfv_migration_lost, nfv_migration_reordered, and per transfer
time nfv_held_packets_<ms>ms and nfv_release_ms_<ms>ms; a plot in
test/artifacts/nfv_migration.png. Run as root:
    .venv/bin/python -m test.scenarios.nfv_migration [--quick]
"""
import argparse
import json
import subprocess
import sys
import time

from test.demo.service_demo import combine
from test.lab.servicelab import DEVICE, ROOT, ServiceLab, ip_of
from test.scenarios.report import emit, save, subplots

PORT = 9000


def flow():
    return {"ipv4Src": ip_of("h1") + "/32", "ipv4Dst": ip_of("h2") + "/32", "ipProto": 17,
            "l4DstPort": PORT}


def receiver(lab, python, host, timeout):
    argv = [python, "-m", "test.lab.seqflow", "recv", str(PORT), "--expect", "0", "--idle", "4",
            "--timeout", str(timeout)]
    if host != "h2":
        argv += ["--iface", "eth0"]
    proc = subprocess.Popen(lab.hosts[host].popen_argv(argv), stdout=subprocess.PIPE, text=True,
                            cwd=ROOT)
    proc.stdout.readline()
    return proc


def migrate_once(transfer, pps, seconds):
    """One migration on a fresh lab; returns the flow's accounting."""
    python = str(ROOT / ".venv" / "bin" / "python")
    with ServiceLab(prefix="fbn-", rest_port=8193, p4rt_port=28293, agent_port=28294) as lab:
        timeout = seconds + transfer + 20
        receivers = {h: receiver(lab, python, h, timeout) for h in ("h2", "h3")}
        send = subprocess.Popen(lab.hosts["h1"].popen_argv(
            [python, "-m", "test.lab.seqflow", "send", ip_of("h2"), str(PORT), "--pps", str(pps),
             "--seconds", str(seconds)]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
        time.sleep(1.0)
        migration = lab.rest.post("apps/nfv/migrations", {"deviceId": DEVICE, "inPort": 1,
                                                          "filter": flow()})
        time.sleep(transfer)
        held = lab.rest.get(f"buffers/{DEVICE}/{migration['bufferId']}")["occupancyPackets"]
        start = time.perf_counter()
        lab.rest.post(f"apps/nfv/migrations/{migration['id']}/complete", {"port": 3})
        release_ms = (time.perf_counter() - start) * 1e3
        sent = json.loads(send.communicate(timeout=seconds + 30)[0])["sent"]
        result = combine(sent, {h: json.loads(r.communicate(timeout=timeout + 10)[0]
                                              .strip().splitlines()[-1])
                                for h, r in receivers.items()})
    return {"transfer_ms": int(transfer * 1000), "sent": sent, "held": held,
            "release_ms": round(release_ms, 2), **result}


def plot(runs, pps):
    xs = [r["transfer_ms"] for r in runs]
    fig, ax = subplots(figsize=(6, 4))
    ax.plot(xs, [0] * len(xs), "k--", label="optimal (nothing lost)")
    ax.plot(xs, [r["lost"] for r in runs], "o-", label="FlowBuf (lost)")
    ax.plot(xs, [r["held"] for r in runs], "^:", label="FlowBuf (held, then delivered)")
    ax.set_xlabel("NF state transfer time (ms)")
    ax.set_ylabel("packets")
    ax.set_title(f"NFV flow migration, {pps} packets/s")
    ax.legend()
    return save(fig, "nfv_migration")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    transfers = [0.2, 1.0] if args.quick else [0.1, 0.5, 1.0, 2.0]
    pps = 2000
    runs = [migrate_once(t, pps, seconds=t + 3) for t in transfers]
    for r in runs:
        ms = r["transfer_ms"]
        emit(f"nfv_held_packets_{ms}ms", r["held"], "packets", sent=r["sent"], pps=pps)
        emit(f"nfv_release_ms_{ms}ms", r["release_ms"], "ms", what="REST complete call")
    emit("nfv_migration_lost", sum(r["lost"] for r in runs), "packets", migrations=len(runs))
    emit("nfv_migration_reordered", sum(r["reordered"] + r["duplicates"] for r in runs), "packets",
         migrations=len(runs))
    path = plot(runs, pps)
    lost = sum(r["lost"] for r in runs)
    print(f"scenario nfv_migration: {len(runs)} migrations, {lost} lost "
          f"(goal 0: {'met' if lost == 0 else 'MISSED'}), plot {path.relative_to(ROOT)}")
    return 0 if lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
