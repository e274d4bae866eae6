# SPDX-License-Identifier: Apache-2.0
"""The UE's signals in the mobility lab, sent from the UE's namespace by one
long-running process: per line read on stdin (a radio's interface name), one
UDP datagram out of that radio to the server's signal port, then "ok" once it
has left. Each datagram carries the UE's receive report, the newest downlink
packet the UE took, as LTE's PDCP status report tells a target eNB what the UE
has. The layout is the buffer agent's (buffer-agent/engine/report.go): "FBRX",
version 1, a flags byte 0, then that packet's IPv4 identification and L4
checksum, big endian. Before the UE has taken a packet, the datagram reports
just that (flags 1, the id fields 0): the target then has nothing to purge
(a datagram without a report would leave its release unsynced).

The newest packet is read from raw IP sockets (one per protocol with an
id: TCP, UDP, ICMP), which the kernel hands a copy of each packet the UE's
stack takes for itself, after prerouting: a frame a cut radio's gate dropped
(the lab's RadioGates), or one a cut radio brought to another MAC address
(a lab without air queues), is never seen. A report reads every packet that
arrived before it. (A packet socket would see a frame before prerouting
drops it: the report then named packets the UE never took, and the target
purged them.)

A line "await ID SECONDS" (ID: a packet id as 8 hex digits) answers "ok" once
the UE has taken that packet, or "timeout" after SECONDS: the lab's handoff
command, which reaches the UE behind the data its eNB sent before it.

    python -m test.lab.ue_signal UE_IP SERVER_IP PORT
"""
import collections
import select
import socket
import sys
import threading

REPORT_MAGIC, REPORT_VERSION = b"FBRX", 1
REPORT_NOTHING_RECEIVED = 1  # the flag of a report of no packet taken yet
# Where each protocol's checksum lies in its header (as the agent reads it).
CHECKSUM_AT = {6: 16, 17: 6, 1: 2}
SNAP = 128
# How many of the newest packet ids an await looks back over (the UE may
# have taken more packets after the one awaited, from another eNB).
RECENT = 4096


def packet_id(ip, length):
    """The (IPv4 id, L4 checksum) of an IPv4 packet as 4 bytes, or None when
    it has none (another protocol, or truncated)."""
    if length < 20 or ip[0] >> 4 != 4:
        return None
    ihl = (ip[0] & 0x0F) * 4
    at = CHECKSUM_AT.get(ip[9])
    if at is None or ihl < 20 or ihl + at + 2 > length:
        return None
    return bytes(ip[4:6]) + bytes(ip[ihl + at:ihl + at + 2])


def report(newest):
    """The datagram's payload: the receive report of `newest` (4 bytes from
    packet_id), or, when the UE has taken nothing yet (None), the report of
    nothing received."""
    if newest is None:
        return REPORT_MAGIC + bytes([REPORT_VERSION, REPORT_NOTHING_RECEIVED]) + bytes(4)
    return REPORT_MAGIC + bytes([REPORT_VERSION, 0]) + newest


class TakenPackets:
    """The ids of the packets the UE took, newest last, and a wait for one."""

    def __init__(self, keep=RECENT):
        self.newest = None
        self._recent = collections.deque(maxlen=keep)
        self._taken = threading.Condition()

    def take(self, pid):
        with self._taken:
            self.newest = pid
            self._recent.append(pid)
            self._taken.notify_all()

    def await_taken(self, pid, timeout_s):
        """True once packet `pid` was taken (among the kept ones when asked,
        then as the newest), False when timeout_s passed first."""
        with self._taken:
            return pid in self._recent or self._taken.wait_for(lambda: self.newest == pid,
                                                               timeout_s)


class NewestDownlink:
    """Reads every packet the UE's stack takes and keeps the ids of those
    addressed to it (`taken`).

    A reader thread and a report share one lock around "read what is
    queued, then record it": a report drains the sockets itself, so it
    counts every packet that arrived before it, even one the reader had
    taken off a socket and not recorded yet (under CPU load that gap
    lasted long enough for a stale report, and the target released 97
    packets the UE had). The sockets are drained one after the other, so
    "newest" holds for a downlink of one protocol, as the lab's are."""

    def __init__(self, ue_ip, reader=True):
        self.ue = socket.inet_aton(ue_ip)
        self.taken = TakenPackets()
        self.socks = []
        for proto in CHECKSUM_AT:
            sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, proto)
            # A replay after an attach is a burst: keep all of it for the reader.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
            sock.setblocking(False)
            self.socks.append(sock)
        self._reading = threading.Lock()
        self._buf = bytearray(SNAP)
        if reader:  # without one (tests), only reports read the sockets
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            select.select(self.socks, [], [])
            with self._reading:
                self._drain()

    def _drain(self):
        """Records every queued packet; the caller holds _reading."""
        for sock in self.socks:
            while True:
                try:
                    n = sock.recv_into(self._buf, SNAP)
                except BlockingIOError:
                    break
                if self._buf[16:20] != self.ue:
                    continue
                pid = packet_id(self._buf, n)
                if pid is not None:
                    self.taken.take(pid)

    def caught_up(self):
        """The newest id of every packet that arrived before this call."""
        with self._reading:
            self._drain()
        return self.taken.newest


def main(argv):
    ue_ip, server_ip, port = argv[0], argv[1], int(argv[2])
    downlink = NewestDownlink(ue_ip)
    out = None
    for line in sys.stdin:
        if line.startswith("await "):
            _, pid, timeout_s = line.split()
            taken = downlink.taken.await_taken(bytes.fromhex(pid), float(timeout_s))
            print("ok" if taken else "timeout", flush=True)
            continue
        if out is None:
            # Bound at the first signal: the lab gives the UE its address after starting us.
            out = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            out.bind((ue_ip, 0))
        out.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, line.strip().encode())
        out.sendto(report(downlink.caught_up()), (server_ip, port))
        print("ok", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
