"""Planning one topology: the Java scheduler cores (their one home is storm-plugins/scheduling) run on
a snapshot of the live model in the long-lived planner process (pycontrol.jvm.planner_process); their
placement is turned into moves, best first. Nothing here decides placements itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pycontrol.controller import snapshot
from pycontrol.controller.actions import Move
from pycontrol.controller.policy import OTD_KEYS, TopologyPolicy
from pycontrol.errors import UserError
from pycontrol.jvm import plancli
from pycontrol.jvm.planner_process import PlannerProcess, PlanReply
from pycontrol.model.live import LiveModel
from pycontrol.wire.executor import ExecutorId

# policy -> PlanCli scheduler name
SCHEDULERS = {"otd": "otd", "aniello-online": "aniello-online", "mba-sam": "sam"}


class PlanningError(Exception):
    """The planner could not run or refused its input: this cycle plans nothing for the topology."""


@dataclass(frozen=True)
class Plan:
    topology: str
    policy: str
    moves: list[Move]                  # best first (each with its own expected gain)
    note: str                          # the planner's own explanation (e.g. OTD's case and reason)
    planning_ms: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class MovePlanner(Protocol):
    def plan(self, model: LiveModel, policy: TopologyPolicy, pinned: set[str]) -> Plan: ...


def scheduler_params(policy: TopologyPolicy, model_name: str, pinned: set[str]) -> dict[str, Any]:
    """The PLAN-INPUT `params` of a policy's own parameters (the controller's keys left out)."""
    p = policy.params
    if policy.policy == "otd":
        otd: dict[str, Any] = {k: p[k] for k in OTD_KEYS if k in p}
        if pinned:
            otd["pinned"] = sorted(pinned, key=ExecutorId.parse)
        return {"otd": otd}
    if policy.policy == "aniello-online":
        return {"aniello": {k: p[k] for k in ("alpha", "beta") if k in p}}
    if policy.policy == "mba-sam":
        return {"sam": {"allocation": {model_name: p["allocation"]}}} if "allocation" in p else {}
    return {}


def moves_from(model: LiveModel, planned: dict[str, list[str]], reason: str) -> list[Move]:
    """The moves from the model's placement to `planned` (slot -> executors, PLAN-INPUT spelling),
    ordered by the inter-node traffic each saves on its own (so a capped cycle applies the best)."""
    now = snapshot.placement(model)
    target = {e: slot for slot, es in planned.items() for e in es}
    moves = []
    for e in sorted(target, key=ExecutorId.parse):
        if e in now and target[e] != now[e]:
            moves.append(Move(model.name, e, now[e], target[e], reason,
                              round(snapshot.gain_of(model, {e: target[e]}), 3)))
    moves.sort(key=lambda m: -m.expected_gain)  # stable: equal gains keep executor order
    return moves


RunPlanner = Callable[[str, dict, float], PlanReply]   # (scheduler, PLAN-INPUT document, timeout) -> reply


class JavaPlanner:
    """Runs one scheduler core of the scheduling plugin per call, in one planner process (PlanServer)
    started on the first call and kept until `close`."""

    def __init__(self, run: RunPlanner | None = None, timeout_s: float = 60.0):
        self._process = None if run else PlannerProcess()
        self.run = run or self._process.plan
        self.timeout_s = timeout_s

    def close(self) -> None:
        if self._process is not None:
            self._process.close()

    def plan(self, model: LiveModel, policy: TopologyPolicy, pinned: set[str]) -> Plan:
        scheduler = SCHEDULERS.get(policy.policy)
        if scheduler is None:
            raise PlanningError(f"policy {policy.policy} has no scheduler core")
        doc = snapshot.plan_input(model, scheduler_params(policy, model.name, pinned),
                                  count_background=bool(policy.params.get("node_cpu_background", True)))
        try:
            reply = self.run(scheduler, doc, self.timeout_s)
        except UserError as e:
            raise PlanningError(str(e)) from e
        return self._read(model, policy.policy, scheduler, reply)

    @staticmethod
    def _read(model: LiveModel, policy: str, scheduler: str, reply: PlanReply) -> Plan:
        if reply.exit == plancli.BAD_INPUT:
            raise PlanningError(f"{scheduler} refused the snapshot: {reply.error or 'bad input'}")
        out = reply.result
        if out is None or reply.exit not in (plancli.OK, plancli.NO_PLACEMENT):
            raise PlanningError(f"{scheduler} failed ({plancli.EXIT_CODES.describe(reply.exit)}): "
                                f"{reply.error or 'no output'}")
        if reply.exit == plancli.NO_PLACEMENT or not out.get("ok"):
            return Plan(model.name, policy, [], f"{scheduler} found no placement: {out.get('error')}",
                        out.get("planning_ms"))
        (topo,) = [t for t in out["topologies"] if t["id"] == model.name]
        note = "; ".join(topo.get("notes") or []) or f"{scheduler} plan"
        if topo.get("violations"):
            raise PlanningError(f"{scheduler}'s plan breaks constraints: {topo['violations']}")
        return Plan(model.name, policy, moves_from(model, topo["placement"], note), note, out.get("planning_ms"),
                    {"planned_inter_node_tuples_per_s": topo.get("inter_node_traffic")})
