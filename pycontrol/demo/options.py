"""The demo's choices, checked before anything starts: which parts run, how long each phase lasts, and
whether the ports and the network mode can be had. Pure except `check_environment` (ports, rights)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from pycontrol.cluster import network, ports
from pycontrol.cluster.spec import NETWORKS, NODE_PORT_STRIDE, ClusterSpec, make_spec
from pycontrol.errors import UserError

PART_MOVE, PART_CONTROLLER, PART_ALL = "move", "controller", "all"
PARTS = (PART_MOVE, PART_CONTROLLER, PART_ALL)
# auto: network namespaces where they can be made (root), so nodes talk over real, shaped links; else
# loopback addresses. The demo says which it used.
NETWORK_AUTO = network.AUTO
DEMO_NETWORKS = (NETWORK_AUTO, *NETWORKS)


@dataclass(frozen=True)
class DemoOptions:
    part: str = PART_ALL
    rate: int = 300                  # sentences/s offered in part 1: well below saturation
    before_s: float = 5              # part 1: steady seconds before each move
    after_s: float = 30              # part 1: seconds watched after each move (the table's window)
    moves: tuple[int, ...] = (1, 4)  # part 1: executors moved at once, one segment each
    rebalance: bool = False          # part 1: also Storm's rebalance on the stock cluster (~1 min more)
    warmup_s: float = 20             # part 2: observing (left out of the comparison)
    phase_s: float = 50              # part 2: each of OTD live and the control run
    port_base: int = 17000
    network: str = NETWORK_AUTO

    @property
    def runs_move(self) -> bool:
        return self.part in (PART_MOVE, PART_ALL)

    @property
    def runs_controller(self) -> bool:
        return self.part in (PART_CONTROLLER, PART_ALL)


def make_options(part: str, rate: int, before_s: float, after_s: float, moves: str, rebalance: bool,
                 warmup_s: float, phase_s: float, port_base: int, network: str) -> DemoOptions:
    """The user's flags, checked: every mistake is one line naming the flag."""
    if part not in PARTS:
        raise UserError(f"--part must be one of {', '.join(PARTS)}, got '{part}'")
    if network not in DEMO_NETWORKS:
        raise UserError(f"--network must be one of {', '.join(DEMO_NETWORKS)}, got '{network}'")
    if rate < 1:
        raise UserError(f"--rate must be a positive number of sentences per second, got {rate}")
    for flag, value, least in (("--before", before_s, 1), ("--after", after_s, 5), ("--warmup", warmup_s, 10),
                               ("--duration", phase_s, 30)):
        if not value >= least:   # also catches NaN
            raise UserError(f"{flag} must be at least {least:g} s, got {value:g}")
    try:
        ms = tuple(int(x) for x in moves.split(",") if x.strip())
    except ValueError:
        raise UserError(f"--moves must be whole numbers separated by commas, like 1,4; got '{moves}'") from None
    if not ms or any(m < 1 for m in ms) or len(set(ms)) != len(ms):
        raise UserError(f"--moves must list distinct executor counts of at least 1, like 1,4; got '{moves}'")
    return DemoOptions(part=part, rate=rate, before_s=before_s, after_s=after_s, moves=ms, rebalance=rebalance,
                       warmup_s=warmup_s, phase_s=phase_s, port_base=port_base, network=network)


def resolve_network(opts: DemoOptions, netns_unavailable: Callable[[], str | None]) -> tuple[DemoOptions, str]:
    """The options with `auto` made concrete (network.resolve), and the line saying what and why."""
    chosen, line = network.resolve(opts.network, netns_unavailable)
    return replace(opts, network=chosen), line


def check_environment(home: Path, opts: DemoOptions, nodes: int = 2, slots: int = 4) -> ClusterSpec:
    """Before anything starts (opts.network already resolved): the cluster shape is valid, netns has the
    rights it needs, and no port of the port base is taken (every cluster of the demo uses the same
    ports, one after the other)."""
    spec = make_spec(home, nodes=nodes, slots=slots, network=opts.network, port_base=opts.port_base)
    if spec.network == "netns":
        network.check_rights()
    busy = ports.first_busy(spec.all_ports())
    if busy:
        port, who = busy
        raise UserError(f"port {port} (port base {opts.port_base}) is already in use by {who or 'another process'}; "
                        f"stop it or choose another --port-base (each cluster of the demo needs "
                        f"{100 + nodes * NODE_PORT_STRIDE} ports from it)")
    return spec
