"""Before/after summary of an OTD run and the series its plots draw. Pure: samples (one per controller
cycle), per-second throughput rows, the moves and the phase windows in; plain dicts out.

"Before" is Storm's default placement (the whole default phase after its warm-up); "after" is the
last part of the OTD phase (`settled_share` of it), once the moves had time to take effect.

Worker figures are over the topology's workers, the most seen placed at once: a worker that OTD emptied
(its last executor moved away) counts as a worker using nothing. Averaging over the placed workers only
credited OTD with a higher mean for leaving a worker out (results/otd/quick-compute-uneven-480: +71.5 %
over the placed workers, +47 % over all six)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

METRICS = ("throughput", "latency_p50_ms", "worker_cpu_mean", "worker_cpu_cv", "inter_node_share")
LABELS = {"throughput": "throughput (acked tuples/s)", "latency_p50_ms": "latency p50 (ms)",
          "worker_cpu_mean": "mean worker CPU (cores)", "worker_cpu_cv": "worker CPU imbalance (CV)",
          "inter_node_share": "inter-node tuple share"}


def _padded(worker_cpu: Mapping[str, float], workers: int) -> list[float]:
    vals = list(worker_cpu.values())
    return vals + [0.0] * (workers - len(vals)) if vals else []


def cpu_mean(worker_cpu: Mapping[str, float], workers: int = 0) -> float | None:
    """Mean CPU over `workers` workers (those not in worker_cpu use none), or over those given."""
    vals = _padded(worker_cpu, workers)
    return statistics.fmean(vals) if vals else None


def cpu_cv(worker_cpu: Mapping[str, float], workers: int = 0) -> float | None:
    """Coefficient of variation of the workers' CPU (0 = perfectly even); None below two workers or
    when nothing runs."""
    vals = _padded(worker_cpu, workers)
    if len(vals) < 2:
        return None
    mean = statistics.fmean(vals)
    return statistics.pstdev(vals) / mean if mean > 0 else None


def node_cpu_cv(worker_cpu: Mapping[str, float], node_cpus: Mapping[str, int]) -> float | None:
    """Coefficient of variation of the nodes' busy shares (each node's workers' cores over its CPUs;
    a node running none of the topology's workers counts as 0). Workers are keyed "host:port". The
    per-worker figure misleads where nodes differ in slots: 4 splits in node1's one worker and 4 spread
    over node2's three make the workers uneven and the nodes even. None below two nodes or when idle."""
    if len(node_cpus) < 2:
        return None
    busy = {host: 0.0 for host in node_cpus}
    for slot, cores in worker_cpu.items():
        host = slot.rsplit(":", 1)[0]
        if host in busy:
            busy[host] += cores
    shares = [busy[h] / node_cpus[h] for h in node_cpus]
    mean = statistics.fmean(shares)
    return statistics.pstdev(shares) / mean if mean > 0 else None


def _mean(values: Iterable[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return round(statistics.fmean(got), 4) if got else None


def topology_workers(samples: Iterable[Mapping]) -> int:
    """The most workers placed at once in the run."""
    return max((len(s["worker_cpu"]) for s in samples), default=0)


def window_stats(samples: Sequence[Mapping], seconds: Sequence[Mapping], start: float, end: float,
                 workers: int = 0) -> dict[str, Any]:
    """Means over [start, end) of every metric: worker figures per sample (over `workers` workers),
    throughput and latency per second (seconds without acked tuples count as 0 throughput and no latency)."""
    ss = [s for s in samples if start <= s["at"] < end]
    rows = [r for r in seconds if start <= r["ts"] < end]
    return {
        "start": start, "end": end, "samples": len(ss), "seconds": len(rows),
        "throughput": _mean(r["acked"] for r in rows),
        "latency_p50_ms": _mean(r["latency_p50_ms"] if r["acked"] else None for r in rows),
        "worker_cpu_mean": _mean(cpu_mean(s["worker_cpu"], workers) for s in ss),
        "worker_cpu_cv": _mean(cpu_cv(s["worker_cpu"], workers) for s in ss),
        "inter_node_share": _mean(s["inter_node_share"] for s in ss),
    }


def change_pct(before: float | None, after: float | None) -> float | None:
    """Relative change in percent; None when either side is unknown or the base is 0."""
    if before is None or after is None or before == 0:
        return None
    return round((after - before) / abs(before) * 100, 1)


def verdicts(change: Mapping[str, float | None], targets: Mapping[str, float]) -> dict[str, dict]:
    """Each target is a signed percentage: +51 means "up by at least 51 %", -88 "down by at least 88 %"."""
    out = {}
    for metric, target in targets.items():
        got = change.get(metric)
        met = None if got is None else (got >= target if target >= 0 else got <= target)
        out[metric] = {"target_pct": target, "change_pct": got, "met": met}
    return out


def summarise(samples: Sequence[Mapping], seconds: Sequence[Mapping], moves: Sequence[Mapping],
              phases: Mapping[str, tuple[float, float]], settled_share: float = 0.5,
              targets: Mapping[str, float] | None = None) -> dict[str, Any]:
    if not 0 < settled_share <= 1:
        raise ValueError(f"settled_share must be in (0, 1], got {settled_share}")
    for name in ("default", "otd"):
        if name not in phases:
            raise ValueError(f"phases must include '{name}'")
    d0, d1 = phases["default"]
    o0, o1 = phases["otd"]
    after_start = o1 - (o1 - o0) * settled_share
    workers = topology_workers(samples)
    before = window_stats(samples, seconds, d0, d1, workers)
    after = window_stats(samples, seconds, after_start, o1, workers)
    change = {m: change_pct(before[m], after[m]) for m in METRICS}
    doc = {"default": before, "otd": after, "change_pct": change, "moves": [dict(m) for m in moves],
           "moves_made": len(moves), "workers": workers}
    if targets:
        doc["targets"] = verdicts(change, targets)
    return doc


def plot_series(samples: Sequence[Mapping], seconds: Sequence[Mapping], moves: Sequence[Mapping],
                t0: float, phase_switch: float | None = None) -> dict[str, Any]:
    """x (seconds since t0) and y per metric, the moves' times and the phase switch: what plots draw."""
    def xy(points):
        pts = [(round(t - t0, 3), y) for t, y in points if y is not None]
        return {"x": [p[0] for p in pts], "y": [p[1] for p in pts]}

    ss = sorted(samples, key=lambda s: s["at"])
    rows = sorted(seconds, key=lambda r: r["ts"])
    workers = topology_workers(ss)
    return {
        "throughput": xy((r["ts"], r["acked"]) for r in rows),
        "latency_p50_ms": xy((r["ts"], r["latency_p50_ms"] if r["acked"] else None) for r in rows),
        "worker_cpu_mean": xy((s["at"], cpu_mean(s["worker_cpu"], workers)) for s in ss),
        "worker_cpu_cv": xy((s["at"], cpu_cv(s["worker_cpu"], workers)) for s in ss),
        "inter_node_share": xy((s["at"], s["inter_node_share"]) for s in ss),
        "moves": [round(m["at"] - t0, 3) for m in moves],
        "phase_switch": None if phase_switch is None else round(phase_switch - t0, 3),
    }
