# SPDX-License-Identifier: Apache-2.0
"""Scenario: connectionless communication (Programmable Buffers, SOSR'18).

A sensor (h1) uploads a file to the collector's address (h3) without the
collector being involved: POST apps/cc/uploads puts a buffer in Buffering and
steers the sensor's uplink into it; the sensor sends the file (1000-byte UDP
datagrams); POST .../stored turns the buffer to Storing; later the collector
asks, POST .../download serves the file towards the collector's port, in
order; POST .../release removes rules and buffer. The upload request's REST
latency must not depend on the file size. (The paper's controller-buffering
baseline is not built yet.)

JSON lines: cc_upload_request_ms_p50_10kb, cc_upload_request_ms_p50_1mb,
cc_upload_request_1mb_vs_10kb, cc_upload_lost, cc_upload_reordered; a plot in
test/artifacts/connectionless.png. Run as root:
    .venv/bin/python -m test.scenarios.connectionless [--quick]
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

from test.lab.servicelab import DEVICE, ROOT, ServiceLab, ip_of

PORT = 9100
PAYLOAD = 1000
SIZES = {"10kb": 10, "1mb": 1000}  # datagrams of 1000 bytes
ARTIFACTS = ROOT / "test" / "artifacts"


def sensor_flow():
    return {"ipv4Src": ip_of("h1") + "/32", "ipv4Dst": ip_of("h3") + "/32", "ipProto": 17,
            "l4DstPort": PORT}


def wait_for(predicate, timeout=20):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not reached")
        time.sleep(0.01)


def upload_once(lab, python, packets):
    """One upload, store, download, release; returns (request_ms, receiver result)."""
    start = time.perf_counter()
    upload = lab.rest.post("apps/cc/uploads", {"deviceId": DEVICE, "sensorPort": 1,
                                               "filter": sensor_flow()})
    request_ms = (time.perf_counter() - start) * 1e3
    buffer = f"buffers/{DEVICE}/{upload['bufferId']}"
    subprocess.run(lab.hosts["h1"].popen_argv(
        [python, "-m", "test.lab.seqflow", "send", ip_of("h3"), str(PORT), "--pps", "5000",
         "--seconds", str(packets / 5000), "--size", str(PAYLOAD)]),
        check=True, capture_output=True, cwd=ROOT)
    wait_for(lambda: lab.rest.get(buffer)["occupancyPackets"] == packets)
    lab.rest.post(f"apps/cc/uploads/{upload['id']}/stored", {})
    recv = subprocess.Popen(lab.hosts["h3"].popen_argv(
        [python, "-m", "test.lab.seqflow", "recv", str(PORT), "--expect", str(packets),
         "--idle", "3", "--timeout", "30"]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
    recv.stdout.readline()
    lab.rest.post(f"apps/cc/uploads/{upload['id']}/download", {"port": 3})
    result = json.loads(recv.communicate(timeout=40)[0].strip().splitlines()[-1])
    wait_for(lambda: lab.rest.get(buffer)["occupancyPackets"] == 0)
    lab.rest.post(f"apps/cc/uploads/{upload['id']}/release", {})
    return request_ms, result


def emit(metric, value, unit, **conditions):
    print(json.dumps({"metric": metric, "value": value, "unit": unit, "conditions": conditions}),
          flush=True)


def run(uploads_per_size):
    python = str(ROOT / ".venv" / "bin" / "python")
    requests = {name: [] for name in SIZES}
    lost = reordered = 0
    with ServiceLab(prefix="fbc-", rest_port=8194, p4rt_port=28295, agent_port=28296) as lab:
        upload_once(lab, python, 5)  # warm-up, not counted
        for _ in range(uploads_per_size):
            for name, packets in SIZES.items():  # interleaved: both sizes see the same load
                ms, result = upload_once(lab, python, packets)
                requests[name].append(ms)
                lost += result["lost"]
                reordered += result["reordered"] + result["duplicates"]
    return requests, lost, reordered


def plot(requests):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.boxplot([requests["10kb"], requests["1mb"]], tick_labels=["10 KB", "1 MB"])
    ax.set_ylabel("upload request, REST call (ms)")
    ax.set_title("Connectionless upload request latency vs file size")
    fig.tight_layout()
    path = ARTIFACTS / "connectionless.png"
    fig.savefig(path, dpi=100)
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    per_size = 5 if args.quick else 20
    requests, lost, reordered = run(per_size)
    p50 = {name: round(statistics.median(v), 2) for name, v in requests.items()}
    cond = {"uploads": per_size, "path": "REST call, embedded host, in-process buffers"}
    emit("cc_upload_request_ms_p50_10kb", p50["10kb"], "ms", **cond)
    emit("cc_upload_request_ms_p50_1mb", p50["1mb"], "ms", **cond)
    ratio = round(p50["1mb"] / p50["10kb"], 3)
    emit("cc_upload_request_1mb_vs_10kb", ratio, "ratio", goal="within 20 %")
    emit("cc_upload_lost", lost, "packets", uploads=2 * per_size)
    emit("cc_upload_reordered", reordered, "packets", uploads=2 * per_size)
    path = plot(requests)
    ok = lost == 0 and reordered == 0 and abs(ratio - 1) <= 0.2
    print(f"scenario connectionless: request p50 10 KB {p50['10kb']} ms, 1 MB {p50['1mb']} ms "
          f"(ratio {ratio}), {lost} lost, {reordered} reordered -> "
          f"{'met' if ok else 'MISSED'}; plot {path.relative_to(ROOT)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
