# SPDX-License-Identifier: Apache-2.0
"""Congestion avoidance inside a real ONOS 2.7, live (`make test-onos`).

Four pbswitch instances running FlowBuf's pipeconf, joined by veth cables
as test/congestion's four-switch lab (own names and ports, so that it never
meets test_onos_live's device:s1), under ONOS: ONOS discovers the cables
through LLDP (its LLDP provider's probes go out and come back in through
FlowBuf's interpreter, packet-out and packet-in), learns the two hosts from
the netcfg (ONOS's netcfg host provider), and FlowBuf's congestion component
registers a latency-critical flow through FlowBuf's REST under ONOS: the
primary and the disjoint backup from ONOS's PathService, their entries
written through ONOS's flow rule service, the flow's packets carried by
them.

    hc1 - k1 -p2- k2 - k4 - hc2        the primary (the lower ports)
           \\-p3- k3 -/                 the backup
"""
import json
import os
import re
import subprocess

import pytest

from test.congestion.congestionlab import CongestionLab, Topology, cp, device
from test.lab.servicelab import ROOT, RestError, ensure_built
from test.onos.onos import missing, switch_entities, wait

REASON = missing()
if REASON:
    pytest.skip(REASON, allow_module_level=True)

TOPOLOGY = Topology(
    switches=("k1", "k2", "k3", "k4"),
    cables=(("k1", 2, "k2", 1), ("k1", 3, "k3", 1), ("k2", 2, "k4", 1), ("k3", 2, "k4", 2)),
    hosts={"hc1": ("k1", 1, "10.0.9.1", "00:00:00:00:09:01"),
           "hc2": ("k4", 3, "10.0.9.2", "00:00:00:00:09:02")})
# ONOS's providers this needs besides FlowBuf's required apps.
LINKS_APP, HOSTS_APP = "org.onosproject.lldpprovider", "org.onosproject.netcfghostprovider"
# k1's port 2, the primary's first link: a trickle passes, a burst queues.
SHAPED_BPS = 2_000_000
# Generous idle delays: two shared cores must not move the flow by themselves.
CONGESTION = {"factor": 5, "idleQueueUs": 100, "idleProcUs": 5000}
CC_TABLES = ("cc_ingress.cc_flows", "cc_ingress.cc_paths", "cc_ingress.cc_alternates",
             "EgressPipeImpl.cc_egress.cc_thresholds")
PYTHON = str(ROOT / ".venv" / "bin" / "python")


class OnosCongestionLab(CongestionLab):
    """The congestion lab's hosts, cables and switches; ONOS controls them."""

    def __init__(self, onos):
        super().__init__(prefix="fbk-", p4rt_base=28531, congestion=CONGESTION,
                         topology=TOPOLOGY, shaped_bps=SHAPED_BPS, shaped_port=("k1", 2))
        self.onos = onos

    def _start(self):
        self._start_network()
        self.rest = self.onos.flowbuf


def activate_provider(onos, app):
    apps = onos.applications()
    if app not in apps:
        pytest.skip(f"this ONOS has no app {app} (ONOS's release tarball has it; "
                    f"tools/onos/assemble.sh stages it when its bundles are built)")
    if apps[app]["state"] != "ACTIVE":
        onos.activate(app)
        wait(lambda: onos.applications()[app]["state"] == "ACTIVE", 120, f"{app} ACTIVE")


@pytest.fixture(scope="module")
def cc_lab(onos, flowbuf):
    if os.geteuid() != 0:
        pytest.skip("the namespace lab needs root")
    for app in (LINKS_APP, HOSTS_APP):
        activate_provider(onos, app)
    ensure_built()
    with OnosCongestionLab(onos) as lab:
        mark = onos.log_mark()
        onos.push_netcfg(lab.netcfg())
        try:
            wait(lambda: all(onos.rest.get(f"devices/{device(s)}").get("available")
                             for s in TOPOLOGY.switches), 300, "the four switches available")
        except TimeoutError as e:
            pytest.fail(f"{e}; ONOS's log says:\n{onos.log_problems(mark)}")
        try:
            yield lab
        finally:
            forget(onos)


def forget(onos):
    """ONOS without this lab: its netcfg and its devices (and so their links
    and hosts) removed, for the modules that follow."""
    onos.rest.delete("network/configuration")
    for s in TOPOLOGY.switches:
        try:
            onos.rest.delete(f"devices/{device(s)}")
        except RestError:
            pass


def expected_links():
    """Every cable both ways, as ONOS's REST names a link's ends."""
    links = set()
    for a, pa, b, pb in TOPOLOGY.cables:
        links |= {(device(a), str(pa), device(b), str(pb)), (device(b), str(pb), device(a), str(pa))}
    return links


def port_number(port):
    """ONOS 2.7's REST names a port with a name "[NAME](NUMBER)", else "NUMBER"."""
    return re.sub(r"^\[.*\]\((\d+)\)$", r"\1", port)


def onos_links(onos):
    return {(link["src"]["device"], port_number(link["src"]["port"]), link["dst"]["device"],
             port_number(link["dst"]["port"])) for link in onos.rest.get("links")["links"]
            if link["state"] == "ACTIVE"}


def onos_hosts(onos):
    return {h["mac"].lower(): {f"{loc['elementId']}/{port_number(loc['port'])}"
                                 for loc in h["locations"]}
            for h in onos.rest.get("hosts")["hosts"]}


def cc_entries(lab, sw):
    """{table: entries} of congestion.p4's tables on one switch, read over P4Runtime."""
    entries = switch_entities(lab.p4rt[sw])
    return {t: sum(1 for e in entries if e.split()[1].endswith("." + t) or e.split()[1] == t)
            for t in CC_TABLES}


def flow_body(dport, **extra):
    body = {"srcHost": "hc1", "dstHost": "hc2", "budgetUs": 1_000_000, "m": 3,
            "filter": {"ipv4Dst": TOPOLOGY.hosts["hc2"][2] + "/32", "ipProto": 17,
                       "l4DstPort": dport}}
    body.update(extra)
    return body


RECEIVE = """
import json, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", int(sys.argv[1])))
s.settimeout(float(sys.argv[2]))
print("ready", flush=True)
seqs = []
try:
    while True:
        seqs.append(int.from_bytes(s.recv(2048)[:4], "big"))
except socket.timeout:
    pass
print(json.dumps(seqs))
"""

SEND = """
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
size = int(sys.argv[5])
for seq in range(int(sys.argv[3])):
    s.sendto(seq.to_bytes(4, "big") + bytes(size - 4), (sys.argv[1], int(sys.argv[2])))
    if float(sys.argv[4]):
        time.sleep(float(sys.argv[4]))
"""


def sender(lab, dport, count, gap, size=200):
    """hc1 sending `count` datagrams to hc2:dport, running when returned."""
    return subprocess.Popen(lab.hosts["hc1"].popen_argv(
        [PYTHON, "-c", SEND, TOPOLOGY.hosts["hc2"][2], str(dport), str(count), str(gap),
         str(size)]))


def receiver(lab, dport):
    """hc2 receiving on dport, bound when returned; .communicate() gives its JSON."""
    rx = subprocess.Popen(lab.hosts["hc2"].popen_argv([PYTHON, "-c", RECEIVE, str(dport), "3"]),
                          stdout=subprocess.PIPE, text=True)
    assert rx.stdout.readline().strip() == "ready"
    return rx


def received(rx):
    try:
        return json.loads(rx.communicate(timeout=90)[0])
    finally:
        rx.kill()


def udp(lab, dport, count, gap):
    """Sends `count` datagrams hc1 -> hc2:dport; the sequence numbers hc2 got."""
    rx = receiver(lab, dport)
    assert sender(lab, dport, count, gap).wait(timeout=60) == 0
    return received(rx)


L2_EXACT = "IngressPipeImpl.forwarding.l2_exact"
# The upper path to hc2, for traffic that is no latency-critical flow.
L2_TO_HC2 = (("k1", 2), ("k2", 2), ("k4", 3))


def l2_rules_to_hc2(onos, lab):
    """hc2's MAC forwarded along the upper path, through ONOS's flow REST (as
    an operator's forwarding app would install it); waits until each is on
    its switch."""
    mac = TOPOLOGY.hosts["hc2"][3]
    onos.rest.post("flows", {"flows": [
        {"deviceId": device(sw), "tableId": L2_EXACT, "priority": 10, "isPermanent": True,
         "timeout": 0, "selector": {"criteria": [{"type": "ETH_DST", "mac": mac}]},
         "treatment": {"instructions": [{"type": "OUTPUT", "port": str(port)}]}}
        for sw, port in L2_TO_HC2]})
    for sw, _ in L2_TO_HC2:
        wait(lambda: any(L2_EXACT in e for e in switch_entities(lab.p4rt[sw])), 60,
             f"the L2 rule on {sw}")


def test_onos_discovers_the_cables_through_lldp_and_the_hosts_from_netcfg(onos, cc_lab):
    mark = onos.log_mark()
    try:
        wait(lambda: expected_links() <= onos_links(onos), 120,
             "every cable discovered both ways by ONOS's LLDP provider")
    except TimeoutError as e:
        pytest.fail(f"{e}: ONOS has {sorted(onos_links(onos))}; its log says:\n"
                    f"{onos.log_problems(mark)}")
    assert onos_links(onos) == expected_links()
    want = {mac: {cp(sw, port)} for sw, port, _, mac in TOPOLOGY.hosts.values()}
    wait(lambda: all(onos_hosts(onos).get(mac) == where for mac, where in want.items()), 60,
         "the hosts at their netcfg locations")
    print(f"ONOS: {len(expected_links())} links through LLDP, hosts {sorted(want)}")


def test_a_congestion_flow_registered_through_onos_gets_both_paths_on_the_switches(onos, cc_lab):
    lab = cc_lab
    wait(lambda: expected_links() <= onos_links(onos), 120, "the cables discovered")
    flow = lab.rest.post("congestion/flows", flow_body(5101))
    try:
        assert [h["deviceId"] for h in flow["primary"]] == [device(s) for s in ("k1", "k2", "k4")]
        assert [h["deviceId"] for h in flow["backup"]] == [device(s) for s in ("k1", "k3", "k4")]
        # ONOS's flow rule service writes them asynchronously to the answer.
        k1 = {"cc_ingress.cc_flows": 1, "cc_ingress.cc_paths": 2, "cc_ingress.cc_alternates": 1,
              "EgressPipeImpl.cc_egress.cc_thresholds": 1}
        other = dict(k1, **{"cc_ingress.cc_paths": 1, "cc_ingress.cc_alternates": 0})
        wait(lambda: cc_entries(lab, "k1") == k1, 30, "k1's entries of both paths")
        for sw in ("k2", "k3", "k4"):
            wait(lambda: cc_entries(lab, sw) == other, 30, f"{sw}'s entries of its path")
        got = udp(lab, 5101, 20, 0.05)
        assert sorted(got) == list(range(20)), got
        assert lab.rest.get(f"congestion/flows/{flow['id']}")["switchOvers"] == []
    finally:
        lab.rest.delete(f"congestion/flows/{flow['id']}")
    for sw in TOPOLOGY.switches:
        wait(lambda: set(cc_entries(lab, sw).values()) == {0}, 30,
             f"the flow's entries gone from {sw}")
    print(f"congestion under ONOS: flow {flow['id']} primary k1-k2-k4, backup k1-k3-k4, "
          f"20 of 20 packets delivered; its entries removed with it")


def test_a_bad_congestion_registration_is_refused_through_onos_and_writes_nothing(cc_lab):
    lab = cc_lab
    for body, status, part in ((flow_body(5102, dstHost="h9"), 404, "h9"),
                               (flow_body(5102, budgetUs=100), 400, "idle delay"),
                               (flow_body(5102, m=0), 400, "\"m\"")):
        with pytest.raises(RestError) as e:
            lab.rest.post("congestion/flows", body)
        assert e.value.status == status, e.value
        assert part in json.loads(e.value.body)["message"], e.value.body
    assert lab.rest.get("congestion/flows")["flows"] == []
    for sw in TOPOLOGY.switches:
        assert set(cc_entries(lab, sw).values()) == {0}, sw


def test_a_queue_on_the_primary_moves_the_flow_and_onos_installs_a_new_backup(onos, cc_lab):
    """The switch-over under ONOS: k1 sees the queue on its shaped port and
    moves the flow to the backup by itself; its report reaches FlowBuf's
    congestion component as a packet-in (ONOS 2.7's P4Runtime driver
    delivers no digests), which makes the backup the primary and writes the
    old primary as the new backup, through ONOS."""
    lab = cc_lab
    wait(lambda: expected_links() <= onos_links(onos), 120, "the cables discovered")
    l2_rules_to_hc2(onos, lab)
    flow = lab.rest.post("congestion/flows", flow_body(5103))
    try:
        wait(lambda: cc_entries(lab, "k1")["cc_ingress.cc_paths"] == 2, 30, "k1's paths")
        rx = receiver(lab, 5103)
        tactile = sender(lab, 5103, 1500, 0.002)
        # 300 packets of 1,000 bytes at once, L2-forwarded out of k1's
        # shaped port: the flow's packets queue behind them.
        assert sender(lab, 6000, 300, 0, size=1000).wait(timeout=60) == 0
        assert tactile.wait(timeout=60) == 0
        got = received(rx)
        now = wait(lambda: (f := lab.rest.get(f"congestion/flows/{flow['id']}"))
                   ["switchOvers"] and f, 30, "a switch-over reported to ONOS")
        first = now["switchOvers"][0]
        assert first["deviceId"] == device("k1"), first
        assert first["queueUs"] >= 500, first
        assert first["newBackup"] is True, first
        assert [h["deviceId"] for h in now["primary"]] == [device(s) for s in ("k1", "k3", "k4")]
        assert [h["deviceId"] for h in now["backup"]] == [device(s) for s in ("k1", "k2", "k4")]
        wait(lambda: cc_entries(lab, "k1")["cc_ingress.cc_alternates"] == 1, 30,
             "k1's alternate of the new backup")
        assert cc_entries(lab, "k2")["cc_ingress.cc_paths"] == 1
        assert len(set(got)) == 1500, f"{1500 - len(set(got))} of 1500 lost"
    finally:
        lab.rest.delete(f"congestion/flows/{flow['id']}")
    print(f"congestion switch-over under ONOS: {json.dumps(first)}; 1500 of 1500 delivered")
