# SPDX-License-Identifier: Apache-2.0
"""stratum-configs/docker-compose.yml and buffer-agent.Dockerfile agree with
topology.json, netcfg.json, the app's required apps and tools/versions.env.

The images cannot be pulled here (Docker Hub is out of reach of the build
machines), so nothing is started: these checks are what can fail without it, so a renamed port, a new switch without its agent
or an unpinned image breaks the build and not a user's first start.
"""
import json
import pathlib
import re
import shlex
import shutil
import subprocess

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "stratum-configs"
COMPOSE_FILE = CONFIGS / "docker-compose.yml"
COMPOSE = yaml.safe_load(COMPOSE_FILE.read_text())
SERVICES = COMPOSE["services"]
DOCKERFILE = CONFIGS / "buffer-agent.Dockerfile"
TOPO = json.loads((CONFIGS / "topology.json").read_text())
NETCFG = json.loads((CONFIGS / "netcfg.json").read_text())
# ONOS's own ports (onosproject/onos:2.7.0 exposes these) in the shared namespace.
ONOS_PORTS = {6640, 6653, 8101, 8181, 9876}


def versions():
    """tools/versions.env as bash reads it (it is sourced by tools/setup.sh)."""
    out = subprocess.run(["bash", "-c", 'set -a; source tools/versions.env; env -0'],
                         cwd=ROOT, capture_output=True, check=True, timeout=30).stdout
    return dict(line.split("=", 1) for line in out.decode().split("\0") if "=" in line)


VERSIONS = versions()


def flag(command, name):
    """The value after -name in a service's command."""
    return command[command.index(name) + 1]


def host_path(service, container_path):
    """The file on this machine that a service sees at container_path through
    its bind mounts (relative host paths are relative to the compose file)."""
    for volume in SERVICES[service].get("volumes", []):
        source, target = volume.split(":")[:2]
        if container_path == target or container_path.startswith(target.rstrip("/") + "/"):
            rest = container_path[len(target):].lstrip("/")
            return (COMPOSE_FILE.parent / source / rest).resolve()
    raise AssertionError(f"{service} mounts nothing at {container_path}")


def agent_services():
    return {name: s for name, s in SERVICES.items() if name.startswith("buffer-agent-")}


def test_every_image_is_pinned_to_the_version_in_versions_env():
    assert SERVICES["onos"]["image"] == VERSIONS["ONOS_IMAGE"]
    assert SERVICES["mininet"]["image"] == VERSIONS["MN_STRATUM_IMAGE"]
    for name, service in SERVICES.items():
        image = service["image"]
        assert re.fullmatch(r"[\w./-]+:[\w.-]+", image), f"{name}: {image} has no tag"
        assert not image.endswith(":latest"), f"{name}: {image}"
        if image not in (VERSIONS["ONOS_IMAGE"], VERSIONS["MN_STRATUM_IMAGE"]):
            assert "build" in service, f"{name}: {image} is not in versions.env nor built here"
    stages = re.findall(r"^FROM\s+(\S+)", DOCKERFILE.read_text(), re.M)
    assert stages == [VERSIONS["AGENT_BUILD_IMAGE"], VERSIONS["AGENT_RUNTIME_IMAGE"]]


def test_the_go_image_is_at_least_the_go_version_of_go_mod():
    want = re.search(r"^go (\d+)\.(\d+)", (ROOT / "go.mod").read_text(), re.M).groups()
    have = re.fullmatch(r"golang:(\d+)\.(\d+)(\.\d+)?", VERSIONS["AGENT_BUILD_IMAGE"]).groups()[:2]
    assert tuple(map(int, have)) >= tuple(map(int, want))


def test_each_switch_has_an_agent_where_netcfg_says():
    by_switch = {name[len("buffer-agent-"):]: s for name, s in agent_services().items()}
    assert set(by_switch) == {sw["name"] for sw in TOPO["switches"]}
    for sw in TOPO["switches"]:
        agent = by_switch[sw["name"]]
        address = NETCFG["devices"][f'device:{sw["name"]}']["flowbuf"]["agentAddress"]
        assert flag(agent["command"], "-listen") == address == f'127.0.0.1:{sw["agent_port"]}'
        # In the switch host's namespace: it opens the vport veths' agent ends.
        assert agent["network_mode"] == "service:mininet"
        assert {"NET_ADMIN", "NET_RAW"} <= set(agent["cap_add"])
        assert agent["depends_on"]["mininet"]["condition"] == "service_healthy"
        assert agent["healthcheck"]["test"][-1].endswith(f'/dev/tcp/127.0.0.1/{sw["agent_port"]}')


def test_onos_reaches_switches_and_agents_at_netcfgs_addresses():
    # netcfg.json names 127.0.0.1: ONOS shares the switch host's namespace.
    assert SERVICES["onos"]["network_mode"] == "service:mininet"
    for sw in TOPO["switches"]:
        basic = NETCFG["devices"][f'device:{sw["name"]}']["basic"]
        assert basic["managementAddress"].startswith(f'grpc://127.0.0.1:{sw["grpc_port"]}?')


def test_mininet_waits_for_every_switchs_grpc_server():
    test = " ".join(SERVICES["mininet"]["healthcheck"]["test"])
    checked = {int(p) for p in re.findall(r"/dev/tcp/127\.0\.0\.1/(\d+)", test)}
    assert checked == {sw["grpc_port"] for sw in TOPO["switches"]}
    for name in ["onos", *agent_services()]:
        assert SERVICES[name]["depends_on"]["mininet"]["condition"] == "service_healthy"


def test_tcp_ports_in_the_shared_namespace_do_not_clash():
    used = {}
    for sw in TOPO["switches"]:
        used.setdefault(sw["grpc_port"], []).append(f'{sw["name"]} gRPC')
    for port in ONOS_PORTS:
        used.setdefault(port, []).append("ONOS")
    for name, agent in agent_services().items():
        for option in ("-listen", "-metrics-listen"):
            port = int(flag(agent["command"], option).rsplit(":", 1)[1])
            used.setdefault(port, []).append(f"{name} {option}")
    clashes = {port: users for port, users in used.items() if len(users) > 1}
    assert not clashes


def test_published_ports_are_on_the_hosts_loopback():
    published = SERVICES["mininet"]["ports"]
    for mapping in published:
        assert mapping.startswith("127.0.0.1:"), mapping
    targets = {int(m.rsplit(":", 1)[1]) for m in published}
    assert {8181, 8101} <= targets
    assert {sw["grpc_port"] for sw in TOPO["switches"]} <= targets
    for name, service in SERVICES.items():
        if name != "mininet":
            assert "ports" not in service, f"{name} shares mininet's namespace; publish there"


def test_mininet_runs_the_topology_script_on_the_committed_configs():
    entrypoint = SERVICES["mininet"]["entrypoint"]
    script = host_path("mininet", entrypoint[-1])
    assert script == CONFIGS / "mininet-topo.py"
    # With no --configs, the script reads the chassis configs beside the topology.
    for sw in TOPO["switches"]:
        assert (script.parent / f'chassis-config-{sw["name"]}.pb.txt').is_file()
    # BMV2_LOG_LEVEL (default warn) reaches stratum_bmv2 through the script.
    assert SERVICES["mininet"]["command"] == ["--bmv2-log-level", "${BMV2_LOG_LEVEL:-warn}"]
    assert SERVICES["mininet"]["privileged"] is True
    assert SERVICES["mininet"]["tty"] is True and SERVICES["mininet"]["stdin_open"] is True


def test_onos_activates_the_apps_the_oar_requires():
    pom = (ROOT / "app" / "app" / "pom.xml").read_text()
    required = re.search(r"<onos.app.requires>([^<]+)<", pom).group(1).split(",")
    apps = SERVICES["onos"]["environment"]["ONOS_APPS"].split(",")
    assert set(required) <= set(apps)
    assert all(app.startswith("org.onosproject.") for app in apps)


def test_onos_sees_the_oar_and_netcfg_where_the_docker_page_says():
    # The Docker install steps live on the docs site's page, not in the README.
    page = (ROOT / "docs" / "install" / "docker.md").read_text()
    paths = set(re.findall(r"(?<![\w/])/flowbuf/[\w./-]+", page))
    assert "/flowbuf/stratum-configs/netcfg.json" in paths
    oar = "/flowbuf/app/app/target/flowbuf-app-0.1.0-SNAPSHOT.oar"
    assert oar in paths
    pom = (ROOT / "app" / "app" / "pom.xml").read_text()
    assert re.search(r"<artifactId>flowbuf-app</artifactId>", pom)
    assert "<version>0.1.0-SNAPSHOT</version>" in pom
    for path in paths - {oar}:
        assert host_path("onos", path.rstrip(".")).exists(), path


def test_the_agent_image_builds_from_what_its_context_lets_in():
    ignore = (CONFIGS / "buffer-agent.Dockerfile.dockerignore").read_text().split("\n")
    allowed = [line[1:] for line in ignore if line.startswith("!")]
    assert ignore.count("*") == 1
    build = SERVICES["buffer-agent-s1"]["build"]
    assert (COMPOSE_FILE.parent / build["context"]).resolve() == ROOT
    assert (ROOT / build["dockerfile"]).resolve() == DOCKERFILE
    for line in DOCKERFILE.read_text().split("\n"):
        if line.startswith("COPY") and "--from" not in line:
            for source in shlex.split(line)[1:-1]:
                assert source in allowed, f"{source} is not in the build context"
                assert (ROOT / source).exists()


@pytest.mark.skipif(shutil.which("go") is None, reason="needs go to list the agent's packages")
def test_the_agents_packages_are_all_in_its_build_context():
    out = subprocess.run(
        ["go", "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}",
         "./buffer-agent/cmd/buffer-agent"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=300).stdout
    ours = [pathlib.Path(d) for d in out.split() if pathlib.Path(d).is_relative_to(ROOT)]
    assert ours
    for directory in ours:
        rel = directory.relative_to(ROOT).as_posix()
        assert rel.startswith(("buffer-agent", "proto/gen/go")), f"{rel} is not in the image"
