# SPDX-License-Identifier: Apache-2.0
"""cli/flowbuf, the REST client with the ONOS CLI's verbs, against a stub
API that records each request: what it sends, what it prints, and that bad
arguments send nothing."""
import importlib.machinery
import importlib.util
import json
import pathlib
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
_loader = importlib.machinery.SourceFileLoader("flowbuf_cli", str(ROOT / "cli" / "flowbuf"))
_spec = importlib.util.spec_from_loader("flowbuf_cli", _loader)
flowbuf = importlib.util.module_from_spec(_spec)
_loader.exec_module(flowbuf)

BUFFER = {"deviceId": "device:s1", "id": "b1", "owner": "org.flowbuf.rest", "state": "BUFFERING",
          "vport": "vp100", "mode": "RX", "occupancyPackets": 42, "spec": {}}
INTENT = {"id": 7, "type": "PAUSE", "deviceId": "device:s1", "inPort": 1, "state": "INSTALLED",
          "owner": "org.flowbuf.rest", "filter": {"ipv4Src": "10.0.0.1/32"}, "bufferId": "b1"}


@pytest.fixture
def api():
    requests = []
    answers = {}

    class Handler(BaseHTTPRequestHandler):
        def _answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            requests.append((self.command, self.path, body))
            status, payload = answers.get((self.command, self.path.split("?")[0]),
                                          (404, {"code": 404, "message": "no such thing"}))
            data = json.dumps(payload).encode() if payload is not None else b""
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = _answer

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/onos/flowbuf"
    yield url, requests, answers
    server.shutdown()


def run(url, *argv):
    return flowbuf.main(["--url", url, *argv])


def test_pause_sends_the_flow_and_prints_the_intent(api, capsys):
    url, requests, answers = api
    answers[("POST", "/onos/flowbuf/intents/pause")] = (201, INTENT)
    assert run(url, "pause", "device:s1", "1", "--src", "10.0.0.1", "--proto", "17",
               "--dport", "9000") == 0
    assert requests == [("POST", "/onos/flowbuf/intents/pause",
                         {"deviceId": "device:s1", "inPort": 1, "owner": "org.flowbuf.rest",
                          "filter": {"ipv4Src": "10.0.0.1/32", "ipProto": 17,
                                     "l4DstPort": 9000}})]
    out = capsys.readouterr().out
    assert "PAUSE" in out and "INSTALLED" in out and "b1" in out


def test_buffers_print_a_table_or_the_api_json(api, capsys):
    url, requests, answers = api
    answers[("GET", "/onos/flowbuf/buffers")] = (200, {"buffers": [BUFFER]})
    assert run(url, "buffers") == 0
    out = capsys.readouterr().out
    assert "b1" in out and "BUFFERING" in out and "42" in out
    assert run(url, "-j", "buffers") == 0
    assert json.loads(capsys.readouterr().out) == {"buffers": [BUFFER]}


def test_a_refusal_is_one_error_line_with_the_api_message(api, capsys):
    url, requests, answers = api
    answers[("PUT", "/onos/flowbuf/buffers/device:s1/b1/state")] = (
        403, {"code": 403, "message": "buffer b1 belongs to app1"})
    assert run(url, "buffer-move", "device:s1", "b1", "forwarding") == 1
    assert requests[0][2] == {"state": "FORWARDING", "owner": "org.flowbuf.rest"}
    err = capsys.readouterr().err
    assert err == "Error: buffer b1 belongs to app1 (HTTP 403)\n"


@pytest.mark.parametrize("argv", [
    ["buffer-move", "device:s1", "b1", "SLEEPING"],
    ["pause", "device:s1", "zero"],
    ["resume", "device:s1", "-2"],
    ["intent-withdraw", "seven"],
    ["buffer-create", "device:s1", "b1", "--queue", "LIFO"],
    ["buffer-create", "device:s1", "b1", "--state", "STORING"],
])
def test_bad_arguments_send_nothing(api, argv, capsys):
    url, requests, _ = api
    with pytest.raises(SystemExit) as refused:
        run(url, *argv)
    assert refused.value.code == 2
    assert requests == []
    assert "error" in capsys.readouterr().err


def test_an_unreachable_api_is_a_clear_error(capsys):
    assert run("http://127.0.0.1:9/onos/flowbuf", "intents") == 1
    assert capsys.readouterr().err.startswith("Error: cannot reach http://127.0.0.1:9")


def test_remove_withdraw_and_reconcile_use_the_api_paths(api, capsys):
    url, requests, answers = api
    answers[("DELETE", "/onos/flowbuf/buffers/device:s1/b1")] = (204, None)
    answers[("DELETE", "/onos/flowbuf/intents/7")] = (204, None)
    answers[("POST", "/onos/flowbuf/devices/device:s1/reconcile")] = (
        200, {"events": [{"type": "BUFFER_ADOPTED", "time": 1, "buffer": BUFFER}]})
    assert run(url, "buffer-remove", "device:s1", "b1", "--discard") == 0
    assert run(url, "intent-withdraw", "7") == 0
    assert run(url, "reconcile", "device:s1") == 0
    assert [r[:2] for r in requests] == [
        ("DELETE", "/onos/flowbuf/buffers/device:s1/b1?owner=org.flowbuf.rest&discard=true"),
        ("DELETE", "/onos/flowbuf/intents/7?owner=org.flowbuf.rest"),
        ("POST", "/onos/flowbuf/devices/device:s1/reconcile")]
    assert "BUFFER_ADOPTED b1" in capsys.readouterr().out


def test_nfv_migrations_use_the_app_paths(api, capsys):
    url, requests, answers = api
    migration = {"id": 1, "state": "HOLDING", "deviceId": "device:s1", "inPort": 1,
                 "bufferId": "auto-1", "pauseIntent": 1, "flow": {"ipv4Dst": "10.0.0.2/32"}}
    answers[("POST", "/onos/flowbuf/apps/nfv/migrations")] = (201, migration)
    answers[("POST", "/onos/flowbuf/apps/nfv/migrations/1/complete")] = (
        200, dict(migration, state="COMPLETED", releasedTo=3))
    assert run(url, "nfv-begin", "device:s1", "1", "--dst", "10.0.0.2") == 0
    assert run(url, "nfv-complete", "1", "3") == 0
    assert requests == [
        ("POST", "/onos/flowbuf/apps/nfv/migrations",
         {"deviceId": "device:s1", "inPort": 1, "filter": {"ipv4Dst": "10.0.0.2/32"}}),
        ("POST", "/onos/flowbuf/apps/nfv/migrations/1/complete", {"port": 3})]
    assert "COMPLETED" in capsys.readouterr().out


def test_lmm_handoffs_use_the_app_paths(api, capsys, tmp_path):
    url, requests, answers = api
    plan = {"downlink": {"ipv4Dst": "10.0.0.10/32"},
            "anchor": {"in": "device:sa/1", "toSource": "device:sa/2", "toTarget": "device:sa/3"},
            "source": {"in": "device:s1/1", "x2": "device:s1/3"},
            "target": {"in": "device:s2/1", "x2": "device:s2/3", "ue": "device:s2/2"}}
    handoff = {"id": 1, "state": "DETACHED", "plan": plan, "markerReports": 0,
               "sourceBuffer": "lmm-1-src", "forwardedBuffer": "lmm-1-fwd",
               "newPathBuffer": "lmm-1-new"}
    answers[("POST", "/onos/flowbuf/apps/lmm/handoffs")] = (201, handoff)
    answers[("POST", "/onos/flowbuf/apps/lmm/handoffs/1/attach")] = (
        200, dict(handoff, state="ATTACHED"))
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    assert run(url, "lmm-start", str(path)) == 0
    assert run(url, "lmm-attach", "1") == 0
    assert requests == [("POST", "/onos/flowbuf/apps/lmm/handoffs", plan),
                        ("POST", "/onos/flowbuf/apps/lmm/handoffs/1/attach", None)]
    out = capsys.readouterr().out
    assert "ATTACHED" in out and "lmm-1-src,lmm-1-fwd,lmm-1-new" in out


def test_connectionless_uploads_use_the_app_paths(api, capsys):
    url, requests, answers = api
    upload = {"id": 4, "state": "UPLOADING", "deviceId": "device:s1", "sensorPort": 1,
              "bufferId": "auto-9", "flow": {"ipv4Src": "10.0.0.1/32"}}
    answers[("POST", "/onos/flowbuf/apps/cc/uploads")] = (201, upload)
    answers[("POST", "/onos/flowbuf/apps/cc/uploads/4/stored")] = (200, dict(upload, state="STORED"))
    answers[("POST", "/onos/flowbuf/apps/cc/uploads/4/download")] = (
        200, dict(upload, state="SERVED", collectorPort=3))
    assert run(url, "cc-request", "device:s1", "1", "--src", "10.0.0.1") == 0
    assert run(url, "cc-stored", "4") == 0
    assert run(url, "cc-download", "4", "3") == 0
    assert [r[1] for r in requests] == ["/onos/flowbuf/apps/cc/uploads",
                                        "/onos/flowbuf/apps/cc/uploads/4/stored",
                                        "/onos/flowbuf/apps/cc/uploads/4/download"]
    assert requests[2][2] == {"port": 3}
    assert "SERVED" in capsys.readouterr().out


def test_batches_purge_and_controller_holds_use_their_paths(api, capsys, tmp_path):
    url, requests, answers = api
    body = {"deviceId": "device:s1", "bufferId": "b1",
            "flows": [{"inPort": 1, "filter": {"l4DstPort": 9000}}]}
    path = tmp_path / "batch.json"
    path.write_text(json.dumps(body))
    answers[("POST", "/onos/flowbuf/intents/pause-batch")] = (201, {"intents": [INTENT]})
    answers[("POST", "/onos/flowbuf/buffers/device:s1/b1/purge")] = (
        200, {"found": True, "purgedPackets": 12})
    hold = {"id": 3, "state": "HOLDING", "deviceId": "device:s1", "inPort": 1, "heldPackets": 5,
            "heldBytes": 5000, "packetIns": 5, "packetOuts": 0, "filter": {}}
    answers[("POST", "/onos/flowbuf/baselines/controller-holds")] = (201, hold)
    answers[("POST", "/onos/flowbuf/baselines/controller-holds/3/release")] = (
        200, dict(hold, state="RELEASED", heldPackets=0, packetOuts=5))
    assert run(url, "pause-batch", str(path)) == 0
    assert run(url, "purge", "device:s1", "b1", "7", "65535", "--inclusive") == 0
    assert run(url, "hold", "device:s1", "1", "--src", "10.0.0.1") == 0
    assert run(url, "hold-release", "3", "2", "--device", "device:s2") == 0
    assert requests == [
        ("POST", "/onos/flowbuf/intents/pause-batch", body),
        ("POST", "/onos/flowbuf/buffers/device:s1/b1/purge",
         {"ipv4Id": 7, "l4Checksum": 65535, "inclusive": True, "owner": "org.flowbuf.rest"}),
        ("POST", "/onos/flowbuf/baselines/controller-holds",
         {"deviceId": "device:s1", "inPort": 1, "filter": {"ipv4Src": "10.0.0.1/32"}}),
        ("POST", "/onos/flowbuf/baselines/controller-holds/3/release",
         {"port": 2, "deviceId": "device:s2"})]
    out = capsys.readouterr().out
    assert "purged 12 packet(s)" in out and "RELEASED" in out


def test_a_bad_packet_id_or_batch_file_sends_nothing(api, capsys, tmp_path):
    url, requests, _ = api
    with pytest.raises(SystemExit):
        run(url, "purge", "device:s1", "b1", "70000", "1")
    assert run(url, "pause-batch", str(tmp_path / "missing.json")) == 1
    (tmp_path / "bad.json").write_text("{not json")
    assert run(url, "resume-batch", str(tmp_path / "bad.json")) == 1
    assert requests == []
    assert capsys.readouterr().err.count("Error: cannot read") == 2
