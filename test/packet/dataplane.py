# SPDX-License-Identifier: Apache-2.0
"""Send frames into switch ports and watch what comes out of them.

Each switch port has a far-end interface the tests own: the host end of a
lab veth (inside a network namespace) or, for an external target, an
interface named on the command line. A Port holds one AF_PACKET socket on
that interface, opened inside the interface's namespace (a socket stays in
the namespace it was created in), so the test process needs no helpers per
namespace. scapy builds and parses the frames.
"""
import ctypes
import os
import select
import socket
import struct
import time
from contextlib import contextmanager

from scapy.layers.l2 import Ether

ETH_P_ALL = 0x0003
CLONE_NEWNET = 0x40000000
# Linux strips 802.1Q tags on receive (VLAN offload) and hands them over in
# a tpacket_auxdata control message; recv puts them back, as libpcap does.
SOL_PACKET = 263
PACKET_AUXDATA = 8
TP_STATUS_VLAN_VALID = 1 << 4
TP_STATUS_VLAN_TPID_VALID = 1 << 6
AUXDATA = struct.Struct("=IIIHHHH")  # status, len, snaplen, mac, net, vlan_tci, vlan_tpid
# Every frame a test sends carries this; frames without it (none are
# expected, but a kernel may always emit one) are not the test's business.
MARKER = b"flowbuf-packet-test"

_libc = ctypes.CDLL(None, use_errno=True)


def _setns(fd):
    if _libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"setns: {os.strerror(err)}")


@contextmanager
def in_netns(name):
    """Runs the block with this thread in network namespace `name`
    (None: stay where we are)."""
    if name is None:
        yield
        return
    with open("/proc/thread-self/ns/net") as home, open(f"/run/netns/{name}") as target:
        _setns(target.fileno())
        try:
            yield
        finally:
            _setns(home.fileno())


class Port:
    """Switch port `number`, seen from the interface at its far end."""

    def __init__(self, number, ifname, netns=None):
        self.number = number
        self.ifname = ifname
        self.netns = netns
        with in_netns(netns):
            self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                      socket.htons(ETH_P_ALL))
            self.sock.bind((ifname, 0))
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self.sock.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)

    def __repr__(self):
        where = f" in {self.netns}" if self.netns else ""
        return f"port {self.number} ({self.ifname}{where})"

    def close(self):
        self.sock.close()

    def send(self, frame):
        self.sock.send(bytes(frame))

    def recv(self, timeout):
        """The next frame that arrived on the interface, or None."""
        deadline = time.monotonic() + timeout
        while True:
            left = max(0.0, deadline - time.monotonic())
            if not select.select([self.sock], [], [], left)[0]:
                return None
            frame, outgoing = self.read()
            if not outgoing:  # not our own sends
                return frame

    def read(self):
        """One frame from the socket, with its VLAN tag restored, and
        whether it is one this socket's interface sent."""
        data, ancdata, _, addr = self.sock.recvmsg(65535, socket.CMSG_SPACE(AUXDATA.size))
        for level, kind, payload in ancdata:
            if level == SOL_PACKET and kind == PACKET_AUXDATA and len(payload) >= AUXDATA.size:
                status, _, _, _, _, tci, tpid = AUXDATA.unpack_from(payload)
                if status & TP_STATUS_VLAN_VALID:
                    if not status & TP_STATUS_VLAN_TPID_VALID:
                        tpid = 0x8100
                    data = data[:12] + struct.pack("!HH", tpid, tci) + data[12:]
        return data, addr[2] == socket.PACKET_OUTGOING

    def drain(self):
        while self.recv(0.0) is not None:
            pass


def expect_packet(port, expected, timeout=2.0):
    """Waits for `expected` (scapy packet or bytes) on `port`, byte for byte;
    fails with what arrived instead."""
    want = bytes(expected)
    others = []
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        got = port.recv(left)
        if got is None:
            break
        if got == want:
            return got
        if MARKER in got:
            others.append(got)
    raise AssertionError(
        f"expected on {port}:\n  {Ether(want).summary()}\n  {want.hex()}\n"
        f"got {len(others)} other test frame(s):\n"
        + "".join(f"  {Ether(o).summary()}\n  {o.hex()}\n" for o in others))


def expect_packets(port, expected, timeout=2.0):
    """Waits for the frames `expected` on `port`, in this order, with no
    other test frame in between."""
    wants = [bytes(e) for e in expected]
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < len(wants) and (left := deadline - time.monotonic()) > 0:
        frame = port.recv(left)
        if frame is not None and MARKER in frame:
            got.append(frame)
    if got != wants:
        first_bad = next((i for i, (g, w) in enumerate(zip(got, wants)) if g != w),
                         min(len(got), len(wants)))
        raise AssertionError(f"on {port}: expected {len(wants)} frames in order, "
                             f"got {len(got)}; first difference at index {first_bad}")
    return got


def expect_in_order(port, expected, timeout=2.0, quiet=0.5):
    """Collects test frames on `port` until all of `expected` came, `timeout`
    passed, or none came for `quiet` s; fails unless what came is a run of
    `expected` in its order (no frame twice, none foreign). Returns how many
    came: a target may drop what overflows its queues, never reorder."""
    wants = [bytes(e) for e in expected]
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < len(wants) and (left := deadline - time.monotonic()) > 0:
        frame = port.recv(min(left, quiet))
        if frame is None:
            break
        if MARKER in frame:
            got.append(frame)
    at = 0
    for i, frame in enumerate(got):
        try:
            at = wants.index(frame, at) + 1
        except ValueError:
            raise AssertionError(f"on {port}: frame {i} of {len(got)} received is out of order, "
                                 f"repeated or not sent") from None
    return len(got)


def collect(port, timeout):
    """Every test frame that arrives on `port` until it has been quiet for
    `timeout` seconds, in order."""
    got = []
    while (frame := port.recv(timeout)) is not None:
        if MARKER in frame:
            got.append(frame)
    return got


def expect_no_packet(ports, timeout=0.5):
    """Fails if any test frame arrives on any of `ports` within `timeout`."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        ready = select.select([p.sock for p in ports], [], [], left)[0]
        for port in ports:
            if port.sock not in ready:
                continue
            data, outgoing = port.read()
            if not outgoing and MARKER in data:
                raise AssertionError(f"unexpected frame on {port}: {Ether(data).summary()}"
                                     f"\n  {data.hex()}")
