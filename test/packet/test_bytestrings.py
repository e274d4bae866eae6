# SPDX-License-Identifier: Apache-2.0
"""P4Runtime bytestrings (spec 1.4.1, "Bytestrings"): a server accepts any
length of string whose value fits the P4Info bitwidth, answers reads with
the shortest string, and refuses values that do not fit, and empty strings.

The spec names two codes for the refusal: OUT_OF_RANGE in "Bytestrings",
INVALID_ARGUMENT in "Match Format" and "Action Specification" (a value that
does not conform to the Bytestrings format); either is accepted here."""
import grpc
import pytest

from .client import WriteError
from .dataplane import expect_packet
from .packets import HOST2_MAC, udp_frame


def _l2(sw, port):
    return sw.entry("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
                    action="forwarding.set_egress_port", params={"port": port})


def test_padded_strings_are_accepted_and_read_back_shortest(sw):
    first, second = sw.take_ports(2)
    entry = _l2(sw, second)
    entry.match[0].exact.value = bytes.fromhex("000000000002")       # 48-bit MAC, 6 bytes
    entry.action.action.params[0].value = second.to_bytes(2, "big")  # 9-bit port, 2 bytes
    sw.client.insert(entry)
    frame = udp_frame()
    sw.port(first).send(frame)
    expect_packet(sw.port(second), frame)
    [read] = sw.client.table_entries(entry.table_id)
    assert read.match[0].exact.value == b"\x02"
    assert read.action.action.params[0].value == bytes([second])


def _param_too_wide(sw):
    entry = _l2(sw, 2)
    entry.action.action.params[0].value = (512).to_bytes(2, "big")  # port is bit<9>
    return entry


def _match_too_wide(sw):
    entry = _l2(sw, 2)
    entry.match[0].exact.value = b"\x01" + bytes(6)  # eth_dst is bit<48>
    return entry


def _empty_param(sw):
    entry = _l2(sw, 2)
    entry.action.action.params[0].value = b""
    return entry


def _empty_match(sw):
    entry = _l2(sw, 2)
    entry.match[0].exact.value = b""
    return entry


# P4Runtime 1.4, "Bytestrings", Table "Examples of Invalid Bytestring
# Encoding": the empty string is invalid for bit<8> and int<16>.
EMPTY_IS_INVALID = pytest.mark.deviates_on(
    "bmv2", reason="PI accepts an empty bytestring, where the spec lists the empty string "
                   "among the invalid encodings of a bit<W> value")


@pytest.mark.parametrize("make", [_param_too_wide, _match_too_wide,
                                  pytest.param(_empty_param, marks=EMPTY_IS_INVALID),
                                  pytest.param(_empty_match, marks=EMPTY_IS_INVALID)],
                         ids=lambda f: f.__name__.strip("_"))
def test_value_that_does_not_fit_is_refused(sw, make):
    with pytest.raises(WriteError) as err:
        sw.client.insert(make(sw))
    assert err.value.code == grpc.StatusCode.UNKNOWN, err.value
    assert err.value.update_codes() in (["OUT_OF_RANGE"], ["INVALID_ARGUMENT"]), err.value
    assert sw.client.table_entries() == []
