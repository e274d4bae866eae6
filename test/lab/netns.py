# SPDX-License-Identifier: Apache-2.0
"""Hosts (network namespaces) and veth links, created with iproute2."""
import ipaddress
import os
import subprocess


class LabError(RuntimeError):
    """A lab step failed; the message names the command and its stderr."""


def _run(*argv, check=True):
    proc = subprocess.run(argv, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise LabError(f"{' '.join(argv)}: {proc.stderr.strip()}")
    return proc


class Host:
    """A network namespace with one or more interfaces."""

    def __init__(self, lab, name):
        self.lab = lab
        self.name = name  # namespace name, carries the lab prefix

    def run(self, *argv, check=True):
        return _run("ip", "netns", "exec", self.name, *argv, check=check)

    def popen_argv(self, argv):
        """argv that runs `argv` inside this host."""
        return ["ip", "netns", "exec", self.name, *argv]

    def mac(self, ifname):
        return self.run("cat", f"/sys/class/net/{ifname}/address").stdout.strip()


class Lab:
    """Owns every namespace and root-namespace link it creates.

    Names are `<prefix><name>`; Linux limits interface names to 15 bytes, so
    keep prefixes short (e.g. "fbd-").
    """

    def __init__(self, prefix):
        if os.geteuid() != 0:
            raise LabError("the namespace lab needs root")
        self.prefix = prefix
        self.hosts = []
        self.root_links = []
        self.remove_leftovers()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def name(self, short):
        full = self.prefix + short
        if len(full) > 15:
            raise LabError(f"interface name {full!r} is longer than 15 bytes")
        return full

    def add_host(self, short):
        host = Host(self, self.prefix + short)
        _run("ip", "netns", "add", host.name)
        self.hosts.append(host)
        host.run("ip", "link", "set", "lo", "up")
        return host

    def link_host(self, host, host_if, switch_if, ip=None, mac=None, mtu=1500):
        """veth pair: `host_if` inside `host`, `switch_if` in the root namespace.

        The switch (pbswitch, buffer-agent) opens `switch_if`. Offloads are
        turned off on both ends so the frames that enter are the frames that
        leave (no GRO merging, no GSO segments).
        """
        sw = self.name(switch_if)
        _run("ip", "link", "add", sw, "mtu", str(mtu), "type", "veth",
             "peer", "name", host_if, "netns", host.name)
        self.root_links.append(sw)
        if mac:
            host.run("ip", "link", "set", host_if, "address", mac)
        host.run("ip", "link", "set", host_if, "up")
        _run("ip", "link", "set", sw, "up")
        _disable_offloads(sw)
        host.run("ethtool", "-K", host_if, "gro", "off", "gso", "off", "tso", "off",
                 "tx", "off", "rx", "off", check=False)
        if ip:
            ipaddress.ip_interface(ip)  # raises on a malformed address
            host.run("ip", "addr", "add", ip, "dev", host_if)
        # IPv6 DAD and router solicitations would add stray frames to counts.
        host.run("sysctl", "-qw", f"net.ipv6.conf.{host_if}.disable_ipv6=1", check=False)
        _run("sysctl", "-qw", f"net.ipv6.conf.{sw}.disable_ipv6=1", check=False)
        return sw

    def add_root_veth(self, a, b):
        """A veth pair with both ends in the root namespace (e.g. a vport)."""
        ea, eb = self.name(a), self.name(b)
        _run("ip", "link", "add", ea, "type", "veth", "peer", "name", eb)
        self.root_links.append(ea)
        for end in (ea, eb):
            _run("ip", "link", "set", end, "up")
            _disable_offloads(end)
            _run("sysctl", "-qw", f"net.ipv6.conf.{end}.disable_ipv6=1", check=False)
        return ea, eb

    def add_bridge(self, short, ports):
        """A Linux bridge in the root namespace over `ports` (the baseline
        that benchmarks compare a software switch against)."""
        br = self.name(short)
        _run("ip", "link", "add", br, "type", "bridge")
        self.root_links.append(br)
        for port in ports:
            _run("ip", "link", "set", port, "master", br)
        _run("ip", "link", "set", br, "up")
        return br

    def close(self):
        for link in reversed(self.root_links):
            _run("ip", "link", "del", link, check=False)
        for host in reversed(self.hosts):
            _run("ip", "netns", "del", host.name, check=False)
        self.root_links.clear()
        self.hosts.clear()

    def remove_leftovers(self):
        """Removes namespaces and links of an earlier lab with this prefix
        that was killed before it could clean up."""
        remove_prefixed(self.prefix)


def prefixed_namespaces(prefix):
    """The network namespaces whose names start with `prefix`, sorted."""
    names = (line.split(" ")[0] for line in _run("ip", "netns", "list").stdout.splitlines())
    return sorted(name for name in names if name.startswith(prefix))


def remove_prefixed(prefix):
    """Deletes every namespace and root-namespace link named `prefix`...:
    what a lab with that prefix left when it was killed."""
    for name in prefixed_namespaces(prefix):
        _run("ip", "netns", "del", name, check=False)
    for line in _run("ip", "-o", "link", "show").stdout.splitlines():
        ifname = line.split(":")[1].strip().split("@")[0]
        if ifname.startswith(prefix):
            _run("ip", "link", "del", ifname, check=False)


def _disable_offloads(ifname):
    _run("ethtool", "-K", ifname, "gro", "off", "gso", "off", "tso", "off",
         "tx", "off", "rx", "off", check=False)
