"""What `pycontrol inspect` reports about a live model: placement, traffic across nodes, the hottest
edges, the most loaded workers, and findings (what looks wrong). Pure functions of the model."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass
from statistics import mean
from typing import Any

from pycontrol.model.live import STATUS_LOST, STATUS_NO_METRICS, STATUS_STALE, LiveModel


@dataclass(frozen=True)
class Thresholds:
    node_utilization: float = 0.9      # a node whose CPUs are this busy (all processes) is overloaded
    worker_cores: float = 1.0          # a worker using more than this many cores is overloaded
    imbalance: float = 2.0             # ... or more than this times the topology's mean worker load
    min_imbalance_cores: float = 0.1   # (ignoring workers too idle to matter)
    executor_cores: float = 0.8        # an executor thread this busy cannot go much faster
    queue_fill: float = 0.5            # a receive queue this full: tuples arrive faster than processed
    capacity: float = 0.8              # Storm's own busy estimate for bolts


@dataclass(frozen=True)
class Finding:
    kind: str       # overloaded-node | overloaded-worker | bottleneck-component | lost-worker | no-metrics | stale-metrics | skipped-document | collector-error
    subject: str
    detail: str


def findings(model: LiveModel, th: Thresholds = Thresholds()) -> list[Finding]:
    out: list[Finding] = []
    for e in model.errors:
        out.append(Finding("collector-error", "metrics", e))
    for n in model.nodes.values():
        if n.utilization is not None and n.utilization >= th.node_utilization:
            out.append(Finding("overloaded-node", n.node,
                               f"CPU {n.utilization:.0%} busy ({n.busy_cores:.2f} of {n.cpu_count} cores, all "
                               f"processes; this topology {n.topology_load_cores:.2f})"))
    loads = [w.load_cores for w in model.workers.values() if w.load_cores is not None]
    avg = mean(loads) if loads else 0.0
    for w in sorted(model.workers.values(), key=lambda w: w.worker):
        reasons = []
        if w.load_cores is not None:
            if w.load_cores > th.worker_cores:
                reasons.append(f"uses {w.load_cores:.2f} cores (> {th.worker_cores:g})")
            if len(loads) > 1 and w.load_cores >= th.min_imbalance_cores and w.load_cores > th.imbalance * avg:
                reasons.append(f"{w.load_cores / avg:.1f}x the mean worker load ({avg:.2f} cores)")
        full = [e for e in w.executors
                if (model.executors.nodes[e].get("queue_fill") or 0.0) >= th.queue_fill]
        if full:
            reasons.append(f"receive queues over {th.queue_fill:.0%} full: {', '.join(full)}")
        if reasons:
            out.append(Finding("overloaded-worker", w.worker, "; ".join(reasons)))
        if w.status == STATUS_LOST:
            out.append(Finding("lost-worker", w.worker, "its metrics document vanished (worker died or stopped)"))
        elif w.status == STATUS_NO_METRICS:
            out.append(Finding("no-metrics", w.worker, "placed by Storm but publishes no metrics (starting?)"))
        elif w.status == STATUS_STALE:
            out.append(Finding("stale-metrics", w.worker, f"last document {w.doc_age_s:.0f} s old"))
    for x in model.lost:
        if x.reason != "document gone":
            out.append(Finding("lost-worker", x.worker, f"pid {x.pid} {x.reason}"))
    out.extend(_bottlenecks(model, th))
    for s in model.skipped:
        out.append(Finding("skipped-document", s.path, s.reason))
    return out


def _bottlenecks(model: LiveModel, th: Thresholds) -> list[Finding]:
    by_comp: dict[str, list[str]] = defaultdict(list)
    for e, a in model.executors.nodes(data=True):
        if a.get("component"):
            by_comp[a["component"]].append(e)
    scored = []
    for comp, execs in sorted(by_comp.items()):
        reasons, score = [], 0.0
        for e in sorted(execs):
            a = model.executors.nodes[e]
            cpu, fill, cap = a.get("cpu_cores"), a.get("queue_fill"), a.get("capacity")
            if cpu is not None and cpu >= th.executor_cores:
                reasons.append(f"{e} thread at {cpu:.2f} cores")
                score = max(score, cpu / th.executor_cores)
            if fill is not None and fill >= th.queue_fill:
                reasons.append(f"{e} queue {fill:.0%} full")
                score = max(score, fill / th.queue_fill)
            if cap is not None and cap >= th.capacity:
                reasons.append(f"{e} capacity {cap:.2f}")
                score = max(score, cap / th.capacity)
        if reasons:
            scored.append((score, comp, reasons))
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [Finding("bottleneck-component", comp, "; ".join(reasons)) for _, comp, reasons in scored]


def report(model: LiveModel, top: int = 5, th: Thresholds = Thresholds()) -> dict[str, Any]:
    share = model.inter_node_share()
    worker_share = model.inter_worker_share()
    return {
        "topology": {"id": model.topology_id, "name": model.name, "status": model.status},
        "taken_at_ms": model.taken_at_ms,
        "cpu_mhz": model.cpu_mhz,
        "placement": [
            {"node": node, "utilization": model.nodes[node].utilization if node in model.nodes else None,
             "workers": [{"worker": w, "status": model.workers[w].status, "load_cores": model.workers[w].load_cores,
                          "executors": [{"id": e, "component": model.executors.nodes[e].get("component")}
                                        for e in execs]}
                         for w, execs in workers.items()]}
            for node, workers in model.placement().items()],
        "tuples_per_s": round(model.total_tuples_per_s(), 2),
        "inter_node_share": None if share is None else round(share, 4),
        "inter_worker_share": None if worker_share is None else round(worker_share, 4),
        "hottest_edges": model.hottest_edges(top),
        "most_loaded_workers": [{"worker": w.worker, "load_cores": w.load_cores, "load_hz": w.load_hz,
                                 "executors": len(w.executors), "status": w.status}
                                for w in model.most_loaded_workers(top)],
        "workers": [{"worker": w.worker, "status": w.status, "pid": w.pid} for w in
                    sorted(model.workers.values(), key=lambda w: w.worker)],
        "findings": [asdict(f) for f in findings(model, th)],
    }


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def _num(x: float | None, fmt: str = ".2f") -> str:
    return "n/a" if x is None else format(x, fmt)


def format_report(r: dict[str, Any]) -> str:
    t = r["topology"]
    lines = [f"topology {t['name']} ({t['id']}, {t['status']})", "", "placement:"]
    for n in r["placement"]:
        lines.append(f"  node {n['node']}  CPU {_pct(n['utilization'])} busy")
        for w in n["workers"]:
            comps = ", ".join(f"{e['id']} {e['component']}" for e in w["executors"])
            lines.append(f"    worker {w['worker']:<22} {w['status']:<10} load {_num(w['load_cores'])} cores  {comps}")
    lines += ["", f"traffic: {r['tuples_per_s']:.1f} tuples/s; across nodes {_pct(r['inter_node_share'])}, "
                  f"across workers {_pct(r['inter_worker_share'])}", "", "hottest edges:"]
    for e in r["hottest_edges"] or [{"none": True}]:
        if e.get("none"):
            lines.append("  (no traffic measured yet)")
            break
        where = "inter-node" if e["inter_node"] else ("inter-worker" if e["src_worker"] != e["dst_worker"] else "local")
        lines.append(f"  {e['src']} {e['src_component']} -> {e['dst']} {e['dst_component']}: "
                     f"{e['tuples_per_s']:.1f} t/s ({where})")
    lines += ["", "most loaded workers:"]
    for w in r["most_loaded_workers"] or [{"none": True}]:
        if w.get("none"):
            lines.append("  (no CPU measured yet)")
            break
        hz = "" if w["load_hz"] is None else f" ({w['load_hz'] / 1e6:.0f} MHz)"
        lines.append(f"  {w['worker']:<22} {w['load_cores']:.2f} cores{hz}, {w['executors']} executors")
    lines += ["", "findings:"]
    if not r["findings"]:
        lines.append("  nothing looks wrong")
    for f in r["findings"]:
        lines.append(f"  [{f['kind']}] {f['subject']}: {f['detail']}")
    return "\n".join(lines)
