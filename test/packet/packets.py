# SPDX-License-Identifier: Apache-2.0
"""Test frames, built with scapy, each carrying the test marker."""
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Raw

from .dataplane import MARKER

HOST1_MAC = "00:00:00:00:00:01"
HOST2_MAC = "00:00:00:00:00:02"
HOST3_MAC = "00:00:00:00:00:03"
ROUTER_MAC = "00:00:00:00:aa:01"
HOST1_IP = "10.0.1.1"
HOST2_IP = "10.0.2.2"


def _payload(seq):
    # Sequence numbers make frames of one flow distinct, so that order checks
    # can tell them apart; padding keeps frames above the 60-byte minimum.
    return Raw(MARKER + seq.to_bytes(4, "big") + bytes(32))


def udp_frame(eth_dst=HOST2_MAC, eth_src=HOST1_MAC, ip_src=HOST1_IP, ip_dst=HOST2_IP,
              sport=4000, dport=5000, ttl=64, seq=0, vid=None):
    """A UDP/IPv4 frame; with `vid`, 802.1Q-tagged."""
    eth = Ether(dst=eth_dst, src=eth_src)
    if vid is not None:
        eth = eth / Dot1Q(vlan=vid, prio=3)
    ip = IP(src=ip_src, dst=ip_dst, ttl=ttl)
    return eth / ip / UDP(sport=sport, dport=dport) / _payload(seq)


def tcp_frame(eth_dst=HOST2_MAC, eth_src=HOST1_MAC, ip_src=HOST1_IP, ip_dst=HOST2_IP,
              sport=4000, dport=5000, ttl=64, seq=0):
    return (Ether(dst=eth_dst, src=eth_src) / IP(src=ip_src, dst=ip_dst, ttl=ttl)
            / TCP(sport=sport, dport=dport, flags="S") / _payload(seq))


def l2_frame(eth_dst=HOST2_MAC, eth_src=HOST1_MAC, seq=0):
    """A non-IP frame (local experimental ethertype 0x88b5)."""
    return Ether(dst=eth_dst, src=eth_src, type=0x88B5) / _payload(seq)


def routed(frame, src_mac, dst_mac):
    """What a router makes of `frame`: MACs rewritten, TTL one lower and the
    IPv4 checksum recomputed (scapy computes it when it is unset)."""
    out = Ether(bytes(frame))
    out[Ether].src, out[Ether].dst = src_mac, dst_mac
    out[IP].ttl -= 1
    del out[IP].chksum
    return Ether(bytes(out))
