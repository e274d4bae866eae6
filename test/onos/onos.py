# SPDX-License-Identifier: Apache-2.0
"""One ONOS 2.7 instance for the live tests: started and stopped with
tools/onos/run.sh (loopback only), driven through ONOS's own REST API (as
`onos-app` and `onos-netcfg` call it) and its Karaf shell over ssh.

ONOS_ROOT names the runtime: an unpacked ONOS 2.7 release tarball, or the
one tools/onos/assemble.sh makes (the default, /work/onos-runtime/onos-2.7.0).
"""
import http.cookiejar
import json
import os
import pathlib
import re
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from xml.etree import ElementTree

from test.lab.servicelab import ROOT, Rest

RUN_SH = ROOT / "tools" / "onos" / "run.sh"
DEFAULT_ROOT = pathlib.Path(os.environ.get("ONOS_WORK", "/work/onos-runtime")) / "onos-2.7.0"
OAR_DIR = ROOT / "app" / "app" / "target"
# The modules whose bundles the .oar holds.
OAR_MODULES = ("proto", "pipeconf", "app", "cli", "web-gui")
USER, PASSWORD = "onos", "rocks"
# Ports of no other test (the embedded host's REST is 8181, ONOS's default).
SSH_PORT, HTTP_PORT = 28501, 28581
# A clean start on this 2-core machine took 87-94 s until ONOS's core was up,
# with other builds running; the first start also downloads Karaf's features.
START_TIMEOUT_S = 900
# Karaf log lines that say why a bundle or a feature did not start.
PROBLEM = re.compile(r"missing requirement|Unable to resolve|Error installing|"
                     r"Exception|Unable to activate|required app", re.I)


def onos_root():
    return pathlib.Path(os.environ.get("ONOS_ROOT") or DEFAULT_ROOT)


def missing():
    """Why the live tests cannot run here (one line), or None."""
    if not os.environ.get("FLOWBUF_TEST_ONOS"):
        return "the live ONOS tests run with `make test-onos`"
    root = onos_root()
    if not any(root.glob("apache-karaf-*")):
        return (f"no ONOS 2.7 runtime at {root}: set ONOS_ROOT to an unpacked ONOS 2.7 "
                f"release tarball, or run tools/onos/assemble.sh")
    status = subprocess.run([str(RUN_SH), "status"], env=_env(), capture_output=True, text=True)
    if status.returncode not in (0, 3):  # running, stopped; anything else: run.sh's reason
        return (status.stderr.strip().splitlines() or ["tools/onos/run.sh status failed"])[-1]
    return None


def _env():
    return dict(os.environ, ONOS_ROOT=str(onos_root()), ONOS_SSH_PORT=str(SSH_PORT),
                ONOS_HTTP_PORT=str(HTTP_PORT))


def oar_path():
    """FlowBuf's .oar as `mvn install` packages it; built again when missing or
    older than a source of the bundles it holds."""
    found = sorted(OAR_DIR.glob("flowbuf-app-*.oar"))
    if (not found or found[-1].stat().st_mtime < _newest_source()
            or _stale_bundles(found[-1])):
        subprocess.run(["mvn", "-B", "-ntp", "-q", "install", "-DskipTests"], cwd=ROOT,
                       check=True)
        found = sorted(OAR_DIR.glob("flowbuf-app-*.oar"))
    return found[-1]


def _stale_bundles(oar):
    """FlowBuf's bundles in the .oar that differ from the jars their modules
    built last. The .oar takes its bundles from ~/.m2: `mvn verify` packs
    what an older `mvn install` left there (a live run once served an old
    overlay script that way)."""
    stale = []
    with zipfile.ZipFile(oar) as z:
        for member in z.namelist():
            if not (member.startswith("m2/org/flowbuf/") and member.endswith(".jar")):
                continue
            built = [j for j in ROOT.glob(f"*/**/target/{pathlib.PurePath(member).name}")
                     if "osgi-it" not in j.parts]
            if len(built) != 1 or built[0].read_bytes() != z.read(member):
                stale.append(member)
    return stale


def _newest_source():
    newest = 0.0
    for module in OAR_MODULES:
        for path in (ROOT / module).rglob("*"):
            if "target" not in path.parts and path.is_file():
                newest = max(newest, path.stat().st_mtime)
    return newest


def oar_app(oar):
    """(app name, required apps) from the .oar's app.xml."""
    with zipfile.ZipFile(oar) as z:
        app = ElementTree.fromstring(z.read("app.xml"))
    return app.get("name"), [a for a in (app.get("apps") or "").split(",") if a]


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


def scr_states(listing):
    """{component name: state} of FlowBuf's components in `scr:list`'s output
    ("NAME in bundle N (...) enabled, 1 instance." then "    Id: 7, State:ACTIVE")."""
    states = dict(re.findall(r"^(org\.flowbuf\.[\w.]+) in bundle .*\n\s+Id: \d+, State:(\w+)",
                             listing, re.M))
    # A component without an instance (disabled, or not yet configured) has no Id line.
    for name in re.findall(r"^(org\.flowbuf\.[\w.]+) in bundle ", listing, re.M):
        states.setdefault(name, "NO INSTANCE")
    return states



def switch_entities(port):
    """What the switch holds, read over P4Runtime (no arbitration needed):
    ["table NAME action", ...] for every table entry, and the PRE's multicast
    groups and clone sessions."""
    import grpc
    from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc
    from test.packet.p4info import load_p4info
    info = load_p4info()
    tables = {t.preamble.id: t.preamble.name for t in info.tables}
    actions = {a.preamble.id: a.preamble.name for a in info.actions}
    request = p4runtime_pb2.ReadRequest(device_id=1)
    request.entities.add().table_entry.table_id = 0
    pre = request.entities.add().packet_replication_engine_entry
    pre.multicast_group_entry.multicast_group_id = 0
    request.entities.add().packet_replication_engine_entry.clone_session_entry.session_id = 0
    found = []
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        for response in p4runtime_pb2_grpc.P4RuntimeStub(channel).Read(request, timeout=20):
            for e in response.entities:
                if e.HasField("table_entry"):
                    found.append(f"table {tables[e.table_entry.table_id]} "
                                 f"{actions.get(e.table_entry.action.action.action_id)}")
                elif e.packet_replication_engine_entry.HasField("clone_session_entry"):
                    found.append("clone session "
                                 f"{e.packet_replication_engine_entry.clone_session_entry.session_id}")
                else:
                    found.append("multicast group " + str(
                        e.packet_replication_engine_entry.multicast_group_entry.multicast_group_id))
    return sorted(found)


class Onos:
    """The running instance; `start()` waits until ONOS's core is up. `host`:
    the address it serves on (a cluster's instances each have their own)."""

    def __init__(self, root=None, host="127.0.0.1"):
        self.root = pathlib.Path(root or onos_root())
        self.host = host
        self.karaf_log = next(self.root.glob("apache-karaf-*")) / "data" / "log" / "karaf.log"
        self.rest = Rest(f"http://{host}:{HTTP_PORT}/onos/v1", auth=(USER, PASSWORD))
        self.flowbuf = Rest(f"http://{host}:{HTTP_PORT}/onos/flowbuf", auth=(USER, PASSWORD))
        self.shell = None
        self.start_seconds = None

    def run_sh(self, *args, timeout=None):
        return subprocess.run([str(RUN_SH), *args], env=_env(), capture_output=True, text=True,
                              timeout=timeout)

    def start(self):
        """A clean start (ONOS's data/ wiped) on loopback; waits for the core."""
        started = time.monotonic()
        for args in (("start", "--clean"), ("wait", str(START_TIMEOUT_S))):
            done = self.run_sh(*args, timeout=START_TIMEOUT_S + 60)
            if done.returncode != 0:
                raise RuntimeError(f"run.sh {' '.join(args)}: {done.stdout}{done.stderr}\n"
                                   f"{self.log_problems()}")
        self.start_seconds = time.monotonic() - started
        self.shell = KarafShell(SSH_PORT, self.host)

    def stop(self):
        if self.shell:
            self.shell.close()
            self.shell = None
        self.run_sh("stop", timeout=120)

    def restart(self):
        """Karaf stopped and started again keeping its data/ (ONOS's state
        and app activations), as an operator restarts ONOS; waits for the
        core. Returns how long ONOS was away (s)."""
        started = time.monotonic()
        self.stop()
        for args in (("start",), ("wait", str(START_TIMEOUT_S))):
            done = self.run_sh(*args, timeout=START_TIMEOUT_S + 60)
            if done.returncode != 0:
                raise RuntimeError(f"run.sh {' '.join(args)}: {done.stdout}{done.stderr}\n"
                                   f"{self.log_problems()}")
        self.shell = KarafShell(SSH_PORT, self.host)
        self.reloaded_drivers = self._reload_driver_bundles_without_drivers()
        # The REST clients' kept connections were to the stopped server.
        self.rest = Rest(self.rest.base, auth=(USER, PASSWORD))
        self.flowbuf = Rest(self.flowbuf.base, auth=(USER, PASSWORD))
        return time.monotonic() - started

    # Driver bundles and the driver each registers; a bundle whose driver
    # extends one not yet registered loads nothing ("Unable to load
    # /bmv2-drivers.xml driver definitions ... Driver not found").
    DRIVER_BUNDLES = (("onos-drivers-stratum", "stratum"), ("onos-drivers-bmv2", "stratum-bmv2"))

    def _reload_driver_bundles_without_drivers(self):
        """Seen on this runtime's restarts (2026-11-29): the stratum and
        bmv2 driver bundles started before the drivers they extend and
        registered none, so no stratum-bmv2 device could connect. Restarts
        such a bundle, as an operator would (`bundle:restart`); returns the
        bundles restarted (the test prints them)."""
        restarted = []
        for bundle, driver in self.DRIVER_BUNDLES:
            def registered():
                listing = self.shell.run("onos:drivers -s | cat")
                return re.search(rf"^driver={re.escape(driver)},", listing, re.M)
            try:
                wait(registered, 30, f"driver {driver}")
                continue
            except TimeoutError:
                pass
            ids = re.findall(rf"^\s*(\d+)\s.*org\.onosproject\.{bundle}\s*$",
                             self.shell.run("bundle:list -s | cat"), re.M)
            for bundle_id in ids:
                self.shell.run(f"bundle:restart {bundle_id}")
            wait(registered, 60, f"driver {driver} after bundle:restart")
            restarted.append(bundle)
        return restarted

    def log_mark(self):
        """Where the Karaf log ends now: log_problems(since=mark) reads what follows."""
        return self.karaf_log.stat().st_size if self.karaf_log.exists() else 0

    def log_problems(self, since=0, limit=12):
        """The Karaf log's lines since `since` that say why something did not start."""
        if not self.karaf_log.exists():
            return "(no Karaf log)"
        with open(self.karaf_log, errors="replace") as log:
            log.seek(since)
            lines = [line.strip() for line in log if PROBLEM.search(line)]
        unique = list(dict.fromkeys(line.split(" | ")[-1][:400] for line in lines))
        return "\n".join(unique[:limit]) or "(nothing in the Karaf log)"

    # ONOS's application service, as bin/onos-app calls it.

    def applications(self):
        return {a["name"]: a for a in self.rest.get("applications")["applications"]}

    def _call(self, method, path, data=None, content_type=None):
        """A call as curl makes it in ONOS's scripts: a Content-Type only with a body."""
        headers = {"Authorization": self.rest.headers["Authorization"]}
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(f"http://{self.host}:{HTTP_PORT}/onos/v1/{path}",
                                         data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=120) as response:
            body = response.read()
        return json.loads(body) if body else None

    def install_oar(self, oar):
        """POST the .oar, as `onos-app HOST install FILE` does; returns the app's JSON."""
        return self._call("POST", "applications", oar.read_bytes(), "application/octet-stream")

    def activate(self, app):
        """As `onos-app HOST activate APP`: ONOS activates the apps it requires first."""
        return self._call("POST", f"applications/{app}/active")

    def deactivate(self, app):
        return self._call("DELETE", f"applications/{app}/active")

    def uninstall(self, app):
        return self._call("DELETE", f"applications/{app}")

    def gui_get(self, path):
        """A page of ONOS's legacy GUI (/onos/ui/PATH) after its form login, as
        a browser logs in (the GUI's index.html takes no basic auth)."""
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        base = f"http://{self.host}:{HTTP_PORT}/onos/ui"
        opener.open(f"{base}/index.html", timeout=30).read()  # the login page; a session
        form = urllib.parse.urlencode({"j_username": USER, "j_password": PASSWORD}).encode()
        opener.open(f"{base}/j_security_check", data=form, timeout=30).read()
        with opener.open(f"{base}/{path}", timeout=30) as response:
            return response.read().decode()

    def push_netcfg(self, config):
        """POST the network configuration, as `onos-netcfg HOST FILE` does."""
        return self.rest.post("network/configuration", config)


class KarafShell:
    """ONOS's CLI over Karaf's ssh (user onos): one connection, one exec
    channel per command, as `ssh -p 8101 onos@host CMD` runs it."""

    def __init__(self, port, host="127.0.0.1"):
        import paramiko
        self.client = paramiko.SSHClient()
        self.client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
        self.client.connect(host, port=port, username=USER, password=PASSWORD,
                            look_for_keys=False, allow_agent=False, timeout=30)

    def run(self, command, timeout=60):
        """The command's output (stdout and stderr together)."""
        _, stdout, stderr = self.client.exec_command(command, timeout=timeout)
        out = stdout.read().decode(errors="replace") + stderr.read().decode(errors="replace")
        return out.replace("\r\n", "\n")

    def complete(self, line, settle=3.0):
        """What Karaf's completion shows for `line` followed by TAB, typed
        in an interactive shell (a pty, as a user's ssh session has): the
        screen's text after the line, ANSI sequences removed."""
        channel = self.client.invoke_shell(width=200)
        try:
            self._read_until_quiet(channel, settle)  # the banner and the prompt
            channel.send(line + "\t")
            text = self._read_until_quiet(channel, settle)
            channel.send("\x03")  # Ctrl-C: the line is not run
            return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
        finally:
            channel.close()

    @staticmethod
    def _read_until_quiet(channel, settle):
        out = b""
        deadline = time.monotonic() + 30
        quiet_since = time.monotonic()
        while time.monotonic() < deadline and time.monotonic() - quiet_since < settle:
            if channel.recv_ready():
                out += channel.recv(65536)
                quiet_since = time.monotonic()
            else:
                time.sleep(0.05)
        return out.decode(errors="replace")

    def close(self):
        self.client.close()


def wait(predicate, timeout, what, step=1.0):
    """Polls predicate() (exceptions count as not yet) until it is true."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except (OSError, urllib.error.URLError, RuntimeError) as e:
            last = e
        time.sleep(step)
    raise TimeoutError(f"{what} not reached in {timeout} s" + (f" (last error: {last})"
                                                                 if last else ""))
