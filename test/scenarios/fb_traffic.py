# SPDX-License-Identifier: Apache-2.0
"""The traffic of the FB burst-absorption scenario, one role per process,
each run inside a lab namespace by test/scenarios/fb.py:

    responder  --listen PORT [--dscp D]     answers each 4-byte request N with N bytes
    sink       --listen PORT --out FILE     counts what it receives (FILE: bytes so far,
                                            rewritten every 20 ms)
    bulk       --to IP:PORT --flows N --on S --off S --duration S
               long-lived TCP flows sending as fast as they can while "on"
    aggregator --responders IP:PORT,... --size N --interval S --duration S
               --out FILE [--dscp D]
               every interval, asks every responder for N bytes at once (an
               incast query) and records the query completion time

All use persistent TCP connections, so a query's completion time is the
incast's, not connection set-up's."""
import argparse
import json
import os
import socket
import struct
import threading
import time

CHUNK = 64 * 1024


def _mark(sock, dscp):
    if dscp:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, dscp << 2)


def _listen(port):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", port))
    srv.listen(64)
    return srv


def _serve(port, handle):
    srv = _listen(port)
    print(f"listening on {port}", flush=True)
    while True:
        conn, _ = srv.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


def _recv_exactly(conn, n):
    buf = bytearray()
    while len(buf) < n:
        part = conn.recv(n - len(buf))
        if not part:
            raise ConnectionError("closed")
        buf += part
    return bytes(buf)


def responder(args):
    payload = bytes(1 << 20)

    def handle(conn):
        _mark(conn, args.dscp)
        try:
            while True:
                (size,) = struct.unpack("!I", _recv_exactly(conn, 4))
                conn.sendall(payload[:size])
        except (ConnectionError, OSError):
            conn.close()
    _serve(args.listen, handle)


def sink(args):
    total = [0]
    lock = threading.Lock()

    def handle(conn):
        while True:
            data = conn.recv(CHUNK)
            if not data:
                return
            with lock:
                total[0] += len(data)

    threading.Thread(target=_serve, args=(args.listen, handle), daemon=True).start()
    tmp = args.out + ".tmp"
    while True:
        time.sleep(0.02)
        with lock:
            count = total[0]
        with open(tmp, "w") as f:
            f.write(str(count))
        os.replace(tmp, args.out)  # a reader never sees a half-written count


def bulk(args):
    host, port = args.to.rsplit(":", 1)
    data = bytes(CHUNK)
    end = time.monotonic() + args.duration
    period = args.on + args.off

    def flow():
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # A small send buffer, so that "off" stops the flow within ~25 ms at
        # 10 Mbit/s instead of draining megabytes the kernel still holds.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
        sock.connect((host, int(port)))
        # A blocked send returns within 50 ms, so an off period starts on time.
        sock.settimeout(0.05)
        while (now := time.monotonic()) < end:
            phase = (now - start) % period
            if phase >= args.on:  # off: idle until the next on period
                time.sleep(min(period - phase, end - now))
                continue
            try:
                sock.send(data)
            except socket.timeout:
                pass
        sock.close()

    start = time.monotonic()
    flows = [threading.Thread(target=flow) for _ in range(args.flows)]
    for f in flows:
        f.start()
    for f in flows:
        f.join()


def aggregator(args):
    conns = []
    for responder_addr in args.responders.split(","):
        host, port = responder_addr.rsplit(":", 1)
        sock = socket.create_connection((host, int(port)))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        _mark(sock, args.dscp)
        conns.append(sock)
    request = struct.pack("!I", args.size)
    qcts = []
    end = time.monotonic() + args.duration
    next_query = time.monotonic()
    while time.monotonic() < end:
        time.sleep(max(0.0, next_query - time.monotonic()))
        next_query += args.interval
        start = time.monotonic()
        for sock in conns:
            sock.sendall(request)
        for sock in conns:
            _recv_exactly(sock, args.size)
        qcts.append((time.monotonic() - start) * 1e3)
    with open(args.out, "w") as f:
        json.dump(qcts, f)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    roles = parser.add_subparsers(dest="role", required=True)
    r = roles.add_parser("responder")
    r.add_argument("--listen", type=int, required=True)
    r.add_argument("--dscp", type=int, default=0)
    s = roles.add_parser("sink")
    s.add_argument("--listen", type=int, required=True)
    s.add_argument("--out", required=True)
    b = roles.add_parser("bulk")
    b.add_argument("--to", required=True)
    b.add_argument("--flows", type=int, default=2)
    b.add_argument("--on", type=float, required=True)
    b.add_argument("--off", type=float, required=True)
    b.add_argument("--duration", type=float, required=True)
    a = roles.add_parser("aggregator")
    a.add_argument("--responders", required=True)
    a.add_argument("--size", type=int, required=True)
    a.add_argument("--interval", type=float, required=True)
    a.add_argument("--duration", type=float, required=True)
    a.add_argument("--out", required=True)
    a.add_argument("--dscp", type=int, default=0)
    args = parser.parse_args(argv)
    {"responder": responder, "sink": sink, "bulk": bulk, "aggregator": aggregator}[args.role](args)


if __name__ == "__main__":
    main()
