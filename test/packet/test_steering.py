# SPDX-License-Identifier: Apache-2.0
"""Flow steering by in-port + IPv4 5-tuple: ternary masks, priorities, and
precedence over forwarding."""
from .dataplane import expect_no_packet, expect_packet
from .packets import HOST2_MAC, tcp_frame, udp_frame

ALL_PORT_BITS = 0x1FF


def _steer(sw, priority, port, **match):
    sw.insert("steering.flow_steering", priority=priority, match=match,
              action="steering.steer_to_port", params={"port": port})


def test_steering_by_5_tuple_with_masks_and_priorities(sw):
    first, second, third, fourth = sw.take_ports(4)
    # Forwarding alone would send everything to HOST2_MAC out of `fourth`.
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": fourth})
    # Broad: all of 10.0.2.0/24 arriving on `first` -> `second`.
    _steer(sw, 10, second, ingress_port=(first, ALL_PORT_BITS),
           ipv4_dst=("10.0.2.0", "255.255.255.0"))
    # Narrow, higher priority: UDP to ports 5000-5007 of that subnet -> `third`.
    _steer(sw, 20, third, ingress_port=(first, ALL_PORT_BITS),
           ipv4_dst=("10.0.2.0", "255.255.255.0"), ip_proto=(17, 0xFF),
           l4_dst_port=(5000, 0xFFF8))
    cases = [
        (udp_frame(dport=5000), third),
        (udp_frame(dport=5007, seq=1), third),
        (udp_frame(dport=5008), second),          # outside the masked range
        (tcp_frame(dport=5000), second),          # wrong protocol
        (udp_frame(ip_dst="10.0.3.2"), fourth),   # no steering rule: forwarding
    ]
    for frame, out_port in cases:
        sw.port(first).send(frame)
        expect_packet(sw.port(out_port), frame)
        expect_no_packet([p for n, p in sw.ports.items() if n != out_port], timeout=0.2)
    # The in-port is part of the key: the same flow from `second` is forwarded.
    frame = udp_frame(dport=5000, seq=2)
    sw.port(second).send(frame)
    expect_packet(sw.port(fourth), frame)


def test_steering_to_a_multicast_group(sw):
    first, second, third = sw.take_ports(3)
    sw.add_multicast_group(9, [second, third])
    sw.insert("steering.flow_steering", priority=5,
              match={"ipv4_src": ("10.0.1.1", "255.255.255.255"), "ip_proto": (17, 0xFF)},
              action="steering.steer_to_mcast_group", params={"group_id": 9})
    frame = udp_frame()
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)
    expect_packet(sw.port(third), frame)
    expect_no_packet(list(sw.ports.values()))
