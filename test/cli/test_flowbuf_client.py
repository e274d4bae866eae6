# SPDX-License-Identifier: Apache-2.0
"""cli/flowbuf, the REST client with the ONOS CLI's verbs, against a stub
API that records each request: what it sends, what it prints, and that bad
arguments send nothing."""
import importlib.machinery
import importlib.util
import io
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
    ["fmm-handoff", "one", "device:s2"],
    ["fmm-handoff", "0", "device:s2"],
    ["fmm-handoff", "-3", "device:s2"],
    ["fmm-handoff", "5"],
    ["fmm-attach", "1.5"],
    ["fmm-attach", "0"],
    ["fmm-attach"],
    ["fmm-close", "x"],
    ["fmm-close", "-1"],
    ["fmm-open"],
    ["fmm-sessions", "5"],
])
def test_bad_arguments_send_nothing(api, argv, capsys):
    url, requests, _ = api
    with pytest.raises(SystemExit) as refused:
        run(url, *argv)
    assert refused.value.code == 2
    assert requests == []
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["pause", "device:s1", "1"], "Error: no flow named: every IPv4 packet would match"),
    (["resume", "device:s1", "2", "--buffer", "b1"], "Error: no flow named"),
    (["pause", "device:s1", "1", "--all", "--proto", "17"], "Error: --all is every IPv4 packet"),
])
def test_a_flow_of_every_packet_must_be_asked_for_with_all(api, argv, message, capsys):
    url, requests, _ = api
    assert run(url, *argv) == 1
    assert requests == []
    assert capsys.readouterr().err.startswith(message)


def test_all_sends_an_explicit_all_filter(api, capsys):
    url, requests, answers = api
    answers[("POST", "/onos/flowbuf/intents/pause")] = (201, INTENT)
    assert run(url, "pause", "device:s1", "1", "--all") == 0
    assert requests == [("POST", "/onos/flowbuf/intents/pause",
                         {"deviceId": "device:s1", "inPort": 1, "filter": {"all": True},
                          "owner": "org.flowbuf.rest"})]


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


def test_arm_and_disarm_use_the_trigger_path(api, capsys):
    url, requests, answers = api
    path = "/onos/flowbuf/buffers/device:s1/bell/trigger"
    answers[("PUT", path)] = (200, {"trigger": "bell", "move": "b1", "state": "FORWARDING"})
    answers[("DELETE", path)] = (200, {"wasArmed": False})
    assert run(url, "arm", "device:s1", "bell", "b1", "forwarding") == 0
    assert run(url, "disarm", "device:s1", "bell") == 0
    assert [r[:2] for r in requests] == [("PUT", path),
                                         ("DELETE", path + "?owner=org.flowbuf.rest")]
    assert requests[0][2] == {"move": "b1", "state": "FORWARDING", "purgeToReport": False,
                              "owner": "org.flowbuf.rest"}
    out = capsys.readouterr().out
    assert "the next packet into bell moves b1 to FORWARDING" in out
    assert "nothing armed" in out


def test_arm_purging_to_the_report_and_a_disarm_that_finds_the_fire(api, capsys):
    url, requests, answers = api
    path = "/onos/flowbuf/buffers/device:s1/bell/trigger"
    answers[("PUT", path)] = (200, {"trigger": "bell", "move": "b1", "state": "FORWARDING",
                                    "purgeToReport": True})
    answers[("DELETE", path)] = (200, {"wasArmed": False, "fire": {
        "moved": True, "reportSync": "SYNCED", "purgedPackets": 12}})
    assert run(url, "arm", "device:s1", "bell", "b1", "FORWARDING", "--purge-to-report") == 0
    assert run(url, "disarm", "device:s1", "bell") == 0
    assert requests[0][2]["purgeToReport"] is True
    out = capsys.readouterr().out
    assert "moves b1 to FORWARDING, purged to its report first" in out
    assert "it had fired: moved, report SYNCED, 12 packets purged" in out


def test_arm_refuses_a_state_no_vport_mode_alone_sets(api):
    url, requests, _ = api
    with pytest.raises(SystemExit):
        run(url, "arm", "device:s1", "bell", "b1", "SERVING")
    assert requests == []


def test_a_bad_packet_id_or_batch_file_sends_nothing(api, capsys, tmp_path):
    url, requests, _ = api
    with pytest.raises(SystemExit):
        run(url, "purge", "device:s1", "b1", "70000", "1")
    assert run(url, "pause-batch", str(tmp_path / "missing.json")) == 1
    (tmp_path / "bad.json").write_text("{not json")
    assert run(url, "resume-batch", str(tmp_path / "bad.json")) == 1
    assert requests == []
    assert capsys.readouterr().err.count("Error: cannot read") == 2


FMM_PLAN = {"downlink": {"ipv4Dst": "10.0.0.10/32"}, "anchorIn": "device:sa/1",
            "cells": [{"anchor": "device:sa/2", "in": "device:s1/1", "ue": "device:s1/2"},
                      {"anchor": "device:sa/3", "in": "device:s2/1", "ue": "device:s2/2"}],
            "serving": "device:s1", "windowPackets": 64}
FMM_SESSION = {"id": 5, "state": "ATTACHED", "serving": "device:s1", "multicastGroup": 7,
               "buffers": {"device:s1": "fmm-5-s1", "device:s2": "fmm-5-s2"},
               "counters": {"handoffs": 0, "unsynced": 0, "purgedPackets": 0,
                            "lastSyncMicros": 0},
               "plan": FMM_PLAN}
FMM = "/onos/flowbuf/apps/fmm/sessions"


def rows(out):
    """The table's data rows, split on whitespace (the header dropped)."""
    return [line.split() for line in out.strip().splitlines()[1:]]


def test_fmm_open_posts_the_plan_file_and_prints_the_session(api, capsys, tmp_path):
    url, requests, answers = api
    answers[("POST", FMM)] = (201, FMM_SESSION)
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(FMM_PLAN))
    assert run(url, "fmm-open", str(path)) == 0
    assert requests == [("POST", FMM, FMM_PLAN)]
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["id", "state", "serving", "target", "group",
                                           "handoffs", "unsynced", "purged", "on-signal", "failure"]
    assert rows(out) == [["5", "ATTACHED", "device:s1", "-", "7", "0", "0", "0", "0", "-"]]


def test_fmm_open_reads_the_plan_from_stdin(api, capsys, monkeypatch):
    url, requests, answers = api
    answers[("POST", FMM)] = (201, FMM_SESSION)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(FMM_PLAN)))
    assert run(url, "fmm-open", "-") == 0
    assert requests == [("POST", FMM, FMM_PLAN)]
    assert rows(capsys.readouterr().out)[0][:3] == ["5", "ATTACHED", "device:s1"]


def test_fmm_handoff_attach_and_close_use_the_session_paths(api, capsys):
    url, requests, answers = api
    detached = dict(FMM_SESSION, state="DETACHED", target="device:s2")
    attached = dict(FMM_SESSION, serving="device:s2",
                    counters={"handoffs": 1, "unsynced": 1, "purgedPackets": 12,
                              "lastSyncMicros": 300, "releasedOnSignal": 1})
    answers[("POST", f"{FMM}/5/handoff")] = (200, detached)
    answers[("POST", f"{FMM}/5/attach")] = (200, attached)
    answers[("DELETE", f"{FMM}/5")] = (200, dict(attached, state="CLOSED"))
    assert run(url, "fmm-handoff", "5", "device:s2") == 0
    assert run(url, "fmm-attach", "5") == 0
    assert run(url, "fmm-close", "5") == 0
    assert requests == [("POST", f"{FMM}/5/handoff", {"target": "device:s2"}),
                        ("POST", f"{FMM}/5/attach", None),
                        ("DELETE", f"{FMM}/5", None)]
    out = capsys.readouterr().out
    assert [r for r in rows(out) if r[0] != "id"] == [
        ["5", "DETACHED", "device:s1", "device:s2", "7", "0", "0", "0", "0", "-"],
        ["5", "ATTACHED", "device:s2", "-", "7", "1", "1", "12", "1", "-"],
        ["5", "CLOSED", "device:s2", "-", "7", "1", "1", "12", "1", "-"]]


def test_fmm_sessions_print_a_row_each_or_the_api_json(api, capsys):
    url, requests, answers = api
    failed = dict(FMM_SESSION, id=6, state="FAILED", failure="buffer-fmm-6-s2-stayed")
    answers[("GET", FMM)] = (200, {"sessions": [FMM_SESSION, failed]})
    assert run(url, "fmm-sessions") == 0
    assert rows(capsys.readouterr().out) == [
        ["5", "ATTACHED", "device:s1", "-", "7", "0", "0", "0", "0", "-"],
        ["6", "FAILED", "device:s1", "-", "7", "0", "0", "0", "0", "buffer-fmm-6-s2-stayed"]]
    assert run(url, "-j", "fmm-sessions") == 0
    assert json.loads(capsys.readouterr().out) == {"sessions": [FMM_SESSION, failed]}
    answers[("GET", FMM)] = (200, {"sessions": []})
    assert run(url, "fmm-sessions") == 0
    assert rows(capsys.readouterr().out) == []
    assert requests == [("GET", FMM, None)] * 3


def test_an_fmm_refusal_is_one_error_line_with_the_api_message(api, capsys):
    url, requests, answers = api
    answers[("POST", f"{FMM}/5/handoff")] = (
        400, {"code": 400, "message": "device:s9 is not a cell of session 5"})
    assert run(url, "fmm-handoff", "5", "device:s9") == 1
    assert requests == [("POST", f"{FMM}/5/handoff", {"target": "device:s9"})]
    captured = capsys.readouterr()
    assert captured.err == "Error: device:s9 is not a cell of session 5 (HTTP 400)\n"
    assert captured.out == ""


@pytest.mark.parametrize("plan", ["missing.json", "bad.json", "list.json", "empty.json"])
def test_a_missing_or_bad_fmm_plan_is_an_error_and_sends_nothing(api, capsys, tmp_path, plan):
    url, requests, _ = api
    (tmp_path / "bad.json").write_text("{\"downlink\": ")
    (tmp_path / "list.json").write_text("[1, 2")
    (tmp_path / "empty.json").write_text("")
    assert run(url, "fmm-open", str(tmp_path / plan)) == 1
    assert requests == []
    captured = capsys.readouterr()
    assert captured.err.startswith(f"Error: cannot read {tmp_path / plan}: ")
    assert captured.err.count("\n") == 1
    assert captured.out == ""


UPF_SESSION = {"id": 3, "deviceId": "device:s1", "ueAddress": "10.250.0.1",
               "n3Address": "10.0.0.100", "uplinkTeid": 0x1234, "gnbAddress": "10.0.0.1",
               "gnbPort": 2152, "downlinkTeid": 0xABCD01, "qfi": 9,
               "ambr": {"cir": 1000, "cburst": 1500, "pir": 2000, "pburst": 3000}}


def test_upf_session_add_sends_the_session_and_prints_it(api, capsys):
    url, requests, answers = api
    answers[("POST", "/onos/flowbuf/upf/sessions")] = (201, UPF_SESSION)
    assert run(url, "upf-session-add", "device:s1", "10.250.0.1", "10.0.0.100", "0x1234",
               "10.0.0.1", "0xabcd01", "--qfi", "9", "--ambr", "1000,1500,2000,3000") == 0
    assert requests == [("POST", "/onos/flowbuf/upf/sessions", {
        "deviceId": "device:s1", "ueAddress": "10.250.0.1", "n3Address": "10.0.0.100",
        "uplinkTeid": 0x1234, "gnbAddress": "10.0.0.1", "downlinkTeid": 0xABCD01, "qfi": 9,
        "ambr": {"cir": 1000, "cburst": 1500, "pir": 2000, "pburst": 3000}})]
    out = capsys.readouterr().out
    assert "0x1234" in out and "0xabcd01" in out and "10.0.0.1:2152" in out


def test_upf_session_by_ue_address_and_firewall_add(api, capsys):
    url, requests, answers = api
    answers[("DELETE", "/onos/flowbuf/upf/sessions/10.250.0.1")] = (204, None)
    assert run(url, "upf-session-remove", "10.250.0.1", "--device", "device:s1") == 0
    answers[("POST", "/onos/flowbuf/upf/firewall")] = (201, {
        "id": 4, "deviceId": "device:s1", "direction": "UPLINK", "action": "DENY",
        "priority": 10, "filter": {"appPorts": {"low": 22, "high": 22}}})
    assert run(url, "upf-firewall-add", "device:s1", "deny", "--direction", "uplink",
               "--priority", "10", "--app-ports", "22", "--proto", "6") == 0
    assert requests == [
        ("DELETE", "/onos/flowbuf/upf/sessions/10.250.0.1?deviceId=device:s1", None),
        ("POST", "/onos/flowbuf/upf/firewall", {
            "deviceId": "device:s1", "action": "DENY", "direction": "UPLINK", "priority": 10,
            "filter": {"ipProto": 6, "appPorts": {"low": 22, "high": 22}}})]


@pytest.mark.parametrize("argv", [
    ["upf-session-add", "device:s1", "10.250.0.1", "10.0.0.100", "0", "10.0.0.1", "5"],
    ["upf-session-add", "device:s1", "10.250.0.1", "10.0.0.100", "0x1_0000_0000", "10.0.0.1", "5"],
    ["upf-session-add", "device:s1", "10.250.0.1", "10.0.0.100", "1", "10.0.0.1", "5",
     "--ambr", "1,2,3"],
    ["upf-firewall-add", "device:s1", "reject"],
    ["upf-app-add", "device:s1", "7", "5", "--app-ports", "80-x"],
])
def test_bad_upf_arguments_send_nothing(api, argv):
    url, requests, _ = api
    with pytest.raises(SystemExit) as exited:
        run(url, *argv)
    assert exited.value.code == 2 and requests == []


def test_a_refused_upf_session_prints_the_apis_message(api, capsys):
    url, _, answers = api
    answers[("POST", "/onos/flowbuf/upf/sessions")] = (409, {
        "code": 409, "message": "uplink TEID 4660 (0x1234) is already used on N3 address "
                                "10.0.0.100 by session 3"})
    assert run(url, "upf-session-add", "device:s1", "10.250.0.2", "10.0.0.100", "0x1234",
               "10.0.0.1", "7") == 1
    assert "already used on N3 address 10.0.0.100 by session 3 (HTTP 409)" in \
        capsys.readouterr().err


def test_upf_pause_and_resume_by_ue_address(api, capsys):
    url, requests, answers = api
    answers[("POST", "/onos/flowbuf/upf/sessions/10.250.0.1/pause")] = (200, dict(
        INTENT, filter={"ipv4Dst": "10.250.0.1/32"}, inPort=2, bufferId="auto-1"))
    answers[("POST", "/onos/flowbuf/upf/sessions/10.250.0.1/resume")] = (200, dict(
        BUFFER, id="auto-1", state="FORWARDING"))
    assert run(url, "upf-pause", "10.250.0.1", "2") == 0
    assert run(url, "upf-resume", "10.250.0.1") == 0
    assert requests == [("POST", "/onos/flowbuf/upf/sessions/10.250.0.1/pause", {"inPort": 2}),
                        ("POST", "/onos/flowbuf/upf/sessions/10.250.0.1/resume", {})]
    out = capsys.readouterr().out
    assert "auto-1" in out and "FORWARDING" in out


def test_upf_queue_set_and_remove(api, capsys):
    url, requests, answers = api
    answers[("POST", "/onos/flowbuf/upf/queues")] = (200, {"deviceId": "device:s1", "qfi": 5,
                                                           "queue": 7})
    answers[("DELETE", "/onos/flowbuf/upf/queues/device:s1/5")] = (204, None)
    assert run(url, "upf-queue-set", "device:s1", "5", "7") == 0
    assert run(url, "upf-queue-remove", "device:s1", "5") == 0
    assert requests == [("POST", "/onos/flowbuf/upf/queues",
                         {"deviceId": "device:s1", "qfi": 5, "queue": 7}),
                        ("DELETE", "/onos/flowbuf/upf/queues/device:s1/5", None)]
    assert "QFI 5 -> queue 7 on device:s1" in capsys.readouterr().out


def test_upf_devices_lists_sessions_and_paused_downlinks(api, capsys):
    url, requests, answers = api
    answers[("GET", "/onos/flowbuf/upf/devices")] = (200, {"devices": [
        {"deviceId": "device:s1", "sessions": 1200, "pausedDownlinks": 3}]})
    assert run(url, "upf-devices") == 0
    assert requests == [("GET", "/onos/flowbuf/upf/devices", None)]
    row = [line for line in capsys.readouterr().out.splitlines() if "device:s1" in line]
    assert row and row[0].split() == ["device:s1", "1200", "3"], row


CC_FLOW = {"id": 3, "index": 0, "mode": "DATAPLANE", "srcHost": "h1", "dstHost": "h2",
           "primary": [{"deviceId": "device:s1", "outPort": 2},
                       {"deviceId": "device:s4", "outPort": 3}],
           "thresholds": [], "switchOvers": [
               {"deviceId": "device:s1", "queueUs": 900, "procUs": 4, "time": "t",
                "newBackup": False}],
           "lastDelays": {"deviceId": "device:s1", "queueUs": 900, "procUs": 4}}


def test_congestion_verbs_use_the_congestion_paths(api, capsys):
    url, requests, answers = api
    answers[("POST", "/onos/flowbuf/congestion/flows")] = (201, CC_FLOW)
    assert run(url, "congestion-register", "h1", "h2", "5000", "--dst", "10.0.0.2",
               "--proto", "17", "--dport", "5000", "--m", "5", "--x", "2") == 0
    answers[("GET", "/onos/flowbuf/congestion/flows/3")] = (200, CC_FLOW)
    assert run(url, "congestion-flow", "3") == 0
    out = capsys.readouterr().out
    assert "device:s1/2 > device:s4/3" in out
    assert "queue 900 us" in out
    answers[("GET", "/onos/flowbuf/congestion/flows")] = (200, {"flows": [CC_FLOW]})
    assert run(url, "congestion-flows") == 0
    answers[("DELETE", "/onos/flowbuf/congestion/flows/3")] = (204, None)
    assert run(url, "congestion-remove", "3") == 0
    assert requests == [
        ("POST", "/onos/flowbuf/congestion/flows", {
            "srcHost": "h1", "dstHost": "h2", "budgetUs": 5000,
            "filter": {"ipv4Dst": "10.0.0.2/32", "ipProto": 17, "l4DstPort": 5000},
            "m": 5, "mode": "DATAPLANE", "orderedSwitchover": False, "x": 2.0}),
        ("GET", "/onos/flowbuf/congestion/flows/3", None),
        ("GET", "/onos/flowbuf/congestion/flows", None),
        ("DELETE", "/onos/flowbuf/congestion/flows/3", None)]


def test_an_ordered_flow_shows_its_merge_buffer(api, capsys):
    url, requests, answers = api
    flow = dict(CC_FLOW, orderedSwitchover=True,
                ordered={"mergeSwitch": "device:s4", "markersSeen": 2, "boundExpiries": 1,
                         "armed": True})
    answers[("POST", "/onos/flowbuf/congestion/flows")] = (201, flow)
    assert run(url, "congestion-register", "h1", "h2", "5000", "--dport", "5000",
               "--ordered-switchover") == 0
    assert requests[0][2]["orderedSwitchover"] is True
    assert "device:s4 2/1" in capsys.readouterr().out
    answers[("GET", "/onos/flowbuf/congestion/flows/3")] = (200, flow)
    assert run(url, "congestion-flow", "3") == 0
    assert ("merge buffer at device:s4: 2 released by the end marker, 1 by the bound, armed"
            in capsys.readouterr().out)
    answers[("GET", "/onos/flowbuf/congestion/flows")] = (200, {"flows": [CC_FLOW]})
    assert run(url, "congestion-flows") == 0
    assert "merge buffer" not in capsys.readouterr().out


def test_a_probing_flow_is_registered_with_its_interval_and_shows_its_probes(api, capsys):
    url, requests, answers = api
    flow = dict(CC_FLOW, mode="PROBING", probeIntervalMs=2000, switchOvers=[],
                probes={"sent": 7, "lost": 1, "late": 0, "lastDelayUs": 2400})
    del flow["lastDelays"]
    answers[("POST", "/onos/flowbuf/congestion/flows")] = (201, flow)
    assert run(url, "congestion-register", "h1", "h2", "20000", "--dst", "10.0.0.2",
               "--mode", "probing", "--probe-interval-ms", "2000") == 0
    answers[("GET", "/onos/flowbuf/congestion/flows/3")] = (200, flow)
    assert run(url, "congestion-flow", "3") == 0
    out = capsys.readouterr().out
    assert "probes every 2000 ms: 7 sent, 1 lost, 0 late, last 2400 us" in out
    assert requests[0] == ("POST", "/onos/flowbuf/congestion/flows", {
        "srcHost": "h1", "dstHost": "h2", "budgetUs": 20000, "filter": {"ipv4Dst": "10.0.0.2/32"},
        "m": 1, "mode": "PROBING", "orderedSwitchover": False, "probeIntervalMs": 2000})


@pytest.mark.parametrize("argv", [
    ["congestion-register", "h1", "h2", "0", "--dport", "1"],
    ["congestion-register", "h1", "h2", "5000", "--dport", "1", "--m", "0"],
    ["congestion-register", "h1", "h2", "5000", "--dport", "1", "--mode", "sometimes"],
    ["congestion-register", "h1", "h2", "5000", "--dport", "1", "--mode", "probing",
     "--probe-interval-ms", "0"],
    ["congestion-flow", "x"],
    ["congestion-remove", "-1"],
])
def test_bad_congestion_arguments_send_nothing(api, argv, capsys):
    url, requests, _ = api
    with pytest.raises(SystemExit):
        run(url, *argv)
    assert requests == []
