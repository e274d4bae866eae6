# SPDX-License-Identifier: Apache-2.0
"""The queries of the FB scenario (FB §6.2, scaled), one role per process,
each run inside a lab namespace by test/scenarios/fb.py (the background's
senders and sinks are Go, test/scenarios/fbtraffic). Every server host runs
both:

    responder  --port P [--dscp D]
               each 4-byte request N on a connection answered with N bytes,
               marked D
    aggregator --responders IP:PORT,... --size N --rate QUERIES/S
               --duration S --out FILE [--dscp D]
               queries as Poisson arrivals: each asks every responder (a
               persistent connection each) for N/len(responders) bytes at
               once; FILE: the query completion times in ms
"""
import argparse
import json
import random
import socket
import struct
import threading
import time

CHUNK = 64 * 1024

# DCTCP's web-search flow sizes (Alizadeh et al. 2010, as FB §6.2 uses
# them): (bytes, cumulative probability), linear in between; mean 1.71 MB.
# The background's senders (Go, fbtraffic) draw from the same table; its
# test pins the mean, which sets the flow rate here.
WEB_SEARCH_CDF = ((0, 0.0), (10_000, 0.15), (20_000, 0.2), (30_000, 0.3), (50_000, 0.4),
                  (80_000, 0.53), (200_000, 0.6), (1_000_000, 0.7), (2_000_000, 0.8),
                  (5_000_000, 0.9), (10_000_000, 0.97), (30_000_000, 1.0))


def web_search_mean():
    """The distribution's mean in bytes (piecewise-linear CDF)."""
    return sum((p1 - p0) * (s0 + s1) / 2
               for (s0, p0), (s1, p1) in zip(WEB_SEARCH_CDF, WEB_SEARCH_CDF[1:]))


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


def responder(args):
    payload = bytes(1 << 20)

    def respond(conn):
        _mark(conn, args.dscp)
        try:
            while True:
                (size,) = struct.unpack("!I", _recv_exactly(conn, 4))
                conn.sendall(payload[:size])
        except (ConnectionError, OSError):
            conn.close()

    threading.Thread(target=_serve, args=(args.port, respond), daemon=True).start()
    print("listening on", args.port, flush=True)
    threading.Event().wait()


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
    r = roles.add_parser("responder")
    r.add_argument("--port", type=int, required=True)
    r.add_argument("--dscp", type=int, default=0)
    a = roles.add_parser("aggregator")
    a.add_argument("--responders", required=True)
    a.add_argument("--size", type=int, required=True)
    a.add_argument("--rate", type=float, required=True)
    a.add_argument("--duration", type=float, required=True)
    a.add_argument("--out", required=True)
    a.add_argument("--dscp", type=int, default=0)
    a.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    {"responder": responder, "aggregator": aggregator}[args.role](args)


if __name__ == "__main__":
    main()
