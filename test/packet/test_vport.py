# SPDX-License-Identifier: Apache-2.0
"""A flow steered into an in-process vport and back (Programmable Buffers).

The buffer is created over the southbound buffer API of the switch. With
its vport in RX_TX mode the buffer is Forwarding and the flow reaches its
destination through it; in RX mode it is Buffering and holds the flow;
back in RX_TX it releases what it held, in order, and forwards again.
Runs only on targets that host buffers in-process (pbswitch).
"""
import time

import pytest

from test.lab.bufferapi import BufferAgent

from .dataplane import expect_no_packet, expect_packets
from .packets import HOST2_MAC, udp_frame

APP_ID = "org.flowbuf.packettest"
BUFFER, VPORT = "pkt-buf", "pkt-vport"


@pytest.fixture
def agent(sw):
    if not sw.target.buffer_api_addr or sw.target.inproc_vport is None:
        pytest.skip(f"target {sw.target.name} hosts no in-process buffers")
    client = BufferAgent(sw.target.buffer_api_addr, APP_ID)
    yield client
    for rpc, fields in (("Unbind", {"buffer_id": BUFFER, "vport_id": VPORT}),
                        ("RemoveVport", {"vport_id": VPORT}),
                        ("RemoveBuffer", {"buffer_id": BUFFER, "discard": True})):
        try:
            client.call(rpc, **fields)
        except Exception:  # noqa: BLE001 - the test may have failed half-way
            pass
    client.close()


CAPACITY = 2000
FLOW = {"ipv4_dst": ("10.0.2.2", "255.255.255.255"), "ip_proto": (17, 0xFF),
        "l4_dst_port": (5000, 0xFFFF)}


def _state(agent):
    buf = agent.call("QueryBuffer", buffer_id=BUFFER)
    return agent.pb.BufferState.Name(buf.state), buf.stats.occupancy_packets


def _await_occupancy(agent, packets, timeout=5.0):
    """Waits until the buffer holds `packets` (frames sent on a data port
    reach it a moment later; a packet-out sent before could overtake them)."""
    deadline = time.monotonic() + timeout
    while _state(agent)[1] < packets:
        assert time.monotonic() < deadline, f"the buffer never held {packets}: {_state(agent)}"
        time.sleep(0.01)


def _create_forwarding_buffer(agent, vport_port, capacity_packets):
    pb = agent.pb
    agent.call("CreateBuffer", buffer_id=BUFFER,
               config=pb.BufferConfig(capacity_packets=capacity_packets,
                                      capacity_bytes=4 << 20,
                                      overflow=pb.OVERFLOW_POLICY_DROP_TAIL))
    agent.call("CreateVport", vport_id=VPORT, config=pb.VportConfig(
        mode=pb.VPORT_MODE_RX_TX, in_process=pb.InProcessBackend(port=vport_port),
        switch_port=vport_port))
    agent.call("Bind", buffer_id=BUFFER, vport_id=VPORT)


def _set_mode(agent, mode):
    agent.call("SetVportMode", vport_id=VPORT, mode=agent.pb.VportMode.Value(mode))


@pytest.fixture
def steered(request, sw, agent):
    """A Forwarding buffer on the in-process vport and the rules that steer
    the test flow (UDP to 10.0.2.2:5000 from the first port) through it;
    what comes back from the vport is forwarded to the second port.
    Returns (ingress port, egress port, vport). The buffer holds
    CAPACITY packets unless the test parametrizes the fixture."""
    first, second = sw.take_ports(2)
    flow = {"ingress_port": (first, 0x1FF), **FLOW}
    vport = sw.target.inproc_vport
    _create_forwarding_buffer(agent, vport, getattr(request, "param", CAPACITY))
    assert _state(agent) == ("BUFFER_STATE_FORWARDING", 0)
    sw.insert("steering.vport_ports", match={"ingress_port": vport},
              action="steering.mark_from_vport")
    # from_vport 0: the flow as it arrives is paused into the vport; its
    # replays (from_vport 1) do not match and go on to forwarding.
    sw.insert("steering.flow_steering", priority=10,
              match={"from_vport": (0, 1), **flow},
              action="steering.steer_to_port", params={"port": vport})
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    return first, second, vport


def test_flow_through_an_in_process_vport_buffering_and_release(sw, agent, steered):
    first, second, _ = steered
    flowing = [udp_frame(seq=i) for i in range(5)]
    for frame in flowing:
        sw.port(first).send(frame)
    expect_packets(sw.port(second), flowing)

    _set_mode(agent, "VPORT_MODE_RX")
    held = [udp_frame(seq=i) for i in range(5, 55)]
    for frame in held:
        sw.port(first).send(frame)
    expect_no_packet(list(sw.ports.values()), timeout=1.0)
    assert _state(agent) == ("BUFFER_STATE_BUFFERING", len(held))

    _set_mode(agent, "VPORT_MODE_RX_TX")
    expect_packets(sw.port(second), held, timeout=5.0)
    after = udp_frame(seq=55)
    sw.port(first).send(after)
    expect_packets(sw.port(second), [after])
    assert _state(agent) == ("BUFFER_STATE_FORWARDING", 0)


def _tx_mode_drops(agent):
    vport = agent.call("QueryVport", vport_id=VPORT)
    return sum(d.packets for d in vport.stats.drops
               if d.cause == agent.pb.DROP_CAUSE_TX_MODE)


def test_serving_buffer_replays_and_its_vport_drops_new_packets(sw, agent, steered):
    first, second, vport = steered
    _set_mode(agent, "VPORT_MODE_RX")
    held = [udp_frame(seq=i) for i in range(10)]
    for frame in held:
        sw.port(first).send(frame)
    _await_occupancy(agent, len(held))
    # The controller injects an end marker into the buffer with a packet-out.
    marker = udp_frame(seq=999)
    sw.packet_out(marker, vport)
    expect_no_packet(list(sw.ports.values()), timeout=1.0)
    assert _state(agent) == ("BUFFER_STATE_BUFFERING", len(held) + 1)

    _set_mode(agent, "VPORT_MODE_TX")
    expect_packets(sw.port(second), held + [marker], timeout=5.0)
    late = [udp_frame(seq=i) for i in range(100, 103)]
    for frame in late:
        sw.port(first).send(frame)
    expect_no_packet(list(sw.ports.values()), timeout=1.0)
    assert _state(agent) == ("BUFFER_STATE_SERVING", 0)
    assert _tx_mode_drops(agent) == len(late)


def test_replays_are_steered_to_the_resume_port(sw, agent, steered):
    first, second, vport = steered
    third = sw.take_ports(3)[2]
    # Resume towards another port: a rule for the replays of the flow
    # (from_vport 1, arriving on the vport) overrides forwarding.
    sw.insert("steering.flow_steering", priority=10,
              match={"from_vport": (1, 1), "ingress_port": (vport, 0x1FF), **FLOW},
              action="steering.steer_to_port", params={"port": third})
    _set_mode(agent, "VPORT_MODE_RX")
    held = [udp_frame(seq=i) for i in range(10)]
    for frame in held:
        sw.port(first).send(frame)
    expect_no_packet(list(sw.ports.values()), timeout=1.0)
    _set_mode(agent, "VPORT_MODE_RX_TX")
    expect_packets(sw.port(third), held, timeout=5.0)
    expect_no_packet([sw.port(second)])
    assert _state(agent) == ("BUFFER_STATE_FORWARDING", 0)


def test_a_large_hold_is_released_complete_and_in_order(sw, agent, steered):
    first, second, _ = steered
    _set_mode(agent, "VPORT_MODE_RX")
    held = [udp_frame(seq=i) for i in range(1000)]
    for frame in held:
        sw.port(first).send(frame)
    expect_no_packet(list(sw.ports.values()), timeout=1.0)
    assert _state(agent) == ("BUFFER_STATE_BUFFERING", len(held))
    _set_mode(agent, "VPORT_MODE_RX_TX")
    expect_packets(sw.port(second), held, timeout=10.0)


def _overflow_drops(agent):
    buf = agent.call("QueryBuffer", buffer_id=BUFFER)
    return sum(d.packets for d in buf.stats.drops if d.cause == agent.pb.DROP_CAUSE_OVERFLOW)


@pytest.mark.parametrize("steered", [100], indirect=True)
def test_overflow_drops_the_tail_and_counts_it(sw, agent, steered):
    first, second, _ = steered
    _set_mode(agent, "VPORT_MODE_RX")
    sent = [udp_frame(seq=i) for i in range(130)]
    for frame in sent:
        sw.port(first).send(frame)
    expect_no_packet(list(sw.ports.values()), timeout=1.0)
    assert _state(agent) == ("BUFFER_STATE_BUFFERING", 100)
    assert _overflow_drops(agent) == 30
    _set_mode(agent, "VPORT_MODE_RX_TX")
    expect_packets(sw.port(second), sent[:100], timeout=5.0)
