# SPDX-License-Identifier: Apache-2.0
"""SetForwardingPipelineConfig with the committed p4info + bmv2.json, and
GetForwardingPipelineConfig gives the same p4info back."""
import grpc
import pytest
from p4.v1 import p4runtime_pb2

from .client import Client
from .dataplane import expect_no_packet
from .packets import HOST2_MAC, udp_frame


def test_pipeline_push_and_read_back(pipeline, p4info, device_config):
    with Client(pipeline.grpc_addr, pipeline.device_id) as client:
        assert client.is_primary
        client.set_pipeline(p4info.info, device_config)
        config = client.get_pipeline("ALL")
        assert config.p4info == p4info.info
        assert config.p4_device_config == device_config
        p4info_only = client.get_pipeline("P4INFO_AND_COOKIE")
        assert p4info_only.p4info == p4info.info and not p4info_only.p4_device_config
        cookie_only = client.get_pipeline("COOKIE_ONLY")
        assert not cookie_only.HasField("p4info")
        assert cookie_only.cookie == config.cookie


def test_pipeline_push_needs_an_election_id_of_the_primary(pipeline, p4info, device_config):
    with Client(pipeline.grpc_addr, pipeline.device_id) as client:
        request = p4runtime_pb2.SetForwardingPipelineConfigRequest(
            device_id=client.device_id,
            action=p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT)
        request.election_id.low = 7  # no controller holds this election id
        request.config.p4info.CopyFrom(p4info.info)
        request.config.p4_device_config = device_config
        with pytest.raises(grpc.RpcError) as err:
            client.stub.SetForwardingPipelineConfig(request, timeout=client.timeout)
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED


def test_pipeline_push_clears_the_forwarding_state(sw, device_config):
    first, second = sw.take_ports(2)
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    sw.add_multicast_group(3, [first, second])
    sw.client.set_pipeline(sw.p4info.info, device_config)  # VERIFY_AND_COMMIT
    assert sw.client.table_entries() == []
    assert sw.client.multicast_groups() == {}
    sw.port(first).send(udp_frame())
    expect_no_packet(list(sw.ports.values()))
