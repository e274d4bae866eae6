# SPDX-License-Identifier: Apache-2.0
"""L2 exact forwarding, IPv4 LPM routing and multicast replication."""
from scapy.layers.inet import IP
from scapy.layers.l2 import Dot1Q, Ether

from .dataplane import expect_no_packet, expect_packet
from .packets import HOST2_MAC, HOST3_MAC, ROUTER_MAC, l2_frame, routed, udp_frame

NEXT_HOP_A = "00:00:00:00:0a:0a"
NEXT_HOP_B = "00:00:00:00:0b:0b"


def _all(sw):
    return list(sw.ports.values())


def test_l2_exact_forwards_by_destination_mac(sw):
    first, second, third = sw.take_ports(3)
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST3_MAC},
              action="forwarding.set_egress_port", params={"port": third})
    to_two, to_three = l2_frame(eth_dst=HOST2_MAC), udp_frame(eth_dst=HOST3_MAC)
    sw.port(first).send(to_two)
    expect_packet(sw.port(second), to_two)
    sw.port(first).send(to_three)
    expect_packet(sw.port(third), to_three)
    sw.port(first).send(l2_frame(eth_dst="00:00:00:00:00:99"))  # no entry: dropped
    expect_no_packet(_all(sw))


def test_l2_exact_drop_action(sw):
    first = sw.port_numbers()[0]
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC}, action="forwarding.drop")
    sw.port(first).send(l2_frame())
    expect_no_packet(_all(sw))


def test_lpm_routing_longest_prefix_wins_and_rewrites(sw):
    first, second, third = sw.take_ports(3)
    sw.insert("forwarding.routing_v4", match={"ipv4_dst": ("10.1.0.0", 16)},
              action="forwarding.route",
              params={"port": second, "src_mac": ROUTER_MAC, "dst_mac": NEXT_HOP_A})
    sw.insert("forwarding.routing_v4", match={"ipv4_dst": ("10.1.2.0", 24)},
              action="forwarding.route",
              params={"port": third, "src_mac": ROUTER_MAC, "dst_mac": NEXT_HOP_B})
    cases = [("10.1.2.5", third, NEXT_HOP_B),   # /24 beats /16
             ("10.1.9.9", second, NEXT_HOP_A)]  # only the /16 matches
    for dst_ip, out_port, next_hop in cases:
        frame = udp_frame(eth_dst=ROUTER_MAC, ip_dst=dst_ip, ttl=64)
        sw.port(first).send(frame)
        got = Ether(expect_packet(sw.port(out_port), routed(frame, ROUTER_MAC, next_hop)))
        assert got[IP].ttl == 63
        expect_no_packet([p for n, p in sw.ports.items() if n != out_port])
    sw.port(first).send(udp_frame(eth_dst=ROUTER_MAC, ip_dst="10.2.0.1"))  # no route
    expect_no_packet(_all(sw))


def test_vlan_tagged_packet_is_routed_with_its_tag(sw):
    first, second = sw.take_ports(2)
    sw.insert("forwarding.routing_v4", match={"ipv4_dst": ("10.1.0.0", 16)},
              action="forwarding.route",
              params={"port": second, "src_mac": ROUTER_MAC, "dst_mac": NEXT_HOP_A})
    frame = udp_frame(eth_dst=ROUTER_MAC, ip_dst="10.1.0.1", vid=42)
    sw.port(first).send(frame)
    got = Ether(expect_packet(sw.port(second), routed(frame, ROUTER_MAC, NEXT_HOP_A)))
    assert got[Dot1Q].vlan == 42 and got[IP].ttl == 63


def test_packet_with_ttl_1_is_not_routed(sw):
    first, second = sw.take_ports(2)
    sw.insert("forwarding.routing_v4", match={"ipv4_dst": ("10.1.0.0", 16)},
              action="forwarding.route",
              params={"port": second, "src_mac": ROUTER_MAC, "dst_mac": NEXT_HOP_A})
    sw.port(first).send(udp_frame(eth_dst=ROUTER_MAC, ip_dst="10.1.0.1", ttl=1))
    expect_no_packet(_all(sw))


def test_multicast_replicates_to_members_except_the_ingress_port(sw):
    members = sw.take_ports(3)
    sw.add_multicast_group(7, members)
    sw.insert("forwarding.l2_exact", match={"eth_dst": "01:00:5e:00:00:07"},
              action="forwarding.set_mcast_group", params={"group_id": 7})
    for ingress in members:
        frame = udp_frame(eth_dst="01:00:5e:00:00:07", ip_dst="239.0.0.7", seq=ingress)
        sw.port(ingress).send(frame)
        for member in members:
            if member != ingress:
                expect_packet(sw.port(member), frame)
        expect_no_packet(_all(sw))  # not back to the ingress, not to non-members
