# SPDX-License-Identifier: Apache-2.0
"""The packet replication engine over its life: multicast groups read back,
modified and deleted; a clone session that mirrors to a data port."""
import pytest
from p4.v1 import p4runtime_pb2

from .client import Client, WriteError
from .dataplane import expect_no_packet, expect_packet
from .packets import HOST2_MAC, udp_frame

GROUP_MAC = "01:00:5e:00:00:08"


def _read_group(sw, group_id):
    entity = p4runtime_pb2.Entity()
    entity.packet_replication_engine_entry.multicast_group_entry.multicast_group_id = group_id
    return [e.packet_replication_engine_entry.multicast_group_entry
            for e in sw.client.read(entity)]


def _replica_ports(group):
    return sorted(r.egress_port for r in group.replicas)


def test_multicast_group_read_modify_delete(sw):
    first, second, third, fourth = sw.take_ports(4)
    sw.add_multicast_group(8, [second, third])
    sw.insert("forwarding.l2_exact", match={"eth_dst": GROUP_MAC},
              action="forwarding.set_mcast_group", params={"group_id": 8})
    [group] = _read_group(sw, 8)
    assert _replica_ports(group) == [second, third]

    sw.client.modify(Client.multicast_group(8, [third, fourth]))
    assert _replica_ports(_read_group(sw, 8)[0]) == [third, fourth]
    frame = udp_frame(eth_dst=GROUP_MAC)
    sw.port(first).send(frame)
    expect_packet(sw.port(third), frame)
    expect_packet(sw.port(fourth), frame)
    expect_no_packet(list(sw.ports.values()))

    sw.client.delete(Client.multicast_group(8, []))
    assert 8 not in sw.client.multicast_groups()
    sw.port(first).send(udp_frame(eth_dst=GROUP_MAC, seq=1))
    expect_no_packet(list(sw.ports.values()))


def test_multicast_group_errors(sw):
    second, third = sw.take_ports(3)[1:]
    sw.add_multicast_group(8, [second])
    with pytest.raises(WriteError) as err:
        sw.client.insert(Client.multicast_group(8, [third]))
    assert err.value.update_codes() == ["ALREADY_EXISTS"]
    with pytest.raises(WriteError) as err:
        sw.client.modify(Client.multicast_group(77, [third]))
    assert err.value.update_codes() == ["NOT_FOUND"]
    assert _replica_ports(_read_group(sw, 8)[0]) == [second]


def test_clone_session_mirrors_to_a_data_port(sw):
    first, second, third = sw.take_ports(3)
    # Session 99 is what copy_to_cpu clones to; pointed at a data port it
    # mirrors the packet there, unchanged (no packet_in header).
    sw.add_clone_session(99, [third])
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    sw.insert("acl.acl_table", priority=1, match={"ip_proto": (17, 0xFF)},
              action="acl.copy_to_cpu")
    frame = udp_frame()
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)
    expect_packet(sw.port(third), frame)
    sw.expect_no_packet_in()
    expect_no_packet(list(sw.ports.values()))
