"""Node networking: loopback addresses (nothing to set up) or one network namespace per node.

netns mode: a bridge in the root namespace carries the control address (ZooKeeper, Nimbus); each
node is a namespace joined to the bridge by a veth pair, so node-to-node traffic crosses a real
link whose egress can be shaped with tc. Every address lives only on interfaces we create.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import subprocess
from collections.abc import Callable, Sequence

from pycontrol.cluster.spec import ClusterSpec
from pycontrol.errors import UserError

log = logging.getLogger(__name__)

NODE_IF = "eth0"  # interface name inside each node namespace


def _run(argv: Sequence[str], check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run(list(argv), capture_output=True, text=True)
    if check and p.returncode != 0:
        raise UserError(f"`{' '.join(argv)}` failed: {p.stderr.strip() or p.stdout.strip()}")
    return p


def netns_unavailable() -> str | None:
    """Why network namespaces cannot be created here, or None when they can (probed by making one)."""
    if os.geteuid() != 0:
        return "network namespaces need root (CAP_NET_ADMIN)"
    probe = "nonstop-probe"
    try:
        p = _run(["ip", "netns", "add", probe], check=False)
    except FileNotFoundError:
        return "the `ip` command (iproute2) is not installed"
    if p.returncode != 0:
        return f"cannot create network namespaces here ({p.stderr.strip()})"
    _run(["ip", "netns", "del", probe], check=False)
    return None


AUTO = "auto"   # a choice for commands, never a cluster's network: made concrete by resolve()


def resolve(requested: str, unavailable: Callable[[], str | None] = netns_unavailable) -> tuple[str, str]:
    """`auto` made concrete: netns where namespaces can be made, else loopback; another choice is kept.
    Returns the network and one line saying what was chosen and why (for the user and the results)."""
    if requested != AUTO:
        return requested, f"network: {requested} (as asked)"
    why = unavailable()
    if why is None:
        return "netns", "network: netns (auto: each node in its own network namespace)"
    return "loopback", f"network: loopback (auto: {why})"


def check_rights() -> None:
    """Fail early, and clearly, when namespaces cannot be created."""
    why = netns_unavailable()
    if why:
        raise UserError(f"--network netns: {why}; run as root or use --network loopback")


def link_qdisc(bandwidth: str | None, delay_ms: float | None) -> list[str] | None:
    """The tc qdisc for a node's egress: netem when a delay is asked for, else tbf for bandwidth only."""
    if delay_ms:
        args = ["netem", "delay", f"{delay_ms:g}ms"]
        return args + (["rate", bandwidth] if bandwidth else [])
    if bandwidth:
        # burst must hold at least one MTU-sized packet at this rate; 64 KiB is generous for <= 10 Gbit.
        return ["tbf", "rate", bandwidth, "burst", "64kb", "latency", "100ms"]
    return None


def up(spec: ClusterSpec) -> None:
    if spec.network != "netns":
        return
    check_rights()
    prefix = ipaddress.ip_network(spec.subnet).prefixlen
    _run(["ip", "link", "add", spec.bridge, "type", "bridge"])
    _run(["ip", "addr", "add", f"{spec.control_host}/{prefix}", "dev", spec.bridge])
    _run(["ip", "link", "set", spec.bridge, "up"])
    qdisc = link_qdisc(spec.link_bandwidth, spec.link_delay_ms)
    for n in spec.node_specs:
        _run(["ip", "netns", "add", n.netns])
        _run(["ip", "link", "add", n.veth_host, "type", "veth", "peer", "name", NODE_IF, "netns", n.netns])
        _run(["ip", "link", "set", n.veth_host, "master", spec.bridge, "up"])
        _run(["ip", "-n", n.netns, "addr", "add", f"{n.host}/{prefix}", "dev", NODE_IF])
        _run(["ip", "-n", n.netns, "link", "set", NODE_IF, "up"])
        _run(["ip", "-n", n.netns, "link", "set", "lo", "up"])
        if qdisc:
            p = _run(["ip", "netns", "exec", n.netns, "tc", "qdisc", "add", "dev", NODE_IF, "root", *qdisc],
                     check=False)
            if p.returncode != 0:
                hint = (" (this kernel has no netem qdisc: --link-delay is unavailable here; "
                        "--link-bandwidth alone uses tbf)" if "unknown" in p.stderr and qdisc[0] == "netem" else "")
                raise UserError(f"shaping {n.name}'s link failed: {p.stderr.strip()}{hint}")


def down(spec: ClusterSpec) -> None:
    """Remove what up() made; safe to call on partial or absent state."""
    if spec.network != "netns":
        return
    existing = set(_run(["ip", "netns", "list"], check=False).stdout.split())
    for n in spec.node_specs:
        if n.netns in existing:
            _run(["ip", "netns", "del", n.netns], check=False)  # takes the veth pair with it
        _run(["ip", "link", "del", n.veth_host], check=False)
    _run(["ip", "link", "del", spec.bridge], check=False)


def leftovers(spec: ClusterSpec) -> list[str]:
    """Namespaces and links of this cluster that still exist (for status and tests)."""
    if spec.network != "netns":
        return []
    found = []
    existing = set(_run(["ip", "netns", "list"], check=False).stdout.split())
    found += [n.netns for n in spec.node_specs if n.netns in existing]
    links = _run(["ip", "-o", "link", "show"], check=False).stdout
    names = {line.split(":")[1].strip().split("@")[0] for line in links.splitlines() if ":" in line}
    found += [x for x in [spec.bridge, *(n.veth_host for n in spec.node_specs)] if x in names]
    return found
