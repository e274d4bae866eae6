# SPDX-License-Identifier: Apache-2.0
"""The gNodeB's radio frames (pipeconf/p4src/include/gnb.p4, the layout of
buffer-agent/engine/pdcp.go), built here from the documented layout:

    dst MAC, src MAC, 0x88b5,
    RLC: magic 0x52, version 1, bearer TEID (32 bits),
    PDCP: D/C (1 bit), PDU type (3), reserved (10), SN (18),
    data: the UE's IPv4 packet; status: the last acknowledged SN (32 bits).
"""
import struct

from scapy.layers.l2 import Ether

from .dataplane import MARKER

ETHERTYPE_RADIO = 0x88B5
RLC_MAGIC, RLC_VERSION = 0x52, 1
SN_SPACE = 1 << 18


def radio_header(dst, src, teid, word, version=RLC_VERSION):
    return (bytes(Ether(dst=dst, src=src, type=ETHERTYPE_RADIO))
            + struct.pack("!BBII", RLC_MAGIC, version, teid, word))


def pdcp_data(dst, src, teid, sn, inner, version=RLC_VERSION):
    """A data PDU carrying `inner` (an IPv4 packet) with SN `sn`."""
    return radio_header(dst, src, teid, (1 << 31) | (sn % SN_SPACE), version) + bytes(inner)


def pdcp_status(dst, src, teid, first, last):
    """A status acknowledging first..last, with the test marker after it
    (the buffer reads the first 28 bytes)."""
    return radio_header(dst, src, teid, first % SN_SPACE) + struct.pack("!I", last % SN_SPACE) + MARKER


def sn_of(frame):
    return struct.unpack("!I", frame[20:24])[0] & (SN_SPACE - 1)
