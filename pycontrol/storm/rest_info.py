"""The cluster's structure from Storm's UI REST API: components, executors and where they run,
supervisors. Fetching is separate from interpreting, so recorded answers can be replayed in tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pycontrol.errors import UserError
from pycontrol import move_rules
from pycontrol.storm.rest import StormRest, executor_id
from pycontrol.wire.executor import ExecutorId


@dataclass(frozen=True)
class ExecutorPlace:
    id: ExecutorId
    component: str
    host: str
    port: int
    uptime_s: int | None = None
    capacity: float | None = None   # Storm's busy-time estimate (bolts), 0..1+

    @property
    def worker(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class ComponentInfo:
    id: str
    type: str                                     # spout | bolt
    executors: int
    tasks: int
    inputs: tuple[tuple[str, str], ...] = ()      # (component, stream) it executes tuples from
    capacity: float | None = None
    # Storm's averages since the topology started (the REST API's :all-time window), in ms.
    complete_latency_ms: float | None = None      # spouts: emit to fully acked
    process_latency_ms: float | None = None       # bolts: execute to ack


@dataclass(frozen=True)
class TopologyInfo:
    id: str
    name: str
    status: str
    uptime_s: int | None
    workers: tuple[str, ...]                      # "host:port"
    components: dict[str, ComponentInfo]
    executors: tuple[ExecutorPlace, ...]
    # Components not moved live (pycontrol.move_rules), with the reason; from the topology's conf and
    # the streams seen so far (a bolt on the checkpoint stream shows once checkpoint tuples reached it).
    unmovable: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SupervisorInfo:
    id: str
    host: str
    slots_total: int
    slots_used: int


@dataclass(frozen=True)
class ClusterTotals:
    """The whole cluster, from /cluster/summary."""
    supervisors: int
    slots_total: int
    slots_used: int


@dataclass
class RestInputs:
    """The raw answers one collection round uses: /topology/{id}, /topology/{id}/component/{c} per
    component, /supervisor/summary."""
    topology: dict[str, Any]
    components: dict[str, dict[str, Any]] = field(default_factory=dict)
    supervisors: list[dict[str, Any]] = field(default_factory=list)


def resolve_topology(rest: StormRest, name_or_id: str) -> tuple[str, str]:
    """(id, name) of a running topology given its name or id."""
    tops = rest.topologies()
    for t in tops:
        if name_or_id in (t.get("id"), t.get("name")):
            return t["id"], t["name"]
    raise UserError(f"no topology named '{name_or_id}' (running: {sorted(t.get('name') for t in tops)})")


def fetch(rest: StormRest, topology_id: str) -> RestInputs:
    topo = rest.topology(topology_id)
    comps = [s["spoutId"] for s in topo.get("spouts", [])] + [b["boltId"] for b in topo.get("bolts", [])]
    return RestInputs(topo, {c: rest.component(topology_id, c) for c in comps}, rest.supervisors())


def _float(v: Any) -> float | None:
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _int(v: Any) -> int | None:
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def topology_info(inputs: RestInputs) -> TopologyInfo:
    t = inputs.topology
    components: dict[str, ComponentInfo] = {}
    for kind, key, items in (("spout", "spoutId", t.get("spouts", [])), ("bolt", "boltId", t.get("bolts", []))):
        for c in items:
            cid = c[key]
            detail = inputs.components.get(cid, {})
            ins = tuple(sorted({(i["component"], i["stream"]) for i in detail.get("inputStats", [])
                                if not str(i.get("component", "")).startswith("__")}))
            components[cid] = ComponentInfo(cid, kind, int(c.get("executors", 0)), int(c.get("tasks", 0)), ins,
                                            _float(c.get("capacity")), _float(c.get("completeLatency")),
                                            _float(c.get("processLatency")))
    executors = []
    for cid, detail in inputs.components.items():
        for e in detail.get("executorStats", []):
            executors.append(ExecutorPlace(executor_id(e), cid, e["host"], int(e["port"]), _int(e.get("uptimeSeconds")),
                                           _float(e.get("capacity"))))
    workers = tuple(sorted({f"{w['host']}:{w['port']}" for w in t.get("workers", [])}
                           | {e.worker for e in executors}))
    conf = t.get("configuration") if isinstance(t.get("configuration"), dict) else {}
    rules = move_rules.unmovable({cid: [s for _, s in c.inputs] for cid, c in components.items()}, conf)
    return TopologyInfo(t["id"], t.get("name", t["id"]), t.get("status", "?"), _int(t.get("uptimeSeconds")),
                        workers, components, tuple(sorted(executors, key=lambda e: e.id)), rules)


def supervisors_info(raw: list[dict[str, Any]]) -> list[SupervisorInfo]:
    return [SupervisorInfo(s["id"], s["host"], int(s.get("slotsTotal", 0)), int(s.get("slotsUsed", 0))) for s in raw]


def cluster_totals(summary: dict[str, Any]) -> ClusterTotals:
    """Supervisors and worker slots of /cluster/summary."""
    try:
        return ClusterTotals(int(summary["supervisors"]), int(summary["slotsTotal"]), int(summary["slotsUsed"]))
    except (KeyError, TypeError, ValueError) as e:
        raise UserError(f"the cluster summary lacks supervisors/slotsTotal/slotsUsed: {e}") from e
