"""What a local cluster looks like: nodes, addresses, ports and directories. Pure data, no I/O."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import asdict, dataclass, field
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from pycontrol.cluster.storm_versions import DEFAULT_STORM_VERSION, check_version
from pycontrol.errors import UserError

NETWORKS = ("loopback", "netns")
# Per-node port block: thrift port first, then the slot ports.
NODE_PORT_STRIDE = 20
MAX_SLOTS = NODE_PORT_STRIDE - 1
MAX_NODES = 50
# storm.yaml keys the cluster manager derives from the spec (addresses, ports, directories, JVM options
# carrying the cluster marker): overriding them would break the cluster or hide its processes from `down`.
RESERVED_CONF_KEYS = frozenset({
    "storm.zookeeper.servers", "storm.zookeeper.port", "storm.zookeeper.root", "nimbus.seeds",
    "nimbus.thrift.port", "ui.port", "ui.host", "storm.local.dir", "storm.local.hostname", "storm.log.dir",
    "storm.log4j2.conf.dir", "supervisor.thrift.port", "supervisor.slots.ports", "worker.childopts",
    "supervisor.childopts", "topology.worker.logwriter.childopts",
})


@dataclass(frozen=True)
class NodeSpec:
    index: int                 # 1-based
    name: str                  # "node1"
    host: str                  # address the supervisor advertises (storm.local.hostname)
    thrift_port: int
    slot_ports: tuple[int, ...]
    netns: str | None          # network namespace name, netns mode only
    veth_host: str | None      # bridge-side veth name, netns mode only
    cpus: tuple[int, ...] = ()  # CPUs the node's supervisor and workers may run on; () = any


@dataclass(frozen=True)
class ClusterSpec:
    home: Path
    nodes: int = 2
    slots: int = 4
    network: str = "loopback"
    link_bandwidth: str | None = None   # tc rate, e.g. "100mbit"
    link_delay_ms: float | None = None
    # Per node, the CPUs it is pinned to (its "machine"); () = every node runs on any CPU.
    node_cpus: tuple[tuple[int, ...], ...] = ()
    # Per node, its slot count when the nodes differ (a node with fewer slots, as on a smaller machine);
    # () = every node has `slots`.
    node_slots: tuple[int, ...] = ()
    port_base: int = 17000
    subnet: str = "10.231.170.0/24"     # netns mode only; exists only on our bridge and namespaces
    name: str = "local"
    migration: bool = True              # nonstop migration agent + plan-following scheduler
    storm_version: str = DEFAULT_STORM_VERSION  # the Storm release the daemons and workers run
    zk_acl: bool = True                 # ZooKeeper digest auth and ACLs (False: stock open ZooKeeper, insecure)
    # Extra storm.yaml keys for every daemon and worker, applied last: ((key, value), ...) sorted by key.
    extra_conf: tuple[tuple[str, Any], ...] = ()
    node_specs: tuple[NodeSpec, ...] = field(default=(), compare=False)

    # Ports of the control processes, fixed offsets from port_base.
    @property
    def zk_port(self) -> int:
        return self.port_base

    @property
    def nimbus_port(self) -> int:
        return self.port_base + 1

    @property
    def ui_port(self) -> int:
        return self.port_base + 2

    @property
    def control_host(self) -> str:
        """Where ZooKeeper and Nimbus are reached from the nodes."""
        if self.network == "netns":
            return str(next(ipaddress.ip_network(self.subnet).hosts()))
        return "127.0.0.1"

    @property
    def ui_url(self) -> str:
        return f"http://127.0.0.1:{self.ui_port}"

    @property
    def bridge(self) -> str:
        return f"nst{self.tag}br"

    @property
    def tag(self) -> str:
        """Short id for interface names (15 chars max in Linux): derived from the port base."""
        return f"{self.port_base % 10000:04d}"

    @property
    def total_slots(self) -> int:
        return sum(self.node_slots) if self.node_slots else self.nodes * self.slots

    def all_ports(self) -> list[int]:
        ports = [self.zk_port, self.nimbus_port, self.ui_port]
        for n in self.node_specs:
            ports.append(n.thrift_port)
            ports.extend(n.slot_ports)
        return ports

    def to_dict(self) -> dict:
        d = asdict(self)
        d["home"] = str(self.home)
        return d


def make_spec(home: Path, nodes: int = 2, slots: int = 4, network: str = "loopback",
              link_bandwidth: str | None = None, link_delay_ms: float | None = None,
              port_base: int = 17000, subnet: str | None = None, name: str = "local",
              migration: bool = True, extra_conf: Mapping[str, Any] | None = None,
              node_cpus: str | tuple[tuple[int, ...], ...] | None = None,
              node_slots: str | tuple[int, ...] | None = None,
              storm_version: str = DEFAULT_STORM_VERSION, zk_acl: bool = True) -> ClusterSpec:
    """Validate the user's choices and derive every node's address and ports."""
    if network not in NETWORKS:
        raise UserError(f"--network must be one of {', '.join(NETWORKS)}, got '{network}'")
    if not 1 <= nodes <= MAX_NODES:
        raise UserError(f"--nodes must be between 1 and {MAX_NODES}, got {nodes}")
    if not 1 <= slots <= MAX_SLOTS:
        raise UserError(f"--slots must be between 1 and {MAX_SLOTS}, got {slots}")
    if (link_bandwidth or link_delay_ms) and network != "netns":
        raise UserError("--link-bandwidth/--link-delay shape namespace links: they need --network netns")
    if link_bandwidth is not None and not re.fullmatch(r"\d+(\.\d+)?([kmg]?bit|[kmg]?bps)", link_bandwidth):
        raise UserError(f"--link-bandwidth must look like 100mbit or 1gbit, got '{link_bandwidth}'")
    if link_delay_ms is not None and not 0 <= link_delay_ms <= 10_000:
        raise UserError(f"--link-delay must be between 0 and 10000 ms, got {link_delay_ms}")
    top = port_base + 100 + nodes * NODE_PORT_STRIDE
    if port_base < 1024 or top > 65535:
        raise UserError(f"--port-base {port_base} leaves no room for {nodes} nodes (ports up to {top})")
    # Derived from the port base, so clusters that differ in ports never share a subnet either.
    subnet = subnet or f"10.231.{(port_base // 100) % 256}.0/24"
    net = ipaddress.ip_network(subnet)
    if network == "netns" and net.num_addresses < nodes + 12:
        raise UserError(f"subnet {subnet} is too small for {nodes} nodes")
    check_version(storm_version)
    if not re.fullmatch(r"[a-z][a-z0-9-]{0,15}", name):
        raise UserError(f"cluster name must be lowercase letters, digits and '-', got '{name}'")

    pinned = parse_node_cpus(node_cpus) if isinstance(node_cpus, str) else tuple(node_cpus or ())
    if pinned and len(pinned) != nodes:
        raise UserError(f"--node-cpus gives CPUs for {len(pinned)} nodes, the cluster has {nodes}")
    counts = parse_node_slots(node_slots) if isinstance(node_slots, str) else tuple(node_slots or ())
    if counts and len(counts) != nodes:
        raise UserError(f"--node-slots gives slot counts for {len(counts)} nodes, the cluster has {nodes}")
    bad = [c for c in counts if not 1 <= c <= MAX_SLOTS]
    if bad:
        raise UserError(f"--node-slots: every node needs between 1 and {MAX_SLOTS} slots, got {bad[0]}")
    base = ClusterSpec(home=home, nodes=nodes, slots=slots, network=network, link_bandwidth=link_bandwidth,
                       link_delay_ms=link_delay_ms, node_cpus=pinned, node_slots=counts, port_base=port_base,
                       subnet=subnet, name=name, migration=migration, zk_acl=zk_acl,
                       extra_conf=_extra_conf(extra_conf or {}), storm_version=storm_version)
    node_specs = []
    for i in range(1, nodes + 1):
        first = port_base + 100 + (i - 1) * NODE_PORT_STRIDE
        own = counts[i - 1] if counts else slots
        if network == "netns":
            host = str(net.network_address + 10 + i)
            ns, veth = f"nonstop-{base.tag}-node{i}", f"nst{base.tag}h{i}"
        else:
            host, ns, veth = f"127.0.0.{10 + i}", None, None
        node_specs.append(NodeSpec(index=i, name=f"node{i}", host=host, thrift_port=first,
                                   slot_ports=tuple(range(first + 1, first + 1 + own)), netns=ns, veth_host=veth,
                                   cpus=pinned[i - 1] if pinned else ()))
    return ClusterSpec(**{**base.__dict__, "node_specs": tuple(node_specs)})


def parse_node_cpus(text: str) -> tuple[tuple[int, ...], ...]:
    """"0;1" or "0-1;2,3" -> one CPU list per node, separated by ';' ("" = not pinned). Lists may
    overlap (nodes then share those CPUs); whether the CPUs exist is checked when the cluster starts."""
    if not text.strip():
        return ()
    out = []
    for part in text.split(";"):
        cpus: set[int] = set()
        for item in part.split(","):
            m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", item)
            if not m or (m.group(2) and int(m.group(2)) < int(m.group(1))):
                raise UserError(f"--node-cpus: '{item.strip()}' in '{text}' is not a CPU number or range like 0-3 "
                                f"(one CPU list per node, separated by ';', e.g. 0;1)")
            lo = int(m.group(1))
            cpus.update(range(lo, int(m.group(2) or lo) + 1))
        out.append(tuple(sorted(cpus)))
    return tuple(out)


def cpus_per_node(nodes: int, cpus: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """`--pin-cpus`: node i gets the i-th of `nodes` equal consecutive blocks of `cpus` (the CPUs this
    process may use; a remainder stays unused), so nodes never share a CPU: with CPUs 0 and 1 and two
    nodes, node1 runs on CPU 0 and node2 on CPU 1."""
    avail = sorted(set(cpus))
    if nodes > len(avail):
        raise UserError(f"--pin-cpus gives every node a CPU of its own: {nodes} nodes need {nodes} CPUs, "
                        f"this machine lets us use {len(avail)} ({','.join(map(str, avail))}); "
                        f"use fewer --nodes or --node-cpus with shared CPUs")
    each = len(avail) // nodes
    return tuple(tuple(avail[i * each:(i + 1) * each]) for i in range(nodes))


def parse_node_slots(text: str) -> tuple[int, ...]:
    """"1;5" -> one slot count per node, separated by ';' ("" = every node has --slots). The range is
    checked by make_spec."""
    if not text.strip():
        return ()
    out = []
    for part in text.split(";"):
        if not re.fullmatch(r"\s*\d+\s*", part):
            raise UserError(f"--node-slots: '{part.strip()}' in '{text}' is not a slot count "
                            f"(one count per node, separated by ';', e.g. 1;5)")
        out.append(int(part))
    return tuple(out)


def _extra_conf(conf: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    for key, value in conf.items():
        if not isinstance(key, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", key):
            raise UserError(f"storm.yaml key must be a dotted name like nimbus.monitor.freq.secs, got '{key}'")
        if key in RESERVED_CONF_KEYS:
            raise UserError(f"storm.yaml key '{key}' is set by the cluster manager and cannot be overridden")
        if value is None:
            raise UserError(f"storm.yaml key '{key}' needs a value")
    # Lists become tuples so the spec stays comparable (and hashable) however it was built.
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in conf.items()))


def parse_conf_settings(settings: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """["nimbus.monitor.freq.secs=1", "nonstop.migration.push=false"] -> storm.yaml keys with YAML-typed
    values (numbers, booleans, lists stay what they are in storm.yaml)."""
    out: dict[str, Any] = {}
    for item in settings:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UserError(f"--conf must be KEY=VALUE, got '{item}'")
        try:
            out[key] = yaml.safe_load(raw) if raw.strip() else None
        except yaml.YAMLError as e:
            raise UserError(f"--conf {key}: value '{raw}' is not valid YAML ({e.__class__.__name__})") from e
    return out


def spec_from_dict(d: dict) -> ClusterSpec:
    """Inverse of to_dict, for the state file."""
    return make_spec(Path(d["home"]), d["nodes"], d["slots"], d["network"], d["link_bandwidth"],
                     d["link_delay_ms"], d["port_base"], d["subnet"], d["name"], d.get("migration", True),
                     dict(d.get("extra_conf") or ()), tuple(tuple(c) for c in d.get("node_cpus") or ()),
                     tuple(d.get("node_slots") or ()), d.get("storm_version", DEFAULT_STORM_VERSION),
                     d.get("zk_acl", True))
