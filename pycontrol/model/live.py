"""The live model of one topology, built from the UI REST API (structure, placement) and the workers'
metrics documents (measurements). Building is a pure function of those inputs.

Graphs (networkx):
* `components`: the component DAG. Node attrs: type, executors, tasks, capacity, complete_latency_ms
  (spouts), process_latency_ms (bolts). Edge attrs: inputs
  (list of {stream, grouping, fields}), grouping (of the first input), tuples_per_s (measured).
* `executors`: executors in the wire spelling "[s,e]". Node attrs: component, tasks, worker ("host:port"), node (host),
  cpu_cores (thread + child processes), thread_cpu_cores, child_cpu_cores, cpu_hz, queue_length,
  queue_capacity, queue_fill, emitted_per_s, executed_per_s, capacity, measured. Edge attrs:
  tuples_per_s, tuples (in the window), weight (= tuples_per_s).
Unknown values are None, never 0.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import networkx as nx

from pycontrol.storm.rest_info import SupervisorInfo, TopologyInfo
from pycontrol.wire import executor as spans
from pycontrol.wire.executor import ExecutorId
from pycontrol.wire.metrics_document import Skipped, WorkerDoc

STATUS_OK = "ok"              # a fresh document
STATUS_STALE = "stale"        # a document, but older than `stale_after_periods` windows
STATUS_LOST = "lost"          # its document vanished (the worker died or stopped)
STATUS_NO_METRICS = "no-metrics"  # placed by Storm but never published (starting, or the hook is off)


@dataclass(frozen=True)
class LostWorker:
    worker: str
    pid: int
    last_seen_ms: int
    reason: str


@dataclass
class WorkerState:
    worker: str
    host: str
    port: int
    status: str
    pid: int | None = None
    cpu_cores: float | None = None        # the worker JVM
    child_cpu_cores: float = 0.0          # its executors' child processes (multilang)
    load_cores: float | None = None       # cpu_cores + child_cpu_cores
    load_hz: float | None = None
    executors: list[str] = field(default_factory=list)
    doc_age_s: float | None = None


@dataclass
class NodeState:
    node: str                             # the supervisor host
    cpu_count: int | None = None
    cpu_mhz: float | None = None
    busy_cores: float | None = None       # the whole machine, every process
    utilization: float | None = None      # busy_cores / cpu_count
    topology_load_cores: float = 0.0      # this topology's workers on the node
    net_rx_bytes_per_s: float | None = None
    net_tx_bytes_per_s: float | None = None
    workers: list[str] = field(default_factory=list)


@dataclass
class LiveModel:
    topology_id: str
    name: str
    status: str
    taken_at_ms: int
    period_s: int | None
    cpu_mhz: float | None
    components: nx.DiGraph
    executors: nx.DiGraph
    workers: dict[str, WorkerState]
    nodes: dict[str, NodeState]
    lost: list[LostWorker] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    unmovable: dict[str, str] = field(default_factory=dict)   # component -> why it is not moved live

    # --- derived views -------------------------------------------------------------------------
    def unmovable_executors(self) -> set[str]:
        """Executors of components that are not moved live (pycontrol.move_rules), and those whose state their
        worker last measured over the handoff limit (Nimbus refuses to move them: docs/state-handoff.md, F2)."""
        return {e for e, a in self.executors.nodes(data=True)
                if a.get("component") in self.unmovable or a.get("state_over_limit")}

    def placement(self) -> dict[str, dict[str, list[str]]]:
        """node -> worker -> executors."""
        out: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for e, a in self.executors.nodes(data=True):
            if a.get("worker"):
                out[a["node"]][a["worker"]].append(e)
        return {n: {w: sorted(es, key=ExecutorId.parse) for w, es in sorted(ws.items())}
                for n, ws in sorted(out.items())}

    def total_tuples_per_s(self) -> float:
        return sum(d["tuples_per_s"] for _, _, d in self.executors.edges(data=True))

    def _share(self, attr: str) -> float | None:
        where = nx.get_node_attributes(self.executors, attr)
        total = crossing = 0.0
        for u, v, rate in self.executors.edges(data="tuples_per_s"):
            a, b = where.get(u), where.get(v)
            if a is None or b is None:
                continue
            total += rate
            if a != b:
                crossing += rate
        return crossing / total if total > 0 else None

    def inter_node_share(self) -> float | None:
        """Fraction of tuples/s that cross nodes (None without measured traffic)."""
        return self._share("node")

    def inter_worker_share(self) -> float | None:
        return self._share("worker")

    def hottest_edges(self, n: int = 5) -> list[dict[str, Any]]:
        edges = sorted(self.executors.edges(data=True), key=lambda e: (-e[2]["tuples_per_s"], e[0], e[1]))
        out = []
        for u, v, d in edges[:n]:
            a, b = self.executors.nodes[u], self.executors.nodes[v]
            out.append({"src": u, "dst": v, "src_component": a.get("component"), "dst_component": b.get("component"),
                        "src_worker": a.get("worker"), "dst_worker": b.get("worker"),
                        "tuples_per_s": d["tuples_per_s"],
                        "inter_node": a.get("node") is not None and b.get("node") is not None
                        and a.get("node") != b.get("node")})
        return out

    def most_loaded_workers(self, n: int = 5) -> list[WorkerState]:
        known = [w for w in self.workers.values() if w.load_cores is not None]
        return sorted(known, key=lambda w: (-w.load_cores, w.worker))[:n]

    def to_dict(self) -> dict[str, Any]:
        return {
            "topology_id": self.topology_id, "name": self.name, "status": self.status,
            "taken_at_ms": self.taken_at_ms, "period_s": self.period_s, "cpu_mhz": self.cpu_mhz,
            "components": [{"id": c, **a} for c, a in sorted(self.components.nodes(data=True))],
            "component_edges": [{"src": u, "dst": v, **d} for u, v, d in sorted(self.components.edges(data=True))],
            "executors": [{"id": e, **{k: list(v) if isinstance(v, tuple) else v for k, v in a.items()}}
                          for e, a in sorted(self.executors.nodes(data=True), key=lambda x: ExecutorId.parse(x[0]))],
            "executor_edges": [{"src": u, "dst": v, **d} for u, v, d in
                               sorted(self.executors.edges(data=True), key=lambda x: (ExecutorId.parse(x[0]),
                                                                                      ExecutorId.parse(x[1])))],
            "workers": [asdict(w) for _, w in sorted(self.workers.items())],
            "nodes": [asdict(n) for _, n in sorted(self.nodes.items())],
            "lost": [asdict(x) for x in self.lost],
            "skipped": [asdict(x) for x in self.skipped],
            "errors": list(self.errors),
            "tuples_per_s": self.total_tuples_per_s(),
            "inter_node_share": self.inter_node_share(),
            "inter_worker_share": self.inter_worker_share(),
        }


def _round(x: float | None, nd: int = 4) -> float | None:
    return None if x is None else round(x, nd)


def _hz(cores: float | None, mhz: float | None) -> int | None:
    return None if cores is None or mhz is None else round(cores * mhz * 1e6)


# Attributes of an executor nothing measured (placed by REST only, or named only by traffic).
_UNMEASURED = dict(cpu_cores=None, thread_cpu_cores=None, child_cpu_cores=None, cpu_hz=None, queue_length=None,
                   queue_capacity=None, queue_fill=None, emitted_per_s=None, executed_per_s=None, measured=False,
                   state_bytes=None, state_over_limit=None, state_measured_at_ms=None)


def build_model(info: TopologyInfo, docs: Mapping[str, WorkerDoc], *, now_ms: int,
                cpu_mhz: float | None = None, fallback_mhz: float | None = None,
                supervisors: Iterable[SupervisorInfo] = (), lost: Iterable[LostWorker] = (),
                skipped: Iterable[Skipped] = (), errors: Iterable[str] = (),
                stale_after_periods: float = 3.0) -> LiveModel:
    """The model of one topology. `cpu_mhz` (configured) wins over each node's reported frequency,
    which wins over `fallback_mhz` (e.g. this machine's /proc/cpuinfo)."""
    docs = {w: d for w, d in docs.items() if d.topology_id == info.id}
    docs, skipped = _known_executors_only(info, docs, list(skipped))
    ordered = sorted(docs.values(), key=lambda d: (d.window_end_ms, d.worker))  # freshest last
    reported = {d.host: d.node_cpu_mhz for d in ordered if d.node_cpu_mhz is not None}

    def mhz_for(host: str | None) -> float | None:
        return cpu_mhz if cpu_mhz is not None else reported.get(host, fallback_mhz)

    comp, task_component = _component_dag(info, ordered[-1].components if ordered else ())
    ex = _executor_graph(info, ordered, mhz_for)
    _add_traffic(ex, comp, ordered, task_component)
    lost = list(lost)
    workers = _workers(info, docs, ex, lost, now_ms, stale_after_periods, mhz_for)
    nodes = _nodes(workers, ordered, supervisors, mhz_for)
    model_mhz = cpu_mhz if cpu_mhz is not None else (ordered[-1].node_cpu_mhz if ordered else None) or fallback_mhz
    return LiveModel(info.id, info.name, info.status, now_ms, max((d.period_s for d in ordered), default=None),
                     model_mhz, comp, ex, workers, nodes, lost, skipped, [e for e in errors if e], dict(info.unmovable))


def _known_executors_only(info: TopologyInfo, docs: Mapping[str, WorkerDoc],
                          skipped: list[Skipped]) -> tuple[dict[str, WorkerDoc], list[Skipped]]:
    """Documents naming an executor the topology does not have (per the REST view) are skipped whole."""
    known = {(p.id.start, p.id.end) for p in info.executors}
    if not known:  # no REST view of the executors: nothing to check against
        return dict(docs), skipped
    kept = {}
    for w, d in docs.items():
        stray = spans.check_known(((m.start, m.end) for m in d.executors), known, d.topology_id)
        if stray is None:
            kept[w] = d
        else:
            skipped.append(Skipped(f"{d.topology_id}/{d.host}-{d.port}", stray))
    return kept, skipped


def _component_dag(info: TopologyInfo, spec) -> tuple[nx.DiGraph, dict[int, str]]:
    """The documents carry the groupings; without them, the REST API tells which streams are executed."""
    comp = nx.DiGraph()
    task_component: dict[int, str] = {}
    for c in info.components.values():
        comp.add_node(c.id, type=c.type, executors=c.executors, tasks=None, capacity=c.capacity,
                      complete_latency_ms=c.complete_latency_ms, process_latency_ms=c.process_latency_ms)
    for c in spec:
        if c.id not in comp:
            comp.add_node(c.id, type=c.type, executors=None, tasks=None, capacity=None, complete_latency_ms=None,
                          process_latency_ms=None)
        comp.nodes[c.id]["tasks"] = list(c.tasks)
        task_component.update({t: c.id for t in c.tasks})
        for i in c.inputs:
            _component_edge(comp, i.component, c.id, i.grouping)["inputs"].append(
                {"stream": i.stream, "grouping": i.grouping, "fields": list(i.fields)})
    if not spec:
        for c in info.components.values():
            for src, stream in c.inputs:
                _component_edge(comp, src, c.id, None)["inputs"].append(
                    {"stream": stream, "grouping": None, "fields": []})
    return comp, task_component


def _component_edge(comp: nx.DiGraph, src: str, dst: str, grouping: str | None) -> dict:
    if not comp.has_edge(src, dst):
        comp.add_edge(src, dst, inputs=[], grouping=grouping, tuples_per_s=0.0)
    return comp.edges[src, dst]


def _executor_graph(info: TopologyInfo, ordered: list[WorkerDoc], mhz_for) -> nx.DiGraph:
    """Placement from REST, overridden by the documents (fresher, and right during a move)."""
    ex = nx.DiGraph()
    for p in info.executors:
        ex.add_node(str(p.id), component=p.component, tasks=tuple(p.id.task_ids), worker=p.worker,
                    node=p.host, capacity=p.capacity, **_UNMEASURED)
    for d in ordered:
        for m in d.executors:
            total = None if m.cpu_cores is None else m.cpu_cores + (m.child_cpu_cores or 0.0)
            tasks = tuple(m.tasks) or tuple(spans.task_range(m.start, m.end))
            attrs = dict(component=m.component, tasks=tasks,
                         worker=d.worker, node=d.host, cpu_cores=_round(total), thread_cpu_cores=m.cpu_cores,
                         child_cpu_cores=m.child_cpu_cores, cpu_hz=_hz(total, mhz_for(d.host)),
                         queue_length=m.queue_length, queue_capacity=m.queue_capacity,
                         queue_fill=m.queue_length / m.queue_capacity
                         if m.queue_length is not None and m.queue_capacity else None,
                         emitted_per_s=m.emitted_per_s, executed_per_s=m.executed_per_s, measured=True)
            key = str(m.id)
            if key in ex:
                ex.nodes[key].update(attrs)
            else:
                ex.add_node(key, capacity=None, state_bytes=None, state_over_limit=None, state_measured_at_ms=None,
                            **attrs)
            # The newest measurement of its state, whichever worker published it (a document without one
            # does not erase an older one: measuring resumes a few seconds after a move).
            node = ex.nodes[key]
            if m.state is not None and m.state.measured_at_ms >= (node.get("state_measured_at_ms") or -1):
                node.update(state_bytes=m.state.bytes, state_over_limit=m.state.over_limit,
                            state_measured_at_ms=m.state.measured_at_ms)
    return ex


def _add_traffic(ex: nx.DiGraph, comp: nx.DiGraph, ordered: list[WorkerDoc], task_component: dict[int, str]) -> None:
    """Task pairs -> executor edges (weight = tuples/s), and their sums onto the component edges."""
    task_executor: dict[int, str] = {}
    for key in list(ex.nodes):
        task_executor.update({t: key for t in ExecutorId.parse(key).task_ids})

    def executor_of(task: int) -> str | None:
        if task not in task_executor:  # named by traffic, placed by nobody (e.g. its worker just died)
            if spans.check(task, task, system_allowed=True):
                return None  # not a task id Storm gives: no executor to draw the traffic on
            key = str(ExecutorId(task, task))
            ex.add_node(key, component=task_component.get(task), tasks=(task,), worker=None, node=None,
                        capacity=None, **_UNMEASURED)
            task_executor[task] = key
        return task_executor[task]

    for d in ordered:
        for p in d.traffic:
            src, dst = executor_of(p.src_task), executor_of(p.dst_task)
            if src is None or dst is None:
                continue
            if ex.has_edge(src, dst):
                ex.edges[src, dst]["tuples_per_s"] += p.tuples_per_s
                ex.edges[src, dst]["tuples"] += p.tuples
            else:
                ex.add_edge(src, dst, tuples_per_s=p.tuples_per_s, tuples=p.tuples)
    for u, v, a in ex.edges(data=True):
        a["tuples_per_s"] = round(a["tuples_per_s"], 4)
        a["weight"] = a["tuples_per_s"]
        cu, cv = ex.nodes[u].get("component"), ex.nodes[v].get("component")
        if cu is not None and cv is not None:
            edge = _component_edge(comp, cu, cv, None)
            edge["tuples_per_s"] = round(edge["tuples_per_s"] + a["tuples_per_s"], 4)


def _workers(info: TopologyInfo, docs: Mapping[str, WorkerDoc], ex: nx.DiGraph, lost: list[LostWorker],
             now_ms: int, stale_after_periods: float, mhz_for) -> dict[str, WorkerState]:
    workers: dict[str, WorkerState] = {}
    for w in sorted(set(info.workers) | set(docs) | {x.worker for x in lost}):
        host, _, port = w.rpartition(":")
        d = docs.get(w)
        if d is None:
            status = STATUS_LOST if any(x.worker == w for x in lost) else STATUS_NO_METRICS
            workers[w] = WorkerState(w, host, int(port), status)
            continue
        age = max(0.0, (now_ms - d.window_end_ms) / 1000.0)
        child = sum(m.child_cpu_cores or 0.0 for m in d.executors)
        load = None if d.cpu_cores is None else d.cpu_cores + child
        workers[w] = WorkerState(w, host, int(port), STATUS_STALE if age > stale_after_periods * d.period_s
                                 else STATUS_OK, d.pid, d.cpu_cores, round(child, 4), _round(load),
                                 _hz(load, mhz_for(host)), [], round(age, 1))
    for e, a in ex.nodes(data=True):
        if a.get("worker") in workers:
            workers[a["worker"]].executors.append(e)
    for ws in workers.values():
        ws.executors.sort(key=ExecutorId.parse)
    return workers


def _nodes(workers: dict[str, WorkerState], ordered: list[WorkerDoc], supervisors: Iterable[SupervisorInfo],
           mhz_for) -> dict[str, NodeState]:
    """Machine-wide figures from the freshest document on each host."""
    nodes: dict[str, NodeState] = {}
    freshest = {d.host: d for d in ordered}
    for h in sorted({ws.host for ws in workers.values()} | {s.host for s in supervisors}):
        n = NodeState(h, cpu_mhz=mhz_for(h))
        d = freshest.get(h)
        if d is not None:
            n.cpu_count = d.node_cpu_count
            n.busy_cores = d.node_cpu_busy_cores
            if d.node_cpu_busy_cores is not None and d.node_cpu_count:
                n.utilization = round(d.node_cpu_busy_cores / d.node_cpu_count, 4)
            n.net_rx_bytes_per_s = round(sum(x.rx_bytes_per_s for x in d.net), 2)
            n.net_tx_bytes_per_s = round(sum(x.tx_bytes_per_s for x in d.net), 2)
        n.workers = sorted(w for w, ws in workers.items() if ws.host == h)
        n.topology_load_cores = round(sum(workers[w].load_cores or 0.0 for w in n.workers), 4)
        nodes[h] = n
    return nodes
