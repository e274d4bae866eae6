# SPDX-License-Identifier: Apache-2.0
"""Direct counters count the packets and bytes their entry matched."""
from p4.v1 import p4runtime_pb2

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


def test_steered_packets_count_on_steering_not_on_forwarding(sw):
    first, second, third = sw.take_ports(3)
    l2 = sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
                   action="forwarding.set_egress_port", params={"port": second})
    steer = sw.insert("steering.flow_steering", priority=1,
                      match={"l4_dst_port": (5000, 0xFFFF)},
                      action="steering.steer_to_port", params={"port": third})
    frames = [udp_frame(seq=i) for i in range(3)]
    for frame in frames:
        sw.port(first).send(frame)
        expect_packet(sw.port(third), frame)
    assert sw.counter(steer) == (3, sum(len(bytes(f)) for f in frames))
    assert sw.counter(l2) == (0, 0)


def test_direct_counter_reset_by_a_write(sw):
    first, second = sw.take_ports(2)
    hit = sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
                    action="forwarding.set_egress_port", params={"port": second})
    frame = udp_frame()
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)
    assert sw.counter(hit) == (1, len(bytes(frame)))
    reset = p4runtime_pb2.DirectCounterEntry()
    reset.table_entry.CopyFrom(hit)
    reset.data.packet_count = 0
    reset.data.byte_count = 0
    sw.client.modify(reset)
    assert sw.counter(hit) == (0, 0)
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)
    assert sw.counter(hit) == (1, len(bytes(frame)))
