# SPDX-License-Identifier: Apache-2.0
"""The upf_qos scenario's GTP-U relay takes out exactly the inner packet (no lab)."""
from scapy.contrib.gtp import GTP_U_Header, GTPPDUSessionContainer
from scapy.layers.inet import IP, UDP
from scapy.packet import Raw

from test.scenarios.upf_qos_traffic import gtp_payload

INNER = bytes(IP(src="10.0.0.2", dst="10.250.0.1") / UDP(sport=80, dport=4000) / Raw(b"x" * 50))


def test_the_inner_packet_of_a_g_pdu_with_a_pdu_session_container():
    # What the UPF writes: E set, one PDU Session Container (one word).
    gtp = GTP_U_Header(teid=0x2001, gtp_type=255, next_ex=0x85) / GTPPDUSessionContainer(type=0, QFI=9)
    assert gtp_payload(bytes(gtp / Raw(INNER))) == INNER


def test_the_inner_packet_of_a_plain_g_pdu():
    assert gtp_payload(bytes(GTP_U_Header(teid=7, gtp_type=255) / Raw(INNER))) == INNER


def test_what_is_not_a_g_pdu_is_dropped():
    echo = bytes(GTP_U_Header(teid=0, gtp_type=1))
    assert gtp_payload(echo) is None
    assert gtp_payload(b"\x30\xff") is None
