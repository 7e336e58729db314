"""What the controller makes of one live model before planning: is the data fresh enough to act on,
which components on the DAG's critical path are bottlenecks, which workers are overloaded or idle,
how much traffic crosses nodes, and so whether the topology is computation- or communication-bound
(only then is a planner run). Pure: a model, the time and thresholds in, an Evaluation out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import networkx as nx

from pycontrol.controller import snapshot
from pycontrol.model.diagnose import Thresholds, findings
from pycontrol.model.live import STATUS_OK, LiveModel

COMPUTATION = "computation-bound"
COMMUNICATION = "communication-bound"
BALANCED = "balanced"
IDLE = "idle"


@dataclass(frozen=True)
class EvalSettings:
    stale_windows: float = 3.0            # measurements older than this many windows are refused
    min_inter_node_tuples_per_s: float = 10.0   # below this no move can save enough to be worth it
    high_share: float = 0.8               # a worker at this share of its node's room is overloaded
    idle_worker_cores: float = 0.05       # a worker below this load has room to spare
    count_background: bool = True         # see snapshot.worker_shares
    thresholds: Thresholds = Thresholds()


@dataclass(frozen=True)
class Evaluation:
    topology: str
    refused: str | None                   # why the data must not be acted on, or None
    bound: str                            # computation-bound | communication-bound | balanced | idle
    critical_path: list[str] = field(default_factory=list)
    bottlenecks: list[str] = field(default_factory=list)           # all bottleneck components, worst first
    critical_bottlenecks: list[str] = field(default_factory=list)  # those on the critical path
    overloaded_workers: list[str] = field(default_factory=list)
    idle_workers: list[str] = field(default_factory=list)
    worker_shares: dict[str, float] = field(default_factory=dict)
    total_tuples_per_s: float = 0.0
    inter_node_tuples_per_s: float = 0.0
    inter_node_share: float | None = None
    oldest_window_start_s: float | None = None   # start of the oldest window the model is built from

    @property
    def worth_planning(self) -> bool:
        return self.refused is None and self.bound in (COMPUTATION, COMMUNICATION)

    def summary(self) -> str:
        if self.refused:
            return f"data refused: {self.refused}"
        share = "n/a" if self.inter_node_share is None else f"{self.inter_node_share:.0%}"
        parts = [f"{self.bound}", f"{self.total_tuples_per_s:.0f} t/s, {share} across nodes"]
        if self.overloaded_workers:
            parts.append(f"overloaded workers {self.overloaded_workers}")
        if self.critical_bottlenecks:
            parts.append(f"bottlenecks on the critical path {self.critical_bottlenecks}")
        elif self.bottlenecks:
            parts.append(f"bottlenecks {self.bottlenecks}")
        if self.idle_workers:
            parts.append(f"idle workers {self.idle_workers}")
        return "; ".join(parts)

    def to_dict(self) -> dict:
        return asdict(self)


def refusal(model: LiveModel, now_s: float, stale_windows: float) -> str | None:
    """Why this model must not be acted on: unreadable, stale or incomplete measurements."""
    if model.errors:
        return "metrics unreadable: " + "; ".join(model.errors)
    if model.status != "ACTIVE":
        return f"topology is {model.status}"
    period = model.period_s or 0
    where = snapshot.placement(model)
    if not where:
        return "no executor is placed"
    unplaced = sorted(e for e, _ in model.executors.nodes(data=True) if e not in where)
    if unplaced:
        return f"executors without a worker: {unplaced}"
    if period and (now_s * 1000 - model.taken_at_ms) / 1000 > stale_windows * period:
        return f"model taken {(now_s * 1000 - model.taken_at_ms) / 1000:.0f} s ago (> {stale_windows:g} windows)"
    for slot in sorted(set(where.values())):
        w = model.workers.get(slot)
        if w is None or w.status != STATUS_OK:
            return f"worker {slot} has {'no' if w is None else w.status} metrics"
        if period and w.doc_age_s is not None and w.doc_age_s > stale_windows * period:
            return f"worker {slot}'s metrics are {w.doc_age_s:.0f} s old (> {stale_windows:g} windows)"
    return None


def oldest_window_start(model: LiveModel) -> float | None:
    """Seconds since the epoch at which the oldest window of the placed workers began."""
    period = model.period_s
    starts = [model.taken_at_ms / 1000 - w.doc_age_s - period for s in set(snapshot.placement(model).values())
              if (w := model.workers.get(s)) is not None and w.doc_age_s is not None and period]
    return min(starts) if starts else None


def critical_path(model: LiveModel) -> list[str]:
    """The spout-to-sink path of the component DAG with the most work: each component weighs its
    busiest executor (Storm's capacity for bolts, else thread CPU in cores). Empty for a cyclic DAG."""
    g = model.components
    if g.number_of_nodes() == 0 or not nx.is_directed_acyclic_graph(g):
        return []
    weight: dict[str, float] = {c: 0.0 for c in g.nodes}
    for _, a in model.executors.nodes(data=True):
        c = a.get("component")
        if c in weight:
            busy = a.get("capacity") if a.get("capacity") is not None else a.get("cpu_cores")
            weight[c] = max(weight[c], float(busy or 0.0))
    best: dict[str, tuple[float, list[str]]] = {}
    for c in nx.lexicographical_topological_sort(g):
        base = _heaviest(best[p] for p in sorted(g.predecessors(c))) or (0.0, [])
        best[c] = (base[0] + weight[c], base[1] + [c])
    return (_heaviest(best[c] for c in sorted(g.nodes) if g.out_degree(c) == 0) or (0.0, []))[1]


def _heaviest(paths) -> tuple[float, list[str]] | None:
    """The heaviest path; ties go to the first seen (callers iterate in name order: deterministic)."""
    out = None
    for p in paths:
        if out is None or p[0] > out[0]:
            out = p
    return out


def evaluate(model: LiveModel, now_s: float, settings: EvalSettings = EvalSettings(),
             settled_at_s: float | None = None) -> Evaluation:
    """settled_at_s: when the topology's last move was seen complete. Windows that began before it mix
    traffic of the old and the new placement, and planning on them makes moves chase their own echo."""
    refused = refusal(model, now_s, settings.stale_windows)
    oldest = oldest_window_start(model)
    if refused is None and settled_at_s is not None and (oldest is None or oldest < settled_at_s):
        refused = (f"metrics windows began before the last move settled ({settled_at_s - (oldest or 0):.0f} s "
                   f"earlier); waiting for a window after it")
    flows, where = snapshot.traffic(model), snapshot.placement(model)
    total = sum(flows.values())
    inter = snapshot.inter_node_tuples_per_s(flows, where)
    found = findings(model, settings.thresholds)
    bottlenecks = [f.subject for f in found if f.kind == "bottleneck-component"]
    path = critical_path(model)
    shares = snapshot.worker_shares(model, settings.count_background)
    slots = sorted(set(where.values()))
    overloaded = sorted({f.subject for f in found if f.kind == "overloaded-worker" and f.subject in slots}
                        | {s for s, x in shares.items() if x >= settings.high_share})
    idle = [s for s in slots if s not in overloaded and (w := model.workers.get(s)) is not None
            and w.load_cores is not None and w.load_cores < settings.idle_worker_cores]
    # A node busy with other processes limits the topology too, unless told to ignore them.
    nodes_hot = settings.count_background and any(f.kind == "overloaded-node" for f in found)
    if overloaded or bottlenecks or nodes_hot:
        bound = COMPUTATION
    elif inter > settings.min_inter_node_tuples_per_s:
        bound = COMMUNICATION
    elif total > 0:
        bound = BALANCED
    else:
        bound = IDLE
    return Evaluation(model.name, refused, bound, path, bottlenecks, [b for b in bottlenecks if b in path],
                      overloaded, idle, shares, round(total, 3), round(inter, 3),
                      None if total <= 0 else round(inter / total, 4), oldest)
