# SPDX-License-Identifier: Apache-2.0
"""Packet I/O with the controller: packet-out to a port, packet-in by ACL
punt (with its ingress port), copy-to-cpu (forwarded and punted) and drop."""
import pytest
from google.rpc import code_pb2

from .client import Client
from .dataplane import expect_no_packet, expect_packet
from .packets import HOST2_MAC, udp_frame

EXACT_IP = "255.255.255.255"


def _others(sw, *numbers):
    return [sw.port(n) for n in sw.port_numbers() if n not in numbers]


def test_packet_out_leaves_on_the_named_port(sw):
    for number in sw.port_numbers():
        frame = udp_frame(seq=number)
        sw.packet_out(frame, number)
        expect_packet(sw.port(number), frame)
        expect_no_packet(_others(sw, number))


def test_acl_punt_sends_the_packet_to_the_controller_only(sw):
    first, second = sw.take_ports(2)
    # The punt overrides forwarding: without the ACL the frame would leave
    # on `second`.
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    sw.insert("acl.acl_table", priority=10,
              match={"eth_type": (0x0800, 0xFFFF), "ip_proto": (17, 0xFF),
                     "l4_dst_port": (5000, 0xFFFF)},
              action="acl.punt_to_cpu")
    for ingress in (first, second):
        frame = udp_frame(dport=5000, seq=ingress)
        sw.port(ingress).send(frame)
        metadata = sw.expect_packet_in(frame)
        assert metadata["ingress_port"] == ingress
        expect_no_packet(list(sw.ports.values()))
    not_punted = udp_frame(dport=5001)
    sw.port(first).send(not_punted)
    expect_packet(sw.port(second), not_punted)
    sw.expect_no_packet_in()


def test_acl_punt_overrides_multicast(sw):
    first, second, third = sw.take_ports(3)
    sw.add_multicast_group(5, [second, third])
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_mcast_group", params={"group_id": 5})
    sw.insert("acl.acl_table", priority=1, match={"ip_proto": (17, 0xFF)},
              action="acl.punt_to_cpu")
    frame = udp_frame()
    sw.port(first).send(frame)
    assert sw.expect_packet_in(frame)["ingress_port"] == first
    expect_no_packet(list(sw.ports.values()))
    sw.expect_no_packet_in()  # one packet-in, not one per replica


def test_acl_copy_to_cpu_forwards_and_punts(sw):
    first, second = sw.take_ports(2)
    sw.add_clone_session(99, [sw.target.cpu_port])
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    sw.insert("acl.acl_table", priority=10,
              match={"ipv4_dst": ("10.0.2.2", EXACT_IP)}, action="acl.copy_to_cpu")
    frame = udp_frame(ip_dst="10.0.2.2")
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)
    assert sw.expect_packet_in(frame)["ingress_port"] == first
    expect_no_packet(_others(sw, second))


def test_acl_drop_beats_forwarding(sw):
    first, second = sw.take_ports(2)
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    sw.insert("acl.acl_table", priority=10,
              match={"ipv4_src": ("10.0.1.66", EXACT_IP)}, action="acl.drop")
    sw.port(first).send(udp_frame(ip_src="10.0.1.66"))
    expect_no_packet(list(sw.ports.values()))
    sw.expect_no_packet_in()
    allowed = udp_frame(ip_src="10.0.1.67")
    sw.port(first).send(allowed)
    expect_packet(sw.port(second), allowed)


def test_packet_in_goes_to_the_primary_and_backups_cannot_packet_out(sw):
    first, second = sw.take_ports(2)
    sw.insert("acl.acl_table", priority=10, match={"l4_dst_port": (5000, 0xFFFF)},
              action="acl.punt_to_cpu")
    with Client(sw.target.grpc_addr, sw.target.device_id, election_id=(0, 5)) as backup:
        assert not backup.is_primary
        frame = udp_frame(dport=5000)
        sw.port(first).send(frame)
        assert sw.expect_packet_in(frame)["ingress_port"] == first
        assert backup.packet_in(timeout=0.5) is None
        backup.packet_out(udp_frame(seq=9), sw.packet_out_metadata(egress_port=second))
        expect_no_packet(list(sw.ports.values()))


def test_a_backups_packet_out_is_reported(sw):
    """P4Runtime requires a backup's packet-out to be dropped (above) and
    makes its StreamError (PERMISSION_DENIED) optional; FlowBuf's rule that
    bad input gets a clear error makes it required of pbswitch."""
    if sw.target.name != "pbswitch":
        pytest.skip("stream error reports are optional in P4Runtime")
    second = sw.take_ports(2)[1]
    with Client(sw.target.grpc_addr, sw.target.device_id, election_id=(0, 5)) as backup:
        backup.packet_out(udp_frame(seq=9), sw.packet_out_metadata(egress_port=second))
        error = backup.stream_error()
        assert error is not None and _code_name(error) == "PERMISSION_DENIED", error


def _code_name(error):
    return code_pb2.Code.Name(error.canonical_code)


MALFORMED = ("no_metadata", "unknown_metadata_id", "egress_port_too_wide")


def _malformed_packet_out(sw, what, port):
    """Metadata of a packet-out to `port` that does not match the p4info."""
    md_id, _ = sw.p4info.packet_metadata("packet_out", "egress_port")
    if what == "no_metadata":
        return {}
    if what == "unknown_metadata_id":
        unknown_id = max(sw.packet_out_metadata()) + 100
        return {**sw.packet_out_metadata(egress_port=port), unknown_id: b"\x01"}
    # 9-bit egress_port: 512 + port would be `port` if the server cut it.
    return {**sw.packet_out_metadata(), md_id: (512 + port).to_bytes(2, "big")}


@pytest.mark.parametrize("what", MALFORMED)
def test_malformed_packet_out_is_dropped(sw, what):
    """P4Runtime: a PacketOut whose metadata does not match the p4info must
    be dropped."""
    port = sw.take_ports(1)[0]
    sw.client.packet_out(udp_frame(), _malformed_packet_out(sw, what, port))
    expect_no_packet(list(sw.ports.values()))


@pytest.mark.parametrize("what", MALFORMED)
def test_malformed_packet_out_is_reported(sw, what):
    """P4Runtime makes the StreamError optional; FlowBuf's rule that bad
    input gets a clear error makes it required of pbswitch."""
    if sw.target.name != "pbswitch":
        pytest.skip("stream error reports are optional in P4Runtime")
    port = sw.take_ports(1)[0]
    sw.client.packet_out(udp_frame(), _malformed_packet_out(sw, what, port))
    error = sw.client.stream_error(timeout=1.0)
    assert error is not None, f"no StreamError for a packet-out with {what}"
    assert _code_name(error) == "INVALID_ARGUMENT", error
    assert error.packet_out.packet_out.payload == bytes(udp_frame())


def test_copy_to_cpu_of_a_multicast_packet_makes_one_packet_in(sw):
    first, second, third = sw.take_ports(3)
    sw.add_clone_session(99, [sw.target.cpu_port])
    sw.add_multicast_group(5, [second, third])
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_mcast_group", params={"group_id": 5})
    sw.insert("acl.acl_table", priority=1, match={"ip_proto": (17, 0xFF)},
              action="acl.copy_to_cpu")
    frame = udp_frame()
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)
    expect_packet(sw.port(third), frame)
    assert sw.expect_packet_in(frame)["ingress_port"] == first
    sw.expect_no_packet_in()
