"""Is a rate sustainable? Pure judgement over a per-second series.

Sustainable = after the warm-up, latency does not grow (least-squares slope, or with
`slope_method="theil-sen"` the spike-robust median of pairwise slopes, of the per-second
median latency against time at most `max_slope_ms_per_s`; the model-driven paper uses 0.001 s/s;
the median rather than the mean, so a burst from a noisy neighbour does not read as a trend while a
growing queue, which delays every tuple, still does), latency stays low (mean at most
`max_mean_latency_ms`: a window spent draining an earlier backlog shows falling latency but proves
nothing about this rate), the topology keeps up (acked throughput at least `min_rate_ratio` of
the target), and nothing failed.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from pycontrol.workloads.series import Second


@dataclass(frozen=True)
class Verdict:
    sustainable: bool
    reason: str
    seconds: int
    acked_rate: float
    latency_slope_ms_per_s: float
    latency_mean_ms: float
    latency_p99_ms: float
    failed: int


def theil_sen_slope(xs: list[float], ys: list[float]) -> float:
    """Median of the pairwise slopes: a latency spike in one second barely moves it (it moves a
    least-squares slope a lot when it falls near the end of a short window), a steady climb does."""
    pairs = [(ys[j] - ys[i]) / (xs[j] - xs[i]) for i in range(len(xs)) for j in range(i + 1, len(xs))
             if xs[j] != xs[i]]
    return statistics.median(pairs) if pairs else 0.0


def slope(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return 0.0 if sxx == 0 else sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


SLOPES = {"least-squares": slope, "theil-sen": theil_sen_slope}


def judge(rows: list[Second], target_rate: float, warmup_s: int = 10, max_slope_ms_per_s: float = 1.0,
          min_rate_ratio: float = 0.95, min_seconds: int = 10, max_mean_latency_ms: float = 1000.0,
          slope_method: str = "least-squares") -> Verdict:
    if not rows:
        return Verdict(False, "no measurements", 0, 0.0, 0.0, 0.0, 0.0, 0)
    t0 = rows[0].ts
    steady = [r for r in rows if r.ts - t0 >= warmup_s]
    failed = sum(r.failed for r in rows)
    if len(steady) < min_seconds:
        return Verdict(False, f"only {len(steady)} s after warm-up", len(steady), 0.0, 0.0, 0.0, 0.0, failed)
    with_lat = [r for r in steady if r.latency_n > 0]
    if slope_method not in SLOPES:
        raise ValueError(f"slope_method must be one of {', '.join(SLOPES)}, got {slope_method!r}")
    s = SLOPES[slope_method]([float(r.ts - t0) for r in with_lat], [r.latency_p50_ms for r in with_lat])
    acked_rate = sum(r.acked for r in steady) / len(steady)
    n = sum(r.latency_n for r in with_lat)
    mean = sum(r.latency_mean_ms * r.latency_n for r in with_lat) / n if n else 0.0
    p99 = max((r.latency_p99_ms for r in with_lat), default=0.0)
    if failed:
        ok, reason = False, f"{failed} tuples failed"
    elif acked_rate < min_rate_ratio * target_rate:
        ok, reason = False, f"acked {acked_rate:.1f}/s < {min_rate_ratio:.0%} of {target_rate:g}/s"
    elif s > max_slope_ms_per_s:
        ok, reason = False, f"latency grows {s:.2f} ms/s"
    elif mean > max_mean_latency_ms:
        ok, reason = False, f"mean latency {mean:.0f} ms > {max_mean_latency_ms:g} ms"
    else:
        ok, reason = True, "stable"
    return Verdict(ok, reason, len(steady), round(acked_rate, 2), round(s, 4), round(mean, 3), p99, failed)
