"""Scheduler quality from the Java bench's per-instance results (pure; benchmarks/schedulers.py runs
the bench and renders, the evidence report reads the same summary).

An instance is *feasible* when some placement of it has no violation (the exact optimum's, or any
scheduler's: one violation-free placement proves it). A scheduler that returns no placement for a
feasible instance *misses* it. A miss is reported on its own (count, and each instance by family and
generator seed) and also enters the ratio to the optimum with a penalty, so a scheduler cannot look
better by giving up on hard instances:

    penalty ratio = max(2.0, the instance's worst ratio among violation-free placements)

i.e. a miss counts at least as badly as the worst placement any scheduler made that honours the
constraints, and never better than twice the optimum. Ratios to the optimum are of inter-node traffic
(lower is better) over instances the optimum solved; a placement with violations has no ratio to the
optimum (the optimum honours constraints it broke) and is counted as "violating". Ratios to Storm's
default and resource-aware schedulers are over every placement made (no penalty: those baselines are
not checked against the per-executor loads either). Every distribution is given as n, median, mean
and max, never a median alone.
"""

from __future__ import annotations

import statistics
from typing import Iterable, Mapping

MISS_PENALTY_FLOOR = 2.0


def _placed(r: Mapping | None) -> bool:
    return bool(r) and bool(r.get("ok"))


def _clean(r: Mapping | None) -> bool:
    return _placed(r) and r.get("violations", 0) == 0


def _ratio(value: float, base: float) -> float | None:
    if base > 0:
        return value / base
    return 1.0 if value == 0 else None


def instance_rows(raw: Mapping) -> list[dict]:
    """One row per (family, seed, scheduler): placed, violating, missed, and its ratios."""
    rows = []
    for family in raw["families"]:
        for inst in family["instances"]:
            results = inst["results"]
            feasible = any(_clean(r) for r in results.values())
            opt = results.get("optimum")
            opt_base = opt["inter_node_traffic"] if _clean(opt) else None
            clean_ratios = [] if opt_base is None else [
                x for r in results.values() if _clean(r)
                if (x := _ratio(r["inter_node_traffic"], opt_base)) is not None]
            penalty = max([MISS_PENALTY_FLOOR, *clean_ratios])
            for name, r in results.items():
                placed = _placed(r)
                missed = feasible and not placed
                to_opt = None
                if opt_base is not None:
                    if _clean(r):
                        to_opt = _ratio(r["inter_node_traffic"], opt_base)
                    elif missed:
                        to_opt = penalty
                row = {"family": family["name"], "seed": inst["seed"], "executors": inst["executors"],
                       "scheduler": name, "feasible": feasible, "placed": placed,
                       "violating": placed and r.get("violations", 0) > 0, "missed": missed,
                       "ratio_to_optimum": to_opt, "penalised": missed and to_opt is not None,
                       "ratio_to_default": None, "ratio_to_ras": None, "inter_node_fraction": None}
                if placed:
                    for key, base in (("ratio_to_default", "storm-default"), ("ratio_to_ras", "storm-ras")):
                        if _placed(results.get(base)):
                            row[key] = _ratio(r["inter_node_traffic"], results[base]["inter_node_traffic"])
                    total = inst["total_traffic"]
                    row["inter_node_fraction"] = r["inter_node_traffic"] / total if total else 0.0
                rows.append(row)
    return rows


def distribution(values: Iterable[float]) -> dict:
    """n, median, mean and max (None but n when empty)."""
    xs = list(values)
    if not xs:
        return {"n": 0, "median": None, "mean": None, "max": None}
    return {"n": len(xs), "median": round(statistics.median(xs), 4), "mean": round(statistics.fmean(xs), 4),
            "max": round(max(xs), 4)}


def aggregate(rows: list[Mapping]) -> dict:
    """One scheduler's rows -> counts, the misses by instance, and the ratio distributions."""
    return {"runs": len(rows), "placed": sum(r["placed"] for r in rows),
            "feasible": sum(r["feasible"] for r in rows),
            "violation_free": sum(r["placed"] and not r["violating"] for r in rows),
            "violating": sum(r["violating"] for r in rows),
            "missed": sum(r["missed"] for r in rows),
            "missed_instances": [f"{r['family']} seed {r['seed']}" for r in rows if r["missed"]],
            "penalised": sum(r["penalised"] for r in rows),
            "ratio_to_optimum": distribution(r["ratio_to_optimum"] for r in rows if r["ratio_to_optimum"] is not None),
            "ratio_to_default": distribution(r["ratio_to_default"] for r in rows if r["ratio_to_default"] is not None),
            "ratio_to_ras": distribution(r["ratio_to_ras"] for r in rows if r["ratio_to_ras"] is not None),
            "inter_node_fraction": distribution(r["inter_node_fraction"] for r in rows
                                                if r["inter_node_fraction"] is not None)}


def summarise(raw: Mapping) -> dict:
    """Per family and overall, per scheduler (schedulers in the bench's order)."""
    rows = instance_rows(raw)
    names = list(dict.fromkeys(r["scheduler"] for r in rows))
    families = list(dict.fromkeys(r["family"] for r in rows))
    return {"miss_penalty": f"max({MISS_PENALTY_FLOOR}, the instance's worst violation-free ratio)",
            "instances": len({(r["family"], r["seed"]) for r in rows}),
            "overall": {n: aggregate([r for r in rows if r["scheduler"] == n]) for n in names},
            "per_family": {f: {n: aggregate([r for r in rows if r["scheduler"] == n and r["family"] == f])
                               for n in names if any(r["scheduler"] == n and r["family"] == f for r in rows)}
                           for f in families}}
