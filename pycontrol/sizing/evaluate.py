"""How well the models predicted what the cluster did (seed 002 §8.5): R² of predicted vs observed
rates, and how far a run fell short of its planned rate. Pure functions.

Two R² are given because the paper does not say which it plots: `r2_fit` is the squared Pearson
correlation (the R² of a least-squares line through the points, what a plot's trend line shows);
`r2_identity` scores the predictions themselves against the line observed = predicted
(1 - SS_res/SS_tot, negative when guessing the mean would do better).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence


def _check(predicted: Sequence[float], observed: Sequence[float]) -> None:
    if len(predicted) != len(observed):
        raise ValueError(f"{len(predicted)} predictions but {len(observed)} observations")
    if any(not math.isfinite(x) for x in (*predicted, *observed)):
        raise ValueError("predictions and observations must be finite numbers")


def r2_fit(predicted: Sequence[float], observed: Sequence[float]) -> float | None:
    """Squared Pearson correlation; None with fewer than 2 points or a constant side."""
    _check(predicted, observed)
    if len(observed) < 2 or len(set(predicted)) < 2 or len(set(observed)) < 2:
        return None
    return statistics.correlation(predicted, observed) ** 2


def r2_identity(predicted: Sequence[float], observed: Sequence[float]) -> float | None:
    """1 - Σ(o - p)² / Σ(o - ō)²; None with fewer than 2 points or constant observations."""
    _check(predicted, observed)
    if len(observed) < 2:
        return None
    mean = statistics.fmean(observed)
    total = math.fsum((o - mean) ** 2 for o in observed)
    if total == 0:
        return None
    return 1.0 - math.fsum((o - p) ** 2 for p, o in zip(predicted, observed)) / total


def shortfall(planned: float, observed: float) -> float:
    """Fraction of the planned rate a run missed (0 when it reached or beat the plan)."""
    if not planned > 0:
        raise ValueError(f"planned rate must be > 0, got {planned!r}")
    return max(0.0, 1.0 - observed / planned)


def allocations_differ(threads: Mapping[str, Mapping[str, int]], slots: Mapping[str, int]) -> dict:
    """Whether the allocators gave one DAG at one rate different allocations: per allocator its threads per
    task and its slots (ρ). Where they agree, runs of the pairs differ only by mapper, and a comparison of
    them says nothing about the allocator."""
    names = sorted(threads)
    tasks = sorted({t for a in threads.values() for t in a})
    differ_in = [t for t in tasks if len({threads[n].get(t) for n in names}) > 1]
    return {"differ": bool(differ_in) or len(set(slots.values())) > 1, "threads_differ_in": differ_in,
            "threads": {n: dict(threads[n]) for n in names}, "slots": {n: slots[n] for n in names}}


def distinct(values: Sequence[float], digits: int = 3) -> int:
    """How many different values (rounded to `digits`) an R² rests on."""
    return len({round(v, digits) for v in values})
