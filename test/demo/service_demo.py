# SPDX-License-Identifier: Apache-2.0
"""Pause and resume a live flow through FlowBuf's REST API (embedded mode).

    h1 ──1── pbswitch s1 ──2── h2        embedded host (the Buffer Service
               │  └──3── h3              core) drives s1 over P4Runtime and
        buffers on vports 100/101        its buffers over the buffer API

A UDP flow with sequence numbers runs from h1 to h2. POST /intents/pause
steers it into a buffer, which holds it; POST /intents/resume replays what
the buffer holds, in order, towards the out port and lets the flow follow.
The demo prints what was held, lost and reordered and how long pause and
resume took, and fails if anything was lost or reordered. Run as root from
the repository root after `make build` (`make demo` does both):

    .venv/bin/python -m test.demo.service_demo [--agent external] [--resume-to h3] \
        [--switch bmv2]
"""
import argparse
import json
import shutil
import subprocess
import sys
import time

from test.lab.bufferapi import BufferAgent
from test.lab.servicelab import DEVICE, HOSTS, ROOT, ServiceLab, ip_of

UDP_PORT = 9000
APP_ID = "org.flowbuf.app"  # buffers belong to the app that created them


def flow_filter():
    return {"ipv4Src": ip_of("h1") + "/32", "ipv4Dst": ip_of("h2") + "/32", "ipProto": 17,
            "l4DstPort": UDP_PORT}


def wait_for(predicate, timeout=5.0):
    """Polls until predicate() holds; returns the seconds it took."""
    start = time.perf_counter()
    while not predicate():
        if time.perf_counter() - start > timeout:
            raise TimeoutError("condition not reached in %.1f s" % timeout)
        time.sleep(0.0002)
    return time.perf_counter() - start


def buffer_stats(agent, buffer_id):
    return agent.call("QueryBuffer", buffer_id=buffer_id).stats


def start_receiver(lab, python, host, expected, timeout):
    # A receiver that knows its count stops at it: its idle bound must then
    # outlast the longest hold (a host restart under load takes seconds).
    # One that does not stops 5 s after the flow goes quiet.
    idle = timeout if expected else 5
    argv = [python, "-m", "test.lab.seqflow", "recv", str(UDP_PORT), "--expect", str(expected),
            "--idle", str(idle), "--timeout", str(timeout)]
    if host != "h2":
        argv += ["--iface", "eth0"]  # the flow is addressed to h2; count it on the wire
    recv = subprocess.Popen(lab.hosts[host].popen_argv(argv), stdout=subprocess.PIPE, text=True,
                            cwd=ROOT)
    recv.stdout.readline()  # {"listening": ...}
    return recv


def start_receivers(lab, python, args):
    """h2 gets the flow until the pause; the resume port's host the rest."""
    expected = int(args.pps * args.seconds)
    timeout = args.seconds + args.hold + 30
    if args.resume_to == "h2":
        return {"h2": start_receiver(lab, python, "h2", expected, timeout)}
    return {"h2": start_receiver(lab, python, "h2", 0, timeout),
            args.resume_to: start_receiver(lab, python, args.resume_to, 0, timeout)}


def combine(sent, results):
    """One verdict over the receivers: every packet arrived once, each host
    saw its part in order, and the resumed part follows the paused one."""
    parts = [results[h] for h in ("h2", "h3") if h in results and results[h]["received"]]
    received = sum(r["received"] for r in parts)
    ordered_between = all(a["last_seq"] < b["first_seq"] for a, b in zip(parts, parts[1:]))
    return {"received": received, "lost": sent - received,
            "reordered": sum(r["reordered"] for r in parts) + (0 if ordered_between else 1),
            "duplicates": sum(r["duplicates"] for r in parts),
            "max_gap_ms": max([r["max_gap_ms"] for r in parts] or [0]),
            "per_host": {h: r["received"] for h, r in results.items()}}


class RestControl:
    """Pauses and resumes the demo's flow through FlowBuf's REST API; each
    call returns the intent as the API gives it ({"id", "bufferId", ...})."""

    def __init__(self, lab):
        self.rest = lab.rest

    def pause(self):
        return self.rest.post("intents/pause", {"deviceId": DEVICE, "inPort": HOSTS["h1"],
                                                "filter": flow_filter()})

    def resume(self, out_port):
        return self.rest.post("intents/resume", {"deviceId": DEVICE, "outPort": out_port,
                                                 "filter": flow_filter()})


def pause_and_resume(lab, args, control=None):
    """Runs the flow, pauses and resumes it (through `control`, by default
    FlowBuf's REST API); returns the report."""
    control = control or RestControl(lab)
    python = str(ROOT / ".venv" / "bin" / "python")
    receivers = start_receivers(lab, python, args)
    send = subprocess.Popen(lab.hosts["h1"].popen_argv(
        [python, "-m", "test.lab.seqflow", "send", ip_of("h2"), str(UDP_PORT), "--pps",
         str(args.pps), "--seconds", str(args.seconds)]), stdout=subprocess.PIPE, text=True,
        cwd=ROOT)
    agent = BufferAgent(f"127.0.0.1:{lab.agent_port}", APP_ID)
    try:
        time.sleep(args.pause_at)
        start = time.perf_counter()
        pause = control.pause()
        pause_call_ms = (time.perf_counter() - start) * 1e3
        buffer_id = pause["bufferId"]
        wait_for(lambda: buffer_stats(agent, buffer_id).packets_in > 0)
        pause_ms = (time.perf_counter() - start) * 1e3
        print(f"demo: paused into buffer {buffer_id} (intent {pause['id']}): "
              f"REST {pause_call_ms:.1f} ms, first packet held after {pause_ms:.1f} ms")
        time.sleep(args.hold)
        held = lab.rest.get(f"buffers/{DEVICE}/{buffer_id}")["occupancyPackets"]
        print(f"demo: holding {held} packets")
        start = time.perf_counter()
        resume = control.resume(HOSTS[args.resume_to])
        resume_call_ms = (time.perf_counter() - start) * 1e3
        wait_for(lambda: buffer_stats(agent, buffer_id).packets_out > 0)
        resume_ms = (time.perf_counter() - start) * 1e3
        print(f"demo: resumed towards {args.resume_to} (intent {resume['id']}): "
              f"REST {resume_call_ms:.1f} ms, first held packet out after {resume_ms:.1f} ms")
        sent = json.loads(send.communicate(timeout=args.seconds + 30)[0])
        result = combine(sent["sent"], {
            h: json.loads(r.communicate(timeout=args.seconds + args.hold + 60)[0]
                          .strip().splitlines()[-1]) for h, r in receivers.items()})
        stats = buffer_stats(agent, buffer_id)
    finally:
        agent.close()
        for proc in (send, *receivers.values()):
            if proc.poll() is None:
                proc.kill()
    return {
        "switch": lab.switch_kind, "agent": "external" if lab.external else "in-process",
        "resumed_to": args.resume_to, "buffer_id": buffer_id,
        "sent": sent["sent"], "received": result["received"],
        "lost": result["lost"], "reordered": result["reordered"],
        "duplicates": result["duplicates"], "held_packets": held,
        "buffer_packets_in": stats.packets_in, "buffer_packets_out": stats.packets_out,
        "pause_call_ms": round(pause_call_ms, 2), "pause_ms": round(pause_ms, 2),
        "resume_call_ms": round(resume_call_ms, 2), "resume_ms": round(resume_ms, 2),
        "max_gap_ms": result["max_gap_ms"], "received_per_host": result["per_host"],
    }


def verdict(report):
    return (report["lost"] == 0 and report["reordered"] == 0 and report["duplicates"] == 0
            and report["held_packets"] > 0 and report["received"] == report["sent"])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agent", choices=("in-process", "external"), default="in-process",
                        help="buffers inside pbswitch, or in a buffer-agent on veth vports")
    parser.add_argument("--switch", choices=ServiceLab.SWITCHES, default="pbswitch",
                        help="the P4Runtime switch: pbswitch, or BMv2's simple_switch_grpc "
                             "from PATH (its buffers are then in a buffer-agent)")
    parser.add_argument("--resume-to", choices=("h2", "h3"), default="h2",
                        help="host whose port the resumed flow leaves on")
    parser.add_argument("--pps", type=float, default=5000)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--pause-at", type=float, default=1.5)
    parser.add_argument("--hold", type=float, default=3.0)
    args = parser.parse_args(argv)
    if args.switch == "bmv2" and shutil.which("simple_switch_grpc") is None:
        print("demo: --switch bmv2 needs simple_switch_grpc (BMv2 with PI) on PATH",
              file=sys.stderr)
        return 2
    with ServiceLab(external_agent=args.agent == "external", switch=args.switch) as lab:
        agent = "external" if lab.external else "in-process"
        print(f"demo: lab up ({args.switch}, {agent} buffers), REST at {lab.rest.base}")
        report = pause_and_resume(lab, args)
    print(json.dumps(report))
    ok = verdict(report)
    print(f"demo: {report['sent']} sent, {report['held_packets']} held during the pause, "
          f"{report['lost']} lost, {report['reordered']} reordered; pause {report['pause_ms']} ms, "
          f"resume {report['resume_ms']} ms -> {'OK' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
