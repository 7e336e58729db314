"""Model-based prediction of any schedule (seed 002 §8.5): the rate a placement supports and the
CPU and memory it uses per slot and per node.

A placement says how many threads of each task sit on each slot, and which node holds each slot.
A group of q threads of task i on one slot can take I_i(q) tuples/s (interpolated model). How a
task's input is split over its groups is the `routing`:

- `fill` (the planner's view): groups are filled up to their capacity, largest first, so full
  bundles run at peak and the partial group takes the rest. The task supports K_i = Σ I_i(q).
- `shuffle` (Storm's shuffle grouping): every thread of the task gets ω_i/τ_i, so the group with
  the least capacity per thread limits the task: K_i = τ_i · min_g I_i(q_g)/q_g. This is the
  refinement the paper suggests for its main source of error.

The DAG rate a task allows is K_i / (ω_i/Ω); the predicted supported rate is the least of these.
Usage is evaluated at a DAG rate (by default the supported one): a group driven at its capacity
uses C_i(q), M_i(q); a group receiving r < I_i(q) uses C_i(q)·r/I_i(q), M_i(q)·r/I_i(q) — for
the paper's cases (single threads below peak) exactly its rule of scaling C_i(1), M_i(1); for
larger groups our generalisation. A group never takes more than its capacity (above the
supported rate the rest queues). Static tasks (source, sink) never limit the rate and use their
fixed CPU/memory, split over their slots by thread share. Slot values add up to node values;
units are fractions of one slot, so a 4-slot node is full at 4.0. Groups sharing a slot are
assumed not to slow each other down (the models hold one task type per slot); a slot predicted
above 1.0 is overloaded, which `overloaded_slots` reports rather than hides.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pycontrol.sizing.dag import Dag
from pycontrol.sizing.errors import SizingError
from pycontrol.sizing.models import ModelSet, StaticModel, TableModel, at_least
from pycontrol.sizing.rates import check_rate, rate_factors


class Routing(str, Enum):
    FILL = "fill"
    SHUFFLE = "shuffle"


@dataclass(frozen=True)
class SlotPlacement:
    slot: str
    node: str
    threads: Mapping[str, int]  # task -> threads of it on this slot


@dataclass(frozen=True)
class Placement:
    """Task threads -> slots -> nodes. Slots keep their given order (it breaks ties)."""

    slots: tuple[SlotPlacement, ...]

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for s in self.slots:
            if s.slot in seen:
                raise SizingError(f"placement: slot {s.slot!r} appears twice")
            seen.add(s.slot)
            for task, q in s.threads.items():
                if isinstance(q, bool) or not isinstance(q, int) or q < 0:
                    raise SizingError(f"placement: slot {s.slot!r} has {q!r} threads of {task!r}; "
                                      f"expected a whole number >= 0")

    @classmethod
    def from_mapping(cls, slots: Mapping[str, Mapping[str, int]],
                     node_of: Mapping[str, str]) -> Placement:
        """From {slot: {task: threads}} and {slot: node}."""
        missing = [s for s in slots if s not in node_of]
        if missing:
            raise SizingError(f"placement: no node given for slot(s) {', '.join(missing)}")
        return cls(tuple(SlotPlacement(s, node_of[s], dict(t)) for s, t in slots.items()))

    def groups(self, task: str) -> list[tuple[SlotPlacement, int]]:
        return [(s, s.threads[task]) for s in self.slots if s.threads.get(task, 0) > 0]

    def tasks(self) -> set[str]:
        return {t for s in self.slots for t, q in s.threads.items() if q > 0}


@dataclass(frozen=True)
class GroupPrediction:
    slot: str
    node: str
    task: str
    threads: int
    capacity: float  # I(q), tuples/s; inf for static tasks
    received: float  # tuples/s at the evaluated DAG rate
    cpu: float
    memory: float


@dataclass(frozen=True)
class Prediction:
    supported_rate: float                  # predicted DAG input rate Ω the placement sustains
    rate_limits: Mapping[str, float]       # per task: the Ω its threads allow on their own
    evaluated_rate: float                  # the Ω at which usage below is evaluated
    groups: tuple[GroupPrediction, ...]
    slot_cpu: Mapping[str, float]
    slot_memory: Mapping[str, float]
    node_cpu: Mapping[str, float]
    node_memory: Mapping[str, float]

    @property
    def bottlenecks(self) -> tuple[str, ...]:
        """Tasks whose limit is the supported rate."""
        return tuple(t for t, lim in self.rate_limits.items()
                     if math.isfinite(lim) and at_least(self.supported_rate, lim))

    @property
    def overloaded_slots(self) -> tuple[str, ...]:
        """Slots whose predicted CPU or memory exceeds the whole slot."""
        return tuple(s for s in self.slot_cpu
                     if not at_least(1.0, self.slot_cpu[s]) or not at_least(1.0, self.slot_memory[s]))

    def to_json(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return round(x, 6) if math.isfinite(x) else None
        return {
            "supported_rate": num(self.supported_rate),
            "bottlenecks": list(self.bottlenecks),
            "rate_limits": {t: num(v) for t, v in self.rate_limits.items()},
            "evaluated_rate": num(self.evaluated_rate),
            "overloaded_slots": list(self.overloaded_slots),
            "slots": {s: {"cpu": num(self.slot_cpu[s]), "memory": num(self.slot_memory[s])}
                      for s in self.slot_cpu},
            "nodes": {n: {"cpu": num(self.node_cpu[n]), "memory": num(self.node_memory[n])}
                      for n in self.node_cpu},
            "groups": [{"slot": g.slot, "task": g.task, "threads": g.threads,
                        "capacity": num(g.capacity), "received": num(g.received),
                        "cpu": num(g.cpu), "memory": num(g.memory)} for g in self.groups],
        }


def task_capacity(model: TableModel, group_threads: list[int], routing: Routing) -> float:
    """K_i: the input rate a task's thread groups can take together under `routing`."""
    if not group_threads:
        return 0.0
    if routing is Routing.FILL:
        return math.fsum(model.peak_rate(q) for q in group_threads)
    total = sum(group_threads)
    return total * min(model.peak_rate(q) / q for q in group_threads)


def predict(dag: Dag, models: ModelSet, placement: Placement, *,
            routing: Routing | str = Routing.FILL, at_rate: float | None = None) -> Prediction:
    """Predicted supported DAG rate and per-slot/node usage of `placement` (see module doc)."""
    try:
        routing = Routing(routing)
    except ValueError:
        raise SizingError(f"unknown routing {routing!r} (known: "
                          f"{', '.join(r.value for r in Routing)})") from None
    strangers = sorted(placement.tasks() - {t.name for t in dag.tasks})
    if strangers:
        raise SizingError(f"placement has threads of task(s) not in DAG {dag.name!r}: "
                          f"{', '.join(strangers)}")
    factors = rate_factors(dag)
    limits: dict[str, float] = {}
    for name in dag.topological_order:
        model = models.require(dag.task(name).model, task=name)
        if isinstance(model, StaticModel) or factors[name] == 0:
            limits[name] = math.inf
            continue
        qs = [q for _, q in placement.groups(name)]
        limits[name] = task_capacity(model, qs, routing) / factors[name]
    supported = min(limits.values())
    if at_rate is None:
        if math.isinf(supported):
            raise SizingError("no task limits the rate of this placement; pass the rate to "
                              "evaluate usage at")
        evaluated = supported
    else:
        evaluated = check_rate(at_rate)

    groups: list[GroupPrediction] = []
    for name in dag.topological_order:
        model = models.require(dag.task(name).model, task=name)
        groups.extend(_task_groups(name, model, placement.groups(name),
                                   factors[name] * evaluated, routing))

    # every slot and node appears, empty ones with 0.0, in placement order
    slot_cpu = {s.slot: 0.0 for s in placement.slots}
    slot_mem = dict(slot_cpu)
    node_cpu = {s.node: 0.0 for s in placement.slots}
    node_mem = dict(node_cpu)
    for g in groups:
        slot_cpu[g.slot] += g.cpu
        slot_mem[g.slot] += g.memory
        node_cpu[g.node] += g.cpu
        node_mem[g.node] += g.memory
    return Prediction(supported, limits, evaluated, tuple(groups), slot_cpu, slot_mem,
                      node_cpu, node_mem)


def _task_groups(name: str, model: StaticModel | TableModel,
                 groups: list[tuple[SlotPlacement, int]], rate: float,
                 routing: Routing) -> list[GroupPrediction]:
    total = sum(q for _, q in groups)
    if isinstance(model, StaticModel):
        return [GroupPrediction(s.slot, s.node, name, q, math.inf, rate * q / total,
                                model.cpu * q / total, model.memory * q / total)
                for s, q in groups]
    capacity = [model.peak_rate(q) for _, q in groups]
    if routing is Routing.SHUFFLE:
        received = [min(rate * q / total, cap) for (_, q), cap in zip(groups, capacity)]
    else:
        received = [0.0] * len(groups)
        left = rate
        # Largest capacity first; sorted() is stable, so equal groups keep slot order.
        for i in sorted(range(len(groups)), key=lambda k: -capacity[k]):
            received[i] = min(capacity[i], left)
            left -= received[i]
    out = []
    for (s, q), cap, got in zip(groups, capacity, received):
        share = 1.0 if at_least(got, cap) else got / cap
        out.append(GroupPrediction(s.slot, s.node, name, q, cap, got,
                                   model.cpu(q) * share, model.memory(q) * share))
    return out
