# SPDX-License-Identifier: Apache-2.0
"""Table entries over their life: read back as written, modify and delete
take effect on packets, a batch reports each update, and malformed entries
are refused with INVALID_ARGUMENT and change nothing."""
import grpc
import pytest
from p4.v1 import p4runtime_pb2

from .client import Client, WriteError
from .dataplane import expect_no_packet, expect_packet
from .packets import HOST2_MAC, HOST3_MAC, udp_frame


def _l2(sw, mac, port):
    return sw.entry("forwarding.l2_exact", match={"eth_dst": mac},
                    action="forwarding.set_egress_port", params={"port": port})


def test_entries_read_back_as_written(sw):
    written = [
        _l2(sw, HOST2_MAC, 2),
        sw.entry("forwarding.routing_v4", match={"ipv4_dst": ("10.1.0.0", 16)},
                 action="forwarding.route",
                 params={"port": 3, "src_mac": "00:00:00:00:aa:01",
                         "dst_mac": "00:00:00:00:0a:0a"}),
        sw.entry("steering.flow_steering", priority=7,
                 match={"ipv4_dst": ("10.0.2.0", "255.255.255.0"),
                        "l4_dst_port": (5000, 0xFFF8)},
                 action="steering.steer_to_port", params={"port": 4}),
    ]
    for entry in written:
        sw.client.insert(entry)
    for entry in written:
        [read] = sw.client.table_entries(entry.table_id)
        assert read == entry, f"read\n{read}\nwritten\n{entry}"


def test_modify_and_delete_change_forwarding(sw):
    first, second, third = sw.take_ports(3)
    sw.client.insert(_l2(sw, HOST2_MAC, second))
    frame = udp_frame(seq=1)
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)
    sw.client.modify(_l2(sw, HOST2_MAC, third))
    frame = udp_frame(seq=2)
    sw.port(first).send(frame)
    expect_packet(sw.port(third), frame)
    expect_no_packet([sw.port(second)])
    sw.client.delete(_l2(sw, HOST2_MAC, third))
    sw.port(first).send(udp_frame(seq=3))
    expect_no_packet(list(sw.ports.values()))


def test_batch_reports_every_update_and_keeps_the_good_ones(sw):
    good, dup = _l2(sw, HOST2_MAC, 2), _l2(sw, HOST3_MAC, 3)
    sw.client.insert(dup)
    with pytest.raises(WriteError) as err:
        sw.client.write(Client.update("INSERT", good), Client.update("INSERT", dup))
    assert err.value.code == grpc.StatusCode.UNKNOWN
    assert err.value.update_codes() == ["OK", "ALREADY_EXISTS"]
    # CONTINUE_ON_ERROR (the default atomicity): the good update is applied.
    assert len(sw.client.table_entries()) == 2


def _ternary_outside_mask(sw):
    entry = sw.entry("steering.flow_steering", priority=1,
                     match={"ipv4_dst": ("10.0.2.0", "255.255.255.0")},
                     action="steering.steer_to_port", params={"port": 2})
    entry.match[0].ternary.value = bytes([10, 0, 2, 9])  # .9 is under a zero mask bit
    return entry


def _lpm_bits_beyond_prefix(sw):
    return sw.entry("forwarding.routing_v4", match={"ipv4_dst": ("10.1.0.1", 16)},
                    action="forwarding.drop")


def _ternary_without_priority(sw):
    return sw.entry("acl.acl_table", match={"ip_proto": (17, 0xFF)}, action="acl.drop")


def _exact_with_priority(sw):
    entry = _l2(sw, HOST2_MAC, 2)
    entry.priority = 5
    return entry


def _action_of_another_table(sw):
    return sw.entry("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
                    action="acl.punt_to_cpu")


def _missing_param(sw):
    entry = _l2(sw, HOST2_MAC, 2)
    del entry.action.action.params[:]
    return entry


@pytest.mark.parametrize("make", [_ternary_outside_mask, _lpm_bits_beyond_prefix,
                                  _ternary_without_priority, _exact_with_priority,
                                  _action_of_another_table, _missing_param],
                         ids=lambda f: f.__name__.strip("_"))
def test_malformed_entry_is_invalid_argument(sw, make):
    with pytest.raises(WriteError) as err:
        sw.client.insert(make(sw))
    assert err.value.code == grpc.StatusCode.UNKNOWN, err.value
    assert err.value.update_codes() == ["INVALID_ARGUMENT"], err.value
    assert sw.client.table_entries() == []


@pytest.mark.deviates_on(
    "bmv2", reason='Write: "If device_id does not match any of the devices known to the '
                   'P4Runtime server [...] the server must return a NOT_FOUND error", checked '
                   'before the primary; PI answers PERMISSION_DENIED "Not primary"')
def test_write_to_another_device_id_is_refused(sw):
    request = p4runtime_pb2.WriteRequest(device_id=sw.target.device_id + 1000)
    request.election_id.CopyFrom(sw.client.election_id)
    request.updates.append(Client.update("INSERT", _l2(sw, HOST2_MAC, 2)))
    with pytest.raises(grpc.RpcError) as err:
        sw.client.stub.Write(request, timeout=sw.client.timeout)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    assert sw.client.table_entries() == []
