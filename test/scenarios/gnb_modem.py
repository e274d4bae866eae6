# SPDX-License-Identifier: Apache-2.0
"""The UE's modem of the gnb_baas scenario, run inside the UE's namespace:

    python -m test.scenarios.gnb_modem RADIO_IF TEID UE_MAC PEER_MAC LOSS SEED {in-order|at-once}
        [T_REORDERING_MS]

Between the gNodeB's radio port (a veth, RADIO_IF) and a TUN device `ue0`
whose packets the UE's own Linux TCP sends and receives:
- downlink: each radio frame (docs/apps/gnb-baas.md, "The radio frames")
  is dropped with probability LOSS (the lossy radio: this kernel has no
  sch_netem and pbswitch no loss option), else its IPv4 packet is written
  into the TUN device. A PDU whose SN was received already (a resend whose
  acknowledgement was late) is not delivered again.
  * in-order (the bearer in RLC acknowledged mode, with the BaaS): as
    PDCP's receive window (TS 38.323 5.2.2.2), packets after a missing SN
    wait for it; a gap still open T_REORDERING_MS after it opened is
    skipped (t-Reordering expiry) and what waits is delivered.
  * at-once (unacknowledged mode, no BaaS): every packet is delivered as it
    arrives (t-Reordering 0, which TS 38.331 allows): nothing could fill a
    gap, waiting would only delay TCP.
- status: every received data PDU (also a duplicate) is acknowledged;
  pending SNs leave every ACK_INTERVAL_S or ACK_BATCH SNs, as one status
  message per run of consecutive SNs (first..last). Statuses and uplink
  are not dropped (the radio loss is the downlink's only).
- uplink: each IPv4 packet the UE sends into `ue0` leaves as a PDCP data
  PDU of the bearer, Ethernet to PEER_MAC (the data network's host: the
  UPF forwards the decapsulated packet by L2).
Prints "ready" once the TUN device exists; on SIGTERM prints one JSON line
of its counters and exits (with GNB_MODEM_TRACE=PATH set, it also writes
the SN of every data PDU it got, in order, to PATH as a JSON list).
"""
import fcntl
import json
import os
import random
import select
import signal
import socket
import struct
import sys
import time

ETHERTYPE_RADIO = 0x88B5
RLC_MAGIC, RLC_VERSION = 0x52, 1
SN_BITS = 18
SN_SPACE = 1 << SN_BITS
SN_WINDOW = SN_SPACE >> 1
RADIO_HEADER = struct.Struct("!6s6sHBBII")   # Ethernet, RLC (magic, version, TEID), PDCP word
STATUS_TAIL = struct.Struct("!I")
ACK_INTERVAL_S, ACK_BATCH = 0.002, 32
PACKET_OUTGOING = 4
TUNSETIFF = 0x400454CA
IFF_TUN, IFF_NO_PI = 0x0001, 0x1000


def mac_bytes(mac):
    return bytes(int(x, 16) for x in mac.split(":"))


class Receiver:
    """PDCP's receiving side for one bearer, on unwrapped SNs (counts), with
    the radio loss in front of it. `deliver(packet)` gets the IPv4 packets
    in the order the mode gives them; `statuses()` the ranges to acknowledge.
    No sockets: the unit tests drive it with frames and a clock."""

    def __init__(self, deliver, loss, rng, in_order, t_reordering_s):
        self.deliver = deliver
        self.loss = loss
        self.rng = rng
        self.in_order = in_order
        self.t_reordering_s = t_reordering_s
        self.next_count = None       # RX_DELIV: the first count not yet delivered or skipped
        self.received = {}           # count -> packet (in-order: waiting) or None (at-once)
        self.gap_since = None        # when the gap at next_count opened
        self.dropped_counts = set()  # counts whose first arrival the radio dropped
        self.pending_acks = []
        self.stats = {"frames": 0, "radio_dropped": 0, "delivered": 0, "delivered_bytes": 0,
                      "duplicates": 0, "delivered_after_drop": 0, "gaps_skipped": 0,
                      "dropped_never_delivered": 0, "max_wait_ms": 0.0, "not_data": 0,
                      "tun_refused": 0}

    def count_of(self, sn):
        """The SN's count: within half the SN space after RX_DELIV is new,
        within the half before it old (PDCP's window)."""
        base = self.next_count % SN_SPACE
        delta = (sn - base) % SN_SPACE
        return self.next_count + delta if delta < SN_WINDOW else self.next_count - (SN_SPACE - delta)

    def on_data(self, sn, packet, now):
        self.stats["frames"] += 1
        if self.next_count is None:
            # The modem joins a bearer whose SNs went on between cases: its
            # window starts at the first SN it sees.
            self.next_count = sn
        count = self.count_of(sn)
        if self.rng.random() < self.loss:
            self.stats["radio_dropped"] += 1
            if count >= self.next_count and count not in self.received:
                self.dropped_counts.add(count)
            return
        self.pending_acks.append(sn)
        if count < self.next_count or count in self.received:
            self.stats["duplicates"] += 1
            return
        if count in self.dropped_counts:
            self.dropped_counts.discard(count)
            self.stats["delivered_after_drop"] += 1
        if self.in_order:
            self.received[count] = (packet, now)
        else:
            self.received[count] = None
            self._deliver(packet, now, now)
        self._advance(now)

    def tick(self, now):
        """Skips the gap at RX_DELIV once it is t-Reordering old."""
        while (self.received and self.gap_since is not None
               and now - self.gap_since >= self.t_reordering_s):
            first = min(self.received)
            self.stats["gaps_skipped"] += first - self.next_count
            for count in range(self.next_count, first):
                if count in self.dropped_counts:
                    self.dropped_counts.discard(count)
                    self.stats["dropped_never_delivered"] += 1
            self.next_count = first
            self.gap_since = None
            self._advance(now)

    def _advance(self, now):
        while self.next_count in self.received:
            held = self.received.pop(self.next_count)
            if held is not None:
                self._deliver(held[0], held[1], now)
            self.next_count += 1
        if not self.received:
            self.gap_since = None
        elif self.gap_since is None:
            self.gap_since = now

    def _deliver(self, packet, arrived, now):
        self.stats["delivered"] += 1
        self.stats["delivered_bytes"] += len(packet)
        self.stats["max_wait_ms"] = max(self.stats["max_wait_ms"], (now - arrived) * 1000.0)
        self.deliver(packet)

    def statuses(self):
        """(first, last) SN ranges acknowledging every pending SN, one per
        run of consecutive counts; clears the pending list."""
        counts = sorted({self.count_of(sn) for sn in self.pending_acks})
        self.pending_acks = []
        ranges = []
        for count in counts:
            if ranges and count == ranges[-1][1] + 1:
                ranges[-1][1] = count
            else:
                ranges.append([count, count])
        return [(first % SN_SPACE, last % SN_SPACE) for first, last in ranges]

    def finish(self):
        """Counts the PDUs dropped and never delivered (still missing at the end)."""
        self.stats["dropped_never_delivered"] += len(self.dropped_counts)
        self.dropped_counts.clear()
        return self.stats


def parse_radio(frame, teid):
    """(dc, sn or first, payload) of a radio frame of the bearer, else None."""
    if len(frame) < RADIO_HEADER.size:
        return None
    _, _, ethertype, magic, version, bearer, word = RADIO_HEADER.unpack_from(frame)
    if ethertype != ETHERTYPE_RADIO or magic != RLC_MAGIC or version != RLC_VERSION or bearer != teid:
        return None
    return word >> 31, word & (SN_SPACE - 1), frame[RADIO_HEADER.size:]


class Modem:
    """The sockets around a Receiver: the radio port, the TUN device."""

    def __init__(self, radio_if, teid, ue_mac, peer_mac, receiver):
        self.teid = teid
        self.ue_mac, self.peer_mac = mac_bytes(ue_mac), mac_bytes(peer_mac)
        self.radio = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETHERTYPE_RADIO))
        self.radio.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self.radio.bind((radio_if, ETHERTYPE_RADIO))
        self.tun = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
        fcntl.ioctl(self.tun, TUNSETIFF, struct.pack("16sH", b"ue0", IFF_TUN | IFF_NO_PI))
        self.receiver = receiver
        receiver.deliver = self.to_tun
        self.uplink_sn = 0
        self.sent = {"statuses": 0, "uplink": 0}
        self.trace = [] if os.environ.get("GNB_MODEM_TRACE") else None

    def to_tun(self, packet):
        try:
            os.write(self.tun, packet)
        except OSError:
            # EIO until the scenario sets ue0 up (a late frame of the last
            # case can arrive first); counted, as the kernel would drop it.
            self.receiver.stats["tun_refused"] += 1

    def header(self, dst, word):
        return RADIO_HEADER.pack(dst, self.ue_mac, ETHERTYPE_RADIO, RLC_MAGIC, RLC_VERSION,
                                 self.teid, word)

    def send_statuses(self):
        for first, last in self.receiver.statuses():
            # A status goes to the gNodeB, which sends it to the BaaS by TEID.
            self.radio.send(self.header(self.peer_mac, first) + STATUS_TAIL.pack(last))
            self.sent["statuses"] += 1

    def uplink(self):
        while True:
            try:
                packet = os.read(self.tun, 65535)
            except BlockingIOError:
                return
            word = (1 << 31) | self.uplink_sn
            self.uplink_sn = (self.uplink_sn + 1) % SN_SPACE
            self.radio.send(self.header(self.peer_mac, word) + packet)
            self.sent["uplink"] += 1

    def downlink(self):
        while True:
            try:
                frame, address = self.radio.recvfrom(65535, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return
            if address[2] == PACKET_OUTGOING:
                continue
            parsed = parse_radio(frame, self.teid)
            if parsed is None or parsed[0] != 1:
                self.receiver.stats["not_data"] += 1
                continue
            if self.trace is not None:
                self.trace.append(parsed[1])
            self.receiver.on_data(parsed[1], parsed[2], time.monotonic())

    def run(self, stop):
        last_ack = time.monotonic()
        while not stop():
            ready, _, _ = select.select([self.radio, self.tun], [], [], ACK_INTERVAL_S)
            if self.radio in ready:
                self.downlink()
            if self.tun in ready:
                self.uplink()
            now = time.monotonic()
            self.receiver.tick(now)
            if len(self.receiver.pending_acks) >= ACK_BATCH or now - last_ack >= ACK_INTERVAL_S:
                self.send_statuses()
                last_ack = now
        return {**self.receiver.finish(), **self.sent}


def main(argv):
    if len(argv) not in (7, 8) or argv[6] not in ("in-order", "at-once"):
        raise SystemExit(__doc__)
    radio_if, teid, ue_mac, peer_mac, loss, seed, mode = argv[:7]
    t_reordering_s = float(argv[7]) / 1000.0 if len(argv) == 8 else 0.0
    receiver = Receiver(None, float(loss), random.Random(int(seed)), mode == "in-order",
                        t_reordering_s)
    modem = Modem(radio_if, int(teid, 0), ue_mac, peer_mac, receiver)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    print("ready", flush=True)
    stats = modem.run(lambda: stopping)
    if modem.trace is not None:
        with open(os.environ["GNB_MODEM_TRACE"], "w") as f:
            json.dump(modem.trace, f)
    print(json.dumps(stats), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
