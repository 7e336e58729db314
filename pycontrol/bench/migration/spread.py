"""n, median and min-max of one measure over a configuration's repetitions. Pure."""

from __future__ import annotations

import statistics
from collections.abc import Iterable


def spread(values: Iterable[float | None]) -> dict | None:
    """{"n", "median", "min", "max"} over the values that were measured (None skipped); None if none was."""
    xs = [v for v in values if v is not None]
    if not xs:
        return None
    return {"n": len(xs), "median": statistics.median(xs), "min": min(xs), "max": max(xs)}


def text(s: dict | None, digits: int = 0) -> str:
    """"median [min-max]" (just the value when n = 1), "-" when nothing was measured."""
    if not s:
        return "-"
    def f(v):
        return f"{v:.{digits}f}"
    return f(s["median"]) if s["n"] == 1 else f"{f(s['median'])} [{f(s['min'])}-{f(s['max'])}]"
