# SPDX-License-Identifier: Apache-2.0
"""The processes of the upf_qos scenario, each run inside a lab namespace:

    python -m test.scenarios.upf_qos_traffic relay
        (the gNodeB: GTP-U on UDP 2152 -> the inner packet into a TUN
        device, so that the UEs' sockets in this namespace get their
        downlink; their uplink leaves plain through eth0, as the lab's UPF
        forwards any non-GTP packet to the data network by L2)
    python -m test.scenarios.upf_qos_traffic server PORT PACING_BPS
        (the data network: each connection names a size, gets that many
        bytes, paced at PACING_BPS by the kernel's TCP pacing)
    python -m test.scenarios.upf_qos_traffic download SERVER PORT BYTES UE [UE ...]
        (one TCP download per UE, all at once, each from the UE's address;
        prints one JSON list of flow completion times in ms)
    python -m test.scenarios.upf_qos_traffic hh SECONDS RATE_BPS SIZE UE [UE ...]
        (heavy hitters: UDP datagrams of SIZE bytes to each UE at RATE_BPS
        each, for SECONDS)
"""
import fcntl
import json
import os
import socket
import struct
import sys
import threading
import time

GTPU_PORT = 2152
TUNSETIFF = 0x400454CA
IFF_TUN, IFF_NO_PI = 0x0001, 0x1000
SO_MAX_PACING_RATE = getattr(socket, "SO_MAX_PACING_RATE", 47)
SINK_PORT = 9


def gtp_payload(packet):
    """The inner packet of a G-PDU (TS 29.281: 8 bytes, 4 more when E, S or
    PN is set, then the extension headers' chain), or None."""
    if len(packet) < 8 or packet[1] != 0xFF:
        return None
    flags, offset = packet[0], 8
    if flags & 0x07:
        offset = 12
        next_type = packet[11]
        while next_type:
            length = packet[offset] * 4
            next_type = packet[offset + length - 1]
            offset += length
    return packet[offset:]


def relay():
    tun = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(tun, TUNSETIFF, struct.pack("16sH", b"ue0", IFF_TUN | IFF_NO_PI))
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    sock.bind(("0.0.0.0", GTPU_PORT))
    print("ready", flush=True)
    while True:
        inner = gtp_payload(sock.recv(65535))
        if inner:
            os.write(tun, inner)


def server(port, pacing_bps):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("0.0.0.0", int(port)))
    listener.listen(128)
    print("ready", flush=True)
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn, int(pacing_bps)), daemon=True).start()


def serve(conn, pacing_bps):
    with conn:
        # Bytes/s; it also turns the kernel's TCP pacing on: the flow's
        # packets leave spaced, not in window-sized bursts.
        conn.setsockopt(socket.SOL_SOCKET, SO_MAX_PACING_RATE, pacing_bps // 8)
        size = struct.unpack("!Q", recv_exactly(conn, 8))[0]
        chunk = b"\0" * 65536
        while size > 0:
            size -= conn.send(chunk[:min(size, len(chunk))])


def recv_exactly(conn, n):
    data = b""
    while len(data) < n:
        more = conn.recv(n - len(data))
        if not more:
            raise ConnectionError("closed early")
        data += more
    return data


def download(server_addr, port, size, ues):
    size, results = int(size), {}
    start = threading.Barrier(len(ues))

    def one(ue):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((ue, 0))
        start.wait()
        began = time.monotonic()
        sock.connect((server_addr, int(port)))
        sock.sendall(struct.pack("!Q", size))
        got = 0
        while got < size:
            more = sock.recv(1 << 20)
            if not more:
                break
            got += len(more)
        results[ue] = ((time.monotonic() - began) * 1000.0, got)
        sock.close()

    threads = [threading.Thread(target=one, args=(ue,)) for ue in ues]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    short = [ue for ue, (_, got) in results.items() if got != size]
    if short:
        raise SystemExit(f"downloads cut short: {short}")
    print(json.dumps([results[ue][0] for ue in ues]), flush=True)


def heavy_hitters(seconds, rate_bps, size, ues):
    """Paced by a schedule: a late sender catches up, so each UE's mean rate
    is RATE_BPS however the machine's load delays single sends."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = b"\0" * (int(size) - 28)
    gap = int(size) * 8 / float(rate_bps)
    print("ready", flush=True)
    began, sent = time.monotonic(), 0
    while time.monotonic() - began < float(seconds):
        due = began + sent * gap
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        for ue in ues:
            sock.sendto(payload, (ue, SINK_PORT))
        sent += 1
    print(json.dumps({"datagrams_per_ue": sent}), flush=True)


def main(argv):
    command, args = argv[0], argv[1:]
    if command == "relay":
        relay()
    elif command == "server":
        server(*args)
    elif command == "download":
        download(args[0], args[1], args[2], args[3:])
    elif command == "hh":
        heavy_hitters(args[0], args[1], args[2], args[3:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
