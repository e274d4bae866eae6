# SPDX-License-Identifier: Apache-2.0
"""A burst through the switch arrives in order on every target, and complete
on a target whose queues hold it (the invariants pause/resume builds on).
BMv2's egress queues hold 64 packets by default, and simple_switch_grpc has
no setting for their depth (simple_switch's is a Thrift call), so it drops
part of a burst sent at the generator's rate: that is its capacity, not
v1model's semantics, and order is still checked there."""
from .dataplane import expect_in_order, expect_packets
from .packets import HOST2_MAC, ROUTER_MAC, routed, udp_frame

BURST = 2000


def _expect_burst(sw, port, burst):
    if sw.target.holds_bursts:
        expect_packets(port, burst, timeout=10.0)
    else:
        came = expect_in_order(port, burst, timeout=10.0)
        print(f"{sw.target.name}: {came} of {len(burst)} frames of the burst came, in order")


def test_l2_burst_arrives_in_order(sw):
    first, second = sw.take_ports(2)
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    burst = [udp_frame(seq=i) for i in range(BURST)]
    for frame in burst:
        sw.port(first).send(frame)
    _expect_burst(sw, sw.port(second), burst)


def test_routed_burst_arrives_in_order(sw):
    first, second = sw.take_ports(2)
    sw.insert("forwarding.routing_v4", match={"ipv4_dst": ("10.0.2.0", 24)},
              action="forwarding.route",
              params={"port": second, "src_mac": ROUTER_MAC, "dst_mac": HOST2_MAC})
    burst = [udp_frame(eth_dst=ROUTER_MAC, seq=i) for i in range(BURST)]
    for frame in burst:
        sw.port(first).send(frame)
    _expect_burst(sw, sw.port(second), [routed(f, ROUTER_MAC, HOST2_MAC) for f in burst])
