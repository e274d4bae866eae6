# SPDX-License-Identifier: Apache-2.0
"""Direct counters count the packets and bytes their entry matched."""
from .dataplane import expect_packet
from .packets import HOST2_MAC, HOST3_MAC, udp_frame


def test_direct_counters_after_traffic(sw):
    first, second = sw.take_ports(2)
    hit = sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
                    action="forwarding.set_egress_port", params={"port": second})
    idle = sw.insert("forwarding.l2_exact", match={"eth_dst": HOST3_MAC},
                     action="forwarding.set_egress_port", params={"port": second})
    acl = sw.insert("acl.acl_table", priority=1, match={"ip_proto": (17, 0xFF)},
                    action="NoAction")
    assert sw.counter(hit) == (0, 0)
    frames = [udp_frame(seq=i) for i in range(5)]
    for frame in frames:
        sw.port(first).send(frame)
        expect_packet(sw.port(second), frame)
    size = sum(len(bytes(f)) for f in frames)
    assert sw.counter(hit) == (5, size)
    assert sw.counter(idle) == (0, 0)
    assert sw.counter(acl) == (5, size)
