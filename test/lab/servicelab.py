# SPDX-License-Identifier: Apache-2.0
"""The embedded-mode lab: hosts, pbswitch (or BMv2) and the FlowBuf embedded host.

    h1 --- port 1 \\                 / in-process buffers on vports 100, 101
    h2 --- port 2 -- pbswitch s1 --<   (or an external buffer-agent on veths)
    h3 --- port 3 /                 \\ P4Runtime <- embedded host -> REST :8181

The same topology as stratum-configs/topology.json. Used by `make demo`, the
end-to-end tests, `make bench-service` and the GUI test. Everything is torn
down when the lab closes.
"""
import base64
import http.client
import json
import pathlib
import shutil
import tempfile
import threading
import time
import urllib.parse

from .netns import Lab
from .procs import ProcessLab

ROOT = pathlib.Path(__file__).resolve().parents[2]
HOST_JAR = ROOT / "host" / "target" / "flowbuf-host.jar"
# Where an external agent keeps its held packets across a crash: tmpfs.
STATE_ROOT = "/dev/shm" if pathlib.Path("/dev/shm").is_dir() else None
P4INFO = ROOT / "pipeconf" / "p4src" / "build" / "p4info.txt"
BMV2_JSON = ROOT / "pipeconf" / "p4src" / "build" / "bmv2.json"
DEVICE = "device:s1"
HOSTS = {"h1": 1, "h2": 2, "h3": 3}
VPORTS = (100, 101)
EXTERNAL_REPLAY_BPS = 100_000_000
# BMv2 (simple_switch_grpc, built -O2 with its logging compiled in) forwards
# far fewer packets per second than pbswitch, and its 64-packet queues drop
# what a faster replay sends: the demo (5,000 packets/s) lost 484 packets
# at a 10 Mbit/s replay and none at 5 Mbit/s.
BMV2_REPLAY_BPS = 5_000_000
# The host's heap is fixed and touched at start: without -Xmx the JVM may
# grow it to a quarter of the machine's memory, and under load it does
# (make bench-load: the host's RSS rose 334 -> 700 MB in 60 s of REST load
# while the heap in use after a full GC was 29 MB); with -Xmx256m alone it
# still rose 244 -> 398 MB in 5 min as the JVM touched its heap up to the
# bound. Fixed at 192 MB (heap in use after a full GC: 25-65 MB), the RSS
# rose 8 MB in those 5 min (1.3 MB/min over the second half).
HOST_JVM_OPTS = ("-Xms192m", "-Xmx192m", "-XX:+AlwaysPreTouch")


def ensure_built():
    """Builds bin/pbswitch, bin/buffer-agent (Go caches make this quick) and
    the host jar when it is missing."""
    import subprocess
    subprocess.run(["go", "build", "-o", "bin/", "./buffer-agent/cmd/buffer-agent",
                    "./pbswitch/cmd/pbswitch"], cwd=ROOT, check=True)
    if not HOST_JAR.exists():
        subprocess.run(["mvn", "-B", "-ntp", "-q", "install", "-DskipTests", "-pl", "host", "-am"],
                       cwd=ROOT, check=True)


def mac_of(name):
    return "00:00:00:00:00:%02x" % HOSTS[name]


def ip_of(name):
    return "10.0.0.%d" % HOSTS[name]


def server_timing_ms(header):
    """The app;dur=<ms> of a Server-Timing header, or None."""
    for metric in (header or "").split(","):
        name, _, params = metric.strip().partition(";")
        if name == "app":
            for param in params.split(";"):
                key, _, value = param.strip().partition("=")
                if key == "dur":
                    return float(value)
    return None


class RestError(RuntimeError):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


class Rest:
    """A JSON client of the FlowBuf REST API over keep-alive connections (one
    per thread): a new TCP connection per call would cost the client more
    than the server's work, and every latency figure would carry it."""

    # The JDK server drops a connection after 30 s idle; open a fresh one
    # well before, rather than retry a request that may have been applied.
    IDLE_S = 5.0

    def __init__(self, base, auth=None):
        self.base = base.rstrip("/")
        url = urllib.parse.urlsplit(self.base)
        self.netloc, self.prefix = url.netloc, url.path
        self.local = threading.local()
        # (user, password) for HTTP basic auth, as ONOS's web server wants.
        self.headers = {}
        if auth:
            token = base64.b64encode(("%s:%s" % auth).encode()).decode()
            self.headers["Authorization"] = "Basic " + token

    def _connection(self):
        now = time.monotonic()
        conn = getattr(self.local, "conn", None)
        if conn is None or now - self.local.used > self.IDLE_S:
            if conn is not None:
                conn.close()
            conn = self.local.conn = http.client.HTTPConnection(self.netloc, timeout=30)
        self.local.used = now
        return conn

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body)
        conn = self._connection()
        try:
            # A Content-Type only with a body: ONOS's Jersey refuses a GET
            # that names one (415).
            headers = dict(self.headers, **({} if data is None
                                            else {"Content-Type": "application/json"}))
            conn.request(method, self.prefix + "/" + path.lstrip("/"), body=data,
                         headers=headers)
            resp = conn.getresponse()
            text = resp.read().decode()
        except (OSError, http.client.HTTPException):
            conn.close()
            self.local.conn = None
            raise
        self.local.server_ms = server_timing_ms(resp.getheader("Server-Timing"))
        if resp.status >= 300:
            raise RestError(resp.status, text)
        return json.loads(text) if text else None

    def server_ms(self):
        """The controller's own time on this thread's latest call (its
        Server-Timing header), or None when it sent none."""
        return getattr(self.local, "server_ms", None)

    def get(self, path):
        return self.call("GET", path)

    def post(self, path, body):
        return self.call("POST", path, body)

    def delete(self, path):
        return self.call("DELETE", path)


def netcfg(p4rt_port, agent_port, external, ready_buffers=0, replay_bps=EXTERNAL_REPLAY_BPS,
           prefix="fbs-", vport_numbers=VPORTS, vport_tags=None):
    vports = []
    for number in vport_numbers:
        vport = {"id": f"vp{number}", "switchPort": number}
        if vport_tags:
            # Logical vports vp<N>.1 .. vp<N>.<tags> on the one port.
            vport["tags"] = vport_tags
        if external:
            vport["interface"] = f"{prefix}a{number}"
            # An external agent replays over a veth into a switch port: paced
            # below what pbswitch forwards to the out port, or its queue drops.
            vport["txRateBps"] = replay_bps
        vports.append(vport)
    return {
        "devices": {DEVICE: {
            "basic": {"managementAddress": f"grpc://127.0.0.1:{p4rt_port}?device_id=1",
                      "driver": "stratum-bmv2", "pipeconf": "org.flowbuf.pipeconf",
                      "name": "s1"},
            "flowbuf": {"agentAddress": f"127.0.0.1:{agent_port}",
                        "inProcess": not external, "vports": vports,
                        "readyBuffers": ready_buffers},
        }},
        "hosts": {f"{mac_of(h)}/None": {"basic": {"name": h, "ips": [ip_of(h)],
                                                  "locations": [f"{DEVICE}/{port}"]}}
                  for h, port in HOSTS.items()},
    }


class ServiceLab(ProcessLab):
    """Context manager: the lab up, the host ready, `rest` usable."""

    # Fixed ports sit below Linux's ephemeral range (32768-60999), where an
    # outgoing connection of any process could already hold them.
    SWITCHES = ("pbswitch", "bmv2")

    def __init__(self, external_agent=False, p4rt_port=28201, agent_port=28261,
                 rest_port=8181, prefix="fbs-", ready_buffers=0, switch="pbswitch",
                 vports=VPORTS, replay_bps=None, vport_tags=None, p4info=P4INFO):
        if switch not in self.SWITCHES:
            raise ValueError(f"switch is one of {self.SWITCHES}, not {switch!r}")
        # BMv2 has no in-process buffers: they live in a buffer-agent on vport
        # veths, as beside Stratum in production.
        self.external = external_agent or switch == "bmv2"
        self.switch_kind = switch
        self.ready_buffers = ready_buffers
        self.vports = tuple(vports)  # switch port numbers of the buffers' vports
        self.vport_tags = vport_tags  # logical vports per vport port; None: one, untagged
        self.p4rt_port, self.agent_port, self.rest_port = p4rt_port, agent_port, rest_port
        self.prefix = prefix
        # An external agent's replay rate (txRateBps of its vports); None: the default.
        self.replay_bps = replay_bps
        # The p4info the host pushes with the program (pbswitch sizes its
        # tables by it): a lab may push one with a smaller table.
        self.p4info = p4info
        self.hosts = {}

    def _start(self):
        self._start_network()
        cfg = pathlib.Path(self.logs) / "netcfg.json"
        cfg.write_text(json.dumps(self.netcfg(), indent=2))
        self._host_argv = ["java", *HOST_JVM_OPTS, "-jar", str(HOST_JAR), "--netcfg", str(cfg),
                           "--p4info", str(self.p4info), "--device-config", str(BMV2_JSON),
                           "--listen", f"127.0.0.1:{self.rest_port}"]
        self.host = self._run(self._host_argv, "host", self.rest_port, timeout=60)
        self.rest = Rest(f"http://127.0.0.1:{self.rest_port}/onos/flowbuf")

    def netcfg(self):
        """The network configuration of this lab's switch, agent and hosts, as
        ONOS's netcfg service (or the embedded host) takes it."""
        replay_bps = self.replay_bps or (BMV2_REPLAY_BPS if self.switch_kind == "bmv2"
                                         else EXTERNAL_REPLAY_BPS)
        return netcfg(self.p4rt_port, self.agent_port, self.external, self.ready_buffers,
                      replay_bps, self.prefix, self.vports, self.vport_tags)

    def _start_network(self):
        """The namespaces, their links, the external agent if any and the switch."""
        self.logs = tempfile.mkdtemp(prefix="flowbuf-lab-")
        self.lab = Lab(self.prefix)
        self._stack.append(self.lab.close)
        ports = []
        for name, number in HOSTS.items():
            host = self.lab.add_host(name)
            sw_if = self.lab.link_host(host, "eth0", f"e{number}", ip=ip_of(name) + "/24",
                                       mac=mac_of(name))
            ports += ["--port", f"{number}={sw_if}"]
            self.hosts[name] = host
        for name, host in self.hosts.items():
            for other in HOSTS:
                if other != name:
                    host.run("ip", "neigh", "add", ip_of(other), "lladdr", mac_of(other),
                             "dev", "eth0")
        if self.external:
            for number in self.vports:
                sw_end, _ = self.lab.add_root_veth(f"v{number}", f"a{number}")
                ports += ["--port", f"{number}={sw_end}"]
            # Its own state dir (tmpfs), made empty for this lab: a restart
            # re-attaches what this lab's agent held, never what another
            # run left.
            state = tempfile.mkdtemp(prefix=f"flowbuf-lab-{self.prefix}", dir=STATE_ROOT)
            self._stack.append(lambda: shutil.rmtree(state, ignore_errors=True))
            self._agent_argv = [str(ROOT / "bin" / "buffer-agent"), "-listen",
                                f"127.0.0.1:{self.agent_port}", "-metrics-listen", "",
                                "-log-format", "text", "-state-dir", state]
            self.agent = self._run(self._agent_argv, "agent", self.agent_port)
        self.switch = self._run(self._switch_argv(ports), self.switch_kind, self.p4rt_port)

    def _switch_argv(self, ports):
        """The switch's command line; `ports` is ["--port", "N=IFNAME", ...]."""
        if self.switch_kind == "bmv2":
            # Started without a program: the host pushes the pipeconf, as ONOS does.
            argv = ["simple_switch_grpc", "--no-p4", "--device-id", "1", "--log-console",
                    "--log-level", "warn"]
            for number_if in ports[1::2]:
                number, _, ifname = number_if.partition("=")
                argv += ["-i", f"{number}@{ifname}"]
            return argv + ["--", "--grpc-server-addr", f"127.0.0.1:{self.p4rt_port}",
                           "--cpu-port", "255"]
        argv = [str(ROOT / "bin" / "pbswitch"), "--p4rt-listen",
                f"127.0.0.1:{self.p4rt_port}", *ports]
        if self.external:
            return argv + ["--buffer-listen", ""]
        for number in self.vports:
            argv += ["--vport", str(number)]
        return argv + ["--buffer-listen", f"127.0.0.1:{self.agent_port}"]

    def kill_agent(self):
        """kill -9 of the external buffer-agent (what it holds stays in its
        state dir, for start_agent to re-attach)."""
        if not self.external:
            raise RuntimeError("the lab has no external buffer-agent")
        self.agent.popen.kill()
        self.agent.popen.wait()
        self.agent.stop()

    def start_agent(self):
        """Starts the external buffer-agent again on the same address; returns
        once it listens."""
        self.agent = self._run(self._agent_argv, "agent-restarted", self.agent_port)

    def kill_switch(self):
        """kill -9 of the switch (pbswitch's in-process buffers die with it)."""
        self._switch_argv_running = self.switch.popen.args
        self.switch.popen.kill()
        self.switch.popen.wait()
        self.switch.stop()

    def start_switch(self):
        """Starts the killed switch again with the same command line; returns
        once it listens (the host takes it back by itself)."""
        self.switch = self._run(self._switch_argv_running, f"{self.switch_kind}-restarted",
                                self.p4rt_port)

    def restart_host(self):
        """Stops the embedded host (SIGTERM) and starts it again, as after a
        controller restart; pbswitch and the buffers keep running."""
        self.host.stop()
        self.host = self._run(self._host_argv, "host-restarted", self.rest_port, timeout=60)
        self.rest = Rest(self.rest.base)  # the old host's connections are gone
