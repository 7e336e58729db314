"""Run logs of the profiling harness -> a model table in the sizing format (pycontrol.sizing.models).

Per thread count τ, the row is the peak stable trial: `rate` its target rate (tuples/s), `cpu` the
cores its slot used during that trial (worker JVM + the task's Python processes; one slot = one
core, so cores are the fraction of a slot), `memory` the slot's RSS then, as a fraction of the
slot memory quantum the run was made with (`settings.slot_memory_mb`). Like the paper (§5.3), a
thread count without a stable rate has no row. All values are tagged `origin: measured`.

The document also carries, at the top level (the sizing reader ignores these keys):
`machine` (facts of the machine of the first log), `measurements` (per model: when, how long the
run took in all and how much of it the harness topologies took to start, load averages, the
settings and the raw numbers per τ).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pycontrol.profiling.harness import RUN_LOG_KIND
from pycontrol.profiling.sweep import RateSearch
from pycontrol.sizing.errors import SizingError
from pycontrol.sizing.models import ModelSet, parse_models

TABLE_VERSION = 1
_MEASURED = {"rate": "measured", "cpu": "measured", "memory": "measured"}


class TableError(ValueError):
    """A run log that cannot give a table."""


def _check_log(log: Mapping[str, Any], where: str) -> None:
    if not isinstance(log, Mapping) or log.get("kind") != RUN_LOG_KIND:
        raise TableError(f"{where}: not a profiling run log (kind must be '{RUN_LOG_KIND}')")
    for key in ("task", "runs", "settings"):
        if key not in log:
            raise TableError(f"{where}: missing '{key}'")


def model_rows(log: Mapping[str, Any], where: str = "run log") -> list[dict[str, Any]]:
    """The table rows of one run log, by thread count."""
    _check_log(log, where)
    slot_mb = log["settings"].get("slot_memory_mb")
    if not isinstance(slot_mb, (int, float)) or slot_mb <= 0:
        raise TableError(f"{where}: settings.slot_memory_mb must be a number > 0")
    rows = []
    for run in sorted(log["runs"], key=lambda r: r["threads"]):
        peak = RateSearch.from_dict(run).peak if run.get("trials") else None
        if peak is None:
            continue
        if peak.cpu_cores is None or peak.rss_mb is None:
            raise TableError(f"{where}: τ={run['threads']}: the peak trial at {peak.rate:g} t/s has no CPU/memory "
                             f"measurement")
        rows.append({"threads": int(run["threads"]), "rate": round(peak.rate, 3), "cpu": round(peak.cpu_cores, 4),
                     "memory": round(peak.rss_mb / slot_mb, 4), "origin": dict(_MEASURED)})
    if not rows or rows[0]["threads"] != 1:
        raise TableError(f"{where}: task {log['task']!r} has no stable rate with 1 thread; a model table needs "
                         f"that row (LSA and MBA use I(1), C(1), M(1))")
    return rows


def _measurement(log: Mapping[str, Any]) -> dict[str, Any]:
    per_tau = []
    for run in sorted(log["runs"], key=lambda r: r["threads"]):
        peak = RateSearch.from_dict(run).peak if run.get("trials") else None
        per_tau.append({"threads": run["threads"], "peak_rate": peak.rate if peak else None,
                        "base_latency_ms": run.get("base_latency_ms"), "trials": len(run.get("trials", [])),
                        "search_stopped": run.get("stopped"), "seconds": run.get("seconds"),
                        "shares_worker_with": run.get("shares_worker_with"),
                        "usage_at_peak": dict(peak.usage) if peak else None})
    machine = log.get("machine", {})
    return {"started": log.get("started"), "wall_seconds": log.get("wall_seconds"),
            "startup_seconds": log.get("startup_seconds"), "stopped": log.get("stopped"),
            "loadavg_before": machine.get("loadavg"), "loadavg_after": machine.get("loadavg_after"),
            "topology": log.get("topology"), "cluster": log.get("cluster"),
            "settings": log.get("settings"), "threads": per_tau}


def table_document(logs: Iterable[Mapping[str, Any]], names: Iterable[str] | None = None) -> dict[str, Any]:
    """One model table from run logs of different tasks (`names` name the logs in errors)."""
    logs = list(logs)
    names = list(names) if names is not None else [f"run log {i + 1}" for i in range(len(logs))]
    if not logs:
        raise TableError("no run logs")
    models: dict[str, Any] = {}
    measurements: dict[str, Any] = {}
    for log, where in zip(logs, names):
        rows = model_rows(log, where)
        task = log["task"]
        if task in models:
            raise TableError(f"{where}: task {task!r} is also in an earlier log; give each task once")
        models[task] = {"description": f"{log.get('description') or task}, measured by pycontrol model build",
                        "rows": rows}
        measurements[task] = _measurement(log)
    doc = {"version": TABLE_VERSION, "machine": logs[0].get("machine", {}), "models": models,
           "measurements": measurements}
    validate(doc)
    return doc


def validate(doc: Mapping[str, Any]) -> ModelSet:
    """The sizing reader's view of the document (raises TableError if it would reject it)."""
    try:
        return parse_models(doc, origin="measured model table")
    except SizingError as e:
        raise TableError(str(e)) from e
