# SPDX-License-Identifier: Apache-2.0
"""A burst through the switch arrives complete and in order (the invariant
pause/resume builds on)."""
from .dataplane import expect_packets
from .packets import HOST2_MAC, ROUTER_MAC, routed, udp_frame

BURST = 2000


def test_l2_burst_arrives_complete_and_in_order(sw):
    first, second = sw.take_ports(2)
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    burst = [udp_frame(seq=i) for i in range(BURST)]
    for frame in burst:
        sw.port(first).send(frame)
    expect_packets(sw.port(second), burst, timeout=10.0)


def test_routed_burst_arrives_complete_and_in_order(sw):
    first, second = sw.take_ports(2)
    sw.insert("forwarding.routing_v4", match={"ipv4_dst": ("10.0.2.0", 24)},
              action="forwarding.route",
              params={"port": second, "src_mac": ROUTER_MAC, "dst_mac": HOST2_MAC})
    burst = [udp_frame(eth_dst=ROUTER_MAC, seq=i) for i in range(BURST)]
    for frame in burst:
        sw.port(first).send(frame)
    expect_packets(sw.port(second), [routed(f, ROUTER_MAC, HOST2_MAC) for f in burst],
                   timeout=10.0)
