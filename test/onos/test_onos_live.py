# SPDX-License-Identifier: Apache-2.0
"""FlowBuf inside a real ONOS 2.7, live (`make test-onos`).

ONOS (ONOS_ROOT: a release tarball, or tools/onos's runtime) is started on
loopback; FlowBuf's .oar is installed and activated through ONOS's own REST
API (as `onos-app` does); pbswitch runs in a namespace lab and ONOS's
P4Runtime driver connects to it from the netcfg FlowBuf's labs render; a
live UDP flow is paused and resumed through FlowBuf's REST API under ONOS's
web server and through FlowBuf's commands in ONOS's shell over Karaf's ssh.
A step whose ONOS piece is absent skips naming it; every other step asserts
what ONOS really did.
"""
import argparse
import json
import os
import re
import subprocess

import pytest

from test.demo import service_demo
from test.lab.servicelab import DEVICE, HOSTS, ROOT, RestError, ServiceLab, ensure_built, mac_of
from test.onos.onos import HTTP_PORT, Onos, missing, oar_app, oar_path, wait

REASON = missing()
if REASON:
    pytest.skip(REASON, allow_module_level=True)

PIPECONF = "org.flowbuf.pipeconf"
GUI_APP = "org.onosproject.gui"
# FlowBuf's Declarative Services components: every @Component class of the bundles in the .oar.
COMPONENT_SOURCES = ("app/app/src/main/java", "pipeconf/src/main/java", "web-gui/src/main/java",
                     "cli/src/main/java")


def flowbuf_components():
    names = set()
    for source in COMPONENT_SOURCES:
        for path in (ROOT / source).rglob("*.java"):
            text = path.read_text()
            if re.search(r"^@Component\(", text, re.M):
                package = re.search(r"^package ([\w.]+);", text, re.M).group(1)
                names.add(f"{package}.{path.stem}")
    return names


class OnosSwitchLab(ServiceLab):
    """The embedded labs' hosts and pbswitch (in-process buffers), without the
    embedded host: ONOS controls the switch. Its own prefix and ports."""

    def __init__(self, onos):
        super().__init__(p4rt_port=28511, agent_port=28512, rest_port=HTTP_PORT, prefix="fbo-")
        self.onos = onos

    def _start(self):
        self._start_network()
        self.rest = self.onos.flowbuf


class CliControl:
    """Pauses and resumes the demo's flow with FlowBuf's commands in ONOS's shell."""

    def __init__(self, shell):
        self.shell = shell
        flow = service_demo.flow_filter()
        self.flow = (f"--src {flow['ipv4Src']} --dst {flow['ipv4Dst']} --proto {flow['ipProto']} "
                     f"--dport {flow['l4DstPort']}")

    def _intent(self, command, args):
        # Karaf's parser takes options before the arguments.
        out = self.shell.run(f"{command} -j {self.flow} {args}")
        try:
            return json.loads(out[out.index("{"):])
        except ValueError:
            raise AssertionError(f"{command}: no intent in the output: {out!r}") from None

    def pause(self):
        return self._intent("onos:flowbuf-pause", f"{DEVICE} {HOSTS['h1']}")

    def resume(self, out_port):
        return self._intent("onos:flowbuf-resume", f"{DEVICE} {out_port}")


def short_run(**overrides):
    args = argparse.Namespace(resume_to="h2", pps=2000, seconds=6, pause_at=1.0, hold=1.5)
    for key, value in overrides.items():
        setattr(args, key, value)
    return args


def assert_lossless(report):
    assert report["held_packets"] > 0, report
    assert report["sent"] == report["received"], report
    assert (report["lost"], report["reordered"], report["duplicates"]) == (0, 0, 0), report
    assert report["buffer_packets_in"] == report["buffer_packets_out"], report


@pytest.fixture(scope="module")
def onos():
    instance = Onos()
    try:
        instance.start()
        yield instance
    finally:
        instance.stop()


@pytest.fixture(scope="module")
def oar():
    return oar_path()


@pytest.fixture(scope="module")
def installed(onos, oar):
    """FlowBuf's .oar installed (not activated): (app name, its required apps, ONOS's answer)."""
    name, required = oar_app(oar)
    if name in onos.applications():  # ONOS keeps installed apps in $ONOS_ROOT/apps
        onos.uninstall(name)
    try:
        yield name, required, onos.install_oar(oar)
    finally:
        onos.uninstall(name)  # leaves the ONOS as it was: FlowBuf not installed


@pytest.fixture(scope="module")
def flowbuf(onos, installed):
    """FlowBuf activated, with the apps it requires (ONOS activates those first)."""
    name, required, _ = installed
    apps = onos.applications()
    absent = [a for a in required if a not in apps]
    if absent:
        pytest.skip(f"this ONOS has no app {', '.join(absent)}, which FlowBuf requires "
                    f"(ONOS's release tarball has them; tools/onos/assemble.sh stages an app "
                    f"when its bundles are built)")
    mark = onos.log_mark()
    onos.activate(name)
    expected = flowbuf_components()
    try:
        wait(lambda: onos.applications()[name]["state"] == "ACTIVE", 300, f"{name} ACTIVE")
        # ONOS marks the app ACTIVE before Karaf has installed and started its
        # bundles: its components say when FlowBuf runs.
        wait(lambda: all(scr_states(onos.shell.run("scr:list | cat")).get(c) == "ACTIVE"
                         for c in expected), 180, "FlowBuf's components ACTIVE")
    except TimeoutError as e:
        pytest.fail(f"{e}; ONOS's log says:\n{onos.log_problems(mark)}")
    return name


@pytest.fixture(scope="module")
def lab(onos, flowbuf):
    """pbswitch in a namespace lab, ONOS connected to it through the netcfg."""
    if os.geteuid() != 0:
        pytest.skip("the namespace lab needs root")
    ensure_built()
    with OnosSwitchLab(onos) as switch_lab:
        switch_lab.mark = onos.log_mark()
        onos.push_netcfg(switch_lab.netcfg())
        yield switch_lab


L2_EXACT = "IngressPipeImpl.forwarding.l2_exact"


def l2_flow(host, port):
    """ONOS's REST form of a rule forwarding to a host by its MAC: ONOS's PI
    translation maps ETH_DST and OUTPUT onto l2_exact's set_egress_port
    through FlowBuf's interpreter."""
    return {"deviceId": DEVICE, "tableId": L2_EXACT, "priority": 10, "isPermanent": True,
            "timeout": 0,
            "selector": {"criteria": [{"type": "ETH_DST", "mac": mac_of(host)}]},
            "treatment": {"instructions": [{"type": "OUTPUT", "port": str(port)}]}}


def l2_flows_added(onos):
    flows = onos.rest.get(f"flows/{DEVICE}")["flows"]
    return sum(1 for f in flows if str(f.get("tableId")) == L2_EXACT and f.get("state") == "ADDED")


@pytest.fixture(scope="module")
def forwarding(onos, lab):
    """The lab once ONOS has the device available with FlowBuf's pipeconf and
    forwards to each host. In ONOS mode forwarding is not FlowBuf's job (the
    embedded host installs these rules itself, BaseRules, standing in for
    ONOS's host and forwarding apps): the test posts them to ONOS's own flow
    REST, as an operator's forwarding app would install them, and waits until
    ONOS has them on the switch. Without them a flow reaches h2 only once a
    resume steers it there."""
    wait(lambda: device(onos).get("available"), 240, f"{DEVICE} available in ONOS")
    onos.rest.post("flows", {"flows": [l2_flow(h, port) for h, port in HOSTS.items()]})
    wait(lambda: l2_flows_added(onos) >= len(HOSTS), 120,
         f"ONOS's L2 rules ADDED on {DEVICE}")
    return lab


def scr_states(listing):
    """{component name: state} of FlowBuf's components in `scr:list`'s output
    ("NAME in bundle N (...) enabled, 1 instance." then "    Id: 7, State:ACTIVE")."""
    states = dict(re.findall(r"^(org\.flowbuf\.[\w.]+) in bundle .*\n\s+Id: \d+, State:(\w+)",
                             listing, re.M))
    # A component without an instance (disabled, or not yet configured) has no Id line.
    for name in re.findall(r"^(org\.flowbuf\.[\w.]+) in bundle ", listing, re.M):
        states.setdefault(name, "NO INSTANCE")
    return states


def scr_references(info):
    """(reference name, SATISFIED or UNSATISFIED) of each reference `scr:info` lists."""
    return re.findall(r"^\s+- (\w+): \S+ (SATISFIED|UNSATISFIED)", info, re.M)


def device(onos):
    return onos.rest.get(f"devices/{DEVICE}")


def test_onos_core_is_up_on_loopback_only(onos):
    summary = onos.shell.run("onos:summary")
    assert "node=127.0.0.1" in summary and "version=2.7.0" in summary, summary
    pid = onos.root.joinpath("onos.pid").read_text().strip()
    listening = subprocess.run(["ss", "-Htlnp"], capture_output=True, text=True).stdout
    onos_sockets = [line.split()[3] for line in listening.splitlines()
                    if re.search(r"pid=(\d+)", line) and _in_group(line, pid)]
    assert onos_sockets, listening
    assert all(addr.rsplit(":", 1)[0] in ("127.0.0.1", "[::ffff:127.0.0.1]")
               for addr in onos_sockets), onos_sockets
    print(f"ONOS started in {onos.start_seconds:.0f} s; listening on {sorted(onos_sockets)}")


def _in_group(ss_line, group):
    """Whether a socket of `ss -p` belongs to a process of process group `group`."""
    for pid in re.findall(r"pid=(\d+)", ss_line):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[2] == group:  # field 5: the process group
            return True
    return False


def test_the_oar_installs_through_onos_rest(onos, installed):
    name, required, answer = installed
    assert answer["name"] == name and answer["state"] == "INSTALLED", answer
    listed = onos.applications()[name]
    assert listed["state"] == "INSTALLED" and listed["origin"] == "FlowBuf", listed
    assert set(required) == {"org.onosproject.protocols.grpc",
                             "org.onosproject.protocols.p4runtime",
                             "org.onosproject.drivers.bmv2", GUI_APP}, required


def test_flowbuf_is_active_with_its_components_satisfied(onos, flowbuf):
    # Karaf prints these two commands' output to an ssh exec session only through a pipe.
    listed = onos.shell.run("scr:list | cat")
    states = scr_states(listed)
    expected = flowbuf_components()
    assert expected <= set(states), (sorted(expected - set(states)), listed)
    assert {n: s for n, s in states.items() if s != "ACTIVE"} == {}, listed
    for name in sorted(expected):
        info = onos.shell.run(f"scr:info {name} | cat")
        assert re.search(r"^State:\s+ACTIVE", info, re.M), info
        total = re.search(r"^References:\s+\(total (\d+)\)", info, re.M)
        total = int(total.group(1)) if total else 0
        references = scr_references(info)
        assert len(references) == total, info
        assert [r for r, state in references if state != "SATISFIED"] == [], info


def test_onos_connects_to_pbswitch_and_pushes_flowbufs_pipeconf(onos, lab):
    try:
        wait(lambda: device(onos).get("available"), 240, f"{DEVICE} available in ONOS")
    except TimeoutError as e:
        pytest.fail(f"{e}; ONOS's log says:\n{onos.log_problems(lab.mark)}")
    seen = device(onos)
    assert seen["driver"].endswith(PIPECONF) or PIPECONF in onos.shell.run(
        f"onos:device-pipeconf {DEVICE}") or PIPECONF in json.dumps(seen), seen
    # The switch's side: pbswitch logged the pipeline ONOS pushed.
    with open(lab.switch.log_path) as log:
        assert "pipeline config" in log.read(), lab.switch.log_tail()
    # Ports come from pbswitch's gNMI (OpenConfig interfaces); ONOS 2.7's REST
    # names a port "[NAME](NUMBER)".
    ports = onos.rest.get(f"devices/{DEVICE}/ports")["ports"]
    numbers = {re.sub(r"^\[.*\]\((\d+)\)$", r"\1", p["port"]) for p in ports}
    assert {str(n) for n in HOSTS.values()} <= numbers, ports


def test_a_live_flow_pauses_and_resumes_through_flowbufs_rest_in_onos(forwarding):
    report = service_demo.pause_and_resume(forwarding, short_run())
    assert_lossless(report)
    print("REST under ONOS:", json.dumps(report))


def test_a_live_flow_pauses_and_resumes_through_the_onos_shell(forwarding, onos):
    # Each command is one exec over a kept ssh connection: the pause comes
    # seconds into a flow long enough to hold packets whatever the load.
    report = service_demo.pause_and_resume(forwarding, short_run(seconds=10, pause_at=2.0),
                                           control=CliControl(onos.shell))
    assert_lossless(report)
    print("ONOS shell:", json.dumps(report))


def test_bad_inputs_are_refused_with_a_message_and_change_nothing(lab, onos):
    intents_before = lab.rest.get("intents")["intents"]
    buffers_before = lab.rest.get(f"buffers/{DEVICE}")["buffers"]
    bad = [
        ("intents/pause", {"deviceId": DEVICE, "inPort": 1}, 400),
        ("intents/pause", {"deviceId": DEVICE, "inPort": 1,
                           "filter": {"ipv4Src": "10.0.0.999/32"}}, 400),
        ("intents/pause", {"deviceId": DEVICE, "inPort": 1, "filter": {}}, 400),
        ("intents/pause", {"deviceId": "device:s9", "inPort": 1, "filter": {"all": True}}, 404),
        ("intents/pause", {"deviceId": DEVICE, "inPort": 600, "filter": {"all": True}}, 400),
        ("intents/resume", {"deviceId": DEVICE, "outPort": 2, "filter": {"ipProto": 6}}, 404),
    ]
    for path, body, status in bad:
        with pytest.raises(RestError) as refused:
            lab.rest.post(path, body)
        assert refused.value.status == status, (path, body, refused.value.body)
        assert refused.value.body.strip(), (path, body)
    for command in (f"onos:flowbuf-pause --all {DEVICE} 600",
                    "onos:flowbuf-pause --all device:s9 1",
                    f"onos:flowbuf-pause --src 10.0.0.999 {DEVICE} 1"):
        out = onos.shell.run(command)
        assert re.search(r"^Error: \S", out, re.M), (command, out)
    # What the refused requests left: under ONOS, FlowBuf records some refused
    # intents as FAILED (seen live 2026-11-29); none may be installed, and no
    # buffer may be made.
    known = {i["id"] for i in intents_before}
    left = [i for i in lab.rest.get("intents")["intents"] if i["id"] not in known]
    assert [i for i in left if i["state"] != "FAILED"] == [], left
    assert lab.rest.get(f"buffers/{DEVICE}")["buffers"] == buffers_before


def test_the_gui_overlay_loads_in_onos_gui(onos, flowbuf):
    if onos.applications().get(GUI_APP, {}).get("state") != "ACTIVE":
        pytest.skip(f"ONOS's legacy GUI ({GUI_APP}, bundle onos-web-gui) is not active here")
    # ONOS's index page carries every UI extension's gui/js.html and gui/css.html.
    page = onos.gui_get("index.html")
    assert "<title>ONOS</title>" in page, page[:500]
    for resource in ("app/view/flowbufTopo/flowbufTopo.js", "app/view/flowbufTopo/flowbufModel.js",
                     "app/view/flowbufTopo/flowbufTopo.css"):
        assert resource in page, (resource, page)
        served = onos.gui_get(resource)
        local = (ROOT / "web-gui" / "src" / "main" / "resources" / resource).read_text()
        assert served == local, resource
