"""Checks of the southbound buffer API contract (proto/).

The Go stubs are committed (so `go build` needs no protoc); these tests make
sure they are exactly what `make proto` would generate from the .proto, and
that the contract keeps the versioning rules written at its top.
"""
import filecmp
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROTO = ROOT / "proto" / "flowbuf" / "buffer" / "v1" / "buffer_agent.proto"
GEN = ROOT / "proto" / "gen" / "go"


def _versions():
    env = {}
    for line in (ROOT / "tools" / "versions.env").read_text().splitlines():
        m = re.match(r"^([A-Z_]+)=\"?([^\"]*)\"?$", line)
        if m:
            env[m.group(1)] = m.group(2)
    return env


def _go_plugin_dir(tmp):
    """Installs the pinned protoc plugins into tmp and returns the bin dir."""
    versions = _versions()
    env = dict(os.environ, GOBIN=str(tmp))
    for mod, ver in (
        ("google.golang.org/protobuf/cmd/protoc-gen-go",
         versions["PROTOC_GEN_GO_VERSION"]),
        ("google.golang.org/grpc/cmd/protoc-gen-go-grpc",
         versions["PROTOC_GEN_GO_GRPC_VERSION"]),
    ):
        subprocess.run(["go", "install", f"{mod}@{ver}"], check=True, env=env,
                       cwd=ROOT, capture_output=True)
    return tmp


@pytest.mark.skipif(shutil.which("protoc") is None,
                    reason="needs protoc (apt-get install protobuf-compiler)")
def test_committed_go_stubs_match_the_proto():
    with tempfile.TemporaryDirectory() as plugins, \
            tempfile.TemporaryDirectory() as out:
        bindir = _go_plugin_dir(pathlib.Path(plugins))
        mod = "github.com/flowbuf/flowbuf/proto/gen/go"
        subprocess.run(
            ["protoc", "-I", str(ROOT / "proto"),
             f"--go_out={out}", f"--go_opt=module={mod}",
             f"--go-grpc_out={out}", f"--go-grpc_opt=module={mod}",
             str(PROTO)],
            check=True, env=dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}"))
        cmp = filecmp.dircmp(out, GEN)
        stale = _differences(cmp)
        assert not stale, f"run `make proto`: stale or missing stubs {stale}"


def _differences(cmp, prefix=""):
    diffs = [prefix + f for f in cmp.diff_files + cmp.left_only + cmp.right_only]
    for name, sub in cmp.subdirs.items():
        diffs += _differences(sub, prefix + name + "/")
    return diffs


def _field_numbers_by_message(text):
    """Maps each message name to the list of its field numbers."""
    fields = {}
    stack = []
    for line in text.splitlines():
        line = line.split("//")[0].strip()
        m = re.match(r"^(message|enum|oneof)\s+(\w+)\s*\{", line)
        if m:
            # A oneof's fields belong to the enclosing message.
            stack.append(stack[-1] if m.group(1) == "oneof" else m.group(2))
            continue
        if line.startswith("}") and stack:
            stack.pop()
            continue
        f = re.match(r"^(?:repeated\s+|optional\s+)?[\w.]+\s+\w+\s*=\s*(\d+)\s*;", line)
        if f and stack:
            fields.setdefault(stack[-1], []).append(int(f.group(1)))
    return fields


def test_no_message_reuses_a_field_number():
    fields = _field_numbers_by_message(PROTO.read_text())
    assert "CreateBufferRequest" in fields, "parser found no messages"
    for message, numbers in fields.items():
        assert len(numbers) == len(set(numbers)), f"{message} reuses a field number"


def test_package_is_versioned_and_every_request_names_its_app():
    text = PROTO.read_text()
    assert re.search(r"^package flowbuf\.buffer\.v\d+;", text, re.M)
    requests = re.findall(r"^message (\w+Request) \{(.*?)^\}", text, re.M | re.S)
    assert len(requests) >= 15
    for name, body in requests:
        assert re.search(r"string app_id = 1;", body), f"{name} lacks app_id = 1"
