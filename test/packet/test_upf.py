# SPDX-License-Identifier: Apache-2.0
"""The 5G UPF of the FlowBuf program (pipeconf/p4src/include/upf.p4).

One UE with a session both ways: the gNodeB (first port) tunnels the
uplink to the N3 address, the data network (second port) sends the
downlink to the UE's address. Expected frames are scapy's own GTP-U builds
(scapy.contrib.gtp), compared byte for byte. Counters are read as deltas,
since their cells outlive a test.
"""
import time

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from .dataplane import MARKER, collect, expect_no_packet, expect_packet, expect_packets
from .gtp import (DN_ADDR, DN_MAC, DN_PREFIX, GNB_ADDR, GNB_MAC, GTPU_PORT, N3_ADDR, UE_ADDR,
                  UE_POOL, downlink_frame, encapsulated, gtpu, payload, routed_to_dn,
                  ue_packet, uplink_frame)
from .packets import ROUTER_MAC
# The in-process buffer of pbswitch, as test_vport uses it (the fixture
# skips on targets without one).
from .test_vport import _create_forwarding_buffer, _set_mode, _state, agent  # noqa: F401

TEID_UP, TEID_DOWN = 0x1234, 0xABCD01
QFI = 9
SPORT = 41000
PEER = 7
# Counter cells of the session, by direction.
SESSION_UP, SESSION_DOWN, TERM_UP, TERM_DOWN = 101, 102, 201, 202

# Cells of upf.drops (UPF_DROP_* in defines.p4).
MALFORMED, UL_SESSION_MISS, DL_SESSION_MISS, SESSION_DROP, TERM_MISS = 0, 1, 2, 3, 4
TERM_DROP, PEER_MISS, SESSION_METER, APP_METER, FIREWALL, GTPU_TO_UE = 5, 6, 7, 8, 9, 10

UPLINK, DOWNLINK = 1, 2


class Upf:
    """The UE's session installed on `sw`; gnb and dn are port numbers."""

    def __init__(self, sw):
        self.sw = sw
        self.gnb, self.dn = sw.take_ports(2)
        sw.insert("upf_classifier.interfaces", match={"ipv4_dst": (N3_ADDR, 32)},
                  action="upf_classifier.iface_access")
        sw.insert("upf_classifier.interfaces", match={"ipv4_dst": UE_POOL},
                  action="upf_classifier.iface_core")
        sw.insert("upf.uplink_sessions", match={"n3_addr": N3_ADDR, "teid": TEID_UP},
                  action="upf.set_uplink_session", params={"ctr_idx": SESSION_UP, "meter_idx": 0})
        self.uplink_term(0, TERM_UP, qfi=QFI)
        self.downlink_session = sw.insert(
            "upf.downlink_sessions", match={"ue_addr": UE_ADDR}, action="upf.set_downlink_session",
            params={"ctr_idx": SESSION_DOWN, "meter_idx": 0, "tunnel_peer_id": PEER})
        self.downlink_term(0, TERM_DOWN, TEID_DOWN, QFI)
        sw.insert("upf.tunnel_peers", match={"tunnel_peer_id": PEER}, action="upf.set_tunnel_peer",
                  params={"src_addr": N3_ADDR, "dst_addr": GNB_ADDR, "sport": SPORT})
        self.route(DN_PREFIX, self.dn, DN_MAC)
        self.gnb_route = self.route((GNB_ADDR, 32), self.gnb, GNB_MAC)

    def route(self, prefix, port, mac):
        return self.sw.insert("forwarding.routing_v4", match={"ipv4_dst": prefix},
                              action="forwarding.route",
                              params={"port": port, "src_mac": ROUTER_MAC, "dst_mac": mac})

    def uplink_term(self, app_id, ctr, qfi=QFI, meter=0):
        return self.sw.insert("upf.uplink_terminations", match={"ue_addr": UE_ADDR, "app_id": app_id},
                              action="upf.uplink_term_fwd",
                              params={"ctr_idx": ctr, "meter_idx": meter, "qfi": qfi})

    def downlink_term(self, app_id, ctr, teid, qfi, meter=0):
        return self.sw.insert("upf.downlink_terminations",
                              match={"ue_addr": UE_ADDR, "app_id": app_id},
                              action="upf.downlink_term_fwd",
                              params={"ctr_idx": ctr, "meter_idx": meter, "teid": teid, "qfi": qfi})

    def app(self, app_id, priority, **match):
        """An applications entry; fields not given are don't-care (omitted,
        as P4Runtime wants)."""
        return self.sw.insert("upf.applications", priority=priority, match=match,
                              action="upf.set_app_id", params={"app_id": app_id})

    def counter(self, name, index):
        return self.sw.counter_cell(f"upf.{name}", index)

    def drops(self):
        return [self.counter("drops", i)[0] for i in range(GTPU_TO_UE + 1)]

    def send_uplink(self, frame):
        self.sw.port(self.gnb).send(frame)

    def send_downlink(self, frame):
        self.sw.port(self.dn).send(frame)


@pytest.fixture
def upf(sw):
    return Upf(sw)


def dropped_since(upf, before):
    """{reason: count} of the drops since `before` (upf.drops())."""
    return {i: n - b for i, (n, b) in enumerate(zip(upf.drops(), before)) if n != b}


# ---- uplink ----------------------------------------------------------------

@pytest.mark.parametrize("l4", ["udp", "tcp", "icmp"])
@pytest.mark.parametrize("header", ["psc", "plain", "sequence+psc"])
def test_uplink_is_decapsulated_and_routed(sw, upf, l4, header):
    inner = ue_packet(l4, seq=3)
    qfi = None if header == "plain" else QFI
    seq_num = 77 if header.startswith("sequence") else None
    frame = uplink_frame(inner, TEID_UP, qfi=qfi, seq_num=seq_num)
    session, term = upf.counter("session_counter", SESSION_UP), upf.counter("termination_counter", TERM_UP)
    upf.send_uplink(frame)
    expect_packet(sw.port(upf.dn), routed_to_dn(inner))
    expect_no_packet(list(sw.ports.values()))
    # Counted once each, by the length the packet arrived with (as BMv2).
    assert upf.counter("session_counter", SESSION_UP) == (session[0] + 1, session[1] + len(frame))
    assert upf.counter("termination_counter", TERM_UP) == (term[0] + 1, term[1] + len(frame))


def test_unknown_teid_is_dropped_and_counted(sw, upf):
    before = upf.drops()
    upf.send_uplink(uplink_frame(ue_packet(), teid=0x999, qfi=QFI))
    upf.send_uplink(uplink_frame(ue_packet(), teid=TEID_UP, qfi=QFI, n3="10.0.0.101"))  # no N3
    expect_no_packet(list(sw.ports.values()))
    assert dropped_since(upf, before) == {UL_SESSION_MISS: 1}


def _truncated(frame, cut):
    return Ether(bytes(frame)[:-cut])


def _malformed_uplinks():
    good = ue_packet(seq=1)
    base = Ether(dst=ROUTER_MAC, src=GNB_MAC) / IP(src=GNB_ADDR, dst=N3_ADDR) / UDP(
        sport=GTPU_PORT, dport=GTPU_PORT)
    ipv6 = bytes.fromhex("6000000000081140") + bytes(32) + bytes(8) + MARKER
    return {
        "GTP-U header cut short": base / Raw(bytes(gtpu(TEID_UP))[:5]),
        "GTP version 2": base / Raw(b"\x50" + bytes(gtpu(TEID_UP) / good)[1:]),
        "echo request, not a G-PDU": base / Raw(b"\x32\x01\x00\x04" + (TEID_UP).to_bytes(4, "big")
                                               + b"\x00\x00\x00\x00" + MARKER),
        "unknown extension header": base / Raw(
            b"\x34\xff" + (len(good) + 8).to_bytes(2, "big") + TEID_UP.to_bytes(4, "big")
            + b"\x00\x00\x00\xc0" + b"\x01\x00\x00\x00" + bytes(good)),
        "PDU session container of two words": base / Raw(
            b"\x34\xff" + (len(good) + 12).to_bytes(2, "big") + TEID_UP.to_bytes(4, "big")
            + b"\x00\x00\x00\x85" + b"\x02\x10\x09\x00\x00\x00\x00\x00" + bytes(good)),
        "GTP length disagrees with UDP": base / Raw(
            b"\x30\xff" + (len(good) + 9).to_bytes(2, "big") + TEID_UP.to_bytes(4, "big") + bytes(good)),
        "UDP length disagrees with IPv4": Ether(dst=ROUTER_MAC, src=GNB_MAC) / IP(
            src=GNB_ADDR, dst=N3_ADDR) / UDP(sport=GTPU_PORT, dport=GTPU_PORT, len=8 + 8 + len(good) + 4)
        / gtpu(TEID_UP) / good,
        "inner packet is IPv6": base / gtpu(TEID_UP) / Raw(ipv6),
        "inner IPv4 header cut short": base / gtpu(TEID_UP) / Raw(bytes(good)[:12]),
        "frame shorter than its headers say": _truncated(uplink_frame(good, TEID_UP, qfi=QFI), 10),
    }


def test_truncated_or_garbled_gtp_is_dropped_and_counted(sw, upf):
    cases = _malformed_uplinks()
    before = upf.drops()
    for name, frame in cases.items():
        upf.send_uplink(frame)
    expect_no_packet(list(sw.ports.values()), timeout=1.0)
    assert dropped_since(upf, before) == {MALFORMED: len(cases)}, list(cases)
    # The switch is still there and still decapsulates.
    inner = ue_packet(seq=2)
    upf.send_uplink(uplink_frame(inner, TEID_UP, qfi=QFI))
    expect_packet(sw.port(upf.dn), routed_to_dn(inner))


def test_other_traffic_to_an_n3_address_is_not_the_upfs(sw, upf):
    # Plain UDP to the N3 address is routed like any packet, not taken for
    # a malformed tunnel.
    before = upf.drops()
    upf.route((N3_ADDR, 32), upf.dn, DN_MAC)
    ping = Ether(dst=ROUTER_MAC, src=GNB_MAC) / IP(src=GNB_ADDR, dst=N3_ADDR, ttl=64) / UDP(
        sport=5000, dport=5001) / Raw(MARKER)
    upf.send_uplink(ping)
    got = Ether(expect_packet(sw.port(upf.dn), _routed(ping, DN_MAC)))
    assert got[IP].dst == N3_ADDR
    assert dropped_since(upf, before) == {}


def _routed(frame, dst_mac):
    out = Ether(bytes(frame))
    out[Ether].src, out[Ether].dst = ROUTER_MAC, dst_mac
    out[IP].ttl -= 1
    del out[IP].chksum
    return Ether(bytes(out))


# ---- downlink --------------------------------------------------------------

@pytest.mark.parametrize("l4", ["udp", "tcp", "icmp"])
def test_downlink_is_encapsulated_byte_exact(sw, upf, l4):
    inner = ue_packet(l4, seq=5, tos=0xB9, downlink=True)  # DSCP 46, ECN 1
    frame = downlink_frame(inner)
    session = upf.counter("session_counter", SESSION_DOWN)
    upf.send_downlink(frame)
    want = encapsulated(inner, TEID_DOWN, QFI, SPORT)
    got = Ether(expect_packet(sw.port(upf.gnb), want))
    # What the comparison above implies, spelled out.
    assert got[IP].len == 20 + 8 + 16 + len(inner) and got[UDP].len == 8 + 16 + len(inner)
    assert got[UDP].chksum == 0 and got["GTP_U_Header"].length == 8 + len(inner)
    assert got["GTP_U_Header"].teid == TEID_DOWN and got["GTPPDUSessionContainer"].QFI == QFI
    check = IP(bytes(got[IP]))
    del check.chksum
    assert IP(bytes(check)).chksum == got[IP].chksum, "outer IPv4 checksum"
    assert bytes(got["GTPPDUSessionContainer"].payload) == bytes(inner)
    assert upf.counter("session_counter", SESSION_DOWN) == (session[0] + 1, session[1] + len(frame))


def test_unknown_ue_and_tunnel_peer_are_dropped_and_counted(sw, upf):
    before = upf.drops()
    other_ue = IP(src=DN_ADDR, dst="10.250.9.9") / UDP(sport=80, dport=4000) / payload(0)
    upf.send_downlink(downlink_frame(other_ue))
    sw.client.delete(sw.entry("upf.tunnel_peers", match={"tunnel_peer_id": PEER}))
    upf.send_downlink(downlink_frame(ue_packet(downlink=True)))
    expect_no_packet(list(sw.ports.values()))
    assert dropped_since(upf, before) == {DL_SESSION_MISS: 1, PEER_MISS: 1}


def test_downlink_that_is_gtpu_itself_is_dropped_and_counted(sw, upf):
    before = upf.drops()
    tunnel_in_tunnel = (Ether(dst=ROUTER_MAC, src=DN_MAC) / IP(src=DN_ADDR, dst=UE_ADDR)
                        / UDP(sport=GTPU_PORT, dport=GTPU_PORT) / gtpu(5) / ue_packet())
    upf.send_downlink(tunnel_in_tunnel)
    expect_no_packet(list(sw.ports.values()))
    assert dropped_since(upf, before) == {GTPU_TO_UE: 1}


def test_drop_actions_of_sessions_and_terminations_are_counted(sw, upf):
    before = upf.drops()
    sw.client.modify(sw.entry("upf.uplink_sessions", match={"n3_addr": N3_ADDR, "teid": TEID_UP},
                              action="upf.uplink_session_drop", params={"ctr_idx": SESSION_UP}))
    sw.client.modify(sw.entry("upf.downlink_terminations", match={"ue_addr": UE_ADDR, "app_id": 0},
                              action="upf.term_drop"))
    upf.send_uplink(uplink_frame(ue_packet(), TEID_UP, qfi=QFI))
    upf.send_downlink(downlink_frame(ue_packet(downlink=True)))
    expect_no_packet(list(sw.ports.values()))
    assert dropped_since(upf, before) == {SESSION_DROP: 1, TERM_DROP: 1}


# ---- applications and firewall ------------------------------------------------

def test_applications_pick_the_termination(sw, upf):
    upf.app(7, priority=10, app_port=(8000, 8999), ip_proto=(17, 0xFF))
    upf.downlink_term(7, TERM_DOWN + 7, teid=0x777, qfi=5)
    upf.uplink_term(7, TERM_UP + 7, qfi=5)
    web = ue_packet(downlink=True, app_port=8080, seq=1)
    other = ue_packet(downlink=True, app_port=80, seq=2)
    upf.send_downlink(downlink_frame(web))
    expect_packet(sw.port(upf.gnb), encapsulated(web, 0x777, 5, SPORT))
    upf.send_downlink(downlink_frame(other))
    expect_packet(sw.port(upf.gnb), encapsulated(other, TEID_DOWN, QFI, SPORT))
    # The same rule covers the uplink (it matches the UE's view of the flow).
    term7 = upf.counter("termination_counter", TERM_UP + 7)
    up = ue_packet(app_port=8999, seq=3)
    upf.send_uplink(uplink_frame(up, TEID_UP, qfi=5))
    expect_packet(sw.port(upf.dn), routed_to_dn(up))
    assert upf.counter("termination_counter", TERM_UP + 7)[0] == term7[0] + 1
    # An application without a termination for this UE is dropped.
    upf.app(8, priority=10, app_port=(9000, 9000))
    before = upf.drops()
    upf.send_uplink(uplink_frame(ue_packet(app_port=9000), TEID_UP, qfi=5))
    expect_no_packet(list(sw.ports.values()))
    assert dropped_since(upf, before) == {TERM_MISS: 1}


def _firewall(sw, priority, action, **match):
    return sw.insert("firewall.rules", priority=priority, action=f"firewall.{action}", match=match)


def test_firewall_denies_by_direction_and_five_tuple(sw, upf):
    ssh_up = _firewall(sw, 10, "deny", direction=(UPLINK, 0b11), app_port=(22, 22))
    _firewall(sw, 5, "deny", ue_port=(5000, 5999))  # both directions
    _firewall(sw, 20, "allow", ue_port=(5001, 5001), app_addr=(DN_ADDR, 0xFFFFFFFF))
    before = upf.drops()
    upf.send_uplink(uplink_frame(ue_packet(app_port=22), TEID_UP, qfi=QFI))
    upf.send_uplink(uplink_frame(ue_packet(ue_port=5002), TEID_UP, qfi=QFI))
    upf.send_downlink(downlink_frame(ue_packet(downlink=True, ue_port=5002)))
    expect_no_packet(list(sw.ports.values()))
    assert dropped_since(upf, before) == {FIREWALL: 3}
    assert sw.counter(ssh_up)[0] == 1
    # The uplink-only rule leaves the downlink from port 22 alone; the
    # allow rule makes an exception to the broader deny.
    from_ssh = ue_packet(downlink=True, app_port=22, seq=1)
    upf.send_downlink(downlink_frame(from_ssh))
    expect_packet(sw.port(upf.gnb), encapsulated(from_ssh, TEID_DOWN, QFI, SPORT))
    allowed = ue_packet(ue_port=5001, seq=2)
    upf.send_uplink(uplink_frame(allowed, TEID_UP, qfi=QFI))
    expect_packet(sw.port(upf.dn), routed_to_dn(allowed))


# ---- meters --------------------------------------------------------------------

def _burst(upf, frames):
    for frame in frames:
        upf.send_downlink(frame)


def _use_meters(sw, session_meter=0, app_meter=0):
    sw.client.modify(sw.entry("upf.downlink_sessions", match={"ue_addr": UE_ADDR},
                              action="upf.set_downlink_session",
                              params={"ctr_idx": SESSION_DOWN, "meter_idx": session_meter,
                                      "tunnel_peer_id": PEER}))
    sw.client.modify(sw.entry("upf.downlink_terminations", match={"ue_addr": UE_ADDR, "app_id": 0},
                              action="upf.downlink_term_fwd",
                              params={"ctr_idx": TERM_DOWN, "meter_idx": app_meter,
                                      "teid": TEID_DOWN, "qfi": QFI}))


@pytest.mark.parametrize("which", ["session", "app"])
def test_meter_drops_red_at_the_configured_rate(sw, upf, which):
    frames = [downlink_frame(ue_packet(downlink=True, seq=i)) for i in range(60)]
    size = len(frames[0])  # what a bytes meter charges: the length as it arrived
    rate = 10 * size      # 10 packets/s
    # A policer: committed and peak rate alike, so nothing is yellow.
    sw.configure_meter(f"upf.{which}_meter", 5, cir=rate, cburst=3 * size, pir=rate, pburst=3 * size)
    _use_meters(sw, **{f"{which}_meter": 5})
    reason = SESSION_METER if which == "session" else APP_METER
    before = upf.drops()

    # A burst: the peak bucket's 3 packets pass, the rest is red.
    start = time.monotonic()
    _burst(upf, frames[:10])
    took = time.monotonic() - start
    got = collect(sw.port(upf.gnb), 0.5)
    extra = int(took * 10) + 1  # what the rate added while the burst was sent
    assert 3 <= len(got) <= 3 + extra, f"{len(got)} of the burst passed, want 3 (+{extra})"
    want = [bytes(encapsulated(f[IP], TEID_DOWN, QFI, SPORT)) for f in frames[:len(got)]]
    assert got == want, "the burst's first packets pass, in order"
    assert dropped_since(upf, before) == {reason: 10 - len(got)}

    # Then 40 packets/s for 1.25 s against 10/s: about a quarter passes.
    # What should pass is worked out from when each packet was sent: on a
    # busy machine the sender falls behind and catches up in bunches, and a
    # bunch finds at most the burst in the bucket.
    time.sleep(0.3)  # the bucket fills again (3 packets)
    start = time.monotonic()
    sent_at = []
    for i, frame in enumerate(frames[10:]):
        while time.monotonic() < start + i / 40:
            time.sleep(0.001)
        sent_at.append(time.monotonic())
        upf.send_downlink(frame)
    got = collect(sw.port(upf.gnb), 0.5)
    want = _peak_bucket_passes(sent_at, rate, 3 * size, size)
    assert abs(len(got) - want) <= 2, (f"{len(got)} of 50 passed in {sent_at[-1] - start:.2f} s, "
                                       f"want {want} (10/s)")


def _peak_bucket_passes(times, rate, burst, size):
    """How many packets of `size` sent at `times` a token bucket of `rate`
    and `burst`, full at the first, lets through."""
    tokens, last, passed = burst, times[0], 0
    for t in times:
        tokens = min(burst, tokens + rate * (t - last))
        last = t
        if tokens >= size:
            tokens -= size
            passed += 1
    return passed


def test_yellow_is_not_dropped(sw, upf):
    frames = [downlink_frame(ue_packet(downlink=True, seq=i)) for i in range(10)]
    size = len(frames[0])
    # Over the committed rate but under the peak: yellow on any target.
    sw.configure_meter("upf.app_meter", 6, cir=size, cburst=size, pir=1000 * size, pburst=1000 * size)
    _use_meters(sw, app_meter=6)
    before = upf.drops()
    _burst(upf, frames)
    expect_packets(sw.port(upf.gnb), [encapsulated(f[IP], TEID_DOWN, QFI, SPORT) for f in frames])
    assert dropped_since(upf, before) == {}


# ---- QFI -> queue ---------------------------------------------------------------

def test_qfi_sets_the_egress_queue(sw, upf):
    """Target-agnostic: a packet whose QFI maps to queue 7 is delivered (on
    BMv2 this needs --priority-queues, which the bmv2 target passes where
    its simple_switch_grpc takes it)."""
    sw.require_priority_queues()
    upf.app(9, priority=10, app_port=(9000, 9000))
    upf.downlink_term(9, TERM_DOWN + 9, teid=0x999, qfi=5)
    sw.insert("upf.queues", match={"qfi": 5}, action="upf.set_queue", params={"priority": 7})
    urgent = ue_packet(downlink=True, app_port=9000)
    upf.send_downlink(downlink_frame(urgent))
    expect_packet(sw.port(upf.gnb), encapsulated(urgent, 0x999, 5, SPORT))


def test_qfi_queue_overtakes_a_backlog(sw, upf):
    """pbswitch-specific: needs a port shaped to a known rate, so that a
    backlog builds up in its queues (BMv2 shapes queues through its Thrift
    runtime only). Queue 7 is served before queue 0 (strict priority)."""
    shaped = next(iter(sw.target.port_rates), None)
    if shaped is None:
        pytest.skip(f"target {sw.target.name} has no port shaped to a known rate (pbswitch's "
                    "--port ID=IF@BPS; BMv2 sets queue rates through its Thrift runtime only)")
    sw.client.delete(sw.entry("forwarding.routing_v4", match={"ipv4_dst": (GNB_ADDR, 32)}))
    upf.route((GNB_ADDR, 32), shaped, GNB_MAC)
    upf.app(9, priority=10, app_port=(9000, 9000))
    upf.downlink_term(9, TERM_DOWN + 9, teid=0x999, qfi=5)
    sw.insert("upf.queues", match={"qfi": 5}, action="upf.set_queue", params={"priority": 7})
    # 120 frames of ~260 bytes out are 250 ms at 1 Mbit/s; the shaper's
    # burst lets ~35 go at once, the rest queues in queue 0.
    backlog = [downlink_frame(ue_packet(downlink=True, seq=i, size=160)) for i in range(120)]
    urgent = [downlink_frame(ue_packet(downlink=True, app_port=9000, seq=1000 + i, size=160))
              for i in range(5)]
    # Serialised before the first send (see test_qos): building frames
    # between sends lets the port drain queue 0 before the urgent ones come.
    for frame in [bytes(f) for f in backlog + urgent]:
        upf.send_downlink(frame)
    got = collect(sw.port(shaped), 1.0)
    assert len(got) == len(backlog) + len(urgent), f"{len(got)} frames, want all"
    order = [IP(bytes(Ether(g)["GTPPDUSessionContainer"].payload)).id for g in got]
    last_urgent = max(order.index(1000 + i) for i in range(5))
    backlog_after = sum(1 for seq in order[last_urgent:] if seq < 1000)
    assert backlog_after >= 40, f"queue 7 left after all but {backlog_after} of queue 0: {order}"
    assert [s for s in order if s < 1000] == list(range(120)), "queue 0 kept its order"


# ---- the buffering hook ---------------------------------------------------------

def test_a_downlink_session_held_in_a_buffer_loses_and_reorders_nothing(sw, upf, agent):
    """DBUF-style: the session points at a FlowBuf buffer (pbswitch's
    in-process vport); released, the buffer replays into the UPF, which
    tunnels the replays; the session goes back to direct once drained."""
    vport = sw.target.inproc_vport
    _create_forwarding_buffer(agent, vport, 2000)
    _set_mode(agent, "VPORT_MODE_RX")
    sw.insert("steering.vport_ports", match={"ingress_port": vport},
              action="steering.mark_from_vport")
    buffered = {"ctr_idx": SESSION_DOWN, "meter_idx": 0, "tunnel_peer_id": PEER, "buffer_port": vport}
    sw.client.modify(sw.entry("upf.downlink_sessions", match={"ue_addr": UE_ADDR},
                              action="upf.set_downlink_session_buf", params=buffered))
    session = upf.counter("session_counter", SESSION_DOWN)
    term = upf.counter("termination_counter", TERM_DOWN)
    inners = [ue_packet(downlink=True, seq=i) for i in range(80)]
    for inner in inners[:50]:
        upf.send_downlink(downlink_frame(inner))
    expect_no_packet(list(sw.ports.values()), timeout=1.0)
    assert _state(agent) == ("BUFFER_STATE_BUFFERING", 50)

    # Released while the UE's downlink keeps coming: all of it in order.
    _set_mode(agent, "VPORT_MODE_RX_TX")
    for inner in inners[50:]:
        upf.send_downlink(downlink_frame(inner))
    expect_packets(sw.port(upf.gnb), [encapsulated(i, TEID_DOWN, QFI, SPORT) for i in inners],
                   timeout=5.0)
    _await_occupancy_below(agent, 1)
    sw.client.modify(upf.downlink_session)
    after = ue_packet(downlink=True, seq=99)
    upf.send_downlink(downlink_frame(after))
    expect_packet(sw.port(upf.gnb), encapsulated(after, TEID_DOWN, QFI, SPORT))
    # Each packet counted once by the session (not its replay) and once by
    # the termination (as it left for the tunnel).
    assert upf.counter("session_counter", SESSION_DOWN)[0] == session[0] + 81
    assert upf.counter("termination_counter", TERM_DOWN)[0] == term[0] + 81


def _await_occupancy_below(agent, packets, timeout=5.0):
    deadline = time.monotonic() + timeout
    while _state(agent)[1] >= packets:
        assert time.monotonic() < deadline, f"the buffer still holds {_state(agent)}"
        time.sleep(0.01)

