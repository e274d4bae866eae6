# SPDX-License-Identifier: Apache-2.0
"""The gNodeB service end to end in the embedded mode: REST -> embedded host
-> P4Runtime -> pbswitch's gnb.p4 -> real frames from a UPF namespace (h1,
the gNodeB's UPF port 1) to a radio namespace (h2, cell 1's radio port 2;
the cell's BaaS port is the in-process vport 100, with no buffer bound).

Own lab: prefix fbb-, REST 8243, P4Runtime 28493, buffer API 28494.

The device's netcfg names the ports and no bearer: the downlink GTP-U of a
TEID reaches the radio only once a bearer of that TEID was added through
REST, as an RLC/PDCP frame to the UE's MAC with consecutive SNs and the
UE's packet unchanged, and no more once it is removed. Bad requests are
refused with their reason and change nothing.
"""
import os
import struct

import pytest
from scapy.layers.inet import IP, UDP
from scapy.packet import Raw

from test.lab.servicelab import DEVICE, RestError, ServiceLab, ensure_built, ip_of
from test.packet.gtp import encapsulated
from test.packet.radio import ETHERTYPE_RADIO, SN_SPACE, sn_of
from test.upf.test_upf_service import exchange

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

REST_PORT, P4RT_PORT, AGENT_PORT = 8243, 28493, 28494
UPF, RADIO = "h1", "h2"
UPF_PORT, RADIO_PORT, BAAS_PORT = 1, 2, 100
UE = "10.250.0.1"
UE_MAC = "02:00:00:00:0e:07"
TEID = 0xD00007
RADIO_BPF = f"ether proto {ETHERTYPE_RADIO:#x}"
GNB = f"gnb/devices/{DEVICE}"


class GnbLab(ServiceLab):
    """The service lab with s1 a gNodeB: UPF port 1, one cell (radio 2, BaaS vport 100)."""

    def netcfg(self):
        cfg = super().netcfg()
        cfg["devices"][DEVICE]["gnb"] = {
            "upfPort": UPF_PORT,
            "cells": [{"id": 1, "radioPort": RADIO_PORT, "baasPort": BAAS_PORT}]}
        return cfg


@pytest.fixture(scope="module")
def lab():
    ensure_built()
    with GnbLab(prefix="fbb-", rest_port=REST_PORT, p4rt_port=P4RT_PORT,
                agent_port=AGENT_PORT) as lab:
        yield lab


def bearer(**change):
    body = {"teid": TEID, "cell": 1, "ueMac": UE_MAC, "uplinkTeid": 0x1234,
            "gnbAddress": "10.0.0.200", "upfAddress": "10.0.0.100"}
    body.update(change)
    return body


def ue_packet(seq):
    return IP(bytes(IP(src=ip_of(UPF), dst=UE, ttl=64, id=seq) / UDP(sport=9000, dport=4000)
                    / Raw(b"FLOWBUF-GNB" + seq.to_bytes(4, "big"))))


def downlink(lab, seqs, expect):
    """Sends the UPF's GTP-U of the UE's packets `seqs` from h1; returns the
    radio frames h2 got (waiting for `expect` of them, 5 s at most)."""
    frames = [encapsulated(ue_packet(s), TEID, 9, 41000) for s in seqs]
    return [bytes(f) for f in exchange(lab, UPF, RADIO, RADIO_BPF, frames, expect)]


def refused(call, status, words):
    with pytest.raises(RestError) as e:
        call()
    assert e.value.status == status, e.value.body
    assert words in e.value.body, e.value.body


def test_the_netcfg_gnb_is_shown_with_its_cells(lab):
    devices = lab.rest.get("gnb/devices")["devices"]
    assert devices == [{"deviceId": DEVICE, "upfPort": UPF_PORT, "bearers": [],
                        "cells": [{"id": 1, "radioPort": RADIO_PORT, "baasPort": BAAS_PORT}]}]
    assert lab.rest.get(GNB) == devices[0]


def test_bad_bearers_are_refused_and_change_nothing(lab):
    before = lab.rest.get(GNB)
    refused(lambda: lab.rest.post(f"{GNB}/bearers", bearer(cell=9)), 400, "cell 9")
    refused(lambda: lab.rest.post(f"{GNB}/bearers", bearer(ueMac="02-00-00-00-0e-07")), 400,
            "ueMac")
    refused(lambda: lab.rest.post(f"{GNB}/bearers", bearer(teid=0)), 400, "teid")
    refused(lambda: lab.rest.post(f"{GNB}/bearers", bearer(upfAddress="10.0.0")), 400,
            "upfAddress")
    refused(lambda: lab.rest.post(f"{GNB}/bearers", bearer(qfi=9)), 400, "unknown field")
    refused(lambda: lab.rest.post("gnb/devices/device:s9/bearers", bearer()), 404,
            "no gNodeB")
    refused(lambda: lab.rest.delete(f"{GNB}/bearers/{TEID}"), 404, "no bearer")
    refused(lambda: lab.rest.delete(f"{GNB}/bearers/{1 << 32}"), 400, "TEID")
    assert lab.rest.get(GNB) == before


def test_a_bearer_added_through_rest_carries_the_downlink_to_the_radio(lab):
    assert downlink(lab, [0], 1) == [], "the radio got a PDU of a TEID with no bearer"
    added = lab.rest.post(f"{GNB}/bearers", bearer())
    assert [b["teid"] for b in added["bearers"]] == [TEID]
    assert added["bearers"][0]["snIndex"] == 0
    refused(lambda: lab.rest.post(f"{GNB}/bearers", bearer()), 409, "already")

    frames = downlink(lab, [1, 2, 3], 3)
    assert len(frames) == 3, [f.hex() for f in frames]
    sns = []
    for seq, frame in zip([1, 2, 3], frames):
        assert frame[0:6] == bytes.fromhex(UE_MAC.replace(":", "")), frame.hex()
        assert struct.unpack("!H", frame[12:14])[0] == ETHERTYPE_RADIO
        assert frame[14:16] == b"\x52\x01"  # RLC magic, version
        assert struct.unpack("!I", frame[16:20])[0] == TEID
        assert frame[20] & 0x80, "a PDCP data PDU"
        assert frame[24:] == bytes(ue_packet(seq)), frame.hex()
        sns.append(sn_of(frame))
    assert sns == [(sns[0] + i) % SN_SPACE for i in range(3)]

    assert lab.rest.delete(f"{GNB}/bearers/{TEID}") is None
    assert lab.rest.get(GNB)["bearers"] == []
    assert downlink(lab, [4], 1) == [], "the radio got a PDU of a removed bearer"
