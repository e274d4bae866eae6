# SPDX-License-Identifier: Apache-2.0
"""The UE's receive report names a packet as the buffer agent does (IPv4
identification and L4 checksum, report.go's layout)."""
import os
import socket
import struct
import subprocess
import sys
import threading

import pytest

from . import Lab
from .mobilitylab import RadioGates
from .servicelab import ROOT
from .ue_signal import TakenPackets, packet_id, report


def ipv4(proto, ident, l4, ihl=5):
    header = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, 20 + len(l4), ident, 0, 64, proto, 0,
                         bytes(4), bytes(4)) + bytes(4 * (ihl - 5))
    return header + l4


def test_the_id_is_the_ipv4_id_and_the_checksum_of_tcp_udp_or_icmp():
    tcp = bytes(16) + b"\xbe\xef" + bytes(2)
    udp = struct.pack("!HHHH", 1, 2, 8, 0xcafe)
    icmp = b"\x08\x00\x12\x34"
    for proto, l4, checksum in ((6, tcp, b"\xbe\xef"), (17, udp, b"\xca\xfe"), (1, icmp, b"\x12\x34")):
        packet = ipv4(proto, 0x0102, l4)
        assert packet_id(packet, len(packet)) == b"\x01\x02" + checksum


def test_ip_options_move_the_checksum():
    packet = ipv4(17, 7, struct.pack("!HHHH", 1, 2, 8, 0x5555), ihl=6)
    assert packet_id(packet, len(packet)) == b"\x00\x07\x55\x55"


def test_packets_without_an_id_give_none():
    gre = ipv4(47, 1, bytes(8))
    truncated = ipv4(6, 1, bytes(10))
    ipv6 = b"\x60" + bytes(59)
    for packet in (gre, truncated, ipv6, b"\x45" + bytes(10)):
        assert packet_id(packet, len(packet)) is None


def test_a_report_is_the_agents_layout_and_none_reports_nothing_received():
    assert report(b"\x01\x02\xbe\xef") == b"FBRX\x01\x00\x01\x02\xbe\xef"
    assert len(report(b"\x00\x00\x00\x00")) == 10
    # Before the UE took a packet: flags 1, nothing received (the agent's
    # engine.NothingReceivedReport), not a packet with id 0/0.
    assert report(None) == b"FBRX\x01\x01\x00\x00\x00\x00"


def test_an_await_finds_a_packet_taken_before_or_while_it_waits():
    taken = TakenPackets(keep=3)
    taken.take(b"\x00\x01\xaa\xaa")
    taken.take(b"\x00\x02\xbb\xbb")
    assert taken.await_taken(b"\x00\x01\xaa\xaa", 0)
    later = threading.Timer(0.05, taken.take, [b"\x00\x03\xcc\xcc"])
    later.start()
    assert taken.await_taken(b"\x00\x03\xcc\xcc", 5)
    later.join()


def test_an_await_times_out_on_a_packet_not_taken_or_no_longer_kept():
    taken = TakenPackets(keep=2)
    for i in range(3):
        taken.take(bytes([0, i, 0, 0]))
    assert not taken.await_taken(bytes([0, 0, 0, 0]), 0.01)  # pushed out by two newer
    assert not taken.await_taken(b"\x09\x09\x09\x09", 0.01)


# Runs in the UE's namespace: a NewestDownlink with or without its reader
# thread; "ready", then per line read the newest id it has ("none" before any).
PROBE = """import sys
from test.lab.ue_signal import NewestDownlink
downlink = NewestDownlink(sys.argv[1], reader=sys.argv[2] == "reader")
print("ready", flush=True)
for _ in sys.stdin:
    newest = downlink.caught_up()
    print(newest.hex() if newest else "none", flush=True)
"""
UE, FAR = "10.98.0.2", "10.98.0.1"


def udp_frame(mac, ident, dst=UE):
    """An Ethernet frame to `mac` with a UDP datagram whose id is ident and
    whose checksum field is ident ^ 0x5A5A (a valid IPv4 header checksum,
    so that the UE's stack takes it)."""
    header = bytearray(ipv4(17, ident, struct.pack("!HHHH", 9, 9000, 8, ident ^ 0x5A5A)))
    header[16:20] = socket.inet_aton(dst)
    header[12:16] = socket.inet_aton(FAR)
    header[8] = 64
    words = struct.unpack("!10H", bytes(header[:20]))
    total = sum(words)
    total = (total & 0xFFFF) + (total >> 16)
    total = (total & 0xFFFF) + (total >> 16)
    header[10:12] = struct.pack("!H", ~total & 0xFFFF)
    return bytes.fromhex(mac.replace(":", "")) + bytes(6) + b"\x08\x00" + bytes(header)


def pid(ident):
    return struct.pack("!HH", ident, ident ^ 0x5A5A).hex()


@pytest.mark.skipif(os.geteuid() != 0, reason="namespace lab needs root")
@pytest.mark.parametrize("reader", [False, True])
def test_a_report_names_the_last_packet_the_ue_took_before_it(reader, tmp_path):
    """Without a reader thread only the report reads the sockets: it still
    names the newest of the packets queued before it (a report never lags
    what the radio brought the UE, whatever the reader's scheduling). What
    the UE's stack does not take is never named: a frame for another MAC
    (a cut radio without an air queue), a packet for another address, and
    what a cut radio's gate drops at prerouting (a packet socket saw those
    and the target purged packets the UE never had)."""
    with Lab("fbe-") as lab:
        ue = lab.add_host("ue")
        radio = lab.link_host(ue, "r1", "radio", ip=UE + "/24")
        mac = ue.mac("r1")
        probe = subprocess.Popen(ue.popen_argv([sys.executable, "-c", PROBE, UE,
                                                "reader" if reader else "none"]),
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                 cwd=ROOT)
        gates = None
        try:
            assert probe.stdout.readline().strip() == "ready"

            def newest():
                probe.stdin.write("\n")
                probe.stdin.flush()
                return probe.stdout.readline().strip()
            out = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
            out.bind((radio, 0))
            assert newest() == "none"
            for ident in range(1, 201):
                out.send(udp_frame(mac, ident))
            assert newest() == pid(200)
            out.send(udp_frame("02:00:00:00:de:ad", 201))
            out.send(udp_frame(mac, 202, dst="10.98.0.99"))
            gates = RadioGates(ue, ["r1"], tmp_path / "nft.log")
            gates.cut("r1")
            for ident in range(203, 213):
                out.send(udp_frame(mac, ident))
            assert newest() == pid(200)
            gates.open("r1")
            out.send(udp_frame(mac, 213))
            assert newest() == pid(213)
            out.close()
        finally:
            probe.kill()
            probe.wait()
            if gates:
                gates.close()
