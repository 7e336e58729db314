"""Reading one run of the Storm grouping experiment (workload `grouping-count`) from its artifacts:
throughput and latency from the FeedSpout's per-second series, memory from the counting tasks' key sets,
exact counts from the aggregation, and CG's load signals from the worker logs."""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter
from pathlib import Path
from typing import Iterable

from pycontrol.workloads.series import Second

# EdgeSignalPump logs: "CG edge source:default->count: signals [WorkerSignal[worker=0, signal=DECREASE], ...]"
_SIGNALS = re.compile(r"CG edge (\S+): signals \[(.*)\]")
_SIGNAL = re.compile(r"worker=(\d+), signal=(INCREASE|DECREASE)")


def newest_snapshots(dirs: Iterable[Path], component: str) -> dict[int, dict]:
    """task -> its newest counts snapshot (counts-<component>-<task>.json) over the directories."""
    newest: dict[int, dict] = {}
    for d in dirs:
        for f in Path(d).glob("counts-*.json"):
            try:
                doc = json.loads(f.read_text(encoding="utf-8"))
                task = int(doc["task"])
                if doc["component"] != component:
                    continue
            except (ValueError, KeyError, TypeError, OSError):
                continue
            if task not in newest or doc.get("written_ms", 0) >= newest[task].get("written_ms", 0):
                newest[task] = doc
    return newest


def memory(snapshots: dict[int, dict]) -> dict:
    """The paper's memory: distinct keys per worker, summed, and normalised by the distinct keys overall
    (1.0 = every key on one worker, as with key grouping)."""
    per_task = {task: len(doc.get("counts", {})) for task, doc in sorted(snapshots.items())}
    union = set()
    for doc in snapshots.values():
        union.update(doc.get("counts", {}))
    total = sum(per_task.values())
    return {"per_task": per_task, "total": total, "distinct_keys": len(union),
            "normalised": round(total / len(union), 4) if union else None,
            "tuples_per_task": {task: int(doc.get("tuples", 0)) for task, doc in sorted(snapshots.items())}}


def counted(snapshots: dict[int, dict]) -> Counter:
    """Per-key counts summed over tasks."""
    out: Counter = Counter()
    for doc in snapshots.values():
        out.update({str(k): int(v) for k, v in doc.get("counts", {}).items()})
    return out


def window_stats(rows: list[Second], start_ts: int, end_ts: int) -> dict:
    """Throughput and latency over the seconds start_ts <= ts < end_ts. Latency is the FeedSpout's, from
    each tuple's intended emit time to its ack (a throttled source cannot hide its delay)."""
    window = [r for r in rows if start_ts <= r.ts < end_ts]
    seconds = max(1, end_ts - start_ts)
    acked = sum(r.acked for r in window)
    n = sum(r.latency_n for r in window)
    with_latency = [r for r in window if r.latency_n]
    return {
        "seconds": seconds,
        "seconds_reported": len(window),
        "emitted": sum(r.emitted for r in window),
        "acked": acked,
        "failed": sum(r.failed for r in window),
        "replayed": sum(r.replayed for r in window),
        "throughput_per_s": round(acked / seconds, 2),
        "latency_mean_ms": round(sum(r.latency_mean_ms * r.latency_n for r in window) / n, 2) if n else None,
        "latency_p50_ms": round(statistics.median(r.latency_p50_ms for r in with_latency), 2) if with_latency else None,
        "latency_p99_ms": round(statistics.mean(r.latency_p99_ms for r in with_latency), 2) if with_latency else None,
        "latency_max_ms": max((r.latency_max_ms for r in with_latency), default=None),
        "behind_ms_max": max((r.behind_ms for r in window), default=0.0),
        "pending_max": max((r.pending for r in window), default=0),
    }


def signals_in_logs(dirs: Iterable[Path]) -> dict:
    """CG signals the sources' workers derived, from worker.log: per edge, INCREASE/DECREASE per worker index."""
    out: dict[str, dict] = {}
    for d in dirs:
        log = Path(d) / "worker.log"
        if not log.is_file():
            continue
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            m = _SIGNALS.search(line)
            if not m:
                continue
            edge = out.setdefault(m.group(1), {"INCREASE": Counter(), "DECREASE": Counter()})
            for worker, signal in _SIGNAL.findall(m.group(2)):
                edge[signal][int(worker)] += 1
    return {e: {s: dict(sorted(c.items())) for s, c in v.items()} for e, v in out.items()}
