# SPDX-License-Identifier: Apache-2.0
"""Frames in and out of a lab host, run inside its namespace:

    python -m test.upf.gtpio sniff IFACE FILTER COUNT TIMEOUT   (prints "ready",
        then one JSON list of the hex frames that matched the BPF filter)
    python -m test.upf.gtpio send IFACE HEX [HEX ...]
    python -m test.upf.gtpio gtp-recv --expect N --idle S [--timeout S]
        (counts seqflow's datagrams inside the GTP-U this host receives on
        UDP 2152, as seqflow recv does for plain ones; SIGTERM ends the
        count once what has arrived is read)
"""
import json
import signal
import socket
import sys
import time

from scapy.all import AsyncSniffer, conf, sendp  # noqa: F401 - conf loads the layers

from test.lab import seqflow


def sniff(iface, bpf, count, timeout):
    sniffer = AsyncSniffer(iface=iface, filter=bpf, count=int(count), store=True)
    unopened = sniffer.stop_cb
    sniffer.start()
    # AsyncSniffer opens its socket in its thread and then replaces stop_cb.
    while sniffer.stop_cb is unopened:
        time.sleep(0.01)
    print("ready", flush=True)
    sniffer.join(timeout=float(timeout))
    frames = sniffer.stop() if sniffer.running else sniffer.results
    frames = frames or []
    print(json.dumps([bytes(f).hex() for f in frames]), flush=True)


def send(iface, *frames):
    for frame in frames:
        sendp(bytes.fromhex(frame), iface=iface, verbose=False)


GTPU_PORT = 2152
# G-PDU header with its optional fields and a one-word PDU Session
# Container (what the UPF's encapsulation writes), then inner IPv4 and UDP.
GTPU_BYTES = 8 + 4 + 4
INNER_HEADERS = 20 + 8


def gtp_recv(expect, idle, timeout=120.0):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    seqflow._big_receive_buffer(sock)
    sock.bind(("0.0.0.0", GTPU_PORT))
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(True))
    print("ready", flush=True)
    seen, received, reordered, duplicates, highest = set(), 0, 0, 0, -1
    last, max_gap_s = None, 0.0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and received < expect:
        if last is not None and time.monotonic() - last >= idle:
            break
        sock.settimeout(0.0 if stopped else 0.2)
        try:
            data = sock.recv(65535)
        except (socket.timeout, BlockingIOError):
            if stopped:
                break
            continue
        now = time.monotonic()
        if last is not None:
            max_gap_s = max(max_gap_s, now - last)
        last = now
        seq, _ = seqflow.HEADER.unpack_from(data, GTPU_BYTES + INNER_HEADERS)
        if seq in seen:
            duplicates += 1
            continue
        seen.add(seq)
        received += 1
        if seq < highest:
            reordered += 1
        highest = max(highest, seq)
    print(json.dumps({"received": received, "lost": expect - received, "reordered": reordered,
                      "duplicates": duplicates, "max_gap_ms": round(max_gap_s * 1e3, 1)}),
          flush=True)


def main(argv):
    if argv[0] == "gtp-recv":
        args = dict(zip(argv[1::2], argv[2::2]))
        gtp_recv(int(args["--expect"]), float(args["--idle"]),
                 float(args.get("--timeout", 120.0)))
    elif argv[0] == "sniff":
        sniff(*argv[1:])
    elif argv[0] == "send":
        send(*argv[1:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
