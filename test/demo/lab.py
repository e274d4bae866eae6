# SPDX-License-Identifier: Apache-2.0
"""`make lab`: the embedded lab left running for a person to use.

pbswitch with three namespace hosts (h1-h3 on ports 1-3) and two buffer vports,
the embedded host on REST :8181 (the page at /), an optional steady UDP flow
h1 -> h2, until Ctrl-C; then every namespace and process it started is removed.

Before it says it is ready, the host is warmed up: a fresh JVM takes its first
pause in 90-530 ms (Jersey, the P4Runtime and agent channels, the JIT) against
4-16 ms warm on a loaded machine, so the lab runs pause/resume cycles on a flow
nobody sends, then removes what they made, and reports what its first real
pause would cost.

    make lab                         # flow h1 -> h2 at 200 packets/s
    make lab LAB_ARGS="--no-flow"    # nothing running
    make lab LAB_ARGS="--agent external --pps 1000"
"""
import argparse
import signal
import socket
import subprocess
import sys
import time

from test.lab.servicelab import DEVICE, HOSTS, ROOT, ServiceLab, ip_of

UDP_PORT = 9000
# Its own prefix and ports, so that it runs beside the tests' labs (the e2e
# tests' pbswitch is on 28201; test/chaos's load lab has the prefix fbl-).
PREFIX = "fbp-"
P4RT_PORT = 28541
# The warm-up's flow: from h3 to an address no host has, so no packet matches.
WARMUP_FILTER = {"ipv4Src": ip_of("h3") + "/32", "ipv4Dst": "10.0.0.250/32", "ipProto": 17}
WARMUP_OWNER = "org.flowbuf.lab-warmup"


def pause_resume_cycle(rest):
    """One pause and resume of the warm-up flow as a user's would go: the
    pause takes a ready buffer (or makes one), the resume replays it; then
    both intents are withdrawn and the buffer removed. Returns the pause
    call's milliseconds."""
    start = time.perf_counter()
    pause = rest.post("intents/pause", {"deviceId": DEVICE, "inPort": HOSTS["h3"],
                                        "owner": WARMUP_OWNER, "filter": WARMUP_FILTER})
    pause_ms = (time.perf_counter() - start) * 1e3
    resume = rest.post("intents/resume", {"deviceId": DEVICE, "outPort": HOSTS["h1"],
                                          "owner": WARMUP_OWNER, "filter": WARMUP_FILTER})
    for intent in (resume, pause):
        rest.delete(f"intents/{intent['id']}?owner={WARMUP_OWNER}")
    rest.delete(f"buffers/{DEVICE}/{pause['bufferId']}?discard=true&owner={WARMUP_OWNER}")
    return pause_ms


def warm_up(rest, seconds):
    """Pause/resume cycles for `seconds` (at least 20), then the read paths
    the page and the CLI use. Returns the cycles and the first and the last
    pause call's milliseconds."""
    pauses, deadline = [], time.monotonic() + seconds
    while len(pauses) < 20 or time.monotonic() < deadline:
        pauses.append(pause_resume_cycle(rest))
    for path in ("devices", "buffers", "intents", f"devices/{DEVICE}/vports"):
        rest.get(path)
    return len(pauses), pauses[0], pauses[-1]


def start_flow(lab, pps):
    """A steady numbered UDP flow h1 -> h2 (until the lab closes)."""
    python = str(ROOT / ".venv" / "bin" / "python")
    argv = [python, "-m", "test.lab.seqflow", "send", ip_of("h2"), str(UDP_PORT),
            "--pps", str(pps), "--seconds", str(7 * 24 * 3600)]
    return subprocess.Popen(lab.hosts["h1"].popen_argv(argv), stdout=subprocess.DEVNULL,
                            cwd=ROOT)


def port_in_use(port):
    """Whether something already listens on 127.0.0.1:port (the lab would
    otherwise wait for its host there and talk to that process instead)."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def banner(lab, flow, cycles, first_ms, last_ms):
    base = f"http://127.0.0.1:{lab.rest_port}"
    cli = "cli/flowbuf" if lab.rest_port == 8181 else f"cli/flowbuf --url {base}/onos/flowbuf"
    src, dst = ip_of("h1"), ip_of("h2")
    ns = lab.prefix
    flow_line = (f"a UDP flow h1 ({src}) -> h2 ({dst}) port {UDP_PORT} at {flow} packets/s"
                 if flow else f"no flow (start one in a host: ip netns exec {ns}h1 ...)")
    print(f"""
lab: ready. Warmed up by {cycles} pause/resume cycles on a flow nobody sends (listed as
     WITHDRAWN intents of owner {WARMUP_OWNER}): the first pause call took {first_ms:.1f} ms,
     the last {last_ms:.1f} ms
  page      {base}/
  REST      {base}/onos/flowbuf/   (OpenAPI: {base}/ui/apidoc/swagger.json)
  switch    {DEVICE}: h1, h2, h3 on ports 1-3 (namespaces {ns}h1..{ns}h3), vports 100, 101
  flow      {flow_line}
try:
  {cli} devices
  {cli} pause {DEVICE} 1 --src {src}/32 --dst {dst}/32 --proto 17
  {cli} buffers
  {cli} resume {DEVICE} 2 --src {src}/32 --dst {dst}/32 --proto 17
  {cli} intents
  curl -s {base}/onos/flowbuf/buffers/{DEVICE}
Ctrl-C stops the lab and removes its namespaces and processes.
""", flush=True)


def stop_on(*signals):
    """These signals end the lab as Ctrl-C does (a KeyboardInterrupt).

    SIGINT too, explicitly: Python installs its KeyboardInterrupt handler
    only when SIGINT was not ignored at start, and a process started in the
    background by a non-interactive shell (`make test &`, a CI runner)
    inherits SIGINT ignored, so it would never hear the Ctrl-C that stops it."""
    def interrupt(*_):
        raise KeyboardInterrupt
    for sig in signals:
        signal.signal(sig, interrupt)


def ignore_signals():
    """From here on the lab is tearing down: another Ctrl-C (or a SIGTERM)
    must not cut that short and leave processes or namespaces behind."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)


def serve(lab, args):
    """Warms the host up, starts the flow, prints the banner and waits for
    Ctrl-C; the flow is stopped however this ends."""
    flow = None
    try:
        cycles, first_ms, last_ms = warm_up(lab.rest, args.warmup_seconds)
        if not args.no_flow:
            flow = start_flow(lab, args.pps)
        banner(lab, None if args.no_flow else int(args.pps), cycles, first_ms, last_ms)
        while True:
            signal.pause()
    finally:
        ignore_signals()
        print("lab: stopping", flush=True)
        if flow is not None:
            flow.kill()
            flow.wait()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agent", choices=("in-process", "external"), default="in-process",
                        help="buffers in pbswitch, or in a buffer-agent on veth vports")
    parser.add_argument("--pps", type=float, default=200, help="the steady flow's rate")
    parser.add_argument("--no-flow", action="store_true", help="start no flow")
    parser.add_argument("--warmup-seconds", type=float, default=3.0)
    parser.add_argument("--rest-port", type=int, default=8181)
    parser.add_argument("--p4rt-port", type=int, default=P4RT_PORT,
                        help="pbswitch's P4Runtime port; the buffer API's is the next one")
    parser.add_argument("--prefix", default=PREFIX,
                        help="of the lab's namespaces and links (what it deletes at start and stop)")
    args = parser.parse_args(argv)
    # The lab waits for each process's port to answer: a port another
    # program already holds would answer for it.
    for port, option, other in ((args.rest_port, "--rest-port", 8191),
                                (args.p4rt_port, "--p4rt-port", 28641),
                                (args.p4rt_port + 1, "--p4rt-port", 28641)):
        if port_in_use(port):
            parser.error(f"something already listens on 127.0.0.1:{port}: stop it, or give "
                         f"the lab other ports (make lab LAB_ARGS=\"{option} {other}\")")
    stop_on(signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    lab = ServiceLab(external_agent=args.agent == "external", prefix=args.prefix,
                     rest_port=args.rest_port, p4rt_port=args.p4rt_port,
                     agent_port=args.p4rt_port + 1, ready_buffers=1)
    try:
        with lab:
            try:
                serve(lab, args)
            except KeyboardInterrupt:
                pass
            started = time.monotonic()
        # ServiceLab's close: the host, the switch (and agent), then the namespaces.
    except KeyboardInterrupt:
        # Interrupted while starting: ServiceLab closed what it had started.
        print("lab: stopped before it was ready; every namespace and process it started is gone")
        return 130
    print(f"lab: every namespace and process it started is gone "
          f"(teardown {time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
