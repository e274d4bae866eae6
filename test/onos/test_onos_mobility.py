# SPDX-License-Identifier: Apache-2.0
"""LTE mobility management (LMM) inside a real ONOS 2.7, live (`make test-onos`).

The mobility lab's topology (test/lab/mobilitylab.py: a server, the anchor
sa, two eNB switches s1 and s2 and a UE reached through either's radio),
every switch a pbswitch under ONOS, and beside each eNB an external
buffer-agent whose buffers sit on veth vports, as beside a Stratum switch
in production (the anchor holds no buffer). The L2 rules come through
ONOS's flow REST (an operator's forwarding app would install them); a
sequenced UDP flow runs from the server to the UE while FlowBuf's LMM
component hands the UE off s1 -> s2 and back through FlowBuf's REST under
ONOS: the source eNB holds, the target's two buffers open, the anchor's
rule switches through ONOS's flow rule service, the end marker goes out as
an ONOS packet-out and each eNB's agent reports it.

    server -- 1 sa 2 -- 1 s1 (eNB 1) 2 ~~ radio r1 ~~
                   3 -- 1 s2 (eNB 2) 2 ~~ radio r2 ~~  UE
                          s1 3 ---- X2 ---- 3 s2
"""
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.parse

import pytest

from test.lab.mobilitylab import (SERVER_MAC, SWITCHES, UE_IFS, UE_IP, UE_MAC, VPORTS,
                                  MobilityLab, cp, device, plan)
from test.lab.servicelab import (EXTERNAL_REPLAY_BPS, ROOT, STATE_ROOT, RestError,
                                 ensure_built)
from test.onos.onos import HTTP_PORT, missing, switch_entities, wait
from test.scenarios.lmm import handoff

REASON = missing()
if REASON:
    pytest.skip(REASON, allow_module_level=True)

ENBS = ("s1", "s2")
PYTHON = str(ROOT / ".venv" / "bin" / "python")
L2_EXACT = "IngressPipeImpl.forwarding.l2_exact"
# Every switch forwards the UE's MAC towards radio 1 (s1's UE port, the
# anchor's port to s1: the UE's home before any handoff) and the server's
# MAC to port 1.
L2_RULES = {"sa": {UE_MAC: 2, SERVER_MAC: 1}, "s1": {UE_MAC: 2, SERVER_MAC: 1},
            "s2": {UE_MAC: 2, SERVER_MAC: 1}}
FLOW_PORT = 9000
PPS = 500  # the flow's rate: a handoff holds ~hundreds of packets on two loaded cores
# The sender's bound; it runs until the handoffs are done (SIGTERM).
FLOW_MAX_S = 120
# The UE is away from every radio for this long at each handoff.
DETACH_S = 0.05
# Time on the new radio after a handoff, before the next.
DWELL_S = 1.5


class OnosMobilityLab(MobilityLab):
    """The mobility lab's hosts, radios and pbswitches without the embedded
    host (ONOS controls the switches); each eNB's buffers in an external
    buffer-agent on veth vports. Its own prefix and ports."""

    def __init__(self, onos):
        super().__init__(prefix="fbn-", rest_port=HTTP_PORT, p4rt_base=28551,
                         agent_base=28561)
        self.onos = onos
        self.agents = {}

    def _start(self):
        self._start_network()
        self.rest = self.onos.flowbuf

    def _switch_argv(self, sw, ports):
        argv = [str(ROOT / "bin" / "pbswitch"), "--p4rt-listen", f"127.0.0.1:{self.p4rt[sw]}",
                "--buffer-listen", ""]
        for number, ifname in ports:
            argv += ["--port", f"{number}={ifname}"]
        if sw in ENBS:
            for number in VPORTS:
                switch_end, _ = self.lab.add_root_veth(f"{sw}v{number}", f"{sw}a{number}")
                argv += ["--port", f"{number}={switch_end}"]
            self._start_agent(sw)
        return argv

    def _start_agent(self, sw):
        # Its own state dir (tmpfs), empty: it re-attaches nothing of another run.
        state = tempfile.mkdtemp(prefix=f"flowbuf-onos-mobility-{sw}-", dir=STATE_ROOT)
        self._stack.append(lambda: shutil.rmtree(state, ignore_errors=True))
        self.agents[sw] = self._run(
            [str(ROOT / "bin" / "buffer-agent"), "-listen", f"127.0.0.1:{self.agent[sw]}",
             "-metrics-listen", "", "-log-format", "text", "-state-dir", state],
            f"agent-{sw}", self.agent[sw])

    def netcfg(self):
        cfg = super().netcfg()
        for sw in ENBS:
            cfg["devices"][device(sw)]["flowbuf"] = {
                "agentAddress": f"127.0.0.1:{self.agent[sw]}", "inProcess": False,
                "vports": [{"id": f"vp{n}", "switchPort": n,
                            "interface": self.lab.name(f"{sw}a{n}"),
                            "txRateBps": EXTERNAL_REPLAY_BPS} for n in VPORTS]}
        return cfg

    def radio_rx_packets(self):
        """{eNB: frames the UE's end of its radio has received}."""
        paths = [f"/sys/class/net/{UE_IFS[enb]}/statistics/rx_packets" for enb in ENBS]
        return dict(zip(ENBS, (int(n) for n in self.ue.run("cat", *paths).stdout.split())))


def l2_rules(onos, lab):
    """The lab's L2 rules through ONOS's flow REST; waits until each switch has them."""
    onos.rest.post("flows", {"flows": [
        {"deviceId": device(sw), "tableId": L2_EXACT, "priority": 10, "isPermanent": True,
         "timeout": 0, "selector": {"criteria": [{"type": "ETH_DST", "mac": mac}]},
         "treatment": {"instructions": [{"type": "OUTPUT", "port": str(port)}]}}
        for sw, rules in L2_RULES.items() for mac, port in rules.items()]})
    for sw, rules in L2_RULES.items():
        wait(lambda: sum(L2_EXACT in e for e in switch_entities(lab.p4rt[sw])) >= len(rules),
             60, f"the L2 rules on {sw}")


def forget(onos):
    """ONOS without this lab: the intents on its devices withdrawn and their
    buffers removed, each in its owner's name (FlowBuf keeps both across a
    device's removal, and the next module's switch has the same device id),
    its netcfg and its devices removed, for the modules that follow."""
    devices = {device(sw) for sw in SWITCHES}
    for intent in onos.flowbuf.get("intents")["intents"]:
        if intent["state"] == "INSTALLED" and intent["deviceId"] in devices:
            owner = urllib.parse.quote(intent["owner"], safe="")
            onos.flowbuf.delete(f"intents/{intent['id']}?owner={owner}")
    for dev in devices:  # FlowBuf keeps buffers by device id too: they would hold its vports
        try:
            held = onos.flowbuf.get(f"buffers/{dev}")["buffers"]
        except RestError:
            continue
        for buffer in held:
            owner = urllib.parse.quote(buffer["owner"], safe="")
            onos.flowbuf.delete(f"buffers/{dev}/{buffer['id']}?discard=true&owner={owner}")
    onos.rest.delete("network/configuration")
    for sw in SWITCHES:
        try:
            onos.rest.delete(f"devices/{device(sw)}")
        except RestError:
            pass


@contextlib.contextmanager
def onos_mobility_lab(onos, cleanup=lambda lab: None):
    """The lab under ONOS: switches available, both eNBs' agents known to
    FlowBuf, the L2 rules on the switches; on leaving, `cleanup` (an
    application's own, in its name) and then `forget`."""
    if os.geteuid() != 0:
        pytest.skip("the namespace lab needs root")
    ensure_built()
    with OnosMobilityLab(onos) as lab:
        mark = onos.log_mark()
        onos.push_netcfg(lab.netcfg())
        try:
            try:
                wait(lambda: all(onos.rest.get(f"devices/{device(s)}").get("available")
                                 for s in SWITCHES), 300, "the three switches available")
                # FlowBuf's agent lifecycle connected each eNB's agent (its
                # vports created there) once ONOS had the device.
                wait(lambda: all(lab.rest.get(f"buffers/{device(s)}") is not None
                                 for s in ENBS), 120, "both eNBs' agents known to FlowBuf")
                l2_rules(onos, lab)
            except TimeoutError as e:
                pytest.fail(f"{e}; ONOS's log says:\n{onos.log_problems(mark)}")
            yield lab
        finally:
            try:
                cleanup(lab)
            finally:
                forget(onos)


@pytest.fixture(scope="module")
def mob_lab(onos, flowbuf):
    with onos_mobility_lab(onos) as lab:
        yield lab


def receiver(lab):
    rx = subprocess.Popen(lab.ue.popen_argv(
        [PYTHON, "-m", "test.lab.seqflow", "recv", str(FLOW_PORT), "--idle", "3", "--timeout",
         str(FLOW_MAX_S + 60)]), stdout=subprocess.PIPE, text=True, cwd=ROOT)
    rx.stdout.readline()  # its "ready" line: bound
    return rx


def sender(lab):
    """The server's flow to the UE, sending when returned; SIGTERM ends it."""
    tx = subprocess.Popen(lab.server.popen_argv(
        [PYTHON, "-m", "test.lab.seqflow", "send", UE_IP, str(FLOW_PORT), "--pps", str(PPS),
         "--seconds", str(FLOW_MAX_S), "--announce"]), stdout=subprocess.PIPE, text=True,
        cwd=ROOT)
    assert json.loads(tx.stdout.readline()) == {"started": True}
    return tx


def last_json(proc):
    out = proc.communicate(timeout=90)[0]
    return json.loads(out.strip().splitlines()[-1])


def buffers(lab, sw):
    return {b["id"]: b for b in lab.rest.get(f"buffers/{device(sw)}")["buffers"]}


def snapshot(lab):
    """What a refused handoff must leave as it was: the handoffs, the
    eNBs' buffers, FlowBuf's intents and every switch's entries."""
    return {"handoffs": lab.rest.get("apps/lmm/handoffs")["handoffs"],
            "buffers": {sw: sorted(buffers(lab, sw)) for sw in ENBS},
            "intents": sorted(i["id"] for i in lab.rest.get("intents")["intents"]),
            "entries": {sw: switch_entities(lab.p4rt[sw]) for sw in SWITCHES}}


def test_lmm_handoffs_under_onos_lose_and_reorder_nothing(mob_lab):
    lab = mob_lab
    rx = receiver(lab)
    tx = sender(lab)
    time.sleep(0.5)  # the flow reaches the UE through radio 1 first
    done, complete_ms, through_new_radio = [], [], {}
    started = time.monotonic()
    for target in ("s2", "s1"):
        h, ms = handoff(lab, target, detach_s=DETACH_S)
        done.append(h)
        complete_ms.append(ms)
        before = lab.radio_rx_packets()
        time.sleep(DWELL_S)
        after = lab.radio_rx_packets()
        through_new_radio[target] = {enb: after[enb] - before[enb] for enb in ENBS}
    handoffs_s = time.monotonic() - started
    tx.terminate()
    sent = last_json(tx)["sent"]
    got = last_json(rx)
    print(f"LMM under ONOS: {len(done)} handoffs in {handoffs_s:.1f} s, sent {sent}, "
          f"flow {json.dumps(got)}, attach-to-complete ms {[round(m, 1) for m in complete_ms]}, "
          f"radio frames after each handoff {through_new_radio}")
    for h in done:
        assert h["state"] == "COMPLETED" and h["markerReports"] == 2, h
    assert got["received"] == sent, (sent, got)
    assert (got["lost"], got["reordered"], got["duplicates"]) == (0, 0, 0), got
    for target, frames in through_new_radio.items():
        other = "s1" if target == "s2" else "s2"
        # The flow's packets through the new radio; the old radio sees at
        # most ONOS's link probes (LLDP/BDDP, every few seconds).
        assert frames[target] >= PPS * DWELL_S * 0.8, through_new_radio
        assert frames[other] <= 6, through_new_radio
    # Read back through FlowBuf's REST under ONOS: the handoffs, and the
    # buffer the downlink lives in since the last one (on s1, forwarding).
    listed = {h["id"]: h for h in lab.rest.get("apps/lmm/handoffs")["handoffs"]}
    for h in done:
        assert listed[h["id"]]["state"] == "COMPLETED", listed
    last = lab.rest.get(f"apps/lmm/handoffs/{done[-1]['id']}")
    assert last["plan"]["target"]["ue"] == cp("s1", 2), last
    resident = buffers(lab, "s1")[last["newPathBuffer"]]
    assert resident["state"] == "FORWARDING", resident
    assert last["forwardedBuffer"] not in buffers(lab, "s1"), "the old path's buffer was kept"
    assert done[0]["newPathBuffer"] not in buffers(lab, "s2"), "s2 kept the first path's buffer"


@pytest.mark.parametrize("where, status, part", [
    ({"target": {"in": cp("s9", 1), "x2": cp("s9", 3), "ue": cp("s9", 2)}}, 404, "device:s9"),
    ({"target": {"in": cp("s2", 1), "x2": cp("s2", 3), "ue": cp("s2", 99)}}, 404, "99"),
])
def test_a_handoff_to_an_unknown_device_or_port_is_refused_and_changes_nothing(
        mob_lab, where, status, part):
    lab = mob_lab
    source = "s1" if lab.attached == "s1" else "s2"
    body = dict(plan(source, "s2" if source == "s1" else "s1"), **where)
    before = snapshot(lab)
    with pytest.raises(RestError) as e:
        lab.rest.post("apps/lmm/handoffs", body)
    assert e.value.status == status, e.value
    assert part in json.loads(e.value.body)["message"], e.value.body
    assert snapshot(lab) == before
