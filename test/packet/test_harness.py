# SPDX-License-Identifier: Apache-2.0
"""The harness itself, without a target (no root needed)."""
import pytest
from scapy.layers.inet import IP
from scapy.layers.l2 import Ether

from .p4info import P4Info, encode
from .packets import routed, udp_frame
from .targets import Bmv2Target, parse_port_map


def test_encode_is_canonical_and_checks_width():
    assert encode(0, 9) == b"\x00"
    assert encode(255, 9) == b"\xff"
    assert encode(256, 9) == b"\x01\x00"
    assert encode("00:00:00:00:00:01", 48) == b"\x01"
    assert encode("10.0.0.1", 32) == b"\x0a\x00\x00\x01"
    with pytest.raises(ValueError):
        encode(512, 9)


def test_names_resolve_to_p4info_ids():
    info = P4Info()
    table = info.table("forwarding.l2_exact")
    assert info.table_id("forwarding.l2_exact") == table.preamble.id
    assert info.table_id("IngressPipeImpl.forwarding.l2_exact") == table.preamble.id
    entry = info.table_entry("forwarding.routing_v4", match={"ipv4_dst": ("10.1.0.0", 16)},
                             action="forwarding.route",
                             params={"port": 2, "src_mac": "00:00:00:00:aa:01",
                                     "dst_mac": "00:00:00:00:00:02"})
    assert entry.match[0].lpm.prefix_len == 16
    assert entry.action.action.action_id == info.action_id("forwarding.route")
    assert len(entry.action.action.params) == 3


def test_unknown_names_fail_clearly():
    info = P4Info()
    with pytest.raises(KeyError, match="no_such_table"):
        info.table_id("no_such_table")
    with pytest.raises(KeyError, match="no match field"):
        info.field_match("forwarding.l2_exact", "ipv4_dst", 1)
    with pytest.raises(KeyError, match="no parameters"):
        info.action_proto("forwarding.set_egress_port", vlan=3)


def test_port_map_parsing():
    ports = parse_port_map("1=veth1, 2=veth3")
    assert {n: p.ifname for n, p in ports.items()} == {1: "veth1", 2: "veth3"}
    for bad in ("1veth1", "x=veth1", "1=", "1=a,1=b"):
        with pytest.raises(ValueError):
            parse_port_map(bad)


def test_routed_frame_has_valid_checksum_and_lower_ttl():
    frame = udp_frame(ttl=64)
    out = routed(frame, "00:00:00:00:aa:01", "00:00:00:00:00:09")
    assert out[IP].ttl == 63 and out[Ether].dst == "00:00:00:00:00:09"
    check = Ether(bytes(out))
    given = check[IP].chksum
    del check[IP].chksum
    assert Ether(bytes(check))[IP].chksum == given


def test_range_matches_counters_and_meters_by_name():
    info = P4Info()
    entry = info.table_entry("upf.applications", match={"app_port": (8000, 8999)},
                             action="upf.set_app_id", params={"app_id": 7}, priority=1)
    assert entry.match[0].range.low == encode(8000, 16)
    assert entry.match[0].range.high == encode(8999, 16)
    assert info.counter_id("upf.drops") == info.counter_id("IngressPipeImpl.upf.drops")
    assert info.meter_id("upf.session_meter") != info.meter_id("upf.app_meter")
    with pytest.raises(KeyError):
        info.meter_id("upf.no_such_meter")


@pytest.mark.parametrize("help_text, has", [
    ("--grpc-server-addr arg\n--cpu-port arg\n--priority-queues arg\n", True),
    ("--grpc-server-addr arg\n--cpu-port arg\n", False),  # BMv2 1.15.0
])
def test_bmv2_priority_queues_are_detected_from_its_help(tmp_path, help_text, has):
    fake = tmp_path / "simple_switch_grpc"
    fake.write_text(f"#!/bin/sh\nprintf '%s' '{help_text}'\n")
    fake.chmod(0o755)
    assert Bmv2Target.has_priority_queues(str(fake)) is has
