"""Thin adapters between the driver and a running cluster: the topology's placement as the driver's
model (Nimbus's assignment in ZooKeeper, components from the UI REST API), and the two ways a
re-deployment reaches Storm: a plan znode for the plan-following scheduler, or Storm's rebalance."""

from __future__ import annotations

import time
from dataclasses import dataclass

from kazoo.client import KazooClient

from pycontrol.bench.migration.driver import Move
from pycontrol.errors import UserError
from pycontrol.migration.migrate import wait_decision, write_plan
from pycontrol.storm.assignment import read_assignment
from pycontrol.storm.placement import placement as rest_placement
from pycontrol.storm.rest import RestError, StormRest
from pycontrol.wire.executor import ExecutorId
from pycontrol.wire.plan_document import parse_target

# Word count: the bolts move; the spout (pacing, measurement series) and Storm's ackers stay unless
# the run asks for them too (--move-spouts).
MOVABLE_COMPONENTS = ("split", "count")
MOVABLE_WITH_SPOUTS = ("sentences", "__acker", "split", "count")


@dataclass(frozen=True)
class TopologyPlacement:
    placement: dict[str, str]   # executor "[s,e]" -> slot "host:port", every executor of the topology
    movable: frozenset[str]
    slots: tuple[str, ...]


class ExecutorComponents:
    """Which component each executor belongs to, from the UI REST API's component pages. They list only
    executors with recent heartbeats (under load some are missing for a while), so the map fills up
    over several reads; it never changes while the topology runs."""

    def __init__(self, rest: StormRest, topology_id: str):
        self.rest, self.topology_id = rest, topology_id
        self.known: dict[str, str] = {}

    def refresh(self) -> dict[str, str]:
        try:
            for p in rest_placement(self.rest, self.topology_id, sys=True):
                self.known[str(p.executor)] = p.component
        except RestError:
            pass  # keep what is known; the next read may work
        return self.known


def read_placement(client: KazooClient, topology_id: str, components: ExecutorComponents,
                   movable_components=MOVABLE_COMPONENTS) -> TopologyPlacement:
    """Every executor's slot from Nimbus's assignment (ackers and spout count towards the spread);
    movable = executors known to belong to the movable components. The API is asked only while some
    executors are unknown (its component pages take seconds on a loaded machine)."""
    placement = {str(e): slot for e, slot in read_assignment(client, topology_id).items()}
    known = components.refresh() if set(placement) - set(components.known) else components.known
    movable = frozenset(e for e in placement if known.get(e) in movable_components)
    return TopologyPlacement(placement, movable, tuple(sorted(set(placement.values()))))


def plan_moves(moves: tuple[Move, ...]) -> dict[ExecutorId, tuple[str, int]]:
    return {ExecutorId.parse(m.executor): parse_target(m.target) for m in moves}


class PlanMover:
    """Writes each re-deployment as one plan and waits for the scheduler's decision (not for the move)."""

    def __init__(self, client: KazooClient, topology: str, topology_id: str, decision_timeout_s: float):
        self.client = client
        self.topology = topology
        self.topology_id = topology_id
        self.decision_timeout_s = decision_timeout_s

    def apply(self, moves: tuple[Move, ...]) -> dict:
        t0_ms = time.time() * 1000
        rid, version = write_plan(self.client, self.topology, plan_moves(moves))
        record = {"t0_ms": round(t0_ms), "request_id": rid, "plan_version": version,
                  "moves": [{"executor": m.executor, "from": m.source, "to": m.target}
                            for m in moves]}
        try:
            d = wait_decision(self.client, self.topology, self.topology_id, version, self.decision_timeout_s)
        except UserError as e:
            return {**record, "decision": "none", "reason": str(e)}
        return {**record, "decision": d.status, "reason": d.reason,
                "decided_after_ms": round(d.decided_at_ms - t0_ms) if d.decided_at_ms else None}


class RebalanceMover:
    """Storm's way: `rebalance` with a wait; Nimbus then places the whole topology again."""

    def __init__(self, rest: StormRest, topology_id: str, wait_s: int):
        self.rest = rest
        self.topology_id = topology_id
        self.wait_s = wait_s

    def apply(self) -> dict:
        t0_ms = time.time() * 1000
        try:
            reply = self.rest.rebalance(self.topology_id, self.wait_s)
            status, reason = str(reply.get("status", "success")), ""
        except RestError as e:
            status, reason = "failed", str(e)
        return {"t0_ms": round(t0_ms), "rebalance_wait_s": self.wait_s, "decision": status, "reason": reason}
