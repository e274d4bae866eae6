# SPDX-License-Identifier: Apache-2.0
"""The UPF service end to end in the embedded mode: REST -> embedded host ->
P4Runtime -> pbswitch's UPF (the pipeconf's compiled upf.p4) -> real frames
between a gNodeB namespace (h1) and a data-network namespace (h2).

Own lab: prefix fbu-, REST 8198, P4Runtime 28431, buffer API 28432.

The switch has only the lab's L2 rules (no routes): the gNodeB sends its
GTP-U to the N3 address with the data network's MAC, and the data network
sends to the UE pool with the gNodeB's MAC, so the UPF's output is
L2-forwarded to the other side unchanged apart from the tunnel.
"""
import json
import os
import subprocess
import time

import grpc
import pytest
from scapy.contrib.gtp import GTP_U_Header, GTPPDUSessionContainer
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from test.lab.procs import wait_until
from test.lab.servicelab import DEVICE, HOSTS, ROOT, RestError, ServiceLab, ensure_built, ip_of, mac_of
from test.packet.client import Client
from test.packet.p4info import P4Info

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

REST_PORT, P4RT_PORT, AGENT_PORT = 8198, 28431, 28432
PYTHON = str(ROOT / ".venv" / "bin" / "python")
GNB, DN = "h1", "h2"
N3 = "10.0.0.100"
UE_POOL = "10.250.0.0/16"
UE = "10.250.0.1"
TEID_UP, TEID_DOWN, QFI = 0x1234, 0xABCD01, 9
GTPU_PORT = 2152
UPF_TABLES = ("upf_classifier.interfaces", "upf.uplink_sessions", "upf.downlink_sessions",
              "upf.uplink_terminations", "upf.downlink_terminations", "upf.tunnel_peers",
              "upf.applications", "firewall.rules", "upf.queues")
SESSION_TABLES = UPF_TABLES[1:6]


def session(ue=UE, teid_up=TEID_UP, teid_down=TEID_DOWN, **extra):
    body = {"deviceId": DEVICE, "ueAddress": ue, "n3Address": N3, "uplinkTeid": teid_up,
            "gnbAddress": ip_of(GNB), "downlinkTeid": teid_down, "qfi": QFI}
    body.update(extra)
    return body


@pytest.fixture(scope="module")
def lab():
    ensure_built()
    with ServiceLab(prefix="fbu-", rest_port=REST_PORT, p4rt_port=P4RT_PORT,
                    agent_port=AGENT_PORT) as lab:
        lab.hosts[GNB].run("ip", "neigh", "replace", N3, "lladdr", mac_of(DN), "dev", "eth0")
        lab.hosts[DN].run("ip", "route", "add", UE_POOL, "dev", "eth0")
        lab.rest.post("upf/interfaces", {"deviceId": DEVICE, "kind": "ACCESS",
                                         "prefix": N3 + "/32"})
        lab.rest.post("upf/interfaces", {"deviceId": DEVICE, "kind": "CORE", "prefix": UE_POOL})
        yield lab


@pytest.fixture(scope="module")
def switch():
    """A second P4Runtime client (backup: reads only) to read back what the host wrote."""
    with reader() as client:
        yield client


def upf_entries(switch):
    """{table: number of entries} of the UPF's tables."""
    info = P4Info()
    names = {info.table_id(t): t for t in UPF_TABLES}
    counts = dict.fromkeys(UPF_TABLES, 0)
    for entry in switch.table_entries():
        if entry.table_id in names:
            counts[names[entry.table_id]] += 1
    return counts


def exchange(lab, sender, receiver, bpf, frames, expect):
    """Sends `frames` from `sender`'s eth0 and returns what `receiver`'s
    eth0 captured with `bpf` (waiting for `expect` frames, 5 s at most)."""
    sniff = subprocess.Popen(lab.hosts[receiver].popen_argv(
        [PYTHON, "-m", "test.upf.gtpio", "sniff", "eth0", bpf, str(expect), "5"]),
        stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert sniff.stdout.readline().strip() == "ready"
        subprocess.run(lab.hosts[sender].popen_argv(
            [PYTHON, "-m", "test.upf.gtpio", "send", "eth0", *(bytes(f).hex() for f in frames)]),
            check=True, cwd=ROOT)
        out, _ = sniff.communicate(timeout=30)
    finally:
        if sniff.poll() is None:
            sniff.kill()
    return [Ether(bytes.fromhex(h)) for h in json.loads(out.strip().splitlines()[-1])]


def ue_packet(seq, ue=UE, downlink=False, app_port=9000):
    src, dst = (ip_of(DN), ue) if downlink else (ue, ip_of(DN))
    sport, dport = (app_port, 4000) if downlink else (4000, app_port)
    return IP(bytes(IP(src=src, dst=dst, ttl=64, id=seq) / UDP(sport=sport, dport=dport)
                    / Raw(b"FLOWBUF-UPF" + seq.to_bytes(4, "big"))))


def uplink_frame(inner, teid=TEID_UP, qfi=QFI):
    gtp = GTP_U_Header(teid=teid, next_ex=0x85) / GTPPDUSessionContainer(type=1, QFI=qfi)
    return Ether(src=mac_of(GNB), dst=mac_of(DN)) / IP(src=ip_of(GNB), dst=N3) / UDP(
        sport=GTPU_PORT, dport=GTPU_PORT) / gtp / inner


def test_a_ues_uplink_is_decapsulated_and_its_downlink_encapsulated(lab, switch):
    before = upf_entries(switch)
    added = lab.rest.post("upf/sessions", session())
    assert added["id"] > 0 and added["ueAddress"] == UE and added["gnbPort"] == GTPU_PORT
    after = upf_entries(switch)
    # Its sessions and default terminations both ways, and its gNodeB's tunnel peer.
    assert {t: after[t] - before[t] for t in SESSION_TABLES} == dict.fromkeys(SESSION_TABLES, 1)
    assert lab.rest.get(f"upf/sessions/{UE}")["id"] == added["id"]

    # Uplink: GTP-U in from the gNodeB, the UE's own packet out to the data network.
    inner = [ue_packet(i) for i in range(3)]
    got = exchange(lab, GNB, DN, "udp and dst port 9000", [uplink_frame(p) for p in inner], 3)
    assert [bytes(g) for g in got] == [bytes(Ether(src=mac_of(GNB), dst=mac_of(DN)) / p)
                                       for p in inner]

    # Downlink: plain in from the data network, GTP-U out to the gNodeB with
    # the session's TEID and QFI.
    inner = [ue_packet(i, downlink=True) for i in range(3)]
    frames = [Ether(src=mac_of(DN), dst=mac_of(GNB)) / p for p in inner]
    got = exchange(lab, DN, GNB, f"udp and dst port {GTPU_PORT}", frames, 3)
    assert len(got) == 3
    for frame, want in zip(got, inner):
        assert frame[Ether].dst == mac_of(GNB)
        assert (frame[IP].src, frame[IP].dst) == (N3, ip_of(GNB))
        assert (frame[UDP].sport, frame[UDP].dport) == (GTPU_PORT, GTPU_PORT)
        assert frame[GTP_U_Header].teid == TEID_DOWN
        assert frame[GTPPDUSessionContainer].QFI == QFI
        assert bytes(frame[GTPPDUSessionContainer].payload) == bytes(want)
        check = IP(bytes(frame[IP]))
        del check.chksum
        assert IP(bytes(check)).chksum == frame[IP].chksum, "outer IPv4 checksum"

    # Removed by the UE's address: its entries go, the gNodeB's peer with it,
    # and the uplink is dropped again.
    lab.rest.delete(f"upf/sessions/{UE}")
    assert upf_entries(switch) == before
    assert exchange(lab, GNB, DN, "udp and dst port 9000", [uplink_frame(ue_packet(9))], 1) == []


def test_a_batch_installs_many_sessions_in_one_request(lab, switch):
    before = upf_entries(switch)
    n = 200
    batch = [session(ue=f"10.250.{1 + i // 200}.{1 + i % 200}", teid_up=0x10000 + i,
                     teid_down=0x20000 + i) for i in range(n)]
    added = lab.rest.post("upf/sessions/batch", {"sessions": batch})["sessions"]
    assert [s["ueAddress"] for s in added] == [b["ueAddress"] for b in batch]
    after = upf_entries(switch)
    for table in SESSION_TABLES[:4]:
        assert after[table] - before[table] == n, table
    assert after["upf.tunnel_peers"] - before["upf.tunnel_peers"] == 1  # one gNodeB
    # Every one of them forwards: the last one's uplink.
    last = ue_packet(1, ue=batch[-1]["ueAddress"])
    got = exchange(lab, GNB, DN, "udp and dst port 9000",
                   [uplink_frame(last, teid=batch[-1]["uplinkTeid"])], 1)
    assert [bytes(g[IP]) for g in got] == [bytes(last)]
    for s in added:
        lab.rest.delete(f"upf/sessions/{s['id']}")
    assert upf_entries(switch) == before


def bad_sessions():
    return [
        ("bad UE address", session(ue="10.250.0.999"), 400, "ueAddress"),
        ("UE address is not IPv4", session(ue="fe80::1"), 400, "not an IPv4 address"),
        ("unknown device", session(deviceId="device:s9"), 404, "unknown device device:s9"),
        ("rate 0", session(ambr={"cir": 0, "cburst": 1500, "pir": 1000, "pburst": 1500}), 400,
         "cir must be between 1 and 4294967295"),
        ("negative rate", session(ambr={"cir": -1, "cburst": 1500, "pir": 1000,
                                        "pburst": 1500}), 400, "non-negative"),
        ("rate over 2^32 - 1", session(ambr={"cir": 1000, "cburst": 1500, "pir": 1 << 32,
                                             "pburst": 1500}), 400, "pir must be between"),
        ("pir below cir", session(ambr={"cir": 2000, "cburst": 1500, "pir": 1000,
                                        "pburst": 1500}), 400, "at least cir"),
        ("QFI 64", session(qfi=64), 400, "qfi must be between 0 and 63"),
        ("TEID 0", session(teid_up=0), 400, "uplinkTeid must be between 1"),
        ("TEID over 32 bits", session(teid_down=1 << 32), 400, "downlinkTeid must be between"),
        ("not an N3 address", session(n3Address="10.0.0.3"), 400, "not an N3 address"),
        ("UE outside the pools", session(ue="10.251.0.1"), 400, "in no UE pool"),
        ("unknown field", session(teid=5), 400, "unknown field \"teid\""),
        ("missing TEID", {k: v for k, v in session().items() if k != "uplinkTeid"}, 400,
         "\"uplinkTeid\" is required"),
    ]


def test_bad_sessions_are_refused_with_a_message_and_write_nothing(lab, switch):
    kept = lab.rest.post("upf/sessions", session(ue="10.250.9.1", teid_up=77, teid_down=78))
    try:
        before = upf_entries(switch)
        cases = bad_sessions() + [
            ("duplicate uplink TEID on the N3 address", session(ue="10.250.9.2", teid_up=77), 409,
             "uplink TEID 77 (0x4d) is already used on N3 address 10.0.0.100 by session "
             f"{kept['id']}"),
            ("duplicate UE", session(ue="10.250.9.1", teid_up=79), 409, "already has session"),
        ]
        for name, body, status, message in cases:
            with pytest.raises(RestError) as refused:
                lab.rest.post("upf/sessions", body)
            assert refused.value.status == status, (name, refused.value.body)
            error = json.loads(refused.value.body)
            assert message in error["message"], (name, error)
        # A batch with one bad session among good ones installs none of them.
        good = [session(ue=f"10.250.8.{i}", teid_up=900 + i, teid_down=900 + i)
                for i in range(1, 4)]
        for bad, status, message in (
                (session(ue="10.250.8.9", teid_up=901), 409,
                 "session 3 (UE 10.250.8.9): uplink TEID 901 (0x385) is already used on N3 "
                 "address 10.0.0.100 by another session in this request"),
                (session(ue="10.250.8.9", qfi=99), 400,
                 "sessions[3]: qfi must be between 0 and 63, got 99")):
            with pytest.raises(RestError) as refused:
                lab.rest.post("upf/sessions/batch", {"sessions": good + [bad]})
            assert refused.value.status == status, refused.value.body
            assert json.loads(refused.value.body)["message"] == message
        assert upf_entries(switch) == before
        assert [s["id"] for s in lab.rest.get("upf/sessions")["sessions"]] == [kept["id"]]
    finally:
        lab.rest.delete(f"upf/sessions/{kept['id']}")


def test_firewall_and_applications_over_rest(lab, switch):
    before = upf_entries(switch)
    lab.rest.post("upf/sessions", session())
    try:
        rule = lab.rest.post("upf/firewall", {
            "deviceId": DEVICE, "direction": "UPLINK", "action": "DENY", "priority": 10,
            "filter": {"ipProto": 17, "appPorts": {"low": 22, "high": 22}}})
        app = lab.rest.post("upf/applications", {
            "deviceId": DEVICE, "appId": 7, "priority": 10, "qfi": 5,
            "filter": {"appPorts": {"low": 8000, "high": 8999}}})
        assert app["appId"] == 7 and rule["id"] > 0
        # The denied uplink is dropped, the other passes.
        frames = [uplink_frame(ue_packet(1, app_port=22)), uplink_frame(ue_packet(2, app_port=9000))]
        got = exchange(lab, GNB, DN, "udp and (dst port 22 or dst port 9000)", frames, 2)
        assert [g[UDP].dport for g in got] == [9000]
        # The application's downlink leaves with its QFI, the rest with the session's.
        frames = [Ether(src=mac_of(DN), dst=mac_of(GNB)) / ue_packet(i, downlink=True, app_port=p)
                  for i, p in ((3, 8080), (4, 80))]
        got = exchange(lab, DN, GNB, f"udp and dst port {GTPU_PORT}", frames, 2)
        assert [g[GTPPDUSessionContainer].QFI for g in got] == [5, QFI]
        # Same filter and priority again: refused, nothing written.
        middle = upf_entries(switch)
        with pytest.raises(RestError) as refused:
            lab.rest.post("upf/firewall", {
                "deviceId": DEVICE, "direction": "UPLINK", "action": "ALLOW", "priority": 10,
                "filter": {"ipProto": 17, "appPorts": {"low": 22, "high": 22}}})
        assert refused.value.status == 409
        with pytest.raises(RestError) as refused:
            lab.rest.post("upf/applications", {"deviceId": DEVICE, "appId": 8, "qfi": 5,
                                               "filter": {"appPorts": {"low": 9, "high": 8}}})
        assert refused.value.status == 400 and "empty" in refused.value.body
        assert upf_entries(switch) == middle
        lab.rest.delete(f"upf/firewall/{rule['id']}")
        lab.rest.delete(f"upf/applications/{DEVICE}/7")
    finally:
        lab.rest.delete(f"upf/sessions/{UE}")
    assert upf_entries(switch) == before


def test_a_qfi_is_mapped_to_an_egress_queue(lab, switch):
    before = upf_entries(switch)
    lab.rest.post("upf/sessions", session())
    try:
        assert lab.rest.post("upf/queues", {"deviceId": DEVICE, "qfi": QFI, "queue": 7}) == \
            {"deviceId": DEVICE, "qfi": QFI, "queue": 7}
        lab.rest.post("upf/queues", {"deviceId": DEVICE, "qfi": QFI, "queue": 6})
        assert upf_entries(switch)["upf.queues"] == before["upf.queues"] + 1
        info = P4Info()
        [entry] = [e for e in switch.table_entries(info.table_id("upf.queues"))]
        assert int.from_bytes(entry.action.action.params[0].value, "big") == 6
        # pbswitch runs 8 strict-priority queues: the session's downlink
        # still arrives, now from queue 6.
        inner = ue_packet(1, downlink=True)
        got = exchange(lab, DN, GNB, f"udp and dst port {GTPU_PORT}",
                       [Ether(src=mac_of(DN), dst=mac_of(GNB)) / inner], 1)
        assert [bytes(g[GTPPDUSessionContainer].payload) for g in got] == [bytes(inner)]
        for body, message in (({"deviceId": DEVICE, "qfi": QFI, "queue": 8}, "queue must be"),
                              ({"deviceId": DEVICE, "qfi": 64, "queue": 1}, "qfi must be")):
            with pytest.raises(RestError) as refused:
                lab.rest.post("upf/queues", body)
            assert refused.value.status == 400 and message in refused.value.body
        lab.rest.delete(f"upf/queues/{DEVICE}/{QFI}")
    finally:
        lab.rest.delete(f"upf/sessions/{UE}")
    assert upf_entries(switch) == before


def meter_cell(switch, name, index):
    """(cir, cburst, pir, pburst) of one meter cell, None when unconfigured."""
    entity = switch.read(_meter_entity(name, index))
    config = entity[0].meter_entry
    if not config.HasField("config"):
        return None
    c = config.config
    return c.cir, c.cburst, c.pir, c.pburst


def _meter_entity(name, index):
    from p4.v1 import p4runtime_pb2
    entity = p4runtime_pb2.Entity()
    entity.meter_entry.meter_id = P4Info().meter_id(name)
    entity.meter_entry.index.index = index
    return entity


def test_a_sessions_ambr_configures_its_meter_cells_both_ways(lab, switch):
    assert lab.rest.get("upf/sessions")["sessions"] == []
    ambr = {"cir": 125000, "cburst": 15000, "pir": 250000, "pburst": 30000}
    added = lab.rest.post("upf/sessions", session(ambr=ambr))
    try:
        assert added["ambr"] == ambr
        # The first free slot is 1: cells 2 (uplink) and 3 (downlink).
        want = (125000, 15000, 250000, 30000)
        assert [meter_cell(switch, "upf.session_meter", i) for i in (2, 3)] == [want, want]
        # The uplink still passes under its rate.
        inner = ue_packet(1)
        got = exchange(lab, GNB, DN, "udp and dst port 9000", [uplink_frame(inner)], 1)
        assert [bytes(g[IP]) for g in got] == [bytes(inner)]
    finally:
        lab.rest.delete(f"upf/sessions/{added['id']}")
    assert [meter_cell(switch, "upf.session_meter", i) for i in (2, 3)] == [None, None]


def test_a_ues_downlink_is_paused_and_resumed_through_the_intent_layer_without_loss(lab, switch):
    """A numbered UDP stream from the data network to the UE; the UE's
    downlink is paused (held in a FlowBuf buffer before the UPF) and resumed
    (replayed in order into the UPF): the gNodeB gets every datagram in
    GTP-U, none lost, none reordered."""
    pps, seconds = 500, 4
    lab.hosts[DN].run("ip", "neigh", "replace", UE, "lladdr", mac_of(GNB), "dev", "eth0")
    added = lab.rest.post("upf/sessions", session())
    recv = subprocess.Popen(lab.hosts[GNB].popen_argv(
        [PYTHON, "-m", "test.upf.gtpio", "gtp-recv", "--expect", str(pps * seconds),
         "--idle", "4"]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
    send = paused = None
    try:
        assert recv.stdout.readline().strip() == "ready"
        send = subprocess.Popen(lab.hosts[DN].popen_argv(
            [PYTHON, "-m", "test.lab.seqflow", "send", UE, "9000", "--pps", str(pps),
             "--seconds", str(seconds)]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
        time.sleep(1.0)
        paused = lab.rest.post(f"upf/sessions/{UE}/pause", {"inPort": HOSTS[DN]})
        assert paused["type"] == "PAUSE" and paused["state"] == "INSTALLED", paused
        time.sleep(1.0)
        held = lab.rest.get(f"buffers/{DEVICE}/{paused['bufferId']}")["occupancyPackets"]
        resumed = lab.rest.post(f"upf/sessions/{added['id']}/resume", {})
        assert resumed["state"] == "FORWARDING", resumed
        sent = json.loads(send.communicate(timeout=30)[0])["sent"]
        result = json.loads(recv.communicate(timeout=60)[0].strip().splitlines()[-1])
    finally:
        for proc in (send, recv):
            if proc is not None and proc.poll() is None:
                proc.kill()
        if paused is not None:
            lab.rest.delete(f"intents/{paused['id']}?owner=org.flowbuf.upf")
        lab.rest.delete(f"upf/sessions/{UE}")
    assert held > pps // 4, held  # about a second's worth was held
    assert sent == pps * seconds
    assert (result["received"], result["lost"], result["reordered"], result["duplicates"]) == \
        (sent, 0, 0, 0), result



# Last in the module: it restarts the module's switch.
def test_a_restarted_switch_gets_the_upf_back_without_a_call(lab):
    """kill -9 of pbswitch: the restarted switch comes up with an empty
    pipeline; the host takes it back and writes the UPF's entries and meter
    cells again (it holds them, as ONOS's consistent map does), so a UE's
    traffic is handled as before with no REST call."""
    ambr = {"cir": 125000, "cburst": 15000, "pir": 250000, "pburst": 30000}
    added = lab.rest.post("upf/sessions", session(ambr=ambr))
    rule = lab.rest.post("upf/firewall", {
        "deviceId": DEVICE, "direction": "UPLINK", "action": "DENY", "priority": 10,
        "filter": {"ipProto": 17, "appPorts": {"low": 22, "high": 22}}})
    lab.rest.post("upf/applications", {"deviceId": DEVICE, "appId": 7, "priority": 10, "qfi": 5,
                                       "filter": {"appPorts": {"low": 8000, "high": 8999}}})
    try:
        # Its own client (the module's one dies with the switch), on another election id.
        with reader((0, 2)) as switch:
            before = (upf_entries(switch), meter_cell(switch, "upf.session_meter", 3))
        assert before[1] == (125000, 15000, 250000, 30000), before
        lab.kill_switch()
        lab.start_switch()

        def written_again():
            try:
                with reader((0, 2)) as switch:
                    return (upf_entries(switch),
                            meter_cell(switch, "upf.session_meter", 3)) == before
            except grpc.RpcError:  # no pipeline yet: the host has not pushed it
                return False
        wait_until(written_again, timeout=30, step=0.2, what="the UPF written again")
        # The application's downlink leaves with its QFI; the denied uplink stays dropped.
        frame = Ether(src=mac_of(DN), dst=mac_of(GNB)) / ue_packet(1, downlink=True,
                                                                   app_port=8080)
        got = exchange(lab, DN, GNB, f"udp and dst port {GTPU_PORT}", [frame], 1)
        assert [(g[GTP_U_Header].teid, g[GTPPDUSessionContainer].QFI) for g in got] == \
            [(TEID_DOWN, 5)]
        frames = [uplink_frame(ue_packet(2, app_port=22)), uplink_frame(ue_packet(3))]
        got = exchange(lab, GNB, DN, "udp and (dst port 22 or dst port 9000)", frames, 2)
        assert [g[UDP].dport for g in got] == [9000]
    finally:
        lab.rest.delete(f"upf/firewall/{rule['id']}")
        lab.rest.delete(f"upf/applications/{DEVICE}/7")
        lab.rest.delete(f"upf/sessions/{added['id']}")


def reader(election_id=(0, 1)):
    """A read-only client of the switch (a backup: the host is primary)."""
    return Client(f"127.0.0.1:{P4RT_PORT}", device_id=1, election_id=election_id)
