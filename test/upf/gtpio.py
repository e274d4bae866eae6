# SPDX-License-Identifier: Apache-2.0
"""Frames in and out of a lab host, run inside its namespace:

    python -m test.upf.gtpio sniff IFACE FILTER COUNT TIMEOUT   (prints "ready",
        then one JSON list of the hex frames that matched the BPF filter)
    python -m test.upf.gtpio send IFACE HEX [HEX ...]
"""
import json
import sys
import time

from scapy.all import AsyncSniffer, conf, sendp  # noqa: F401 - conf loads the layers


def sniff(iface, bpf, count, timeout):
    sniffer = AsyncSniffer(iface=iface, filter=bpf, count=int(count), store=True)
    unopened = sniffer.stop_cb
    sniffer.start()
    # AsyncSniffer opens its socket in its thread and then replaces stop_cb.
    while sniffer.stop_cb is unopened:
        time.sleep(0.01)
    print("ready", flush=True)
    sniffer.join(timeout=float(timeout))
    frames = sniffer.stop() if sniffer.running else sniffer.results
    frames = frames or []
    print(json.dumps([bytes(f).hex() for f in frames]), flush=True)


def send(iface, *frames):
    for frame in frames:
        sendp(bytes.fromhex(frame), iface=iface, verbose=False)


def main(argv):
    if argv[0] == "sniff":
        sniff(*argv[1:])
    elif argv[0] == "send":
        send(*argv[1:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
