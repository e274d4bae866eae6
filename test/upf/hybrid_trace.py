# SPDX-License-Identifier: Apache-2.0
"""Downlink traffic of N UEs with heavy-tailed rates, for the hybrid UPF.

Each UE gets a weight from a Zipf law (weight of the k-th UE ~ 1/k^s) or a
lognormal one (exp(N(0, sigma))); each packet of the trace goes to a UE
drawn in proportion to its weight, so the UEs' rates are heavy-tailed: with
the defaults (1,000 UEs, Zipf s = 1.4) the heaviest 5 % carry about 88 % of
the packets, while most UEs send a handful. Every packet carries its UE's
own sequence number, so a receiver counts loss and reordering per UE.

    python -m test.upf.hybrid_trace generate --ues 1000 --packets 100000 \\
        [--dist zipf --zipf-s 1.4 | --dist lognormal --sigma 2.0] [--seed 1] \\
        [--pool 10.250.0.0] --out trace.json
    python -m test.upf.hybrid_trace replay trace.json IFACE --pps 20000 \\
        --src-mac MAC --dst-mac MAC --src-ip IP [--size 100] [--loops 1]
        (run inside the data network's namespace; prints one JSON line)
    python -m test.upf.hybrid_trace stats trace.json [--hh-fraction 0.05]

Parameters: --ues, the number of UEs (addresses pool + 1 ... in order of
weight, heaviest first); --packets, the trace's length; --dist and its shape
(--zipf-s > 0, --sigma > 0); --seed (same seed, same trace); replay's --pps,
the offered rate (paced in batches of 1 ms, so a loaded machine sends late
rather than in bursts), --size the UDP payload bytes (>= 20, the header),
--loops how many times the trace is sent (sequence numbers keep counting).
The payload starts with PAYLOAD (struct: magic, UE index, UE sequence,
send time in ns).
"""
import argparse
import ipaddress
import json
import math
import random
import socket
import struct
import sys
import time

MAGIC = 0x46424859  # "FBHY"
PAYLOAD = struct.Struct("!IIIQ")
UDP_DST_PORT = 9100
UDP_SRC_PORT = 8080


def weights(n, dist="zipf", zipf_s=1.4, sigma=2.0, seed=1):
    """Each UE's weight, heaviest first (sum 1)."""
    if n < 1:
        raise ValueError("--ues must be at least 1")
    if dist == "zipf":
        if zipf_s <= 0:
            raise ValueError("--zipf-s must be > 0")
        raw = [1.0 / (k ** zipf_s) for k in range(1, n + 1)]
    elif dist == "lognormal":
        if sigma <= 0:
            raise ValueError("--sigma must be > 0")
        rng = random.Random(seed)
        raw = sorted((math.exp(rng.gauss(0.0, sigma)) for _ in range(n)), reverse=True)
    else:
        raise ValueError(f"--dist is zipf or lognormal, not {dist!r}")
    total = sum(raw)
    return [w / total for w in raw]


def generate(ues, packets, dist="zipf", zipf_s=1.4, sigma=2.0, seed=1, pool="10.250.0.0"):
    """The trace: {"ues": [addresses], "weights": [...], "order": [UE index per packet]}."""
    if packets < 1:
        raise ValueError("--packets must be at least 1")
    w = weights(ues, dist, zipf_s, sigma, seed)
    rng = random.Random(seed)
    order = rng.choices(range(ues), weights=w, k=packets)
    base = int(ipaddress.IPv4Address(pool))
    addresses = [str(ipaddress.IPv4Address(base + 1 + i)) for i in range(ues)]
    return {"ues": addresses, "weights": w, "order": order,
            "params": {"dist": dist, "zipf_s": zipf_s, "sigma": sigma, "seed": seed}}


def stats(trace, hh_fraction=0.05):
    """Packets per UE and the share the heaviest hh_fraction of UEs carry."""
    counts = [0] * len(trace["ues"])
    for i in trace["order"]:
        counts[i] += 1
    ranked = sorted(counts, reverse=True)
    hh = max(1, round(hh_fraction * len(counts)))
    return {"ues": len(counts), "packets": len(trace["order"]), "hh_ues": hh,
            "hh_packet_share": sum(ranked[:hh]) / max(1, sum(ranked)),
            "max_ue_packets": ranked[0], "median_ue_packets": ranked[len(ranked) // 2],
            "ues_with_packets": sum(1 for c in counts if c)}


def frame(src_mac, dst_mac, src_ip, ue, ue_index, seq, size):
    """An Ethernet/IPv4/UDP frame to the UE (checksum 0: UDP over IPv4 allows it)."""
    body = PAYLOAD.pack(MAGIC, ue_index, seq, time.monotonic_ns()) + bytes(size - PAYLOAD.size)
    udp = struct.pack("!HHHH", UDP_SRC_PORT, UDP_DST_PORT, 8 + len(body), 0) + body
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                     socket.inet_aton(src_ip), socket.inet_aton(ue))
    ip = ip[:10] + struct.pack("!H", _checksum(ip)) + ip[12:]
    return _mac(dst_mac) + _mac(src_mac) + b"\x08\x00" + ip + udp


def _checksum(header):
    s = sum(struct.unpack(f"!{len(header) // 2}H", header))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def _mac(text):
    return bytes(int(b, 16) for b in text.split(":"))


def replay(trace, iface, pps, src_mac, dst_mac, src_ip, size=100, loops=1):
    """Sends the trace at pps, paced per millisecond; returns what was sent."""
    if pps <= 0:
        raise ValueError("--pps must be > 0")
    if size < PAYLOAD.size:
        raise ValueError(f"--size must be at least {PAYLOAD.size}")
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    sock.bind((iface, 0))
    seqs = [0] * len(trace["ues"])
    sent = 0
    start = time.perf_counter()
    for _ in range(loops):
        for ue_index in trace["order"]:
            due = start + sent / pps
            wait = due - time.perf_counter()
            if wait > 0.001:
                time.sleep(wait)
            sock.send(frame(src_mac, dst_mac, src_ip, trace["ues"][ue_index], ue_index,
                            seqs[ue_index], size))
            seqs[ue_index] += 1
            sent += 1
    seconds = time.perf_counter() - start
    return {"sent": sent, "seconds": seconds, "pps": sent / seconds if seconds else 0.0,
            "per_ue": seqs}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--ues", type=int, default=1000)
    g.add_argument("--packets", type=int, default=100_000)
    g.add_argument("--dist", default="zipf", choices=("zipf", "lognormal"))
    g.add_argument("--zipf-s", type=float, default=1.4)
    g.add_argument("--sigma", type=float, default=2.0)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--pool", default="10.250.0.0")
    g.add_argument("--out", required=True)
    r = sub.add_parser("replay")
    r.add_argument("trace")
    r.add_argument("iface")
    r.add_argument("--pps", type=float, required=True)
    r.add_argument("--src-mac", required=True)
    r.add_argument("--dst-mac", required=True)
    r.add_argument("--src-ip", required=True)
    r.add_argument("--size", type=int, default=100)
    r.add_argument("--loops", type=int, default=1)
    s = sub.add_parser("stats")
    s.add_argument("trace")
    s.add_argument("--hh-fraction", type=float, default=0.05)
    args = parser.parse_args(argv)
    try:
        if args.cmd == "generate":
            trace = generate(args.ues, args.packets, args.dist, args.zipf_s, args.sigma,
                             args.seed, args.pool)
            with open(args.out, "w") as f:
                json.dump(trace, f)
            print(json.dumps(stats(trace)))
        elif args.cmd == "replay":
            with open(args.trace) as f:
                trace = json.load(f)
            out = replay(trace, args.iface, args.pps, args.src_mac, args.dst_mac, args.src_ip,
                         args.size, args.loops)
            out.pop("per_ue")
            print(json.dumps(out))
        else:
            with open(args.trace) as f:
                print(json.dumps(stats(json.load(f), args.hh_fraction)))
    except ValueError as e:
        parser.error(str(e))


if __name__ == "__main__":
    sys.exit(main())
