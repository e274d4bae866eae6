# SPDX-License-Identifier: Apache-2.0
"""Faults with real packets (`make chaos`): a UDP flow with sequence numbers
is paused into a buffer until it holds --held packets, the flow stops, then
one fault strikes, the service recovers, the flow is resumed and every
packet is accounted for at the receiver.

Faults (each on a fresh lab, prefix fbx-, REST 8196, P4Runtime 28401,
agent 28402):
  agent_kill        kill -9 of the external buffer-agent, restarted on the
                    same address, POST devices/{id}/reconcile, resume
  agent_kill_memory the same with the agent's state dir off (-state-dir "")
  host_kill_pause   kill -9 of the embedded host while the buffer holds the
                    paused flow, host restarted, resume
  host_kill_resume  kill -9 of the embedded host while the buffer replays
                    (external agent, replay paced at 10 Mbit/s so that it
                    lasts about a second), host restarted
  switch_kill       kill -9 of pbswitch holding the flow in an in-process
                    buffer, pbswitch restarted, the host re-synchronises
  agent_outage      the external agent stopped (SIGSTOP) for 5 s: pause and
                    resume calls in the window, then SIGCONT
  batch_refused     a pause batch whose Write the switch refuses halfway (its
                    steering table full), while the buffer holds the flow

JSON lines: chaos_<fault>_lost, _reordered, _duplicated (packets) and
_recovery_ms, plus figures of what the API said; then a one-line summary.
The flow stops before each fault, so `lost` counts packets that were held
(or, for the kill of a holder, every packet it held; nothing else can be
lost). Run as root: .venv/bin/python -m test.chaos.faults [--quick]
[--fault NAME ...]
"""
import argparse
import json
import pathlib
import signal
import subprocess
import sys
import tempfile
import threading
import time

import grpc

from test.lab.procs import wait_until
from test.lab.servicelab import DEVICE, P4INFO, ROOT, RestError, ServiceLab, ensure_built, ip_of
from test.packet.p4info import P4Info

PYTHON = str(ROOT / ".venv" / "bin" / "python")
UDP_PORT = 9000
# A flow the switch_kill fault punts by the controller-buffering baseline.
PUNTED = {"ipv4Src": f"{ip_of('h3')}/32", "ipProto": 17, "l4DstPort": 7777}
LAB = dict(prefix="fbx-", rest_port=8196, p4rt_port=28401, agent_port=28402)
# An external agent replays over a veth into pbswitch's AF_PACKET socket: at
# the lab's default 100 Mbit/s a loaded machine (load average ~9) lost 5,133
# of 10,317 replayed packets after the buffer once (pbswitch counted no drop),
# which is the replay rate's limit, not the fault's. The faults replay at
# 10 Mbit/s (10,000 packets in about 1.1 s).
REPLAY_BPS = 10_000_000
STEERING_TABLE = "IngressPipeImpl.steering.flow_steering"
# The batch fault fills the steering table; the program's holds 65,536
# entries (a pause each, at UE scale), so its lab pushes a p4info that sizes
# it as a smaller target would: pbswitch refuses the 4,097th entry.
STEERING_SIZE = 4096


def flow_filter(port=UDP_PORT, src="h1"):
    return {"ipv4Src": ip_of(src) + "/32", "ipv4Dst": ip_of("h2") + "/32", "ipProto": 17,
            "l4DstPort": port}


def api(call):
    """(status, body) of a REST call: 2xx bodies and refusals alike."""
    try:
        return 200, call()
    except RestError as e:
        return e.status, e.body
    except OSError as e:
        return 0, str(e)


class SeqFlow:
    """h1 -> h2 UDP with sequence numbers: a receiver that runs until told to
    stop, a paced sender that runs until stopped."""

    def __init__(self, lab, pps):
        self.lab, self.pps = lab, pps
        self.recv = subprocess.Popen(lab.hosts["h2"].popen_argv(
            [PYTHON, "-m", "test.lab.seqflow", "recv", str(UDP_PORT), "--idle", "3600",
             "--timeout", "3600"]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
        self.recv.stdout.readline()  # {"listening": ...}
        self.send = subprocess.Popen(lab.hosts["h1"].popen_argv(
            [PYTHON, "-m", "test.lab.seqflow", "send", ip_of("h2"), str(UDP_PORT), "--pps",
             str(pps), "--seconds", "3600"]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
        self.sent = None

    def stop_sending(self):
        # `ip netns exec` execs the sender, so the signal reaches it.
        self.send.send_signal(signal.SIGTERM)
        self.sent = json.loads(self.send.communicate(timeout=10)[0])["sent"]
        return self.sent

    def result(self, quiet_s=1.0):
        """Stops the receiver once nothing arrived for quiet_s (the caller
        saw the buffer drained) and returns its counts."""
        time.sleep(quiet_s)
        self.recv.send_signal(signal.SIGTERM)
        out = json.loads(self.recv.communicate(timeout=30)[0].strip().splitlines()[-1])
        out["sent"] = self.sent
        # Lost against what was sent: the receiver alone cannot see a loss at the tail.
        out["lost"] = self.sent - out["received"]
        return out

    def kill(self):
        for proc in (self.send, self.recv):
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def occupancy(lab, buffer_id):
    return lab.rest.get(f"buffers/{DEVICE}/{buffer_id}")["occupancyPackets"]


def hold(lab, flow, buffer_id, held, pause=True):
    """Pauses the flow into the buffer, lets it fill to `held` packets, stops
    the sender; returns what the buffer holds once the last packet is in."""
    time.sleep(0.3)  # some packets take the direct path first
    if pause:
        intent = lab.rest.post("intents/pause", {"deviceId": DEVICE, "inPort": 1,
                                                 "filter": flow_filter(), "bufferId": buffer_id})
        assert intent["state"] == "INSTALLED", intent
    wait_until(lambda: occupancy(lab, buffer_id) >= held, timeout=held / flow.pps * 4 + 30,
               step=0.05, what=f"{held} packets held")
    flow.stop_sending()
    previous = -1
    while True:  # the last packets in flight reach the buffer
        now = occupancy(lab, buffer_id)
        if now == previous:
            return now
        previous = now
        time.sleep(0.2)


def resume(lab, buffer_id=None):
    body = {"deviceId": DEVICE, "outPort": 2, "filter": flow_filter()}
    if buffer_id:
        body["bufferId"] = buffer_id
    return lab.rest.post("intents/resume", body)


def drained(lab, buffer_id, timeout=60):
    """Waits until the buffer is empty; returns its counters then (packets in,
    out and dropped by the buffer itself), which place a loss before or
    after the buffer."""
    wait_until(lambda: occupancy(lab, buffer_id) == 0, timeout, step=0.05, what="buffer drained")
    stats = lab.rest.get(f"buffers/{DEVICE}/{buffer_id}/statistics")
    return {k: stats[k] for k in ("packetsIn", "packetsOut", "packetsDropped")}


def buffer_events(lab, buffer_id):
    status, body = api(lambda: lab.rest.get(f"buffers/{DEVICE}/{buffer_id}/events"))
    return body.get("events", []) if status == 200 else []


def new_lab(**kwargs):
    return ServiceLab(**LAB, **kwargs)


# --- faults -----------------------------------------------------------------

def agent_kill(held_target, pps, state_dir=True):
    """state_dir False: the agent runs with `-state-dir ""` (memory only),
    as before held packets survived a crash."""
    with new_lab(external_agent=True, replay_bps=REPLAY_BPS) as lab:
        if not state_dir:
            lab.agent.stop()
            lab._agent_argv[lab._agent_argv.index("-state-dir") + 1] = ""
            lab.start_agent()
            lab.rest.post(f"devices/{DEVICE}/reconcile", None)
        lab.rest.post(f"buffers/{DEVICE}", {"id": "held", "state": "BUFFERING"})
        flow = SeqFlow(lab, pps)
        try:
            held = hold(lab, flow, "held", held_target)
            lab.kill_agent()
            outage_query = api(lambda: lab.rest.get(f"buffers/{DEVICE}/held"))
            lab.start_agent()
            # Back, not yet reconciled: what does a query of the buffer say
            # once the host's channel has reconnected (503 "unreachable" until
            # then: it waits out gRPC's reconnect backoff, about a second)?
            def query():
                answer = api(lambda: lab.rest.get(f"buffers/{DEVICE}/held"))
                return answer if answer[0] != 503 else None
            back = time.monotonic()
            try:
                before_reconcile = wait_until(query, timeout=5, step=0.05,
                                              what="an answer other than 503")
            except TimeoutError:
                before_reconcile = (503, "unreachable for 5 s after the restart")
            reconnect_ms = round((time.monotonic() - back) * 1e3, 1)
            start = time.monotonic()
            status, body = api(lambda: lab.rest.post(f"devices/{DEVICE}/reconcile", None))
            recovery_ms = (time.monotonic() - start) * 1e3
            events = body["events"] if status == 200 else []
            after = occupancy(lab, "held")
            resumed = resume(lab)
            drained(lab, "held")
            out = flow.result()
        finally:
            flow.kill()
    return dict(out, held=held, recovery_ms=recovery_ms, reconcile_status=status,
                held_after_recovery=after, outage_query_status=outage_query[0],
                query_before_reconcile=before_reconcile, reconnect_ms=reconnect_ms,
                events=[e["type"] for e in events], reported_lost=reported_lost(events, held),
                resume_state=resumed["state"])


def reported_lost(events, held):
    """What the API says was lost of a buffer that held `held` packets: all
    of them after a BUFFER_RECREATED event (the agent lost the buffer, "what
    it held is gone"; the service cannot count what died with the process),
    lostPackets after a BUFFER_REATTACHED one (a restarted agent re-attached
    the buffer and counted what it could not keep)."""
    lost = 0
    for e in events:
        if e["type"] == "BUFFER_RECREATED":
            lost += e.get("lostPackets", held)
        elif e["type"] == "BUFFER_REATTACHED":
            lost += e.get("lostPackets", 0)
    return lost


def host_kill(held_target, pps, phase):
    """phase "pause": killed while the buffer holds the paused flow; "resume":
    killed while the buffer replays it."""
    with new_lab(external_agent=True, replay_bps=REPLAY_BPS) as lab:
        lab.rest.post(f"buffers/{DEVICE}", {"id": "held", "state": "BUFFERING"})
        flow = SeqFlow(lab, pps)
        notes = {}
        try:
            held = hold(lab, flow, "held", held_target)
            if phase == "resume":
                resume(lab)
                time.sleep(0.2)  # the replay of ~1 s at 10 Mbit/s is under way
            lab.host.popen.kill()
            lab.host.popen.wait()
            killed = time.monotonic()
            lab.host.stop()
            lab.host = lab._run(lab._host_argv, f"host-{phase}", lab.rest_port, timeout=90)
            lab.rest = type(lab.rest)(lab.rest.base)
            buffers = lab.rest.get(f"buffers/{DEVICE}")["buffers"]
            recovery_ms = (time.monotonic() - killed) * 1e3
            notes["buffers_after_restart"] = [(b["id"], b["state"], b["owner"]) for b in buffers]
            notes["intents_after_restart"] = len(lab.rest.get("intents")["intents"])
            if phase == "pause":
                # What a user does: resume the flow by its filter.
                status, body = api(lambda: resume(lab))
                notes["resume_by_filter"] = status
                if status != 200:
                    notes["resume_by_filter_error"] = body
                    status, body = api(lambda: resume(lab, "held"))
                    notes["resume_by_buffer"] = status
                    if status != 200:
                        notes["resume_by_buffer_error"] = body
            drained(lab, "held")
            out = flow.result()
        finally:
            flow.kill()
    return dict(out, held=held, recovery_ms=recovery_ms, **notes)


def switch_kill(held_target, pps):
    with new_lab() as lab:
        lab.rest.post(f"buffers/{DEVICE}", {"id": "held", "state": "BUFFERING"})
        flow = SeqFlow(lab, pps)
        notes = {}
        try:
            held = hold(lab, flow, "held", held_target)
            # An application's rule, not an intent's: the controller-buffering
            # baseline punts another flow; the host writes it again too.
            lab.rest.post("baselines/controller-holds", {"deviceId": DEVICE, "inPort": 3,
                                                         "filter": PUNTED})
            notes["steering_before"] = steering_entries(lab)
            lab.kill_switch()
            down = api(lambda: lab.rest.get(f"buffers/{DEVICE}/held"))
            notes["query_while_down"] = down[0]
            lab.start_switch()
            start = time.monotonic()
            # Back when the direct path forwards again (base rules re-written).
            try:
                wait_until(lambda: lab.hosts["h3"].run("ping", "-c1", "-W0.2", ip_of("h2"),
                                                       check=False).returncode == 0,
                           timeout=20, step=0.02, what="h3 -> h2 forwarding")
                recovery_ms = (time.monotonic() - start) * 1e3
            except TimeoutError:
                recovery_ms = None
            notes["recovered"] = recovery_ms is not None
            try:
                wait_until(lambda: steering_entries(lab) == notes["steering_before"],
                           timeout=10, what="the steering rules back")
            except TimeoutError:
                pass  # steering_after says what came back
            notes["steering_after"] = steering_entries(lab)
            status, body = api(lambda: lab.rest.get(f"buffers/{DEVICE}/held"))
            notes["query_after"] = (status, body.get("occupancyPackets") if status == 200
                                    else body)
            events = buffer_events(lab, "held")
            notes["events"] = [e["type"] for e in events]
            notes["reported_lost"] = reported_lost(events, held)
            status, body = api(lambda: resume(lab))
            notes["resume"] = status if status != 200 else body["state"]
            if status != 200:
                notes["resume_error"] = body
            else:
                drained(lab, "held", timeout=10)
            out = flow.result()
        finally:
            flow.kill()
    return dict(out, held=held, recovery_ms=recovery_ms, **notes)


def agent_outage(held_target, pps, seconds=5.0):
    with new_lab(external_agent=True, replay_bps=REPLAY_BPS) as lab:
        lab.rest.post(f"buffers/{DEVICE}", {"id": "held", "state": "BUFFERING"})
        lab.rest.post(f"buffers/{DEVICE}", {"id": "other", "state": "FREE"})
        flow = SeqFlow(lab, pps)
        try:
            held = hold(lab, flow, "held", held_target)
            intents = lab.rest.get("intents")["intents"]
            vports = lab.rest.get(f"devices/{DEVICE}/vports")["vports"]
            lab.agent.popen.send_signal(signal.SIGSTOP)
            stopped = time.monotonic()
            # In the window, one call after the other: a resume of the held
            # flow, a pause of another flow into another buffer. A call
            # answered only after SIGCONT would not be in the window: it is
            # counted apart (there should be none).
            calls, straddled = [], []
            pause_other = {"deviceId": DEVICE, "inPort": 3, "filter": flow_filter(9001, "h3"),
                           "bufferId": "other"}
            # The resume first: it is the call that would release what is held.
            requests = [lambda: resume(lab), lambda: lab.rest.post("intents/pause", pause_other)]
            resumed_at = []

            def client():
                n = 0
                # The last call starts when the agent's 2 s deadline still
                # ends inside the window.
                while time.monotonic() - stopped < seconds - 2.3:
                    status = api(requests[n % 2])[0]
                    (straddled if resumed_at else calls).append(status)
                    n += 1

            thread = threading.Thread(target=client)
            try:
                time.sleep(0.2)
                thread.start()
                thread.join(max(0.0, seconds - (time.monotonic() - stopped)))
                time.sleep(max(0.0, seconds - (time.monotonic() - stopped)))
            finally:
                lab.agent.popen.send_signal(signal.SIGCONT)
                resumed_at.append(time.monotonic())
                outage_s = resumed_at[0] - stopped
            thread.join(30)
            start = time.monotonic()
            wait_until(lambda: api(lambda: lab.rest.get(f"buffers/{DEVICE}/held"))[0] == 200,
                       timeout=30, step=0.01, what="agent answering")
            recovery_ms = (time.monotonic() - start) * 1e3
            intents_after = lab.rest.get("intents")["intents"]
            vports_after = lab.rest.get(f"devices/{DEVICE}/vports")["vports"]
            # A refused call leaves its intent in the history as FAILED (with
            # the 503's reason); nothing installed, no buffer or vport moved.
            installed = [i for i in intents_after if i["state"] != "FAILED"]
            unchanged = installed == intents and vports_after == vports
            changes = ([(i["type"], i["state"]) for i in intents_after if i not in intents]
                       + [(v["id"], v["mode"]) for v in vports_after if v not in vports])
            after = occupancy(lab, "held")
            resume(lab)
            buffer_counts = drained(lab, "held")
            out = flow.result()
        finally:
            flow.kill()
    return dict(out, held=held, held_after=after, recovery_ms=recovery_ms,
                buffer_counts=buffer_counts,
                calls_in_window=len(calls), refused_503=calls.count(503),
                answered_after_window=straddled,
                other_statuses=sorted(set(calls) - {503}), state_unchanged=unchanged,
                changes=changes, outage_s=round(outage_s, 2))


def steering_entries(lab):
    """Entries of the switch's steering table, read back over P4Runtime."""
    from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc
    with grpc.insecure_channel(f"127.0.0.1:{lab.p4rt_port}") as channel:
        stub = p4runtime_pb2_grpc.P4RuntimeStub(channel)
        request = p4runtime_pb2.ReadRequest(device_id=1)
        request.entities.add().table_entry.table_id = P4Info().table_id(STEERING_TABLE)
        return sum(len(r.entities) for r in stub.Read(request, timeout=10))


def small_steering_p4info(directory):
    """The committed p4info with the steering table sized STEERING_SIZE,
    written into `directory`; returns its path."""
    from google.protobuf import text_format
    from p4.config.v1 import p4info_pb2
    info = p4info_pb2.P4Info()
    text_format.Parse(P4INFO.read_text(), info)
    [table] = [t for t in info.tables if t.preamble.name == STEERING_TABLE]
    table.size = STEERING_SIZE
    path = pathlib.Path(directory) / "p4info-small-steering.txt"
    path.write_text(text_format.MessageToString(info))
    return path


def batch_refused(held_target, pps, spare=3):
    """The steering table filled to `spare` free entries; a pause batch of
    2*spare flows then gets its first `spare` updates applied and the rest
    refused (RESOURCE_EXHAUSTED): the service must delete the applied ones."""
    with tempfile.TemporaryDirectory() as tmp, \
            new_lab(p4info=small_steering_p4info(tmp)) as lab:
        lab.rest.post(f"buffers/{DEVICE}", {"id": "held", "state": "BUFFERING"})
        lab.rest.post(f"buffers/{DEVICE}", {"id": "filler", "state": "BUFFERING"})
        flow = SeqFlow(lab, pps)
        try:
            held = hold(lab, flow, "held", held_target)
            fill = STEERING_SIZE - steering_entries(lab) - spare
            port = 20000
            while fill > 0:
                n = min(fill, 1024)
                lab.rest.post("intents/pause-batch", {
                    "deviceId": DEVICE, "bufferId": "filler",
                    "flows": [{"inPort": 3, "filter": flow_filter(port + i, "h3")}
                              for i in range(n)]})
                port, fill = port + n, fill - n
            before = steering_entries(lab)
            intents_before = len(lab.rest.get("intents")["intents"])
            batch = [{"inPort": 3, "filter": flow_filter(30000 + i, "h3")}
                     for i in range(2 * spare)]
            start = time.monotonic()
            status, body = api(lambda: lab.rest.post("intents/pause-batch", {
                "deviceId": DEVICE, "bufferId": "held", "flows": batch}))
            refused_ms = (time.monotonic() - start) * 1e3
            after = steering_entries(lab)
            intents = lab.rest.get("intents")["intents"][intents_before:]
            held_after = occupancy(lab, "held")
            state_after = lab.rest.get(f"buffers/{DEVICE}/held")["state"]
            resume(lab)
            drained(lab, "held")
            out = flow.result()
        finally:
            flow.kill()
    return dict(out, held=held, held_after=held_after, state_after=state_after,
                batch_status=status, batch_error=body if status != 200 else None,
                entries_before=before, entries_after=after, batch_flows=len(batch),
                batch_intents=sorted({i["state"] for i in intents}),
                recovery_ms=refused_ms)


FAULTS = {
    "agent_kill": agent_kill,
    "agent_kill_memory": lambda held, pps: agent_kill(held, pps, state_dir=False),
    "host_kill_pause": lambda held, pps: host_kill(held, pps, "pause"),
    "host_kill_resume": lambda held, pps: host_kill(held, pps, "resume"),
    "switch_kill": switch_kill,
    "agent_outage": agent_outage,
    "batch_refused": batch_refused,
}


def emit(metric, value, unit, **conditions):
    print(json.dumps({"metric": metric, "value": value, "unit": unit,
                      "conditions": conditions}), flush=True)


def report(name, r):
    cond = {"held": r["held"], "sent": r["sent"], "received": r["received"]}
    emit(f"chaos_{name}_lost", r["lost"], "packets", **cond)
    emit(f"chaos_{name}_reordered", r["reordered"], "packets", **cond)
    emit(f"chaos_{name}_duplicated", r["duplicates"], "packets", **cond)
    rec = r["recovery_ms"]
    emit(f"chaos_{name}_recovery_ms", None if rec is None else round(rec, 1), "ms",
         **{k: v for k, v in r.items() if k not in ("recovery_ms", "lost", "reordered",
                                                    "duplicates", "first_seq", "last_seq")})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="2,000 packets held instead of 10,000")
    parser.add_argument("--fault", action="append", choices=sorted(FAULTS))
    parser.add_argument("--held", type=int, help="packets held before each fault")
    parser.add_argument("--pps", type=int, default=5000)
    args = parser.parse_args(argv)
    held = args.held or (2000 if args.quick else 10_000)
    ensure_built()
    started = time.monotonic()
    results = {}
    for name in args.fault or list(FAULTS):
        results[name] = FAULTS[name](held, args.pps)
        report(name, results[name])
    took = time.monotonic() - started
    summary = ", ".join(f"{n} {r['lost']}/{r['held']} lost" for n, r in results.items())
    print(f"chaos: {len(results)} faults, {held} packets held each"
          f"{' (QUICK)' if args.quick else ''}, {took:.0f} s: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
