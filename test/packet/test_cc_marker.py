# SPDX-License-Identifier: Apache-2.0
"""End markers of an ordered switch-over (include/congestion.p4).

A flow in cc_ordered sends, with the first packet that leaves by another
port than its previous one, an end marker out of the port it left:
Ethernet (ethertype 0x88b7) + cc_marker_t (flow: 16 bits, switch id: 16,
seq: 32, the markers the switch has sent for the flow), 22 bytes, nothing
of the packet's payload. Markers are forwarded as their flow is, except
into a flow's sink (cc_marker_sinks) on the merge switch."""
import struct

from scapy.layers.l2 import Ether
from scapy.packet import Raw

from .dataplane import MARKER, collect, expect_no_packet, expect_packet
from .test_congestion import (BACKUP_MAC, NEVER, PRIMARY_MAC, SWITCH_ID, Cc, digests,  # noqa: F401
                              notify_frame, rewritten)

ETHERTYPE_CC_MARKER = 0x88B7
ETHERTYPE_BUFFER_TAG = 0x88B5
MARKER_SESSION_BASE = 2000
MARKER_BYTES = 14 + 8


def ordered(sw, cc, *ports):
    """Makes cc's flow ordered, with a marker clone session per port."""
    for port in ports:
        sw.add_clone_session(MARKER_SESSION_BASE + port, [port])
    sw.insert("cc_ingress.cc_ordered", match={"flow": cc.flow},
              action="cc_ingress.check_out_port")


def markers(frames):
    """(flow, switch id, seq) of the end markers among frames; asserts their size."""
    found = []
    for frame in frames:
        eth = Ether(frame)
        if eth.type == ETHERTYPE_CC_MARKER:
            assert len(frame) == MARKER_BYTES, f"a marker of {len(frame)} bytes"
            found.append(struct.unpack("!HHI", bytes(eth.payload)[:8]))
    return found


def gather(port, timeout):
    """Test frames and end markers arriving on `port` until it is quiet for
    `timeout` s, in order (dataplane.collect keeps test frames only: a
    marker carries none of the test payload)."""
    got = []
    while (frame := port.recv(timeout)) is not None:
        if MARKER in frame or frame[12:14] == struct.pack("!H", ETHERTYPE_CC_MARKER):
            got.append(frame)
    return got


def marker_frame(flow, seq=1):
    return (Ether(dst="02:cc:00:00:00:ff", src="02:cc:00:00:00:fe", type=ETHERTYPE_CC_MARKER)
            / Raw(struct.pack("!HHI", flow, 42, seq) + MARKER))


def test_a_switch_over_sends_one_end_marker_down_the_path_the_flow_left(sw, digests):
    first, primary, backup = sw.take_ports(3)
    cc = Cc(sw, first, primary, backup)
    ordered(sw, cc, primary, backup)
    cc.thresholds(NEVER, NEVER, 3)
    for seq in range(3):
        expect_packet(sw.port(primary), rewritten(cc.send(seq), PRIMARY_MAC))
    assert markers(gather(sw.port(primary), 0.3)) == [], "a marker with no switch-over"
    sw.port(primary).send(notify_frame(cc.flow))
    expect_no_packet([sw.port(p) for p in (first, primary, backup)])
    for seq in range(3, 6):
        expect_packet(sw.port(backup), rewritten(cc.send(seq), BACKUP_MAC))
    # Exactly one marker, on the old path only, after its last packet.
    assert markers(gather(sw.port(primary), 1.0)) == [(cc.flow, SWITCH_ID, 1)]
    assert markers(gather(sw.port(backup), 0.3)) == []


def test_each_switch_over_sends_its_own_marker(sw, digests):
    first, primary, backup = sw.take_ports(3)
    cc = Cc(sw, first, primary, backup)
    ordered(sw, cc, primary, backup)
    cc.thresholds(0, NEVER, 2)  # every packet is over: the second of each run switches
    # One packet at a time (a target may run ingress and egress apart):
    # p, p (switches) | b, b (switches back) | p.
    got = {primary: [], backup: []}
    for seq, port, mac in ((0, primary, PRIMARY_MAC), (1, primary, PRIMARY_MAC),
                           (2, backup, BACKUP_MAC), (3, backup, BACKUP_MAC),
                           (4, primary, PRIMARY_MAC)):
        want = bytes(rewritten(cc.send(seq), mac))
        frames = gather(sw.port(port), 0.5)
        assert want in frames, f"packet {seq} did not leave by port {port}"
        got[port] += frames
    got[primary] += gather(sw.port(primary), 0.3)
    got[backup] += gather(sw.port(backup), 0.3)
    assert markers(got[primary]) == [(cc.flow, SWITCH_ID, 1)]
    assert markers(got[backup]) == [(cc.flow, SWITCH_ID, 2)]
    # Each marker follows the last packet the flow sent that way.
    kinds = ["m" if Ether(g).type == ETHERTYPE_CC_MARKER else "d" for g in got[primary]]
    assert kinds == ["d", "d", "m", "d"]
    kinds = ["m" if Ether(g).type == ETHERTYPE_CC_MARKER else "d" for g in got[backup]]
    assert kinds == ["d", "d", "m"]


def test_a_flow_that_is_not_ordered_sends_no_marker(sw, digests):
    first, primary, backup = sw.take_ports(3)
    sw.add_clone_session(MARKER_SESSION_BASE + primary, [primary])
    cc = Cc(sw, first, primary, backup)
    cc.thresholds(0, NEVER, 1)
    expect_packet(sw.port(primary), rewritten(cc.send(0), PRIMARY_MAC))
    expect_packet(sw.port(backup), rewritten(cc.send(1), BACKUP_MAC))
    assert markers(gather(sw.port(primary), 0.5)) == []


def test_a_marker_goes_on_along_its_flow_and_into_its_sink(sw):
    first, primary, sink, other = sw.take_ports(4)
    cc = Cc(sw, first, primary)
    # No sink here: forwarded like the flow (to its next hop's MAC).
    frame = marker_frame(cc.flow)
    sw.port(first).send(frame)
    expect_packet(sw.port(primary), rewritten(frame, PRIMARY_MAC))
    # The merge switch: into the flow's sink, tagged for a shared vport port.
    sw.insert("cc_ingress.cc_marker_sinks", match={"flow": cc.flow}, action="cc_ingress.to_sink",
              params={"port": sink, "tag": 5})
    sw.port(first).send(marker_frame(cc.flow, seq=2))
    [got] = collect(sw.port(sink), 1.0)
    eth = Ether(got)
    assert eth.type == ETHERTYPE_BUFFER_TAG
    tag, inner = struct.unpack("!IH", bytes(eth.payload)[:6])  # buffer_tag_h
    assert (tag, inner) == (5, ETHERTYPE_CC_MARKER)
    assert struct.unpack("!HHI", bytes(eth.payload)[6:14]) == (cc.flow, 42, 2)
    expect_no_packet([sw.port(p) for p in (primary, other)])


def test_a_marker_of_an_unknown_flow_is_dropped(sw):
    first, primary = sw.take_ports(2)
    cc = Cc(sw, first, primary)
    sw.port(first).send(marker_frame(cc.flow + 500))
    expect_no_packet([sw.port(p) for p in (first, primary)])
