# SPDX-License-Identifier: Apache-2.0
"""Python client of the southbound buffer API, for lab tools and tests.

The stubs are generated from proto/ at first use into build/python/ (not
committed), with Debian's protoc and grpc_python_plugin, and regenerated
when the .proto changes.
"""
import hashlib
import importlib
import pathlib
import shutil
import subprocess
import sys

import grpc

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROTO_DIR = ROOT / "proto"
PROTO = PROTO_DIR / "flowbuf" / "buffer" / "v1" / "buffer_agent.proto"
OUT = ROOT / "build" / "python"


def _generate():
    digest = hashlib.sha256(PROTO.read_bytes()).hexdigest()
    stamp = OUT / ".proto.sha256"
    if stamp.exists() and stamp.read_text() == digest:
        return
    plugin = shutil.which("grpc_python_plugin")
    if plugin is None or shutil.which("protoc") is None:
        raise RuntimeError("needs protoc and grpc_python_plugin "
                           "(apt-get install protobuf-compiler protobuf-compiler-grpc)")
    OUT.mkdir(parents=True, exist_ok=True)
    subprocess.run(["protoc", f"-I{PROTO_DIR}", f"--python_out={OUT}",
                    f"--grpc_out={OUT}", f"--plugin=protoc-gen-grpc={plugin}",
                    str(PROTO)], check=True)
    stamp.write_text(digest)


def modules():
    """Returns (messages, services) of flowbuf.buffer.v1."""
    _generate()
    if str(OUT) not in sys.path:
        sys.path.insert(0, str(OUT))
    pb = importlib.import_module("flowbuf.buffer.v1.buffer_agent_pb2")
    pb_grpc = importlib.import_module("flowbuf.buffer.v1.buffer_agent_pb2_grpc")
    return pb, pb_grpc


class BufferAgent:
    """A caller of one agent under one application id."""

    def __init__(self, address, app_id, timeout=5.0):
        self.pb, pb_grpc = modules()
        self.channel = grpc.insecure_channel(address)
        grpc.channel_ready_future(self.channel).result(timeout=timeout)
        self.stub = pb_grpc.BufferAgentStub(self.channel)
        self.app_id = app_id
        self.timeout = timeout

    def close(self):
        self.channel.close()

    def call(self, rpc, **fields):
        """Calls `rpc` with its `<rpc>Request` built from `fields`; the
        proto names every request that way, and app_id is added here."""
        request = getattr(self.pb, f"{rpc}Request")(app_id=self.app_id, **fields)
        return getattr(self.stub, rpc)(request, timeout=self.timeout)
