# SPDX-License-Identifier: Apache-2.0
"""Standard tooling works against the target: p4runtime-shell pushes the
pipeline, writes a table entry by name, reads it back and deletes it."""
import p4runtime_sh.shell as sh

from .p4info import BMV2_JSON_PATH, P4INFO_PATH

L2_TABLE = "IngressPipeImpl.forwarding.l2_exact"


def test_p4runtime_shell_inserts_and_reads_a_table_entry(pipeline):
    sh.setup(device_id=pipeline.device_id, grpc_addr=pipeline.grpc_addr,
             election_id=(0, 1),
             config=sh.FwdPipeConfig(str(P4INFO_PATH), str(BMV2_JSON_PATH)), verbose=False)
    try:
        entry = sh.TableEntry(L2_TABLE)(action="IngressPipeImpl.forwarding.set_egress_port")
        entry.match["eth_dst"] = "00:00:00:00:00:02"
        entry.action["port"] = "3"
        entry.insert()
        read = list(sh.TableEntry(L2_TABLE).read())
        assert len(read) == 1
        assert read[0].match["eth_dst"].exact.value == b"\x02"
        assert read[0].action["port"].value == b"\x03"
        read[0].delete()
        assert list(sh.TableEntry(L2_TABLE).read()) == []
    finally:
        sh.teardown()
