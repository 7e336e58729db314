"""Test "hosts" on one machine, for running the Ansible playbook against a multi-host cluster.

Each host is a network namespace with its own address on a private bridge (a subnet that exists
only on interfaces made here), its own hostname, and its own /etc, /opt, /var and /run: overlays
over the machine's directories, so packages installed on the machine are visible but whatever the
playbook writes (users, configs, releases, state, logs) stays in that host's upper directory. A
holder process (`sleep`) keeps the namespaces alive; Ansible's community.docker.nsenter connection
enters them through its pid. Every daemon started there lives in the host's network namespace, so
`down` finds and stops them all, then the namespaces, links and directories go.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

OVERLAID_DIRS = ("/etc", "/opt", "/var", "/run")
PREFIX_LEN = 24
CLONE_NEWNET = 0x40000000


def call_in_netns(netns: str, fn, *args, **kwargs):
    """fn(*args, **kwargs) in a thread that joined the named network namespace (`ip netns`): the sockets it
    opens are that host's. A namespace is per thread, so the caller's own network stays as it was."""
    outcome: dict = {}

    def target():
        libc = ctypes.CDLL(None, use_errno=True)
        fd = os.open(f"/run/netns/{netns}", os.O_RDONLY)
        try:
            if libc.setns(fd, CLONE_NEWNET) != 0:
                outcome["error"] = OSError(ctypes.get_errno(), f"setns into {netns}")
                return
        finally:
            os.close(fd)
        try:
            outcome["value"] = fn(*args, **kwargs)
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread as it is
            outcome["error"] = e

    thread = threading.Thread(target=target, name=f"in-{netns}")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


@dataclass(frozen=True)
class NetnsHost:
    name: str
    address: str
    netns: str
    veth: str


def _run(*argv: str, check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run(list(argv), capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError(f"`{' '.join(argv)}` failed: {p.stderr.strip() or p.stdout.strip()}")
    return p


def _holder_script(host: NetnsHost, root: Path) -> str:
    lines = ["set -e"]
    for d in OVERLAID_DIRS:
        upper, work = root / "upper" / d.strip("/"), root / "work" / d.strip("/")
        lines.append(f"mkdir -p {upper} {work}")
        lines.append(f"mount -t overlay overlay -o lowerdir={d},upperdir={upper},workdir={work} {d}")
    lines += [f"hostname {host.name}", f"touch {root / 'ready'}", "exec sleep infinity"]
    return "\n".join(lines)


class NetnsHosts:
    """hosts: name -> address (all in bridge_address's /24). tag names the bridge, namespaces and
    veths (keep it short: interface names have at most 15 characters)."""

    def __init__(self, hosts: dict[str, str], bridge_address: str, workdir: Path, tag: str = "nsops"):
        self.tag = tag
        self.bridge = f"{tag}br"
        self.bridge_address = bridge_address
        self.workdir = workdir
        self.hosts = [NetnsHost(name, addr, f"{tag}-{name}", f"{tag}v{i}")
                      for i, (name, addr) in enumerate(sorted(hosts.items()), start=1)]
        self.holders: dict[str, subprocess.Popen] = {}

    @property
    def pid_dir(self) -> Path:
        """<host>.pid files: what the netns inventory's ansible_nsenter_pid reads."""
        return self.workdir / "pids"

    def root(self, host: NetnsHost) -> Path:
        return self.workdir / "hosts" / host.name

    def up(self, timeout_s: float = 20) -> None:
        if os.geteuid() != 0:
            raise PermissionError("network namespaces and overlay mounts need root")
        # The names come from the tag, so what a killed earlier run left (its bridge, namespaces,
        # veths, daemons) would make `ip link add` fail with "File exists": clear it first.
        self.down(grace_s=5)
        self.pid_dir.mkdir(parents=True, exist_ok=True)
        _run("ip", "link", "add", self.bridge, "type", "bridge")
        _run("ip", "addr", "add", f"{self.bridge_address}/{PREFIX_LEN}", "dev", self.bridge)
        _run("ip", "link", "set", self.bridge, "up")
        for h in self.hosts:
            _run("ip", "netns", "add", h.netns)
            _run("ip", "link", "add", h.veth, "type", "veth", "peer", "name", "eth0", "netns", h.netns)
            _run("ip", "link", "set", h.veth, "master", self.bridge, "up")
            _run("ip", "-n", h.netns, "addr", "add", f"{h.address}/{PREFIX_LEN}", "dev", "eth0")
            _run("ip", "-n", h.netns, "link", "set", "eth0", "up")
            _run("ip", "-n", h.netns, "link", "set", "lo", "up")
            root = self.root(h)
            root.mkdir(parents=True, exist_ok=True)
            # No pid namespace: daemons get reaped by the machine's init, and nsenter finds them.
            self.holders[h.name] = subprocess.Popen(
                ["ip", "netns", "exec", h.netns, "unshare", "--mount", "--uts", "--propagation", "private",
                 "sh", "-c", _holder_script(h, root)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(root / "holder.err", "w"))
        deadline = time.monotonic() + timeout_s
        for h in self.hosts:
            while not (self.root(h) / "ready").exists():
                if self.holders[h.name].poll() is not None:
                    raise RuntimeError(f"holder of {h.name} died: {(self.root(h) / 'holder.err').read_text()}")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"holder of {h.name} not ready after {timeout_s} s")
                time.sleep(0.05)
            # `ip netns exec` and `unshare` exec (no fork): the Popen pid is the sleep's.
            (self.pid_dir / f"{h.name}.pid").write_text(f"{self.holders[h.name].pid}\n")

    def call_in(self, name: str, fn, *args, **kwargs):
        """fn(*args, **kwargs) with the network of host `name` (see call_in_netns)."""
        (host,) = [h for h in self.hosts if h.name == name]
        return call_in_netns(host.netns, fn, *args, **kwargs)

    def pids_in(self, host: NetnsHost) -> list[int]:
        p = _run("ip", "netns", "pids", host.netns, check=False)
        return [int(x) for x in p.stdout.split()] if p.returncode == 0 else []

    def down(self, grace_s: float = 20) -> None:
        """Stop every process in the hosts' namespaces, then remove namespaces, links and dirs.
        Safe on partial or absent state."""
        for sig, wait_s in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 10)):
            pids = [pid for h in self.hosts for pid in self.pids_in(h)]
            for pid in pids:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + wait_s
            while any(self.pids_in(h) for h in self.hosts) and time.monotonic() < deadline:
                time.sleep(0.2)
        for popen in self.holders.values():
            try:
                popen.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        existing = set(_run("ip", "netns", "list", check=False).stdout.split())
        for h in self.hosts:
            if h.netns in existing:
                _run("ip", "netns", "del", h.netns, check=False)
            _run("ip", "link", "del", h.veth, check=False)
        _run("ip", "link", "del", self.bridge, check=False)
        shutil.rmtree(self.workdir / "hosts", ignore_errors=True)

    def leftovers(self) -> list[str]:
        """What down() should have removed and did not: processes, namespaces, links, mounts."""
        found = [f"pid {pid} in {h.netns}" for h in self.hosts for pid in self.pids_in(h)]
        existing = set(_run("ip", "netns", "list", check=False).stdout.split())
        found += [f"netns {h.netns}" for h in self.hosts if h.netns in existing]
        links = _run("ip", "-o", "link", "show", check=False).stdout
        names = {line.split(":")[1].strip().split("@")[0] for line in links.splitlines() if ":" in line}
        found += [f"link {x}" for x in [self.bridge, *(h.veth for h in self.hosts)] if x in names]
        marker = str(self.workdir / "hosts")
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit():
                try:
                    if marker in (proc / "mountinfo").read_text():
                        found.append(f"mount of {marker} seen by pid {proc.name}")
                except OSError:
                    pass
        return found
