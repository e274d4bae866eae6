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
    python -m test.upf.hybrid_trace receive --ues N --hh H [--idle 3] [--timeout 300]
        (run inside the gNodeB's namespace: counts the trace's packets inside
        the GTP-U it receives on UDP 2152, per UE; prints "ready", then one
        JSON line when nothing came for --idle seconds or on SIGTERM)

Parameters: --ues, the number of UEs (addresses pool + 1 ... in order of
weight, heaviest first); --packets, the trace's length; --dist and its shape
(--zipf-s > 0, --sigma > 0); --seed (same seed, same trace); replay's --pps,
the offered rate (paced in batches of 1 ms, so a loaded machine sends late
rather than in bursts), --size the UDP payload bytes (>= 20, the header),
--loops how many times the trace is sent (sequence numbers keep counting);
replay's JSON line has per_ue (packets sent to each UE) and first_wall_ns
(wall-clock time of each UE's first packet, 0 for none). receive's --hh
says that UEs 0..H-1 (the heaviest) are the heavy hitters: its one-way
latencies (CLOCK_MONOTONIC, one machine) are kept per class.
The payload starts with PAYLOAD (struct: magic, UE index, UE sequence,
send time in ns, CLOCK_MONOTONIC).
"""
import argparse
import ipaddress
import json
import math
import random
import signal
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
    first_wall_ns = [0] * len(trace["ues"])
    sent = 0
    start = time.perf_counter()
    for _ in range(loops):
        for ue_index in trace["order"]:
            due = start + sent / pps
            wait = due - time.perf_counter()
            if wait > 0.001:
                time.sleep(wait)
            if not first_wall_ns[ue_index]:
                first_wall_ns[ue_index] = time.time_ns()
            sock.send(frame(src_mac, dst_mac, src_ip, trace["ues"][ue_index], ue_index,
                            seqs[ue_index], size))
            seqs[ue_index] += 1
            sent += 1
    seconds = time.perf_counter() - start
    return {"sent": sent, "seconds": seconds, "pps": sent / seconds if seconds else 0.0,
            "per_ue": seqs, "first_wall_ns": first_wall_ns}


GTPU_PORT = 2152
# What the UPF's encapsulation puts before the trace's payload: GTP-U with
# its optional fields and a one-word PDU Session Container, inner IPv4, UDP.
INNER_OFFSET = 8 + 4 + 4 + 20 + 8


class Tally:
    """Per-UE counts of the trace's packets as they arrive: received (first
    copies), duplicates, reordered (a sequence below one already seen),
    the highest sequence; one-way latencies per class (HH or not)."""

    def __init__(self, ues, hh):
        self.hh = hh
        self.received = [0] * ues
        self.duplicates = [0] * ues
        self.reordered = [0] * ues
        self.highest = [-1] * ues
        self.seen = [set() for _ in range(ues)]
        self.latency_us = {"hh": [], "non_hh": []}
        self.first_ns = None
        self.last_ns = None

    def add(self, payload, now_ns):
        magic, ue, seq, sent_ns = PAYLOAD.unpack_from(payload)
        if magic != MAGIC or ue >= len(self.received):
            return False
        if seq in self.seen[ue]:
            self.duplicates[ue] += 1
            return True
        self.seen[ue].add(seq)
        self.received[ue] += 1
        if seq < self.highest[ue]:
            self.reordered[ue] += 1
        self.highest[ue] = max(self.highest[ue], seq)
        self.latency_us["hh" if ue < self.hh else "non_hh"].append((now_ns - sent_ns) / 1000.0)
        self.first_ns = self.first_ns or now_ns
        self.last_ns = now_ns
        return True

    def result(self):
        return {"received": self.received, "duplicates": self.duplicates,
                "reordered": self.reordered,
                "latency_us": {k: [round(x, 1) for x in v] for k, v in self.latency_us.items()},
                "seconds": (self.last_ns - self.first_ns) / 1e9 if self.first_ns else 0.0}


def receive(ues, hh, idle=3.0, timeout=300.0):
    """Counts the trace's packets inside the GTP-U arriving on UDP 2152
    until nothing came for `idle` seconds (after the first), `timeout`, or
    SIGTERM; returns Tally.result()."""
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    sock.bind(("0.0.0.0", GTPU_PORT))
    sock.settimeout(0.2)
    tally = Tally(ues, hh)
    print("ready", flush=True)
    deadline = time.monotonic() + timeout
    last = None
    while not stop and time.monotonic() < deadline:
        if last is not None and time.monotonic() - last >= idle:
            break
        try:
            data = sock.recv(65535)
        except socket.timeout:
            continue
        except InterruptedError:
            continue
        now = time.monotonic_ns()
        if len(data) >= INNER_OFFSET + PAYLOAD.size and tally.add(data[INNER_OFFSET:], now):
            last = time.monotonic()
    return tally.result()


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
    r.add_argument("--per-ue", action="store_true", help="print per_ue and first_wall_ns")
    v = sub.add_parser("receive")
    v.add_argument("--ues", type=int, required=True)
    v.add_argument("--hh", type=int, default=0)
    v.add_argument("--idle", type=float, default=3.0)
    v.add_argument("--timeout", type=float, default=300.0)
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
            if not args.per_ue:
                out.pop("per_ue")
                out.pop("first_wall_ns")
            print(json.dumps(out))
        elif args.cmd == "receive":
            if args.ues < 1 or not 0 <= args.hh <= args.ues:
                raise ValueError("--ues must be at least 1 and --hh 0..--ues")
            print(json.dumps(receive(args.ues, args.hh, args.idle, args.timeout)), flush=True)
        else:
            with open(args.trace) as f:
                print(json.dumps(stats(json.load(f), args.hh_fraction)))
    except ValueError as e:
        parser.error(str(e))


if __name__ == "__main__":
    sys.exit(main())
