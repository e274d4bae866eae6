# SPDX-License-Identifier: Apache-2.0
"""steer_to_buffer: a flow paused into a logical vport of a shared vport
port leaves with the buffer tag header pushed (include/steering.p4):

    dst MAC, src MAC, 0x88b5, tag (32 bits), original ethertype, payload

The shared port here is an ordinary port, so the test runs on any target
and checks the bytes the buffer agent receives."""
import struct

from .dataplane import expect_no_packet, expect_packet
from .packets import HOST2_MAC, l2_frame, tcp_frame, udp_frame

ALL_PORT_BITS = 0x1FF
ETHERTYPE_BUFFER_TAG = 0x88B5


def tagged(frame, tag):
    """`frame` as the switch sends it into the logical vport `tag`."""
    raw = bytes(frame)
    return raw[:12] + struct.pack("!HIH", ETHERTYPE_BUFFER_TAG, tag,
                                  int.from_bytes(raw[12:14], "big")) + raw[14:]


def _to_buffer(sw, port, tag, priority=10, **match):
    sw.insert("steering.flow_steering", priority=priority, match=match,
              action="steering.steer_to_buffer", params={"port": port, "tag": tag})


def test_each_flow_gets_the_tag_of_its_logical_vport(sw):
    first, shared, other = sw.take_ports(3)
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": other})
    # Two UEs' flows into two logical vports of one port; the widest tag fits.
    _to_buffer(sw, shared, 1, ingress_port=(first, ALL_PORT_BITS),
               ipv4_dst=("10.0.2.2", "255.255.255.255"), l4_dst_port=(5000, 0xFFFF))
    _to_buffer(sw, shared, 0xFFFFFFFF, ingress_port=(first, ALL_PORT_BITS),
               ipv4_dst=("10.0.2.2", "255.255.255.255"), l4_dst_port=(5001, 0xFFFF))
    for frame, tag in ((udp_frame(dport=5000), 1), (udp_frame(dport=5001, seq=1), 0xFFFFFFFF),
                       (tcp_frame(dport=5000, seq=2), 1)):
        sw.port(first).send(frame)
        expect_packet(sw.port(shared), tagged(frame, tag))
        expect_no_packet([sw.port(other)], timeout=0.2)
    # A flow no rule pauses is forwarded untouched.
    frame = udp_frame(dport=6000, seq=3)
    sw.port(first).send(frame)
    expect_packet(sw.port(other), frame)
    expect_no_packet([sw.port(shared)], timeout=0.2)


def test_the_tag_keeps_a_vlan_frames_own_ethertype(sw):
    first, shared = sw.take_ports(2)
    _to_buffer(sw, shared, 77, ingress_port=(first, ALL_PORT_BITS), ip_proto=(17, 0xFF))
    frame = udp_frame(vid=42, seq=4)
    sw.port(first).send(frame)
    # 0x8100 is carried in the tag header, the 802.1Q header follows as it was.
    expect_packet(sw.port(shared), tagged(frame, 77))


def test_steer_to_port_pushes_no_tag(sw):
    first, vport = sw.take_ports(2)
    sw.insert("steering.flow_steering", priority=10,
              match={"ingress_port": (first, ALL_PORT_BITS), "ip_proto": (17, 0xFF)},
              action="steering.steer_to_port", params={"port": vport})
    frame = udp_frame(seq=5)
    sw.port(first).send(frame)
    expect_packet(sw.port(vport), frame)
    # A non-IP frame is never steered (the table needs IPv4) nor tagged.
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": vport})
    frame = l2_frame(seq=6)
    sw.port(first).send(frame)
    expect_packet(sw.port(vport), frame)
