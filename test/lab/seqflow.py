# SPDX-License-Identifier: Apache-2.0
"""A UDP flow with sequence numbers: a paced sender and a receiver that
counts what was lost, reordered and duplicated.

Run inside a lab host:
    python -m test.lab.seqflow send DST_IP PORT --pps 5000 --seconds 6 [--announce]
    python -m test.lab.seqflow recv PORT --expect N --idle 3
    python -m test.lab.seqflow recv PORT --iface eth0   # frames for any address
    python -m test.lab.seqflow recv PORT --delays FILE  # and each packet's one-way delay
The sender stops early on SIGTERM and reports what it sent.
The receiver prints one JSON object when the flow has been idle for --idle
seconds after the first packet (or --timeout passes, or SIGTERM comes).
"""
import argparse
import json
import signal
import socket
import struct
import sys
import time

HEADER = struct.Struct("!QQ")  # sequence number, send time in ns
POLL_S = 0.2  # how often the receiver looks at its idle bound and SIGTERM


def send(dst, port, pps, seconds, size, first=0, at=None, announce=False):
    """Sends pps*seconds datagrams numbered from `first`, or fewer if SIGTERM
    stops it first (a driver that decides when the flow has done its job);
    either way it prints how many it sent. With `announce` it first prints a
    line once the first datagram has left, so that a driver acts on a flow
    that runs, whatever this interpreter's start-up took. With `at`
    (wall-clock seconds, which every namespace shares) the first leaves then,
    so that a driver can start several flows on one schedule whatever this
    interpreter's start-up took; it also prints how late that first send was
    (`late_ms`: a start-up that took longer than the driver allowed; the flow
    then begins at once, with no burst for the time it missed)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    count = int(pps * seconds)
    pad = b"\0" * max(0, size - HEADER.size)
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(True))
    report = {}
    if at is not None:
        wait = at - time.time()
        if wait > 0:
            time.sleep(wait)
        report["late_ms"] = max(0.0, (time.time() - at) * 1e3)
    start = time.monotonic()
    for seq in range(count):
        if stopped:
            count = seq
            break
        # Paced against the start time so that late sends catch up and the
        # average rate stays at pps.
        due = start + seq / pps
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        sock.sendto(HEADER.pack(first + seq, time.time_ns()) + pad, (dst, port))
        if announce and seq == 0:
            print(json.dumps({"started": True}), flush=True)
    report.update(sent=count, seconds=time.monotonic() - start)
    print(json.dumps(report), flush=True)


ETH_P_IP = 0x0800
# A replay arrives as a burst of thousands of datagrams; the receiver must
# hold them all or it, not the network, loses packets. Root may exceed
# net.core.rmem_max with SO_RCVBUFFORCE.
RCVBUF = 64 << 20
SO_RCVBUFFORCE = getattr(socket, "SO_RCVBUFFORCE", 33)


def _big_receive_buffer(sock):
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, RCVBUF)
    except PermissionError:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
UDP_HEADER = struct.Struct("!HHHH")
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
TIMESPEC = struct.Struct("@qq")


class Stamped:
    """A UDP socket that also gives each datagram's arrival time as the
    kernel stamped it (SO_TIMESTAMPNS, the wall clock every namespace of
    the machine shares): a receiver that the scheduler runs late does not
    add its own lateness to the one-way delay."""

    def __init__(self, sock):
        self.sock = sock
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)

    def settimeout(self, t):
        self.sock.settimeout(t)

    def recv_stamped(self, size):
        data, anc, _, _ = self.sock.recvmsg(size, socket.CMSG_SPACE(TIMESPEC.size))
        for level, kind, raw in anc:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                sec, nsec = TIMESPEC.unpack(raw[:TIMESPEC.size])
                return data, sec * 1_000_000_000 + nsec
        return data, time.time_ns()


class _RawUdp:
    """UDP datagrams to `port` as they arrive on `iface`, whatever their
    destination address: a flow steered to a host that is not its
    destination still gets counted."""

    def __init__(self, iface, port):
        self.port = port
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_IP))
        _big_receive_buffer(self.sock)
        self.sock.bind((iface, 0))

    def settimeout(self, t):
        self.sock.settimeout(t)

    def recv_stamped(self, size):
        return self.recv(size), time.time_ns()

    def recv(self, size):
        while True:
            ip = self.sock.recv(size)
            ihl = (ip[0] & 0x0F) * 4
            if ip[9] != socket.IPPROTO_UDP or len(ip) < ihl + UDP_HEADER.size:
                continue
            _, dport, _, _ = UDP_HEADER.unpack_from(ip, ihl)
            if dport == self.port:
                return ip[ihl + UDP_HEADER.size:]


def receive(port, expect, idle, timeout, iface=None, delays=None):
    """Counts the flow; with `delays` (a path) also writes there, as JSON,
    [seq, send ns, arrival ns] of every packet in arrival order."""
    if iface:
        sock = _RawUdp(iface, port)
    else:
        plain = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        _big_receive_buffer(plain)
        plain.bind(("0.0.0.0", port))
        sock = Stamped(plain)
    arrivals = []
    print(json.dumps({"listening": port}), flush=True)
    seen = set()
    first = None
    received = reordered = duplicates = 0
    highest = -1
    max_gap_s = 0.0
    last_arrival = None
    deadline = time.monotonic() + timeout
    # SIGTERM ends the count once what has arrived is read (a driver that
    # knows the flow is over, when a hold may outlast any idle bound).
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(True))
    while time.monotonic() < deadline:
        quiet_for = time.monotonic() - last_arrival if last_arrival is not None else 0.0
        if received and quiet_for >= idle:
            break
        sock.settimeout(0.0 if stopped else min(POLL_S, max(0.001, idle - quiet_for)))
        try:
            data, arrived_ns = sock.recv_stamped(65535)
        except (socket.timeout, BlockingIOError):
            if stopped:
                break
            continue
        now = time.monotonic()
        if last_arrival is not None:
            max_gap_s = max(max_gap_s, now - last_arrival)
        last_arrival = now
        seq, sent_ns = HEADER.unpack_from(data)
        if delays:
            arrivals.append((seq, sent_ns, arrived_ns))
        if seq in seen:
            duplicates += 1
            continue
        seen.add(seq)
        first = seq if first is None else first
        received += 1
        if seq < highest:
            reordered += 1
        highest = max(highest, seq)
        if expect and received == expect:
            break
    lost = (expect - received) if expect else (highest + 1 - received)
    if delays:
        with open(delays, "w") as f:
            json.dump(arrivals, f)
    print(json.dumps({"received": received, "lost": lost, "reordered": reordered,
                      "duplicates": duplicates, "max_gap_ms": round(max_gap_s * 1e3, 1),
                      "first_seq": first, "last_seq": highest}),
          flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("send")
    s.add_argument("dst")
    s.add_argument("port", type=int)
    s.add_argument("--pps", type=float, default=5000)
    s.add_argument("--seconds", type=float, default=5)
    s.add_argument("--size", type=int, default=100, help="UDP payload bytes")
    s.add_argument("--first", type=int, default=0,
                   help="sequence number of the first datagram (a flow sent in parts)")
    s.add_argument("--at", type=float,
                   help="wall-clock time (Unix seconds) of the first datagram")
    s.add_argument("--announce", action="store_true",
                   help='print {"started": true} once the first datagram has left')
    r = sub.add_parser("recv")
    r.add_argument("port", type=int)
    r.add_argument("--expect", type=int, default=0)
    r.add_argument("--idle", type=float, default=3)
    r.add_argument("--timeout", type=float, default=120)
    r.add_argument("--iface", help="count frames on this interface (AF_PACKET) instead "
                                   "of datagrams addressed to this host")
    r.add_argument("--delays", help="write [seq, send ns, arrival ns] of every packet "
                                    "to this file (JSON)")
    args = parser.parse_args(argv)
    if args.cmd == "send":
        send(args.dst, args.port, args.pps, args.seconds, args.size, args.first, args.at,
             args.announce)
    else:
        receive(args.port, args.expect, args.idle, args.timeout, args.iface, args.delays)


if __name__ == "__main__":
    sys.exit(main())
