# SPDX-License-Identifier: Apache-2.0
"""Thousands of UEs' downlinks paused at once on one device, each in a
buffer of its own, behind the lab's two vport ports: each port carries
its share of logical vports (netcfg "tags"), the pipeline tags what it
steers into them (steer_to_buffer) and the buffer engine demultiplexes.

Shared by test_paused_ues.py (the lossless check) and the bench
(paused_flows_per_device, time per pause, memory per paused flow).
Own lab: prefix fbt-, REST 8211, P4Runtime 28451, buffer API 28452."""
import time

from test.lab.servicelab import DEVICE, ServiceLab, VPORTS

REST_PORT, P4RT_PORT, AGENT_PORT = 8211, 28451, 28452
FIRST_PORT = 20000  # UE i's downlink: UDP to 10.0.0.2 port FIRST_PORT + i


def ue_filter(i):
    return {"ipv4Src": "10.0.0.1/32", "ipv4Dst": "10.0.0.2/32", "ipProto": 17,
            "l4DstPort": FIRST_PORT + i}


def scale_lab(ues, external_agent=False):
    """A lab whose vport ports carry `ues` logical vports in all: pbswitch's
    in-process buffers, or an external buffer-agent on veths."""
    per_port = -(-ues // len(VPORTS))
    return ServiceLab(prefix="fbt-", rest_port=REST_PORT, p4rt_port=P4RT_PORT,
                      agent_port=AGENT_PORT, vport_tags=per_port,
                      external_agent=external_agent)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def pause_all(lab, ues):
    """Pauses UE 0 .. ues-1 one REST call each (each takes a buffer and a
    logical vport of its own); returns {ue: bufferId} and the seconds
    each pause took, in order."""
    buffers, seconds = {}, []
    for i in range(ues):
        start = time.perf_counter()
        intent = lab.rest.post("intents/pause", {"deviceId": DEVICE, "inPort": 1,
                                                 "filter": ue_filter(i)})
        seconds.append(time.perf_counter() - start)
        assert intent["state"] == "INSTALLED", intent
        buffers[i] = intent["bufferId"]
    return buffers, seconds
