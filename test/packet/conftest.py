# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the target-agnostic packet tests.

    pytest test/packet                                  # pbswitch, built here
    pytest test/packet --target bmv2                    # simple_switch_grpc on PATH
    pytest test/packet --target grpc=127.0.0.1:9559 \\
        --port-map 1=veth1,2=veth3,3=veth5 --device-id 1  # any P4Runtime target

The options live here, so pass them with test/packet on the command line;
`pytest test` runs against pbswitch.
"""
import os

import pytest

from .client import Client
from .harness import Switch
from .p4info import BMV2_JSON_PATH, P4Info, engine_test_program
from .targets import CPU_PORT, Bmv2Target, PbswitchTarget, external_target


def pytest_addoption(parser):
    group = parser.getgroup("flowbuf-packet", "FlowBuf packet tests")
    group.addoption("--target", default="pbswitch",
                    help="pbswitch (default: built and started in a namespace lab) "
                         "or grpc=HOST:PORT of a running P4Runtime target")
    group.addoption("--port-map", default="",
                    help="with grpc=...: PORT=IFNAME,... the interface at the far end "
                         "of each switch port, where tests send and watch frames")
    group.addoption("--device-id", type=int, default=1, help="P4Runtime device id")
    group.addoption("--cpu-port", type=int, default=CPU_PORT,
                    help="the target's CPU port (the program's CPU_PORT is 255)")


def _option(config, name, default):
    # getoption with a default also works when `pytest test` did not load
    # this conftest early enough to register the options.
    return config.getoption(name, default=default)


LAB_TARGETS = {"pbswitch": PbswitchTarget, "bmv2": Bmv2Target}


def _external(config):
    """The Target of --target grpc=..., or None for a target started here."""
    spec = _option(config, "--target", "pbswitch")
    if spec in LAB_TARGETS:
        return None
    if not spec.startswith("grpc="):
        raise pytest.UsageError(f"--target {spec!r}: expected pbswitch, bmv2 or grpc=HOST:PORT")
    try:
        return external_target(spec, _option(config, "--port-map", ""),
                               _option(config, "--device-id", 1),
                               _option(config, "--cpu-port", CPU_PORT))
    except ValueError as err:
        raise pytest.UsageError(str(err)) from None


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "deviates_on(target, reason): the test holds a target to what the P4Runtime "
                   "specification states, which `target` is known not to do; there it is an "
                   "expected failure, strict: a pass means the target changed")
    _external(config)  # a bad --target or --port-map stops the run before any test


def pytest_collection_modifyitems(config, items):
    target = _option(config, "--target", "pbswitch")
    for item in items:
        for mark in item.iter_markers("deviates_on"):
            if mark.args[0] == target:
                item.add_marker(pytest.mark.xfail(
                    strict=True, reason=f"{target} does not hold the P4Runtime specification "
                                        f"here: {mark.kwargs['reason']}"))


@pytest.fixture(scope="session")
def target(request):
    if os.geteuid() != 0:
        pytest.skip("packet tests need root (network namespaces, raw sockets); "
                    "run as root, e.g. in CI")
    tgt = _external(request.config)
    if tgt is None:
        kind = LAB_TARGETS[_option(request.config, "--target", "pbswitch")]
        if kind is Bmv2Target and Bmv2Target.binary() is None:
            pytest.skip("--target bmv2: simple_switch_grpc (BMv2 built with PI) is not on PATH")
        tgt = kind(device_id=_option(request.config, "--device-id", 1))
    yield tgt
    tgt.close()


@pytest.fixture(scope="session")
def p4info():
    return P4Info()


@pytest.fixture(scope="session")
def device_config():
    """What SetForwardingPipelineConfig carries as p4_device_config: the
    p4c-built bmv2.json, which every target here runs (BMv2 and pbswitch's
    v1model engine alike)."""
    return BMV2_JSON_PATH.read_bytes()


@pytest.fixture(scope="session")
def pipeline(target, p4info, device_config):
    """The FlowBuf pipeline pushed once per session."""
    with Client(target.grpc_addr, target.device_id) as client:
        client.set_pipeline(p4info.info, device_config)
    return target


@pytest.fixture
def sw(pipeline, p4info):
    switch = Switch(pipeline, p4info)
    yield switch
    switch.close()
    if hasattr(pipeline, "log_tail"):
        # Shown by pytest only when the test failed.
        print(f"--- {pipeline.name} log (tail) ---\n{pipeline.log_tail()}")


@pytest.fixture
def program_switch(pipeline, p4info, device_config):
    """A factory: program_switch(name, ingress) pushes one of pbswitch's
    engine test programs (pbswitch/v1model/testdata) to the target and
    returns a Switch that names its objects; the FlowBuf pipeline is pushed
    back afterwards, for the tests that follow."""
    switches = []

    def push(name, ingress):
        try:
            info, config = engine_test_program(name, ingress)
        except FileNotFoundError as err:
            pytest.skip(f"engine test program {name} is not compiled ({err.filename} is missing): "
                        "run `make p4-build-testdata` with p4c-bm2-ss on PATH")
        with Client(pipeline.grpc_addr, pipeline.device_id) as client:
            client.set_pipeline(info.info, config)
        switch = Switch(pipeline, info)
        switches.append(switch)
        return switch

    yield push
    for switch in switches:
        switch.close()
    if switches:
        with Client(pipeline.grpc_addr, pipeline.device_id) as client:
            client.set_pipeline(p4info.info, device_config)
