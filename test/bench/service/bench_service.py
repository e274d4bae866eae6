# SPDX-License-Identifier: Apache-2.0
"""`make bench-service`: the Buffer Service's figures in the embedded mode.

JSON lines {"metric", "value", "unit", "conditions"} and a summary line.
- pause_ms_p50/_p99: POST /intents/pause until the first packet of a live
  flow is held in the buffer (polled from the buffer API every ~0.2 ms).
  Cycles reuse the flow's buffer, as a flow paused again does.
- pause_call_fresh_ms_p50: the REST call of a pause that creates a buffer
  and writes its rule (no traffic; withdrawn after each cycle).
- resume_ms_p50/_p99: POST /intents/resume until the first held packet
  has left the buffer towards the out port.
- intents_per_s: pause+resume pairs per second on distinct flows (distinct
  UDP ports, one shared buffer) through the batch API: POST
  intents/pause-batch of 256 flows, then intents/resume-batch of the same
  flows (one buffer move and one P4Runtime Write per batch), new flows each
  round; the REST client on this host.
- intents_per_s_single_calls: the same pairs one REST call per intent, 4
  client threads (the baseline the batch API is measured against).
- held_packets_lost/_reordered: over the whole run, on the live flow.
- rest_roundtrip_ms_p50: GET /devices, the floor any REST call pays, measured
  in the same run as the baseline.
Figures are the JVM's steady state: 1,000 pause/resume/withdraw cycles run
first, uncounted (a first pause takes ~250 ms while the JVM compiles).
Run as root from the repository root: .venv/bin/python -m test.bench.service.bench_service
"""
import argparse
import json
import statistics
import subprocess
import sys
import threading
import time

from test.lab.bufferapi import BufferAgent
from test.lab.servicelab import DEVICE, HOSTS, ROOT, ServiceLab, ip_of

UDP_PORT = 9000
WARMUP_CYCLES = 1000
GOALS = [("pause_ms_p50", "<=", 5), ("pause_ms_p99", "<=", 20), ("resume_ms_p50", "<=", 5),
         ("resume_ms_p99", "<=", 20), ("intents_per_s", ">=", 1000),
         ("held_packets_lost", "<=", 0), ("held_packets_reordered", "<=", 0)]


def emit(results, metric, value, unit, **conditions):
    results[metric] = value
    print(json.dumps({"metric": metric, "value": value, "unit": unit,
                      "conditions": conditions}), flush=True)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def wait_until(predicate, timeout=5.0):
    deadline = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > deadline:
            raise TimeoutError("condition not reached")
        time.sleep(0.001)


def flow(port=UDP_PORT):
    return {"ipv4Src": ip_of("h1") + "/32", "ipv4Dst": ip_of("h2") + "/32", "ipProto": 17,
            "l4DstPort": port}


def latency_cycles(client, agent, cycles):
    """Pause/resume cycles on the live flow, reusing its buffer (the paper's
    reuse: a paused-again flow goes Forwarding -> Buffering, one set_vport_mode)
    and never switching back to the direct path; returns (pause, resume) ms."""
    pauses, resumes = [], []
    for _ in range(cycles):
        start = time.perf_counter()
        pause = client.call("POST", "intents/pause", {"deviceId": DEVICE, "inPort": HOSTS["h1"],
                                                      "filter": flow()})
        buffer_id = pause["bufferId"]

        def stats():
            return agent.call("QueryBuffer", buffer_id=buffer_id).stats

        wait_until(lambda: stats().occupancy_packets > 0)
        pauses.append((time.perf_counter() - start) * 1e3)
        time.sleep(0.03)
        sent_before = stats().packets_out
        start = time.perf_counter()
        client.call("POST", "intents/resume", {"deviceId": DEVICE, "outPort": HOSTS["h2"],
                                               "filter": flow()})
        wait_until(lambda: stats().packets_out > sent_before)
        resumes.append((time.perf_counter() - start) * 1e3)
        wait_until(lambda: stats().occupancy_packets == 0)
    return pauses, resumes


def fresh_cycles(client, cycles):
    """Pause/resume/withdraw of a flow that sends nothing: the REST call
    latency of a pause that creates a buffer and writes a rule, and the
    controller's own time on it (Server-Timing)."""
    pauses, server = [], []
    for i in range(cycles):
        f = flow(30000 + i)
        start = time.perf_counter()
        pause = client.call("POST", "intents/pause", {"deviceId": DEVICE, "inPort": HOSTS["h3"],
                                                      "filter": f})
        pauses.append((time.perf_counter() - start) * 1e3)
        server.append(client.server_ms())
        resume = client.call("POST", "intents/resume", {"deviceId": DEVICE,
                                                        "outPort": HOSTS["h2"], "filter": f})
        client.call("DELETE", f"intents/{pause['id']}")
        client.call("DELETE", f"intents/{resume['id']}")
        client.call("DELETE", f"buffers/{DEVICE}/{pause['bufferId']}?discard=true")
    return pauses, server


BATCH_FLOWS = 256


def batch_rate(client, rounds, first_port):
    """pause+resume pairs per second through the batch API: each round pauses
    BATCH_FLOWS new flows into buffer 'rate' (the single-call pairs' buffer:
    the lab has two vports) and resumes them."""
    start = time.perf_counter()
    for r in range(rounds):
        base = first_port + r * BATCH_FLOWS
        flows = [flow(base + i) for i in range(BATCH_FLOWS)]
        paused = client.call("POST", "intents/pause-batch", {
            "deviceId": DEVICE, "bufferId": "rate",
            "flows": [{"inPort": HOSTS["h3"], "filter": f} for f in flows]})
        resumed = client.call("POST", "intents/resume-batch", {
            "deviceId": DEVICE, "bufferId": "rate", "outPort": HOSTS["h2"], "filters": flows})
        states = {i["state"] for i in paused["intents"] + resumed["intents"]}
        if states != {"INSTALLED"} or len(resumed["intents"]) != BATCH_FLOWS:
            raise RuntimeError(f"batch round {r}: {states}")
    return rounds * BATCH_FLOWS / (time.perf_counter() - start)


def intent_rate(client, pairs, threads):
    """pause+resume pairs per second on distinct flows sharing buffer 'rate'
    (the client keeps a connection per thread)."""
    client.call("POST", f"buffers/{DEVICE}", {"id": "rate", "state": "BUFFERING"})
    errors = []

    def worker(index):
        try:
            for i in range(index, pairs, threads):
                f = flow(20000 + i)
                client.call("POST", "intents/pause", {"deviceId": DEVICE, "inPort": HOSTS["h3"],
                                                      "filter": f, "bufferId": "rate"})
                client.call("POST", "intents/resume", {"deviceId": DEVICE,
                                                       "outPort": HOSTS["h2"], "filter": f,
                                                       "bufferId": "rate"})
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise errors[0]
    return pairs / elapsed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer cycles (CI-sized)")
    args = parser.parse_args(argv)
    cycles = 20 if args.quick else 100
    pairs = 200 if args.quick else 500  # the flow table (4,096) also holds the batch rounds
    threads = 4
    pps = 1000  # light enough that the generator does not starve the 2-core host
    python = str(ROOT / ".venv" / "bin" / "python")
    results = {}
    with ServiceLab() as lab:
        client = lab.rest
        for _ in range(20):  # warm the JIT and the channels before measuring
            client.call("GET", "devices")
        rtts = []
        for _ in range(200):
            start = time.perf_counter()
            client.call("GET", "devices")
            rtts.append((time.perf_counter() - start) * 1e3)
        emit(results, "rest_roundtrip_ms_p50", round(statistics.median(rtts), 3), "ms",
             request="GET /devices", samples=len(rtts))

        # Warm-up, not counted: the JVM compiles the hot paths only after
        # some thousand calls (a first pause takes ~250 ms); a controller runs
        # for days, so the steady state is what is measured.
        fresh_cycles(client, WARMUP_CYCLES)
        seconds = (cycles + 30) * 0.25 + 20
        recv = subprocess.Popen(lab.hosts["h2"].popen_argv(
            [python, "-m", "test.lab.seqflow", "recv", str(UDP_PORT), "--expect",
             str(int(pps * seconds)), "--idle", "5"]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
        recv.stdout.readline()
        send = subprocess.Popen(lab.hosts["h1"].popen_argv(
            [python, "-m", "test.lab.seqflow", "send", ip_of("h2"), str(UDP_PORT), "--pps",
             str(pps), "--seconds", str(seconds)]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
        agent = BufferAgent(f"127.0.0.1:{lab.agent_port}", "org.flowbuf.app")
        try:
            time.sleep(1)
            latency_cycles(client, agent, 30)  # warm-up with traffic, not counted
            pauses, resumes = latency_cycles(client, agent, cycles)
            sent = json.loads(send.communicate(timeout=seconds + 60)[0])
            flow_result = json.loads(recv.communicate(timeout=120)[0].strip().splitlines()[-1])
        finally:
            agent.close()
            for proc in (send, recv):
                if proc.poll() is None:
                    proc.kill()
        cond = {"cycles": cycles, "flow_pps": pps, "buffers": "in-process",
                "measured_until": "first packet held (pause) / first held packet out (resume)"}
        emit(results, "pause_ms_p50", round(percentile(pauses, 50), 2), "ms", **cond)
        emit(results, "pause_ms_p99", round(percentile(pauses, 99), 2), "ms", **cond)
        emit(results, "resume_ms_p50", round(percentile(resumes, 50), 2), "ms", **cond)
        emit(results, "resume_ms_p99", round(percentile(resumes, 99), 2), "ms", **cond)
        emit(results, "pause_p50_vs_rest_roundtrip",
             round(results["pause_ms_p50"] / results["rest_roundtrip_ms_p50"], 1), "ratio",
             baseline="rest_roundtrip_ms_p50")
        emit(results, "held_packets_lost", flow_result["lost"], "packets",
             sent=sent["sent"], received=flow_result["received"], pause_cycles=cycles + 30)
        emit(results, "held_packets_reordered", flow_result["reordered"], "packets",
             duplicates=flow_result["duplicates"])
        fresh, fresh_server = fresh_cycles(client, cycles)
        emit(results, "pause_call_fresh_ms_p50", round(percentile(fresh, 50), 2), "ms",
             cycles=cycles, what="REST pause that creates a buffer and writes a rule, no traffic")
        emit(results, "pause_call_fresh_server_ms_p50", round(percentile(fresh_server, 50), 2),
             "ms", cycles=cycles, what="the controller's own time on that pause (Server-Timing): "
             "one agent call, one P4Runtime Write")
        single = intent_rate(client, pairs, threads)
        emit(results, "intents_per_s_single_calls", round(single, 1), "pairs/s", pairs=pairs,
             client_threads=threads, flows="distinct UDP ports into one buffer",
             api="POST intents/pause + intents/resume, one REST call per intent")
        batch_rate(client, 1, 40000)  # warm-up of the batch path, not counted
        rounds = 2 if args.quick else 4
        rate = batch_rate(client, rounds, 40000 + BATCH_FLOWS)
        emit(results, "intents_per_s", round(rate, 1), "pairs/s", pairs=rounds * BATCH_FLOWS,
             flows_per_batch=BATCH_FLOWS, flows="distinct UDP ports into one buffer",
             api="POST intents/pause-batch + intents/resume-batch")
        emit(results, "intents_batch_vs_single_calls", round(rate / single, 1), "ratio",
             baseline="intents_per_s_single_calls, same run")
    met, missed = [], []
    for metric, op, bound in GOALS:
        value = results[metric]
        ok = value <= bound if op == "<=" else value >= bound
        (met if ok else missed).append(f"{metric}={value} (goal {op} {bound})")
    print(f"bench-service: met: {'; '.join(met) or 'none'} | missed: {'; '.join(missed) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
