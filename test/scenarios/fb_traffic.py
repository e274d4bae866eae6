# SPDX-License-Identifier: Apache-2.0
"""The traffic of the FB scenario (FB §6.2, scaled), one role per process,
each run inside a lab namespace by test/scenarios/fb.py. Every server host
runs all three:

    server     --sink-port P --responder-port P --out FILE [--dscp D]
               the background's sink (a flow: an 8-byte size, then the data;
               it answers one byte when all arrived) and the query
               responder (each 4-byte request N answered with N bytes,
               marked D); FILE: background bytes received so far, rewritten
               every 20 ms
    background --peers IP,... --sink-port P --rate FLOWS/S --scale S
               --duration S --out FILE [--tags D,...]
               [--short-bytes N --short-dscp D]
               web-search flows (DCTCP's distribution, sizes x S), Poisson
               arrivals, each to a peer drawn at random on a new connection
               and marked with a tag drawn at random (multi-queue: the
               paper's four low-priority tags); flows below N bytes are
               marked D instead (single-queue: the switch's classifier of
               short flows). FILE: [[size, FCT ms], ...], the FCT from
               connect() to the sink's answer
    aggregator --responders IP:PORT,... --size N --rate QUERIES/S
               --duration S --out FILE [--dscp D]
               queries as Poisson arrivals: each asks every responder (a
               persistent connection each) for N/len(responders) bytes at
               once; FILE: the query completion times in ms
"""
import argparse
import bisect
import json
import os
import random
import socket
import struct
import threading
import time

CHUNK = 64 * 1024

# DCTCP's web-search flow sizes (Alizadeh et al. 2010, as FB §6.2 uses
# them): (bytes, cumulative probability), linear in between; mean 1.7 MB.
WEB_SEARCH_CDF = ((0, 0.0), (10_000, 0.15), (20_000, 0.2), (30_000, 0.3), (50_000, 0.4),
                  (80_000, 0.53), (200_000, 0.6), (1_000_000, 0.7), (2_000_000, 0.8),
                  (5_000_000, 0.9), (10_000_000, 0.97), (30_000_000, 1.0))


def web_search_mean():
    """The distribution's mean in bytes (piecewise-linear CDF)."""
    return sum((p1 - p0) * (s0 + s1) / 2
               for (s0, p0), (s1, p1) in zip(WEB_SEARCH_CDF, WEB_SEARCH_CDF[1:]))


def web_search_size(rng):
    """One flow size in bytes, by inverse transform of the CDF."""
    u = rng.random()
    probs = [p for _, p in WEB_SEARCH_CDF]
    i = max(1, bisect.bisect_left(probs, u))
    (s0, p0), (s1, p1) = WEB_SEARCH_CDF[i - 1], WEB_SEARCH_CDF[i]
    return max(1, int(s0 + (s1 - s0) * (u - p0) / (p1 - p0)))


def _mark(sock, dscp):
    if dscp:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, dscp << 2)


def _serve(port, handle):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", port))
    srv.listen(256)
    while True:
        conn, _ = srv.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


def _recv_exactly(conn, n):
    buf = bytearray()
    while len(buf) < n:
        part = conn.recv(min(CHUNK, n - len(buf)))
        if not part:
            raise ConnectionError("closed")
        buf += part
    return bytes(buf)


def _discard_exactly(conn, n, count):
    """Receives n bytes, telling count each part's size (a sink counts
    bytes, it does not keep them)."""
    while n > 0:
        part = conn.recv(min(CHUNK, n))
        if not part:
            raise ConnectionError("closed")
        n -= len(part)
        count(len(part))


def server(args):
    total = [0]
    lock = threading.Lock()

    def count(n):
        with lock:
            total[0] += n

    def sink(conn):
        try:
            (size,) = struct.unpack("!Q", _recv_exactly(conn, 8))
            _discard_exactly(conn, size, count)
            conn.sendall(b"k")
        except (ConnectionError, OSError):
            pass
        finally:
            conn.close()

    payload = bytes(1 << 20)

    def respond(conn):
        _mark(conn, args.dscp)
        try:
            while True:
                (size,) = struct.unpack("!I", _recv_exactly(conn, 4))
                conn.sendall(payload[:size])
        except (ConnectionError, OSError):
            conn.close()

    for port, handle in ((args.sink_port, sink), (args.responder_port, respond)):
        threading.Thread(target=_serve, args=(port, handle), daemon=True).start()
    print("listening on", args.sink_port, args.responder_port, flush=True)
    tmp = args.out + ".tmp"
    while True:
        time.sleep(0.02)
        with lock:
            got = total[0]
        with open(tmp, "w") as f:
            f.write(str(got))
        os.replace(tmp, args.out)  # a reader never sees a half-written count


def background(args):
    rng = random.Random(args.seed)
    peers = args.peers.split(",")
    done, lock = [], threading.Lock()
    data = bytes(CHUNK)

    tags = [int(t) for t in args.tags.split(",")]

    def flow(peer, size, dscp):
        start = time.monotonic()
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.settimeout(30)
                _mark(sock, dscp)  # before connect: the SYN is the flow's too
                sock.connect((peer, args.sink_port))
                sock.sendall(struct.pack("!Q", size))
                left = size
                while left > 0:
                    left -= sock.send(data[:min(CHUNK, left)])
                _recv_exactly(sock, 1)
        except OSError:
            return  # not completed within the run: not counted
        with lock:
            done.append([size, (time.monotonic() - start) * 1e3])

    end = time.monotonic() + args.duration
    next_flow = time.monotonic() + rng.expovariate(args.rate)
    flows = []
    while next_flow < end:
        time.sleep(max(0.0, next_flow - time.monotonic()))
        size = max(1, int(web_search_size(rng) * args.scale))
        dscp = args.short_dscp if size < args.short_bytes else rng.choice(tags)
        t = threading.Thread(target=flow, args=(rng.choice(peers), size, dscp), daemon=True)
        t.start()
        flows.append(t)
        next_flow += rng.expovariate(args.rate)
    for t in flows:  # what is still running when the run ends is cut off
        t.join(timeout=max(0.0, end + args.grace - time.monotonic()))
    with lock:
        with open(args.out, "w") as f:
            json.dump(done, f)


def aggregator(args):
    rng = random.Random(args.seed)
    conns = []
    for responder_addr in args.responders.split(","):
        host, port = responder_addr.rsplit(":", 1)
        sock = socket.create_connection((host, int(port)))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        _mark(sock, args.dscp)
        conns.append(sock)
    each = max(1, args.size // len(conns))
    request = struct.pack("!I", each)
    qcts = []
    end = time.monotonic() + args.duration
    next_query = time.monotonic() + rng.expovariate(args.rate)
    while next_query < end:
        time.sleep(max(0.0, next_query - time.monotonic()))
        start = time.monotonic()
        for sock in conns:
            sock.sendall(request)
        for sock in conns:
            _recv_exactly(sock, each)
        qcts.append((time.monotonic() - start) * 1e3)
        # Poisson arrivals; one query at a time per server (a query that
        # outlasts the next arrival delays it).
        next_query = max(next_query + rng.expovariate(args.rate), time.monotonic())
    with open(args.out, "w") as f:
        json.dump(qcts, f)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    roles = parser.add_subparsers(dest="role", required=True)
    s = roles.add_parser("server")
    s.add_argument("--sink-port", type=int, required=True)
    s.add_argument("--responder-port", type=int, required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--dscp", type=int, default=0)
    b = roles.add_parser("background")
    b.add_argument("--peers", required=True)
    b.add_argument("--sink-port", type=int, required=True)
    b.add_argument("--rate", type=float, required=True)
    b.add_argument("--scale", type=float, required=True)
    b.add_argument("--duration", type=float, required=True)
    b.add_argument("--grace", type=float, default=2.0)
    b.add_argument("--out", required=True)
    b.add_argument("--tags", default="0")
    b.add_argument("--short-bytes", type=int, default=0)
    b.add_argument("--short-dscp", type=int, default=0)
    b.add_argument("--seed", type=int, default=1)
    a = roles.add_parser("aggregator")
    a.add_argument("--responders", required=True)
    a.add_argument("--size", type=int, required=True)
    a.add_argument("--rate", type=float, required=True)
    a.add_argument("--duration", type=float, required=True)
    a.add_argument("--out", required=True)
    a.add_argument("--dscp", type=int, default=0)
    a.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    {"server": server, "background": background, "aggregator": aggregator}[args.role](args)


if __name__ == "__main__":
    main()
