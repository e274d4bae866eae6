# SPDX-License-Identifier: Apache-2.0
"""FlowBuf in a three-instance ONOS 2.7 cluster, live (`make test-onos`).

Three ONOS instances on this machine (tools/onos/cluster.sh: copies of
ONOS_ROOT on 127.0.0.2-4, Atomix embedded, its Raft partitions across the
three); FlowBuf's .oar installed through one instance, active on all three.
pbswitch in a namespace lab; a live UDP flow paused through the instance
that masters the switch (the only one that drives its buffers), that
instance killed with kill -9 while the flow is held, and the flow resumed
through the new master's REST: the buffer's record survives in ONOS's
distributed store, the held packets on the switch, and nothing is lost or
reordered. Prints the failover figures as JSON lines.

Congestion avoidance in the same cluster: a flow registered through the
switch's master is listed by every instance (ONOS's distributed store),
refused on another instance, and after the master's kill -9 served by the
new master with its entries still on the switch, which then removes it.
"""
import json
import os
import signal
import subprocess
import time

import pytest

from test.demo import service_demo
from test.lab.servicelab import (DEVICE, HOSTS, ROOT, RestError, ServiceLab, ensure_built,
                                 ip_of, mac_of)
from test.onos.onos import (HTTP_PORT, flowbuf_components, missing, oar_app, oar_path,
                            scr_states, switch_entities, wait)

REASON = missing()
if REASON:
    pytest.skip(REASON, allow_module_level=True)

from test.onos.cluster import SIZE, OnosCluster  # noqa: E402  (after the skip: paramiko)

L2_EXACT = "IngressPipeImpl.forwarding.l2_exact"
P4RT_PORT = 28511
# ONOS's provider of hosts from the netcfg: congestion avoidance finds its hosts there.
HOSTS_APP = "org.onosproject.netcfghostprovider"
CC_TABLES = ("cc_ingress.cc_flows", "cc_ingress.cc_paths")
# The congestion flow's packets: a UDP port no other test of the module sends to.
CC_PORT = 5207
# The congestion flow registered before the master's kill, for the test after it.
registered = {}


def emit(metric, value, unit, **conditions):
    print(json.dumps({"metric": metric, "value": value, "unit": unit,
                      "conditions": conditions}), flush=True)


@pytest.fixture(scope="module")
def cluster():
    onos_cluster = OnosCluster()
    try:
        onos_cluster.start()
        yield onos_cluster
    finally:
        onos_cluster.stop()


def components_active(member):
    states = scr_states(member.shell.run("scr:list | cat"))
    return all(states.get(c) == "ACTIVE" for c in flowbuf_components())


@pytest.fixture(scope="module")
def flowbuf(cluster):
    """FlowBuf's .oar installed and activated through instance 1: ONOS's
    application store spreads both to the other instances."""
    name, required = oar_app(oar_path())
    first = cluster.members[0]
    absent = [a for a in required if a not in first.applications()]
    if absent:
        pytest.skip(f"this ONOS has no app {', '.join(absent)}, which FlowBuf requires")
    first.install_oar(oar_path())
    first.activate(name)
    for member in cluster.members:
        try:
            wait(lambda: member.applications()[name]["state"] == "ACTIVE", 300,
                 f"{name} ACTIVE on {member.host}")
            wait(lambda: components_active(member), 300,
                 f"FlowBuf's components ACTIVE on {member.host}")
        except TimeoutError as e:
            pytest.fail(f"{e}; its log says:\n{member.log_problems()}")
    return name


class ClusterSwitchLab(ServiceLab):
    """pbswitch (in-process buffers) and the lab's hosts; ONOS's instances
    control the switch. `rest` is FlowBuf's REST on the instance given."""

    def __init__(self, member):
        super().__init__(p4rt_port=P4RT_PORT, agent_port=28512, rest_port=HTTP_PORT, prefix="fbo-")
        self.rest = member.flowbuf

    def _start(self):
        self._start_network()


def master_of(member, device):
    """The node id of `device`'s master as `member` sees it (None: no master)."""
    return member.rest.get(f"mastership/{device}/master").get("nodeId")


def l2_flow(host, port):
    return {"deviceId": DEVICE, "tableId": L2_EXACT, "priority": 10, "isPermanent": True,
            "timeout": 0,
            "selector": {"criteria": [{"type": "ETH_DST", "mac": mac_of(host)}]},
            "treatment": {"instructions": [{"type": "OUTPUT", "port": str(port)}]}}


def l2_flows_added(member):
    flows = member.rest.get(f"flows/{DEVICE}")["flows"]
    return sum(1 for f in flows if f.get("tableName") == L2_EXACT and f.get("state") == "ADDED")


@pytest.fixture(scope="module")
def lab(cluster, flowbuf):
    """pbswitch in a namespace lab, the netcfg pushed through instance 1, the
    device available in every instance and the L2 rules on it."""
    if os.geteuid() != 0:
        pytest.skip("the namespace lab needs root")
    ensure_built()
    first = cluster.members[0]
    with ClusterSwitchLab(first) as switch_lab:
        first.push_netcfg(switch_lab.netcfg())
        for member in cluster.members:
            wait(lambda: member.rest.get(f"devices/{DEVICE}").get("available"), 300,
                 f"{DEVICE} available in {member.host}")
        first.rest.post("flows", {"flows": [l2_flow(h, p) for h, p in HOSTS.items()]})
        wait(lambda: l2_flows_added(first) >= len(HOSTS), 120, "the L2 rules ADDED")
        yield switch_lab


def test_three_instances_form_one_cluster_with_flowbuf_active_on_each(cluster, flowbuf):
    print(f"cluster of {SIZE} started in {cluster.start_seconds:.0f} s")
    for member in cluster.members:
        nodes = member.rest.get("cluster")["nodes"]
        assert sorted((n["ip"], n["status"]) for n in nodes) == sorted(
            (m.host, "READY") for m in cluster.members), (member.host, nodes)
        assert member.applications()[flowbuf]["state"] == "ACTIVE", member.host


def test_the_switch_has_one_master_that_all_instances_agree_on(cluster, lab):
    masters = {m.host: master_of(m, DEVICE) for m in cluster.members}
    assert len(set(masters.values())) == 1 and None not in masters.values(), masters
    master = cluster.member_of_node(next(iter(masters.values())))
    # Only the master drives the switch's buffers: a backup refuses with a reason.
    backup = next(m for m in cluster.members if m is not master)
    with pytest.raises(RestError) as refused:
        backup.flowbuf.post(f"buffers/{DEVICE}", {"id": "probe", "state": "BUFFERING"})
    assert refused.value.status >= 400 and "master" in refused.value.body, refused.value
    assert "probe" not in [b["id"] for b in master.flowbuf.get(f"buffers/{DEVICE}")["buffers"]]


def cc_entries():
    """{table: entries} of the congestion flows' tables on the switch, read over P4Runtime."""
    entries = switch_entities(P4RT_PORT)
    return {t: sum(1 for e in entries if e.split()[1] == t or e.split()[1].endswith("." + t))
            for t in CC_TABLES}


def entries_if_all(entries):
    """The entries when every table holds some, else None (not yet)."""
    return entries if all(entries.values()) else None


def cc_body():
    return {"srcHost": "h1", "dstHost": "h2", "budgetUs": 1_000_000, "m": 3, "mode": "NOCC",
            "filter": {"ipv4Dst": ip_of("h2") + "/32", "ipProto": 17, "l4DstPort": CC_PORT}}


@pytest.fixture(scope="module")
def hosts_known(cluster, lab):
    """ONOS's netcfg host provider active: the lab's hosts (in its netcfg) known
    to every instance, as congestion avoidance finds them."""
    first = cluster.members[0]
    apps = first.applications()
    if HOSTS_APP not in apps:
        pytest.skip(f"this ONOS has no app {HOSTS_APP}")
    if apps[HOSTS_APP]["state"] != "ACTIVE":
        first.activate(HOSTS_APP)
    for member in cluster.members:
        wait(lambda: {mac_of(h).upper() for h in HOSTS} <= {
            h["mac"].upper() for h in member.rest.get("hosts")["hosts"]}, 120,
             f"the lab's hosts known to {member.host}")


def test_a_congestion_flow_registered_through_the_master_is_listed_by_every_instance(
        cluster, lab, hosts_known):
    """The flow's record in ONOS's distributed store: every instance lists it;
    only the master of its source switch registers and changes it."""
    master = cluster.member_of_node(master_of(cluster.members[0], DEVICE))
    backup = next(m for m in cluster.members if m is not master)
    with pytest.raises(RestError) as refused:
        backup.flowbuf.post("congestion/flows", cc_body())
    assert refused.value.status == 503 and "master" in refused.value.body, refused.value
    assert backup.flowbuf.get("congestion/flows")["flows"] == []
    flow = master.flowbuf.post("congestion/flows", cc_body())
    registered.update(flow=flow, master=master.host)
    for member in cluster.members:
        listed = member.flowbuf.get(f"congestion/flows/{flow['id']}")
        assert (listed["index"], listed["primary"]) == (flow["index"], flow["primary"]), (
            member.host, listed)
    with pytest.raises(RestError) as refused:
        backup.flowbuf.delete(f"congestion/flows/{flow['id']}")
    assert refused.value.status == 503 and "master" in refused.value.body, refused.value
    # ONOS's flow rule service writes them asynchronously to the answer.
    registered["entries"] = wait(lambda: entries_if_all(cc_entries()), 60,
                                 "the flow's entries on the switch")
    print(f"congestion flow {flow['id']} registered through {master.host}, listed by all "
          f"{SIZE}; switch entries {registered['entries']}")


def test_master_killed_mid_pause_the_new_master_resumes_and_nothing_is_lost(cluster, lab):
    """The flow paused through the master's REST, the master killed (-9)
    while the switch holds the flow, resumed by buffer id through the new
    master's REST once mastership has moved."""
    old = cluster.member_of_node(master_of(cluster.members[0], DEVICE))
    python = str(ROOT / ".venv" / "bin" / "python")
    port = service_demo.UDP_PORT
    recv = subprocess.Popen(lab.hosts["h2"].popen_argv(
        [python, "-m", "test.lab.seqflow", "recv", str(port), "--idle", "900", "--timeout",
         "900"]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
    recv.stdout.readline()
    send = subprocess.Popen(lab.hosts["h1"].popen_argv(
        [python, "-m", "test.lab.seqflow", "send", "10.0.0.2", str(port), "--pps", "200",
         "--seconds", "900", "--announce"]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        send.stdout.readline()
        time.sleep(1.0)
        pause = old.flowbuf.post("intents/pause", {"deviceId": DEVICE, "inPort": HOSTS["h1"],
                                                   "filter": service_demo.flow_filter()})
        buffer_id = pause["bufferId"]
        held_before = wait(lambda: occupancy(old, buffer_id), 30, "packets held")
        survivors = [m for m in cluster.members if m is not old]
        killed_at = time.monotonic()
        cluster.kill(old)
        new_id = wait(lambda: _moved(survivors[0], old), 120, "a new master")
        failover_s = time.monotonic() - killed_at
        new = cluster.member_of_node(new_id)
        assert all(master_of(m, DEVICE) == new_id for m in survivors)
        # The buffer's record is in ONOS's distributed store; its packets
        # on the switch, which the new master's agent query reads.
        held_after = wait(lambda: occupancy(new, buffer_id), 120,
                          f"buffer {buffer_id} served by the new master")
        adopted_s = time.monotonic() - killed_at
        l2_after = l2_flows_added(new)
        assert held_after > held_before, ("the switch stopped steering into the buffer "
                                          "after the master died", held_before, held_after)
        resume = new.flowbuf.post("intents/resume", {"deviceId": DEVICE,
                                                     "outPort": HOSTS["h2"],
                                                     "filter": service_demo.flow_filter(),
                                                     "bufferId": buffer_id})
        time.sleep(2.0)
        send.send_signal(signal.SIGTERM)
        sent = json.loads(send.communicate(timeout=60)[0].strip().splitlines()[-1])["sent"]
        wait(lambda: occupancy(new, buffer_id) == 0, 60, "the buffer drained")
        time.sleep(2.0)
        recv.send_signal(signal.SIGTERM)
        got = json.loads(recv.communicate(timeout=60)[0].strip().splitlines()[-1])
    finally:
        for proc in (send, recv):
            if proc.poll() is None:
                proc.kill()
    result = service_demo.combine(sent, {"h2": got})
    conditions = {"instances": SIZE, "killed": "master, kill -9", "pps": 200,
                  "machine": "2 cores, loaded by other builds"}
    print("master killed mid-pause:", json.dumps({
        "old_master": old.host, "new_master": new.host, "failover_s": round(failover_s, 2),
        "buffer_served_again_s": round(adopted_s, 2), "held_before_kill": held_before,
        "held_at_resume": held_after, "l2_rules_added_after": l2_after,
        "resume": resume["state"], "sent": sent, **result}))
    emit("onos_cluster_new_master_s", round(failover_s, 2), "s", **conditions)
    emit("onos_cluster_buffer_served_again_s", round(adopted_s, 2), "s", **conditions)
    emit("onos_cluster_failover_lost_packets", result["lost"], "packets", held=held_after,
         **conditions)
    assert resume["state"] == "INSTALLED", resume
    assert (result["lost"], result["reordered"], result["duplicates"]) == (0, 0, 0), result


def _moved(member, old):
    node = master_of(member, DEVICE)
    return node if node and cluster_node_host(member, node) != old.host else None


def cluster_node_host(member, node_id):
    return next(n["ip"] for n in member.rest.get("cluster")["nodes"] if n["id"] == node_id)


def occupancy(member, buffer_id):
    return member.flowbuf.get(f"buffers/{DEVICE}/{buffer_id}")["occupancyPackets"]


def test_after_the_master_died_the_new_master_serves_the_congestion_flow_and_its_entries_stay(
        cluster, lab):
    """After the kill -9 above: the flow's record survives in the cluster's
    store, its entries are on the switch (the new master writes them again),
    and the new master of its source switch acts for it: it removes it."""
    assert "flow" in registered, "the congestion flow was not registered before the kill"
    flow = registered["flow"]
    alive = [m for m in cluster.members if m.shell is not None]
    assert registered["master"] not in [m.host for m in alive], (
        "the congestion flow's master is the one killed", registered["master"])
    new = cluster.member_of_node(master_of(alive[0], DEVICE))
    for member in alive:
        listed = member.flowbuf.get(f"congestion/flows/{flow['id']}")
        assert (listed["index"], listed["primary"]) == (flow["index"], flow["primary"]), (
            member.host, listed)
    # On the switch: kept, or written again by the new master (ONOS's flow
    # store may lack the dead master's last writes, which the new master's
    # first read of the switch then removes).
    wait(lambda: cc_entries() == registered["entries"], 60,
         f"the flow's entries {registered['entries']} on the switch under the new master")
    new.flowbuf.delete(f"congestion/flows/{flow['id']}")
    wait(lambda: not any(cc_entries().values()), 60, "the flow's entries removed by the new master")
    for member in alive:
        assert member.flowbuf.get("congestion/flows")["flows"] == [], member.host
    print(f"congestion flow {flow['id']} after {registered['master']}'s kill: listed by "
          f"{[m.host for m in alive]}, entries kept {registered['entries']}, removed through "
          f"the new master {new.host}")
