# SPDX-License-Identifier: Apache-2.0
"""Frames of the UPF tests, built with scapy's GTP-U layers
(scapy.contrib.gtp), each carrying the test marker in the UE's payload.

The lab: a gNodeB behind one switch port sends GTP-U to the UPF's N3
address; a data network (DN) behind another port talks to the UE's address
in the UE pool. The switch routes as a router with ROUTER_MAC.
"""
from scapy.contrib.gtp import GTP_U_Header, GTPPDUSessionContainer
from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from .dataplane import MARKER
from .packets import ROUTER_MAC

N3_ADDR = "10.0.0.100"
GNB_ADDR = "10.0.0.200"
GNB_MAC = "00:00:00:00:0a:0a"
UE_ADDR = "10.250.0.1"
UE_POOL = ("10.250.0.0", 16)
DN_ADDR = "10.0.2.2"
DN_PREFIX = ("10.0.2.0", 24)
DN_MAC = "00:00:00:00:0b:0b"
GTPU_PORT = 2152
PSC_UPLINK, PSC_DOWNLINK = 1, 0  # the container's PDU type


def payload(seq, size=32):
    return Raw(MARKER + seq.to_bytes(4, "big") + bytes(size))


def ue_packet(l4="udp", ue_port=4000, app_port=80, seq=0, tos=0, downlink=False, size=32):
    """The UE's IPv4 packet (no Ethernet): UE -> DN, or DN -> UE with
    `downlink`. l4 is "udp", "tcp" or "icmp"."""
    src, dst = (DN_ADDR, UE_ADDR) if downlink else (UE_ADDR, DN_ADDR)
    sport, dport = (app_port, ue_port) if downlink else (ue_port, app_port)
    ip = IP(src=src, dst=dst, tos=tos, ttl=64, id=seq)
    if l4 == "udp":
        pkt = ip / UDP(sport=sport, dport=dport) / payload(seq, size)
    elif l4 == "tcp":
        pkt = ip / TCP(sport=sport, dport=dport, flags="PA", seq=seq) / payload(seq, size)
    elif l4 == "icmp":
        pkt = ip / ICMP(type=8, id=1, seq=seq) / payload(seq, size)
    else:
        raise ValueError(l4)
    return IP(bytes(pkt))  # checksums and lengths fixed now


def gtpu(teid, qfi=None, seq_num=None, psc_type=PSC_UPLINK):
    """A GTP-U G-PDU header: with a PDU Session Container when `qfi` is
    given, with the sequence number when `seq_num` is given."""
    header = GTP_U_Header(teid=teid)
    if seq_num is not None:
        header.S, header.seq = 1, seq_num
    if qfi is None:
        return header
    header.next_ex = 0x85
    return header / GTPPDUSessionContainer(type=psc_type, QFI=qfi)


def uplink_frame(inner, teid, qfi=None, seq_num=None, n3=N3_ADDR):
    """What the gNodeB sends: `inner` in GTP-U to the N3 address."""
    return (Ether(dst=ROUTER_MAC, src=GNB_MAC) / IP(src=GNB_ADDR, dst=n3)
            / UDP(sport=GTPU_PORT, dport=GTPU_PORT) / gtpu(teid, qfi, seq_num) / inner)


def downlink_frame(inner):
    """What the data network sends to the UE."""
    return Ether(dst=ROUTER_MAC, src=DN_MAC) / inner


def routed_to_dn(inner):
    """The uplink as it leaves for the data network: decapsulated, routed
    (MACs rewritten, TTL one lower, IPv4 checksum recomputed)."""
    out = Ether(dst=DN_MAC, src=ROUTER_MAC) / IP(bytes(inner))
    out[IP].ttl -= 1
    del out[IP].chksum
    return Ether(bytes(out))


def encapsulated(inner, teid, qfi, sport):
    """The downlink as the UPF sends it to the gNodeB, as scapy builds it:
    outer IPv4 N3 -> gNodeB (routed: TTL 63; DSCP/ECN of the inner packet;
    id 0, no flags), UDP sport -> 2152 with checksum 0, GTP-U G-PDU with
    the TEID and a downlink PDU Session Container with the QFI, then the
    inner packet unchanged. scapy computes the lengths and the outer IPv4
    checksum."""
    inner = IP(bytes(inner))
    return Ether(bytes(
        Ether(dst=GNB_MAC, src=ROUTER_MAC)
        / IP(src=N3_ADDR, dst=GNB_ADDR, ttl=63, id=0, flags=0, tos=inner.tos)
        / UDP(sport=sport, dport=GTPU_PORT, chksum=0)
        / gtpu(teid, qfi, psc_type=PSC_DOWNLINK)
        / Raw(bytes(inner))))
