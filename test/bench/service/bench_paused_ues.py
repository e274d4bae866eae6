# SPDX-License-Identifier: Apache-2.0
"""paused_flows_per_device: distinct flows (UEs' downlinks) paused at once
on one device of the embedded lab (pbswitch with in-process buffers, the
host over REST), each in a buffer of its own, with the lab's two vport
ports. Baseline in the same run: the same lab with untagged vports (one
buffer per port). Also the time per pause at that scale and the memory
per paused flow (RSS growth of pbswitch, which holds the buffers, and of
the host). JSON lines {"metric", "value", "unit", "conditions"}, then a
summary line. --quick: 1,000 flows."""
import argparse
import json
import os
import time

from test.lab.servicelab import DEVICE, RestError, ServiceLab, ensure_built
from test.upf.ue_scale import AGENT_PORT, P4RT_PORT, REST_PORT, pause_all, rss_kib, scale_lab

GOAL = 10_000


def emit(metric, value, unit, **conditions):
    print(json.dumps({"metric": metric, "value": value, "unit": unit,
                      "conditions": conditions}), flush=True)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def untagged_capacity():
    """Pauses distinct flows on the untagged lab until one is refused."""
    with ServiceLab(prefix="fbt-", rest_port=REST_PORT, p4rt_port=P4RT_PORT,
                    agent_port=AGENT_PORT) as lab:
        n = 0
        try:
            while n < 100:
                lab.rest.post("intents/pause", {"deviceId": DEVICE, "inPort": 1,
                                                "filter": {"ipProto": 17, "l4DstPort": 20000 + n}})
                n += 1
        except RestError as e:
            assert e.status == 409, e
        return n


def held_buffers(lab):
    return sum(1 for b in lab.rest.get(f"buffers/{DEVICE}")["buffers"]
               if b["state"] == "BUFFERING")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    ues = 1000 if parser.parse_args().quick else GOAL
    ensure_built()
    load0 = os.getloadavg()[0]
    start = time.monotonic()
    baseline = untagged_capacity()
    with scale_lab(ues) as lab:
        switch_pid, host_pid = lab.switch.popen.pid, lab.host.popen.pid
        sw0, host0 = rss_kib(switch_pid), rss_kib(host_pid)
        _, seconds = pause_all(lab, ues)
        sw1, host1 = rss_kib(switch_pid), rss_kib(host_pid)
        held = held_buffers(lab)
    cond = {"vport_ports": 2, "ues": ues, "switch": "pbswitch in-process buffers",
            "load_avg_start": round(load0, 2), "cores": os.cpu_count()}
    emit("paused_flows_per_device", held, "flows", **cond)
    emit("paused_flows_per_device_untagged", baseline, "flows", **cond)
    ms = [s * 1000 for s in seconds]
    last = ms[-1000:]
    emit("pause_ms_p50_at_scale", round(percentile(last, 50), 2), "ms",
         **cond, over="the last 1,000 pauses")
    emit("pause_ms_p99_at_scale", round(percentile(last, 99), 2), "ms",
         **cond, over="the last 1,000 pauses")
    emit("pause_ms_mean", round(sum(ms) / len(ms), 2), "ms", **cond, over="all pauses")
    emit("paused_flow_bytes_pbswitch", round((sw1 - sw0) * 1024 / ues), "B",
         **cond, how="pbswitch VmRSS growth over the pauses / flows (empty buffers)")
    emit("paused_flow_bytes_host", round((host1 - host0) * 1024 / ues), "B",
         **cond, how="host VmRSS growth / flows (JVM heap fixed at 192 MB)")
    print(f"paused UEs ({time.monotonic() - start:.0f}s, load {load0:.2f} at start, "
          f"{os.cpu_count()} cores shared): {held} distinct flows held at once on one device "
          f"with 2 vport ports (untagged: {baseline}); pause p50 {percentile(last, 50):.1f} ms, "
          f"p99 {percentile(last, 99):.1f} ms at that scale; "
          f"{(sw1 - sw0) * 1024 / ues:.0f} B pbswitch RSS and "
          f"{(host1 - host0) * 1024 / ues:.0f} B host RSS per paused flow; "
          f"goal >= {GOAL}: {'met' if held >= GOAL else 'missed'}", flush=True)


if __name__ == "__main__":
    main()
