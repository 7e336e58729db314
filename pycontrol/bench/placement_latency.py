"""The analysis of `benchmarks/scheduler_latency.py` (pure): per scheduler, n, median and min-max of
each measure over the repetitions, and each scheduler's latency against Storm's default placement
paired within a repetition (same fresh cluster, minutes apart), so that drift between repetitions does
not enter the comparison.

Runs that started on a busy machine are left out where quiet runs of the same scheduler exist (and
counted), as the migration benchmark does."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pycontrol.bench.migration.spread import spread

DEFAULT = "default"
# The target for the traffic-based scheduler: latency at least this much lower than default's.
TARGET_REDUCTION = 0.20
TARGET_SCHEDULER = "aniello-online"


def _latency(key: str) -> Callable[[Mapping], float | None]:
    return lambda run: (run.get("latency_ms") or {}).get(key)


# (key in the summary, what it is, how to read it from one run)
MEASURES: tuple[tuple[str, str, Callable[[Mapping], float | None]], ...] = (
    ("p50_ms", "latency p50 of the seconds (ms)", _latency("p50_of_seconds")),
    ("mean_ms", "latency mean (ms)", _latency("mean")),
    ("p99_max_ms", "largest per-second p99 (ms)", _latency("p99_of_seconds_max")),
    ("acked_per_s", "acked sentences/s", lambda run: run.get("acked_per_s")),
    ("inter_node_share", "inter-node share of tuples", lambda run: run.get("inter_node_share")),
)
PAIRED = (("p50_lower_than_default", "p50_of_seconds"), ("mean_lower_than_default", "mean"))


def lower_by(value: float | None, default: float | None) -> float | None:
    """How much lower than default's, as a fraction of default's (0.25 = 25 % lower; negative = higher)."""
    if value is None or not default:
        return None
    return round(1 - value / default, 4)


def usable(runs: Sequence[Mapping]) -> tuple[list[Mapping], int]:
    """Per scheduler, its quiet runs (all of them when every one started busy); and how many were left out."""
    out, left_out = [], 0
    for name in dict.fromkeys(r["scheduler"] for r in runs):
        mine = [r for r in runs if r["scheduler"] == name]
        quiet = [r for r in mine if not r.get("busy_start")]
        out.extend(quiet or mine)
        left_out += len(mine) - len(quiet) if quiet else 0
    return out, left_out


def paired(runs: Sequence[Mapping]) -> dict[str, dict[str, list[float]]]:
    """scheduler -> measure -> its reduction against default's run of the same repetition, one value per
    repetition that has both."""
    base = {r["repetition"]: r for r in runs if r["scheduler"] == DEFAULT}
    out: dict[str, dict[str, list[float]]] = {}
    for r in runs:
        b = base.get(r["repetition"])
        if r["scheduler"] == DEFAULT or b is None:
            continue
        for key, latency_key in PAIRED:
            v = lower_by(_latency(latency_key)(r), _latency(latency_key)(b))
            if v is not None:
                out.setdefault(r["scheduler"], {}).setdefault(key, []).append(v)
    return out


def summarize(runs: Sequence[Mapping]) -> dict:
    """by_scheduler (spread of each measure), vs_default (spread of the paired reductions) and the target's
    verdict on the median reduction of p50, with whether every repetition met it."""
    kept, left_out = usable(runs)
    by_scheduler = {}
    for name in dict.fromkeys(r["scheduler"] for r in kept):
        mine = [r for r in kept if r["scheduler"] == name]
        by_scheduler[name] = {key: spread(read(r) for r in mine) for key, _, read in MEASURES}
    vs_default = {name: {key: spread(vals) for key, vals in m.items()} for name, m in paired(kept).items()}
    return {"by_scheduler": by_scheduler, "vs_default": vs_default, "busy_start_left_out": left_out,
            "target": verdict(vs_default.get(TARGET_SCHEDULER, {}).get("p50_lower_than_default"))}


def verdict(reduction: Mapping | None) -> dict:
    what = f"{TARGET_SCHEDULER}'s p50 at least {TARGET_REDUCTION:.0%} lower than default's, paired per repetition"
    if not reduction:
        return {"target": what, "verdict": "not measured"}
    met = reduction["median"] >= TARGET_REDUCTION
    return {"target": what, "n": reduction["n"], "median": reduction["median"],
            "verdict": "met" if met else "not met",
            "in_every_repetition": reduction["min"] >= TARGET_REDUCTION}
