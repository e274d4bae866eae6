# SPDX-License-Identifier: Apache-2.0
"""Pause and resume a live UDP flow held in a buffer-agent buffer.

    h1 --veth-- [RX vport] buffer-agent buffer [TX vport] --veth-- h2

The flow runs through a buffer in Forwarding state; pausing turns the TX
vport off (Buffering: packets are held), resuming turns it back on (the
buffer replays what it holds, in order, then forwards again). Run as root
from the repository root (tools/demo.sh builds bin/buffer-agent):

    .venv/bin/python -m test.demo.agent_demo
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import threading
import time

from test.lab import Lab, Process, wait_for_tcp
from test.lab.bufferapi import BufferAgent

ROOT = pathlib.Path(__file__).resolve().parents[2]
AGENT_ADDR = ("127.0.0.1", 28161)
APP_ID = "org.flowbuf.demo"
UDP_PORT = 9000


def build_lab(lab):
    h1, h2 = lab.add_host("h1"), lab.add_host("h2")
    rx_if = lab.link_host(h1, "eth0", "a1", ip="10.0.0.1/24", mac="02:00:00:00:00:01")
    tx_if = lab.link_host(h2, "eth0", "a2", ip="10.0.0.2/24", mac="02:00:00:00:00:02")
    # No ARP through a one-way buffer: both hosts know each other's MAC.
    h1.run("ip", "neigh", "add", "10.0.0.2", "lladdr", "02:00:00:00:00:02", "dev", "eth0")
    h2.run("ip", "neigh", "add", "10.0.0.1", "lladdr", "02:00:00:00:00:01", "dev", "eth0")
    return h1, h2, rx_if, tx_if


def set_up_buffer(agent, rx_if, tx_if):
    pb = agent.pb
    agent.call("CreateBuffer", buffer_id="demo",
               config=pb.BufferConfig(capacity_packets=200_000, capacity_bytes=64 << 20))
    for vport, ifname in (("rx", rx_if), ("tx", tx_if)):
        mode = pb.VPORT_MODE_RX if vport == "rx" else pb.VPORT_MODE_TX
        agent.call("CreateVport", vport_id=vport, config=pb.VportConfig(
            mode=mode, linux_interface=pb.LinuxInterfaceBackend(interface=ifname)))
        agent.call("Bind", buffer_id="demo", vport_id=vport)
    return _state(agent)


def _state(agent):
    buf = agent.call("QueryBuffer", buffer_id="demo")
    return agent.pb.BufferState.Name(buf.state), buf.stats


def timed(fn):
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def run(args):
    python = str(ROOT / ".venv" / "bin" / "python")
    expected = int(args.pps * args.seconds)
    with Lab("fbd-") as lab, tempfile.TemporaryDirectory() as logs:
        h1, h2, rx_if, tx_if = build_lab(lab)
        agent_proc = Process([str(ROOT / "bin" / "buffer-agent"),
                              "-listen", "%s:%d" % AGENT_ADDR, "-metrics-listen", "",
                              "-log-format", "text"], f"{logs}/agent.log")
        with agent_proc:
            wait_for_tcp(*AGENT_ADDR, proc=agent_proc.popen)
            agent = BufferAgent("%s:%d" % AGENT_ADDR, APP_ID)
            state, _ = set_up_buffer(agent, rx_if, tx_if)
            print(f"demo: buffer 'demo' between {rx_if} and {tx_if} is {state}")

            recv = subprocess.Popen(h2.popen_argv([python, "-m", "test.lab.seqflow", "recv",
                                                   str(UDP_PORT), "--expect", str(expected),
                                                   "--idle", "5"]),
                                    stdout=subprocess.PIPE, text=True, cwd=ROOT)
            recv.stdout.readline()  # {"listening": ...}: the socket is bound
            send = subprocess.Popen(h1.popen_argv([python, "-m", "test.lab.seqflow", "send",
                                                   "10.0.0.2", str(UDP_PORT), "--pps",
                                                   str(args.pps), "--seconds",
                                                   str(args.seconds)]),
                                    stdout=subprocess.PIPE, text=True, cwd=ROOT)
            pb = agent.pb
            time.sleep(args.pause_at)
            pause_ms = timed(lambda: agent.call("SetVportMode", vport_id="tx",
                                                mode=pb.VPORT_MODE_NONE))
            print(f"demo: paused ({_state(agent)[0]}) in {pause_ms:.2f} ms")
            time.sleep(args.hold)
            held_state, held = _state(agent)
            print(f"demo: holding {held.occupancy_packets} packets ({held_state})")
            resume_ms = timed(lambda: agent.call("SetVportMode", vport_id="tx",
                                                 mode=pb.VPORT_MODE_TX))
            print(f"demo: resumed ({_state(agent)[0]}) in {resume_ms:.2f} ms")
            sent = json.loads(send.communicate(timeout=args.seconds + 30)[0])
            result = json.loads(recv.communicate(timeout=60)[0].strip().splitlines()[-1])
            _, stats = _state(agent)
            agent.close()
    return {
        "sent": sent["sent"], "received": result["received"],
        "lost": result["lost"], "reordered": result["reordered"],
        "duplicates": result["duplicates"],
        "held_packets": held.occupancy_packets,
        "high_watermark_packets": stats.high_watermark_packets,
        "pause_call_ms": round(pause_ms, 2), "resume_call_ms": round(resume_ms, 2),
        "max_gap_ms": result["max_gap_ms"],
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pps", type=float, default=5000)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--pause-at", type=float, default=1.5)
    parser.add_argument("--hold", type=float, default=3.0)
    args = parser.parse_args(argv)
    report = run(args)
    print(json.dumps(report))
    ok = (report["lost"] == 0 and report["reordered"] == 0 and report["duplicates"] == 0
          and report["held_packets"] > 0 and report["received"] == report["sent"])
    print(f"demo: {report['sent']} sent, {report['held_packets']} held during the pause, "
          f"{report['lost']} lost, {report['reordered']} reordered -> "
          f"{'OK' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
