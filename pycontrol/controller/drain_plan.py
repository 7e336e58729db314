"""Planning `pycontrol drain NODE`: move every executor off one node, for maintenance. Pure.

Each executor goes to its own topology's least-filled worker on another node (so no new worker
JVM is needed and the topology keeps talking to itself); a topology with no worker elsewhere gets
a free slot on the least-used other node. What cannot be placed is reported, never dropped.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pycontrol.controller.actions import Move


@dataclass(frozen=True)
class Placed:
    topology: str
    executor: str
    slot: str   # "host:port"
    node: str   # the slot's host


@dataclass(frozen=True)
class DrainPlan:
    moves: list[Move]
    unplaceable: list[tuple[Placed, str]]


def plan_drain(node: str, placement: list[Placed], free_slots: dict[str, list[str]]) -> DrainPlan:
    """free_slots: node -> its free "host:port" slots (the drained node's own are ignored)."""
    fill = Counter(p.slot for p in placement)
    slots_of: dict[str, set[str]] = {}
    for p in placement:
        if p.node != node:
            slots_of.setdefault(p.topology, set()).add(p.slot)
    free = {n: sorted(s) for n, s in free_slots.items() if n != node}
    used_per_node = Counter(p.node for p in placement)
    moves: list[Move] = []
    unplaceable: list[tuple[Placed, str]] = []
    for p in sorted(placement, key=lambda x: (x.topology, x.executor)):
        if p.node != node:
            continue
        targets = slots_of.get(p.topology)
        if not targets:
            spare = [n for n in sorted(free, key=lambda n: (used_per_node[n], n)) if free[n]]
            if not spare:
                unplaceable.append((p, "no worker of the topology on another node and no free slot elsewhere"))
                continue
            new_slot = free[spare[0]].pop(0)
            slots_of[p.topology] = targets = {new_slot}
            used_per_node[spare[0]] += 1
        target = min(targets, key=lambda s: (fill[s], s))
        fill[target] += 1
        fill[p.slot] -= 1
        moves.append(Move(p.topology, p.executor, p.slot, target, reason=f"drain {node}"))
    return DrainPlan(moves, unplaceable)
