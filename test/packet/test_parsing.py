# SPDX-License-Identifier: Apache-2.0
"""What the parser extracts decides what the tables match: IPv6 and ARP
frames, TCP ports, full-size frames."""
from scapy.layers.inet import UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import ARP, Ether
from scapy.packet import Raw

from .dataplane import MARKER, expect_no_packet, expect_packet
from .packets import HOST1_MAC, HOST2_MAC, tcp_frame, udp_frame


def _forward_all_to(sw, port):
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": port})


def _udp6(dport):
    return (Ether(dst=HOST2_MAC, src=HOST1_MAC) / IPv6(src="fd00::1", dst="fd00::2")
            / UDP(sport=4000, dport=dport) / Raw(MARKER + bytes(16)))


def test_flow_steering_is_ipv4_only_but_the_acl_sees_ipv6_ports(sw):
    first, second, third = sw.take_ports(3)
    _forward_all_to(sw, second)
    sw.insert("steering.flow_steering", priority=1, match={"l4_dst_port": (5000, 0xFFFF)},
              action="steering.steer_to_port", params={"port": third})
    v6 = _udp6(5000)
    sw.port(first).send(v6)
    expect_packet(sw.port(second), v6)  # not steered: the IPv4 header is invalid
    sw.insert("acl.acl_table", priority=1,
              match={"ip_proto": (17, 0xFF), "l4_dst_port": (5000, 0xFFFF)},
              action="acl.punt_to_cpu")
    sw.port(first).send(v6)
    assert sw.expect_packet_in(v6)["ingress_port"] == first
    expect_no_packet(list(sw.ports.values()))


def test_acl_matches_arp_by_ethertype(sw):
    first, second = sw.take_ports(2)
    _forward_all_to(sw, second)
    sw.insert("acl.acl_table", priority=1, match={"eth_type": (0x0806, 0xFFFF)},
              action="acl.punt_to_cpu")
    arp = (Ether(dst="ff:ff:ff:ff:ff:ff", src=HOST1_MAC)
           / ARP(op=1, hwsrc=HOST1_MAC, psrc="10.0.1.1", pdst="10.0.1.2") / Raw(MARKER))
    sw.port(first).send(arp)
    assert sw.expect_packet_in(arp)["ingress_port"] == first
    not_arp = udp_frame()
    sw.port(first).send(not_arp)
    expect_packet(sw.port(second), not_arp)
    sw.expect_no_packet_in()


def test_tcp_ports_are_matched(sw):
    first, second, third = sw.take_ports(3)
    _forward_all_to(sw, second)
    sw.insert("steering.flow_steering", priority=1,
              match={"ip_proto": (6, 0xFF), "l4_src_port": (4000, 0xFFFF),
                     "l4_dst_port": (80, 0xFFFF)},
              action="steering.steer_to_port", params={"port": third})
    web = tcp_frame(sport=4000, dport=80)
    sw.port(first).send(web)
    expect_packet(sw.port(third), web)
    other = tcp_frame(sport=4001, dport=80)
    sw.port(first).send(other)
    expect_packet(sw.port(second), other)


def test_full_size_frame_is_forwarded_intact(sw):
    first, second = sw.take_ports(2)
    _forward_all_to(sw, second)
    frame = udp_frame()
    frame[Raw].load += bytes(i % 251 for i in range(1514 - len(bytes(frame))))
    frame = Ether(bytes(frame))  # 1514 bytes: a full 1500-byte MTU frame
    assert len(bytes(frame)) == 1514
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)
