"""Realizing moves on the cluster, the one path the daemon and `pycontrol drain` share:

1. write-ahead: the moves are saved as the pending action in the controller state (compare-and-set,
   so a controller that lost the lead writes nothing);
2. one plan znode per topology for the plan-following scheduler (pycontrol.migration), then its
   decision is awaited; the daemon writes each plan in one transaction with a check of the leader
   epoch (leader.py), and re-checks its lead before each topology;
3. verify: the UI REST API must show every moved executor at its target within the timeout;
4. the pending action is completed: its moves enter the cooldown/hysteresis memory and the log.

A pending action found later (the controller died in between) is recovered by re-running 2-4: plans
are idempotent and executors already in place are not asked to move again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from kazoo.client import KazooClient
from kazoo.exceptions import NoNodeError

from pycontrol.controller.actions import Move
from pycontrol.controller.clock import Clock
from pycontrol import zk
from pycontrol.controller.decisions import DECISIONS_PATH
from pycontrol.controller.state_store import ControllerState, Deposed
from pycontrol.errors import UserError
from pycontrol.migration import migrate
from pycontrol.storm.rest import RestError, StormRest, executor_id
from pycontrol.wire import paths as wire_paths
from pycontrol.wire.decision_document import BadDocument, Decision
from pycontrol.wire.executor import ExecutorId

log = logging.getLogger(__name__)

APPLIED, UNCHANGED, REJECTED, NOT_CONVERGED, GONE, ERROR = (
    "applied", "unchanged", "rejected", "not-converged", "gone", "error")
OUTCOMES = (APPLIED, UNCHANGED, REJECTED, NOT_CONVERGED, GONE, ERROR)


class ClusterIO(Protocol):
    """What realizing needs from the cluster (StormClusterIO; fakes in the tests)."""

    def topology_id(self, name: str) -> str | None: ...

    def placement(self, topology_id: str, system: bool = False) -> dict[str, str]:
        """executor "[s-e]" -> "host:port" of the topology's spouts and bolts (and with system=True,
        Storm's own executors such as the ackers)."""

    def write_plan(self, topology: str, moves: dict[str, str]) -> int:
        """Writes the plan znode (executor "[s-e]" -> "host:port"); returns the version to be decided.
        Deposed, and nothing written, if another controller has led since ours gained the lead."""

    def wait_decision(self, topology: str, topology_id: str, version: int, timeout_s: float) -> Decision: ...

    def topologies(self) -> list[dict]:
        """{"name", "id"} of every running topology; RestError if the list cannot be read."""

    def recorded_topologies(self) -> list[str]:
        """Topologies with a decision record of the controller's in ZooKeeper (it may since have restarted)."""

    def remove_documents(self, topology: str) -> list[str]:
        """Deletes the topology's plan and decision znodes; returns the paths that were there."""


class StateStoreLike(Protocol):
    def load(self) -> tuple[ControllerState, int]: ...

    def save(self, state: ControllerState, version: int) -> int: ...


class StormClusterIO:
    """ClusterIO over the UI REST API and the plan/decision znodes."""

    def __init__(self, client: KazooClient, rest: StormRest, fence: Callable[[], zk.Fence | None] | None = None,
                 decisions_path: str = DECISIONS_PATH):
        self.client = client
        self.rest = rest
        # None: unfenced (operator commands such as drain); else the leader's current fence.
        self.fence = fence
        self.decisions_path = decisions_path
        self._bad_logged: dict[str, int] = {}   # topology -> the decision znode version last reported

    def topology_id(self, name: str) -> str | None:
        return self.rest.topology_id(name)

    def topologies(self) -> list[dict]:
        """{"name", "id"} of every running topology."""
        return [{"name": t["name"], "id": t["id"]} for t in self.rest.topologies()]

    def supervisors(self) -> list[dict]:
        """{"id", "host"} of every live supervisor."""
        return [{"id": s["id"], "host": s["host"]} for s in self.rest.supervisors()]

    def placement(self, topology_id: str, system: bool = False) -> dict[str, str]:
        """With system=True, Storm's own executors too (e.g. __acker), as far as the UI lists them."""
        topo = self.rest.topology(topology_id, sys=system)
        comps = [s["spoutId"] for s in topo.get("spouts", [])] + [b["boltId"] for b in topo.get("bolts", [])]
        out = {}
        for c in comps:
            if c == "__system":
                continue  # one per worker, never scheduled on its own
            detail = self.rest.component(topology_id, c, sys=True) if system else self.rest.component(topology_id, c)
            for e in detail.get("executorStats", []):
                executor = executor_id(e)
                if not executor.system:
                    out[str(executor)] = f"{e['host']}:{e['port']}"
        return out

    def write_plan(self, topology: str, moves: dict[str, str]) -> int:
        plan = {}
        for executor, slot in moves.items():
            host, _, port = slot.rpartition(":")
            plan[ExecutorId.parse(executor)] = (host, int(port))
        fence = None
        if self.fence is not None:
            fence = self.fence()
            if fence is None:
                raise Deposed(f"no plan written for {topology}: this controller has no leader epoch")
        try:
            _, version = migrate.write_plan(self.client, topology, plan, fence=fence)
        except zk.FencedWrite as e:
            raise Deposed(f"the plan for {topology} was refused: {e}") from e
        return version

    def wait_decision(self, topology: str, topology_id: str, version: int, timeout_s: float) -> Decision:
        def on_bad(e: BadDocument) -> None:
            if self._bad_logged.get(topology) != e.version:   # once per document version, not per poll or cycle
                self._bad_logged[topology] = e.version
                log.warning("%s: malformed decision document: %s", topology, e)

        return migrate.wait_decision(self.client, topology, topology_id, version, timeout_s, on_bad=on_bad)

    def recorded_topologies(self) -> list[str]:
        try:
            return list(self.client.get_children(self.decisions_path))
        except NoNodeError:
            return []

    def remove_documents(self, topology: str) -> list[str]:
        paths = [wire_paths.plan(topology), wire_paths.decision(topology), f"{self.decisions_path}/{topology}"]
        self._bad_logged.pop(topology, None)
        return [p for p in paths if zk.delete_if_exists(self.client, p)]


@dataclass(frozen=True)
class TopologyOutcome:
    topology: str
    status: str                      # applied | unchanged | rejected | not-converged | gone | error
    detail: str
    moves: tuple[Move, ...] = ()
    plan_version: int | None = None
    converged_at: float | None = None   # when the placement was seen complete (clock seconds)
    verify_s: float | None = None

    @property
    def ok(self) -> bool:
        return self.status in (APPLIED, UNCHANGED)

    def line(self) -> str:
        return f"{self.topology}: {self.status}" + (f" ({self.detail})" if self.detail else "")


def _by_topology(moves) -> dict[str, list[Move]]:
    out: dict[str, list[Move]] = {}
    for m in moves:
        out.setdefault(m.topology, []).append(m)
    return out


@dataclass
class Realizer:
    io: ClusterIO
    store: StateStoreLike
    clock: Clock
    verify_timeout_s: float = 120.0
    poll_s: float = 1.0
    timer: Callable[[str], contextlib.AbstractContextManager] = field(default=lambda phase: contextlib.nullcontext())
    # Re-checked before each topology: a controller that lost the lead mid-action stops there (its
    # successor finds the pending action and finishes it).
    leading: Callable[[], bool] = field(default=lambda: True)

    def _apply_all(self, moves) -> list[TopologyOutcome]:
        outcomes = []
        for topology, ms in _by_topology(moves).items():
            if not self.leading():
                raise Deposed(f"lost the lead before applying the moves of {topology}")
            outcomes.append(self._apply(topology, ms))
        return outcomes

    def realize(self, state: ControllerState, version: int, cycle: int, moves: list[Move],
                hysteresis_s: dict[str, float], label: str = "") -> tuple[ControllerState, int, list[TopologyOutcome]]:
        """Write-ahead, apply, verify, complete. FencedOut from the first save means nothing was written."""
        state = state.begin(cycle, moves, self.clock.now())
        version = self.store.save(state, version)
        log.info("cycle %d: %d move(s) written ahead%s", cycle, len(moves), f" ({label})" if label else "")
        outcomes = self._apply_all(moves)
        return self._complete(state, version, outcomes, hysteresis_s, label)

    def recover(self, state: ControllerState, version: int,
                hysteresis_s: dict[str, float]) -> tuple[ControllerState, int, list[TopologyOutcome]]:
        """Finish the pending action a previous controller (or command) left behind."""
        pending = state.pending
        if pending is None:
            return state, version, []
        log.warning("recovering the pending action of cycle %d (%d move(s), written at %.0f)", pending.cycle,
                    len(pending.moves), pending.written_at)
        outcomes = self._apply_all(pending.moves)
        return self._complete(state, version, outcomes, hysteresis_s, "recovered")

    def _complete(self, state, version, outcomes, hysteresis_s, label):
        summary = "; ".join(o.line() for o in outcomes)
        state = state.complete(self.clock.now(), hysteresis_s, f"{label}: {summary}" if label else summary)
        version = self.store.save(state, version)
        return state, version, outcomes

    def _apply(self, topology: str, moves: list[Move]) -> TopologyOutcome:
        ms = tuple(moves)
        targets = {m.executor: m.to_slot for m in moves}
        try:
            topo_id = self.io.topology_id(topology)
            if topo_id is None:
                return TopologyOutcome(topology, GONE, "the topology is no longer running", ms)
            if self._in_place(topo_id, targets):
                return TopologyOutcome(topology, UNCHANGED, "every executor already at its target", ms,
                                       converged_at=self.clock.now())
            with self.timer("realize"):
                version = self.io.write_plan(topology, targets)
                decision = self.io.wait_decision(topology, topo_id, version, self.verify_timeout_s)
        except UserError as e:   # REST or ZooKeeper trouble, or no decision in time
            return TopologyOutcome(topology, ERROR, str(e), ms)
        except BadDocument as e:   # this topology's document is broken; the others proceed
            return TopologyOutcome(topology, ERROR, f"malformed document: {e}", ms)
        if decision.status == REJECTED:
            return TopologyOutcome(topology, REJECTED, decision.reason, ms, version)
        t0 = self.clock.now()
        with self.timer("verify"):
            converged = self._wait_in_place(topo_id, targets, t0 + self.verify_timeout_s)
        took = round(self.clock.now() - t0, 3)
        if not converged:
            return TopologyOutcome(topology, NOT_CONVERGED, f"placement not converged {self.verify_timeout_s:g} s "
                                   f"after plan v{version} was {decision.status}", ms, version, verify_s=took)
        return TopologyOutcome(topology, APPLIED, f"plan v{version} {decision.status}, placement converged in "
                               f"{took:g} s", ms, version, self.clock.now(), took)

    def _in_place(self, topo_id: str, targets: dict[str, str]) -> bool:
        # System executors too: a drain moves the ackers as well.
        where = self.io.placement(topo_id, system=True)
        return all(where.get(e) == s for e, s in targets.items())

    def _wait_in_place(self, topo_id: str, targets: dict[str, str], deadline: float) -> bool:
        while True:
            try:
                if self._in_place(topo_id, targets):
                    return True
            except RestError as e:
                log.debug("placement not readable yet: %s", e)
            if self.clock.now() >= deadline:
                return False
            self.clock.sleep(self.poll_s)
