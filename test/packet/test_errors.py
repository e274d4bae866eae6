# SPDX-License-Identifier: Apache-2.0
"""P4Runtime errors: the right status for each bad write, and the write
changes nothing."""
import grpc
import pytest
from p4.v1 import p4runtime_pb2

from .client import ArbitrationError, Client, WriteError
from .packets import HOST2_MAC


def _l2_entry(sw, port=2):
    return sw.entry("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
                    action="forwarding.set_egress_port", params={"port": port})


def _unused_table_id(sw):
    used = {t.preamble.id for t in sw.p4info.info.tables}
    # The p4info prefix of tables (0x02) with an id no table has.
    return next(i for i in range(0x02FFFFFF, 0x02000000, -1) if i not in used)


def _expect_update_error(call, code_name):
    with pytest.raises(WriteError) as err:
        call()
    # P4Runtime: a batch with failed updates answers UNKNOWN and one
    # p4.v1.Error per update in the status details.
    assert err.value.code == grpc.StatusCode.UNKNOWN, err.value
    assert err.value.update_codes() == [code_name], err.value


def test_unknown_table_id_is_refused(sw):
    """The spec names no code for a table id the P4Info lacks: pbswitch
    answers NOT_FOUND (as for an id of any kind it does not know), BMv2/PI
    INVALID_ARGUMENT (as the spec does for an action parameter id the P4Info
    lacks, "Action Specification"); either refuses, and nothing is written."""
    entry = _l2_entry(sw)
    entry.table_id = _unused_table_id(sw)
    with pytest.raises(WriteError) as err:
        sw.client.insert(entry)
    assert err.value.code == grpc.StatusCode.UNKNOWN, err.value
    assert err.value.update_codes() in (["NOT_FOUND"], ["INVALID_ARGUMENT"]), err.value
    assert sw.client.table_entries() == []


def test_duplicate_insert_is_already_exists(sw):
    sw.client.insert(_l2_entry(sw, port=2))
    _expect_update_error(lambda: sw.client.insert(_l2_entry(sw, port=3)), "ALREADY_EXISTS")
    [stored] = sw.client.table_entries()
    assert stored.action.action.params[0].value == b"\x02"  # the first insert stands


def test_modify_or_delete_of_a_missing_entry_is_not_found(sw):
    _expect_update_error(lambda: sw.client.modify(_l2_entry(sw)), "NOT_FOUND")
    _expect_update_error(lambda: sw.client.delete(_l2_entry(sw)), "NOT_FOUND")
    assert sw.client.table_entries() == []


def test_write_with_an_election_id_that_is_not_the_primary(sw):
    foreign = p4runtime_pb2.Uint128(high=0, low=5)  # held by no controller
    with pytest.raises(WriteError) as err:
        sw.client.write(Client.update("INSERT", _l2_entry(sw)), election_id=foreign)
    assert err.value.code == grpc.StatusCode.PERMISSION_DENIED
    # A controller with a higher election id takes over: the former primary,
    # now a backup, may not write either.
    with Client(sw.target.grpc_addr, sw.target.device_id, election_id=(0, 20)) as higher:
        assert higher.is_primary
        with pytest.raises(WriteError) as err:
            sw.client.insert(_l2_entry(sw))
        assert err.value.code == grpc.StatusCode.PERMISSION_DENIED
        assert higher.table_entries() == []


def test_constant_default_action_cannot_be_changed(sw):
    # Every table of the program declares `const default_action`.
    default = sw.entry("forwarding.l2_exact", action="forwarding.drop")
    default.is_default_action = True
    _expect_update_error(lambda: sw.client.modify(default), "PERMISSION_DENIED")
    query = p4runtime_pb2.Entity()
    query.table_entry.table_id = default.table_id
    query.table_entry.is_default_action = True
    [read] = [e.table_entry for e in sw.client.read(query)]
    assert read.is_default_action
    assert read.action.action.action_id == sw.p4info.action_id("NoAction")


def test_an_election_id_an_open_stream_holds_is_refused(sw):
    """P4Runtime: arbitration with the election id of another open stream
    of the role is INVALID_ARGUMENT. (The harness retries that refusal
    until its timeout, for the stream of a client just closed that the
    switch has not dropped yet; it must still fail here.)"""
    with Client(sw.target.grpc_addr, sw.target.device_id, election_id=(0, 3)):
        with pytest.raises(ArbitrationError) as refused:
            Client(sw.target.grpc_addr, sw.target.device_id, election_id=(0, 3), timeout=0.5)
    assert refused.value.__cause__.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_a_closed_clients_election_id_is_taken_at_once_by_the_next(sw):
    # What every test's fixture does with the same id, quickly here.
    for _ in range(20):
        with Client(sw.target.grpc_addr, sw.target.device_id, election_id=(0, 4)) as c:
            assert not c.is_primary  # below the fixture's own client
