# SPDX-License-Identifier: Apache-2.0
"""The UE's receive report names a packet as the buffer agent does (IPv4
identification and L4 checksum, report.go's layout)."""
import os
import pathlib
import socket
import struct
import threading

import pytest

from . import Lab
from .ue_signal import NewestDownlink, TakenPackets, packet_id, report


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


@pytest.mark.skipif(os.geteuid() != 0, reason="namespace lab needs root")
@pytest.mark.parametrize("reader", [False, True])
def test_a_report_names_the_last_frame_that_arrived_before_it(reader):
    """Without a reader thread only the report reads the socket: it still
    names the newest of the frames queued before it (a report never lags
    what the radio brought the UE, whatever the reader's scheduling)."""
    with Lab("fbe-") as lab:
        radio, far = lab.add_root_veth("ra", "rb")
        mac = pathlib.Path(f"/sys/class/net/{radio}/address").read_text().strip()
        downlink = NewestDownlink("10.98.0.2", [radio], reader=reader)
        out = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        out.bind((far, 0))
        ether = bytes.fromhex(mac.replace(":", "")) + bytes(6) + b"\x08\x00"
        assert downlink.caught_up() is None
        for ident in range(1, 201):
            udp = struct.pack("!HHHH", 9, 9000, 8, ident ^ 0x5A5A)
            packet = bytearray(ipv4(17, ident, udp))
            packet[16:20] = socket.inet_aton("10.98.0.2")
            out.send(ether + bytes(packet))
        newest = downlink.caught_up()
        out.close()
    assert newest == struct.pack("!HH", 200, 200 ^ 0x5A5A)
