"""`pycontrol drain NODE`: empty one node for maintenance, through the controller's realize path.

The drain plan comes from drain_plan.py (pure). While it runs, the controller is paused (so the daemon does
not plan against it) and resumed afterwards unless it was paused before; an action the daemon has in
flight is finished first. Done when the UI REST API shows no executor of the drained topologies on
the node.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Protocol

from pycontrol.controller.actions import Move
from pycontrol.controller.clock import Clock
from pycontrol.controller.drain_plan import Placed, plan_drain
from pycontrol.controller.realize import ClusterIO, Realizer, TopologyOutcome
from pycontrol.controller.state_store import StateStore
from pycontrol.errors import UserError
from pycontrol.storm.rest import RestError

log = logging.getLogger(__name__)


class DrainIO(ClusterIO, Protocol):
    def topologies(self) -> list[dict]: ...

    def supervisors(self) -> list[dict]: ...

    def placement(self, topology_id: str, system: bool = False) -> dict[str, str]: ...


@dataclass
class DrainReport:
    node: str
    moves: list[Move]
    unplaceable: list[tuple[Placed, str]]
    outcomes: list[TopologyOutcome] = field(default_factory=list)
    empty: bool = False
    empty_after_s: float | None = None
    remaining: dict[str, list[str]] = field(default_factory=dict)   # topology -> executors still there


def resolve_node(name: str, supervisors: list[dict], aliases: dict[str, str] | None = None) -> str:
    """The supervisor host meant by a host, a supervisor id or a local node name."""
    aliases = aliases or {}
    host = aliases.get(name, name)
    hosts = sorted({s["host"] for s in supervisors})
    if host in hosts:
        return host
    by_id = {s["id"]: s["host"] for s in supervisors}
    if host in by_id:
        return by_id[host]
    known = ", ".join(hosts) or "none"
    local = f"; local node names: {', '.join(sorted(aliases))}" if aliases else ""
    raise UserError(f"unknown node '{name}': no live supervisor has that host or id (hosts: {known}{local})")


class Drainer:
    def __init__(self, io: DrainIO, store: StateStore, realizer: Realizer, clock: Clock, poll_s: float = 1.0,
                 hysteresis_s: float = 120.0, pending_grace_s: float = 30.0):
        self.io = io
        self.pending_grace_s = pending_grace_s
        self.store = store
        self.realizer = realizer
        self.clock = clock
        self.poll_s = poll_s
        self.hysteresis_s = hysteresis_s

    def plan(self, node_name: str, topologies: list[str] | None = None,
             slot_ports: dict[str, list[int]] | None = None,
             aliases: dict[str, str] | None = None) -> tuple[DrainReport, dict[str, str]]:
        """The moves (and what cannot move); also name -> id of the topologies drained."""
        node = resolve_node(node_name, self.io.supervisors(), aliases)
        running = {t["name"]: t["id"] for t in self.io.topologies()}
        if topologies:
            unknown = sorted(set(topologies) - set(running))
            if unknown:
                raise UserError(f"no running topology named {', '.join(unknown)} (running: {sorted(running)})")
        chosen = {n: i for n, i in running.items() if not topologies or n in topologies}
        placed, used = [], set()
        for name, topo_id in sorted(running.items()):
            where = self.io.placement(topo_id, system=True)
            used |= set(where.values())
            if name in chosen:
                placed += [Placed(name, e, s, s.rpartition(":")[0]) for e, s in sorted(where.items())]
        free = {h: [f"{h}:{p}" for p in sorted(ports) if f"{h}:{p}" not in used]
                for h, ports in (slot_ports or {}).items()}
        dp = plan_drain(node, placed, free)
        return DrainReport(node, dp.moves, dp.unplaceable), chosen

    def run(self, report: DrainReport, chosen: dict[str, str], timeout_s: float) -> DrainReport:
        """Applies a planned drain and waits until the node is empty (or timeout_s passes)."""
        t0 = self.clock.now()
        was_paused = self.store.load()[0].paused
        self.store.update(lambda s: replace(s, paused=True))
        try:
            self._finish_pending(t0 + min(timeout_s, self.pending_grace_s))
            if report.moves:
                state, version = self.store.load()
                _, _, report.outcomes = self.realizer.realize(state, version, state.cycle, report.moves,
                                                              {t: self.hysteresis_s for t in chosen},
                                                              label=f"drain {report.node}")
            self._wait_empty(report, chosen, t0, t0 + timeout_s)
        finally:
            if not was_paused:
                self.store.update(lambda s: replace(s, paused=False))
        return report

    def _finish_pending(self, deadline: float) -> None:
        """Waits for the daemon's action in flight; if it is not finished by the deadline (no daemon
        running?), recovers it here: the write-ahead record is there for exactly this."""
        while True:
            state, version = self.store.load()
            if state.pending is None:
                return
            if self.clock.now() >= deadline:
                log.warning("the action of cycle %d is still pending: finishing it before draining",
                            state.pending.cycle)
                self.realizer.recover(state, version, {m.topology: self.hysteresis_s for m in state.pending.moves})
                return
            self.clock.sleep(self.poll_s)

    def remaining(self, node: str, chosen: dict[str, str]) -> dict[str, list[str]]:
        out = {}
        for name, topo_id in sorted(chosen.items()):
            left = sorted(e for e, s in self.io.placement(topo_id, system=True).items()
                          if s.rpartition(":")[0] == node)
            if left:
                out[name] = left
        return out

    def _wait_empty(self, report: DrainReport, chosen: dict[str, str], t0: float, deadline: float) -> None:
        while True:
            try:
                report.remaining = self.remaining(report.node, chosen)
            except RestError as e:
                log.debug("placement not readable: %s", e)
            else:
                if not report.remaining:
                    report.empty, report.empty_after_s = True, round(self.clock.now() - t0, 3)
                    return
            if self.clock.now() >= deadline:
                return
            self.clock.sleep(self.poll_s)
