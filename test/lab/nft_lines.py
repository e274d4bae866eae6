# SPDX-License-Identifier: Apache-2.0
"""Applies nft commands read from stdin, one transaction a line, in this
process's network namespace, and answers each line once the kernel has
committed it ("ok") or refused it ("error: " and nft's message, on one line).

The mobility lab's radio gates (test/lab/mobilitylab.py RadioGates) change
through it, with libnftables in this process (Debian's python3-nftables, so
it runs under the system python3, not the venv): a change then costs about
60 us here, 0.15 to 0.35 ms with the pipe to it in the FMM lab. `nft -i`
with a line read back after each change cost 1 to 1.6 ms there: a handoff
spends that time with its source held and the UE still on the radio, air
time no real handoff loses (at 50 handoffs/s FMM's TCP run came to 0.85 of
the radio's capacity instead of 1.03).

Run:  python3 test/lab/nft_lines.py   (as root, e.g. under ip netns exec)
"""
import sys

import nftables


def main():
    nft = nftables.Nftables()
    for line in sys.stdin:
        rc, _, error = nft.cmd(line)
        print("ok" if rc == 0 else "error: " + " ".join(error.split()), flush=True)


if __name__ == "__main__":
    main()
