"""A live model as the Java scheduler cores read it: a PLAN-INPUT document
(storm-plugins/scheduling/PLAN-INPUT.md), plus the small traffic arithmetic the controller needs to
predict and measure a plan's gain. Pure.

Units: CPU in cores (`executor_cpu`, `cpu_capacity`), traffic in tuples/s. Node ids are the
supervisors' hosts, so every slot is already written "HOST:PORT", as plan znodes want it. The
controller plans within the topology's current slots only: moving to an existing worker is the
cheap nonstop path, and the REST API does not say which ports of a node are free.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import networkx as nx

from pycontrol.wire.executor import ExecutorId
from pycontrol.model.live import LiveModel

# OTD's share of a worker on a node with no CPU left (finite, so records stay JSON); Java: otd/WorkerShare.SATURATED.
SATURATED_SHARE = 1000.0


def placement(model: LiveModel) -> dict[str, str]:
    """executor "[s,e]" -> worker "host:port", for every placed executor."""
    return {e: a["worker"] for e, a in model.executors.nodes(data=True) if a.get("worker")}


def traffic(model: LiveModel) -> dict[tuple[str, str], float]:
    return {(u, v): float(r) for u, v, r in model.executors.edges(data="tuples_per_s") if r and u != v}


def node_of(slot: str) -> str:
    return slot.rpartition(":")[0]


def inter_node_tuples_per_s(flows: dict[tuple[str, str], float], where: dict[str, str]) -> float:
    """Tuples/s between executors on different nodes, for a placement executor -> "host:port"."""
    total = 0.0
    for (u, v), rate in flows.items():
        a, b = where.get(u), where.get(v)
        if a is not None and b is not None and node_of(a) != node_of(b):
            total += rate
    return total


def gain_of(model: LiveModel, moves: dict[str, str]) -> float:
    """Inter-node tuples/s saved (negative: added) if `moves` (executor -> slot) were applied now."""
    flows, now = traffic(model), placement(model)
    return inter_node_tuples_per_s(flows, now) - inter_node_tuples_per_s(flows, {**now, **moves})


def shares_of(node_of_worker: dict[str, str], loads: dict[str, float],
              nodes: dict[str, tuple[int | None, float | None]]) -> dict[str, float]:
    """OTD's worker CPU from raw measurements, the same figure as the Java side's otd/WorkerShare (checked
    against tests/vectors/otd_shares/cases.json): a worker's load as a share of its even part of its node's
    room, load / (room / the topology's workers on the node), but never below the node's use of that room
    (the topology's load there / room). Workers on one node share its CPUs, so on a busy node a worker that
    happens to use less than its part has no room to take more: counted as low, it drew OTD's moves back
    onto a saturated node, and back again (results/otd/quick-compute-uneven-480).

    node_of_worker: every worker of the topology -> its node (unmeasured workers still share it);
    loads: worker -> measured load in cores; nodes: node -> (CPU count, busy cores of the whole machine or
    None when other processes are not counted). room = CPUs - max(0, busy - the topology's load there).
    Workers without a load or on a node of unknown size get no share."""
    per_node: dict[str, int] = defaultdict(int)
    node_load: dict[str, float] = defaultdict(float)
    for w, host in node_of_worker.items():
        per_node[host] += 1
        node_load[host] += loads.get(w, 0.0)
    out = {}
    for w in sorted(node_of_worker):
        host = node_of_worker[w]
        cpu_count, busy = nodes.get(host, (None, None))
        if w not in loads or not cpu_count:
            continue
        room = float(cpu_count) - (max(0.0, busy - node_load[host]) if busy is not None else 0.0)
        share = max(loads[w] / (room / per_node[host]), node_load[host] / room) if room > 0 else SATURATED_SHARE
        out[w] = round(min(share, SATURATED_SHARE), 4)
    return out


def worker_shares(model: LiveModel, count_background: bool = True) -> dict[str, float]:
    """shares_of for a live model: the topology's placed workers, their measured loads, each node's CPUs and
    (with count_background) busy cores. For display and calibration: the planners derive their own from
    PLAN-INPUT's raw figures."""
    slots = set(placement(model).values())
    loads = {s: model.workers[s].load_cores for s in slots
             if s in model.workers and model.workers[s].load_cores is not None}
    nodes = {host: (n.cpu_count, n.busy_cores if count_background else None) for host, n in model.nodes.items()}
    return shares_of({s: node_of(s) for s in slots}, loads, nodes)


def worker_queues(model: LiveModel) -> dict[str, int]:
    """Tuples waiting in each worker's executors' receive queues."""
    out: dict[str, int] = defaultdict(int)
    for _, a in model.executors.nodes(data=True):
        if a.get("worker") and a.get("queue_length") is not None:
            out[a["worker"]] += int(a["queue_length"])
    return dict(out)


def _edges(model: LiveModel, components: list[str]) -> list[list[str]]:
    known = set(components)
    g = nx.DiGraph([(u, v) for u, v in model.components.edges if u in known and v in known and u != v])
    if not nx.is_directed_acyclic_graph(g):
        return []  # PLAN-INPUT refuses cycles; the planners read traffic, the DAG only orders components
    return sorted([u, v] for u, v in g.edges)


def plan_input(model: LiveModel, scheduler_params: dict[str, Any] | None = None,
               count_background: bool = True) -> dict[str, Any]:
    """The PLAN-INPUT document of one topology as it runs now (`current_placement` complete), with the raw
    measurements (worker load and node busy cores, in cores) from which the Java side derives OTD's shares and
    the nodes' background; without count_background the busy cores are left out, so other processes do not
    shrink a node's room."""
    where = placement(model)
    by_slot: dict[str, list[str]] = defaultdict(list)
    for e, s in where.items():
        by_slot[s].append(e)
    ports: dict[str, list[int]] = defaultdict(list)
    for s in by_slot:
        ports[node_of(s)].append(int(s.rpartition(":")[2]))
    nodes = []
    for host in sorted(ports):
        node: dict[str, Any] = {"id": host, "ports": sorted(ports[host])}
        n = model.nodes.get(host)
        if n is not None and n.cpu_count:
            node["cpu_capacity"] = float(n.cpu_count)
            if count_background and n.busy_cores is not None:
                node["cpu_busy"] = round(n.busy_cores, 4)
        nodes.append(node)
    order = sorted(where, key=ExecutorId.parse)
    components = sorted({model.executors.nodes[e]["component"] for e in order})
    queues = worker_queues(model)
    loads = {s: model.workers[s].load_cores for s in sorted(by_slot)
             if s in model.workers and model.workers[s].load_cores is not None}
    topology = {
        "id": model.name,
        "workers": len(by_slot),
        "components": [{"name": c} for c in components],
        "executors": [{"id": e, "component": model.executors.nodes[e]["component"]} for e in order],
        "edges": _edges(model, components),
        "traffic": [{"from": u, "to": v, "rate": round(r, 4)}
                    for (u, v), r in sorted(traffic(model).items()) if u in where and v in where],
        "executor_cpu": {e: model.executors.nodes[e]["cpu_cores"] for e in order
                         if model.executors.nodes[e].get("cpu_cores") is not None},
        "current_placement": {s: sorted(es, key=ExecutorId.parse)
                              for s, es in sorted(by_slot.items())},
        "worker_load": {s: {"load": round(load, 4), "queue": queues.get(s, 0)} for s, load in loads.items()},
    }
    doc: dict[str, Any] = {"comment": f"pycontrol controller snapshot of {model.topology_id} at {model.taken_at_ms}",
                           "cluster": {"nodes": nodes}, "topology": topology}
    if scheduler_params:
        doc["params"] = scheduler_params
    return doc
