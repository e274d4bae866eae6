# SPDX-License-Identifier: Apache-2.0
"""QoS: the IPv4 DSCP picks the egress queue (std_meta.priority)."""
import time

from scapy.layers.inet import IP

from .dataplane import collect, expect_packet
from .packets import HOST2_MAC, udp_frame

EF = 46  # expedited forwarding


def marked(seq, dscp, size=0):
    frame = udp_frame(seq=seq) / bytes(size)
    frame[IP].tos = dscp << 2
    return frame


def test_a_queued_packet_leaves_unchanged(sw):
    sw.require_priority_queues()
    first, second = sw.take_ports(2)
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    sw.insert("qos.dscp_queues", match={"dscp": EF}, action="qos.set_queue",
              params={"queue": 7})
    for seq, dscp in enumerate([EF, 0, 10]):
        frame = marked(seq, dscp)
        sw.port(first).send(frame)
        expect_packet(sw.port(second), frame)


def test_a_high_queue_overtakes_a_backlog(sw):
    """pbswitch-specific: needs a port shaped to a known rate, so that a
    backlog builds in its queues (BMv2 shapes queues through its Thrift
    runtime only). Queue 7 is served before queue 0 (strict priority)."""
    first, shaped = sw.forward_to_shaped_port(HOST2_MAC)
    sw.insert("qos.dscp_queues", match={"dscp": EF}, action="qos.set_queue",
              params={"queue": 7})
    # 100 frames of 300 bytes are 240 ms at 1 Mbit/s; the shaper's burst
    # lets ~30 go at once, the rest wait in queue 0.
    backlog = [marked(i, 0, 200) for i in range(100)]
    urgent = [marked(1000 + i, EF, 200) for i in range(5)]
    # Serialised before the first send: scapy builds a frame in ~0.3 ms (more
    # under CPU load), and 105 builds between the sends let the port drain
    # queue 0 before the urgent frames came (71 of 100 gone in a loaded run).
    frames = [bytes(f) for f in backlog + urgent]
    start = time.monotonic()
    for frame in frames:
        sw.port(first).send(frame)
    sending_ms = (time.monotonic() - start) * 1e3
    got = collect(sw.port(shaped), 1.0)
    sent = {f: i for i, f in enumerate(frames)}
    order = [sent[g] for g in got]
    assert sorted(order) == list(range(105)), "every frame arrives once"
    last_urgent = max(order.index(100 + i) for i in range(5))
    behind = sum(1 for i in order[last_urgent:] if i < 100)
    assert behind >= 30, (f"queue 7 left after all but {behind} of queue 0 (sent in "
                          f"{sending_ms:.1f} ms): {order}")
    assert [i for i in order if i < 100] == list(range(100)), "queue 0 kept its order"
