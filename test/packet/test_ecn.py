# SPDX-License-Identifier: Apache-2.0
"""ECN marking at egress (include/ecn.p4): an ECN-capable packet that found
K packets or more ahead of it in its queue (enq_qdepth) leaves marked CE;
K per egress port (ecn_thresholds); Not-ECT packets and ports without an
entry are left as they are.

The first tests need no queue (a lone packet finds 0 ahead: K = 0 marks
it, K = 1 does not), so they run on every target. The burst test builds a
real queue behind pbswitch's shaped port (BMv2 shapes queues through its
Thrift runtime only) and checks that marking starts at the K-th packet
queued."""
import pytest
from scapy.layers.inet import IP
from scapy.layers.l2 import Ether

from .dataplane import collect, expect_packet
from .packets import HOST2_MAC, udp_frame

NOT_ECT, ECT1, ECT0, CE = 0, 1, 2, 3


def with_ecn(seq, ecn, size=0):
    frame = udp_frame(seq=seq) / bytes(size)
    frame[IP].tos = ecn
    return frame


def as_marked(frame, ecn):
    """The frame as the switch sends it with ECN field ecn (checksum
    recomputed)."""
    out = Ether(bytes(frame))
    out[IP].tos = (out[IP].tos & ~3) | ecn
    del out[IP].chksum
    return out


@pytest.fixture
def ports(sw):
    first, second = sw.take_ports(2)
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    return first, second


TABLE, ACTION = "EgressPipeImpl.ecn_marking.ecn_thresholds", "EgressPipeImpl.ecn_marking.mark_above"


def mark_above(sw, port, packets):
    sw.insert(TABLE, match={"egress_port": port}, action=ACTION, params={"packets": packets})


@pytest.mark.parametrize("ecn", [ECT0, ECT1, CE])
def test_k_zero_marks_every_ecn_capable_packet(sw, ports, ecn):
    first, second = ports
    mark_above(sw, second, 0)
    frame = with_ecn(0, ecn)
    sw.port(first).send(frame)
    expect_packet(sw.port(second), as_marked(frame, CE))


def test_a_not_ect_packet_is_never_marked(sw, ports):
    first, second = ports
    mark_above(sw, second, 0)
    frame = with_ecn(0, NOT_ECT)
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)


def test_a_packet_below_k_leaves_unmarked(sw, ports):
    first, second = ports
    mark_above(sw, second, 1)  # a lone packet finds 0 ahead of it
    frame = with_ecn(0, ECT0)
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)


def test_a_port_without_an_entry_marks_nothing(sw, ports):
    first, second = ports
    mark_above(sw, first, 0)  # another port's K
    frame = with_ecn(0, ECT0)
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)


def test_the_controller_changes_k_per_port(sw, ports):
    first, second = ports
    mark_above(sw, second, 0)
    sw.client.modify(sw.entry(TABLE, match={"egress_port": second}, action=ACTION,
                              params={"packets": 5}))
    frame = with_ecn(0, ECT1)
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)


def test_marking_starts_when_the_queue_holds_k_packets(sw):
    """pbswitch-specific: a real queue builds behind a shaped port. 100
    ECT(0) frames of 300 bytes into a 1 Mbit/s port, K = 20: the shaper's
    burst (9,216 bytes) lets the first 30 go at once, then the queue grows
    by about one frame per frame sent, so the first ones leave unmarked and
    from the one that found 20 ahead on (the 50th at the earliest; one later
    for every 2.4 ms the port drains while the frames are still being sent)
    the rest are marked."""
    first, shaped = sw.forward_to_shaped_port(HOST2_MAC)
    mark_above(sw, shaped, 20)
    frames = [bytes(with_ecn(i, ECT0, 200)) for i in range(100)]  # serialised first
    for frame in frames:
        sw.port(first).send(frame)
    got = [Ether(g) for g in collect(sw.port(shaped), 1.0)]
    assert len(got) == len(frames), "a queue of 100 small frames fits: none dropped"
    marks = [g[IP].tos & 3 for g in got]
    first_ce = marks.index(CE) if CE in marks else None
    assert first_ce is not None and first_ce >= 20, marks
    assert set(marks[:first_ce]) == {ECT0}, marks
    assert all(g[IP].chksum == Ether(bytes(as_marked(g, g[IP].tos & 3)))[IP].chksum
               for g in got), "checksums recomputed"
    # At most 50 can be marked, and exactly 50 only if all 100 were sent
    # within one 2.4 ms drain: a loaded machine's sender is slower (49 seen).
    assert marks.count(CE) >= 35, f"the queue stayed above 20 for the rest of the burst: {marks}"
