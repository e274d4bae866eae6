# SPDX-License-Identifier: Apache-2.0
"""Short heavy streams to UEs, one group of UEs after another, in the hybrid
trace's frames (test/upf/hybrid_trace.py: each packet carries its UE's
index and sequence, so `hybrid_trace receive` counts loss and reordering
per UE). Run inside the data network's namespace:

    python -m test.upf.ue_streams IFACE --ues 120 --group 1 --gap-ms 300 \\
        --pps 1000 --ms 150 --src-mac MAC --dst-mac MAC --src-ip IP \\
        [--pool 10.250.0.0] [--first 0] [--size 100]

UEs --first .. --first+--ues-1 (pool + 1 + index), in groups of --group:
group g starts --gap-ms after group g-1 and each of its UEs sends --pps
packets/s for --ms (the group's UEs interleaved, paced per millisecond).
Prints one JSON line: sent, seconds, per_ue (packets to each UE, indexed
from 0 = --first) and first_wall_ns (wall-clock time of each UE's first
packet).
"""
import argparse
import ipaddress
import json
import socket
import sys
import time

from test.upf.hybrid_trace import frame


def schedule(ues, group, gap_ms, pps, ms):
    """(due seconds from the start, UE index) for every packet, in time order."""
    if ues < 1 or group < 1 or pps <= 0 or ms <= 0 or gap_ms < 0:
        raise ValueError("--ues, --group, --pps and --ms must be > 0, --gap-ms >= 0")
    per_ue = max(1, int(pps * ms / 1000))
    out = []
    for first in range(0, ues, group):
        start = first // group * gap_ms / 1000.0
        members = range(first, min(ues, first + group))
        for k in range(per_ue):
            out.extend((start + k / pps, ue) for ue in members)
    out.sort(key=lambda p: p[0])
    return out


def send(iface, plan, ues, first, pool, src_mac, dst_mac, src_ip, size):
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    sock.bind((iface, 0))
    base = ipaddress.IPv4Address(pool)
    addresses = [str(base + 1 + first + i) for i in range(ues)]
    seqs, first_wall_ns = [0] * ues, [0] * ues
    start = time.perf_counter()
    for due, ue in plan:
        wait = start + due - time.perf_counter()
        if wait > 0.001:
            time.sleep(wait)
        if not first_wall_ns[ue]:
            first_wall_ns[ue] = time.time_ns()
        sock.send(frame(src_mac, dst_mac, src_ip, addresses[ue], first + ue, seqs[ue], size))
        seqs[ue] += 1
    return {"sent": len(plan), "seconds": time.perf_counter() - start, "per_ue": seqs,
            "first_wall_ns": first_wall_ns}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("iface")
    parser.add_argument("--ues", type=int, required=True)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--group", type=int, default=1)
    parser.add_argument("--gap-ms", type=float, required=True)
    parser.add_argument("--pps", type=float, required=True)
    parser.add_argument("--ms", type=float, required=True)
    parser.add_argument("--pool", default="10.250.0.0")
    parser.add_argument("--src-mac", required=True)
    parser.add_argument("--dst-mac", required=True)
    parser.add_argument("--src-ip", required=True)
    parser.add_argument("--size", type=int, default=100)
    args = parser.parse_args(argv)
    try:
        plan = schedule(args.ues, args.group, args.gap_ms, args.pps, args.ms)
    except ValueError as e:
        parser.error(str(e))
    print(json.dumps(send(args.iface, plan, args.ues, args.first, args.pool, args.src_mac,
                          args.dst_mac, args.src_ip, args.size)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
