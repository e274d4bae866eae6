# SPDX-License-Identifier: Apache-2.0
"""What programs from outside FlowBuf use, run as BMv2 runs it: the engine
test program pbswitch/v1model/testdata/parity.p4 (a @hidden table,
@p4runtime_translation types, an egress counter by port), pushed over
P4Runtime like any program."""
import time

import pytest
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from .client import WriteError
from .dataplane import MARKER, expect_packet, expect_no_packet
from .packets import HOST1_MAC, HOST2_MAC

EGRESS_COUNTER = "EgressImpl.egress_packets"
TAGGED = 0x88B6
# A port number no target here gives an interface (the labs use 1-5).
NO_INTERFACE_PORT = 42


@pytest.fixture
def parity(program_switch):
    return program_switch("parity", ingress="IngressImpl")


def frame(ethertype, tag_port=None, seq=0):
    payload = MARKER + seq.to_bytes(4, "big") + bytes(32)
    if tag_port is not None:
        payload = tag_port.to_bytes(2, "big") + (0x0800).to_bytes(2, "big") + payload
    return Ether(dst=HOST2_MAC, src=HOST1_MAC, type=ethertype) / Raw(payload)


def wait_for_count(sw, name, index, want, timeout=3.0):
    """The packets of a counter cell once it reaches `want` (egress runs
    after the frame left ingress), or what it holds at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        packets, _ = sw.counter_cell(name, index)
        if packets >= want or time.monotonic() > deadline:
            return packets
        time.sleep(0.05)


def test_a_hidden_table_runs_with_its_const_entries_and_default(parity):
    """classify is @hidden: not in the p4info, so the controller programs
    only by_class, on the class classify gives (IPv4 1, IPv6 2, else 3)."""
    first, second, third = parity.take_ports(3)
    assert "IngressImpl.classify" not in {t.preamble.name for t in parity.p4info.info.tables}
    parity.insert("by_class", match={"meta.cls": 1}, action="to_port", params={"port": second})
    parity.insert("by_class", match={"meta.cls": 3}, action="to_port", params={"port": third})
    ipv4, other = frame(0x0800, seq=1), frame(0x88B5, seq=2)
    parity.port(first).send(ipv4)
    expect_packet(parity.port(second), ipv4)
    parity.port(first).send(other)
    expect_packet(parity.port(third), other)


def test_egress_runs_for_a_port_with_no_interface(parity):
    """BMv2 queues a packet for a port that has no interface, runs egress
    (its counter counts) and drops it at transmit."""
    first, second = parity.take_ports(2)
    parity.insert("by_class", match={"meta.cls": 1}, action="to_port",
                  params={"port": NO_INTERFACE_PORT})
    before, _ = parity.counter_cell(EGRESS_COUNTER, NO_INTERFACE_PORT)
    parity.port(first).send(frame(0x0800, seq=3))
    assert wait_for_count(parity, EGRESS_COUNTER, NO_INTERFACE_PORT, before + 1) == before + 1
    expect_no_packet(list(parity.ports.values()))
    # A port with an interface counts the same way, and delivers.
    parity.insert("by_class", match={"meta.cls": 3}, action="to_port", params={"port": second})
    before, _ = parity.counter_cell(EGRESS_COUNTER, second)
    other = frame(0x88B5, seq=4)
    parity.port(first).send(other)
    expect_packet(parity.port(second), other)
    assert wait_for_count(parity, EGRESS_COUNTER, second, before + 1) == before + 1


def test_the_push_of_a_program_with_translated_types_is_taken(parity):
    """tport_t is 32 bits in the p4info and 16 in the JSON: a program, not a
    mismatch. Untagged traffic (no translated value involved) runs."""
    first, second = parity.take_ports(2)
    field = parity.p4info.match_field("by_tport", "meta.tport")
    assert field.bitwidth == 32 and field.type_name.name == "tport_t"
    parity.insert("by_class", match={"meta.cls": 1}, action="to_port", params={"port": second})
    ipv4 = frame(0x0800, seq=5)
    parity.port(first).send(ipv4)
    expect_packet(parity.port(second), ipv4)


@pytest.mark.deviates_on("bmv2", reason="PI does not translate: it hands BMv2 the controller's "
                                        "32-bit value for a 16-bit key, which BMv2's "
                                        "match_params_sanity_check refuses")
def test_translated_values_are_mapped_and_read_back(parity):
    """The server maps the controller's SDN values to the data plane's and
    back (pbswitch: by identity); a tagged frame for data-plane port value
    0x0102 goes where the entry for SDN value 0x0102 sends it."""
    first, second = parity.take_ports(2)
    entry = parity.insert("by_tport", match={"meta.tport": 0x0102}, action="to_tport",
                          params={"port": second})
    tagged = frame(TAGGED, tag_port=0x0102, seq=6)
    parity.port(first).send(tagged)
    expect_packet(parity.port(second), tagged)
    (read,) = parity.client.table_entries(entry.table_id)
    assert read.match[0].exact.value == b"\x01\x02"
    assert read.action.action.params[0].value == second.to_bytes(1, "big")
    with pytest.raises(WriteError) as err:  # an SDN value the data plane has no value for
        parity.insert("by_tport", match={"meta.tport": 0x10000}, action="drop")
    assert err.value.update_codes() == ["INVALID_ARGUMENT"]
