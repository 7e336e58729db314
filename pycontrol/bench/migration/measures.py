"""What the migration benchmark reports about one run segment, computed from the FeedSpout's per-second
series (pycontrol.workloads.series) and the moves' timelines. Pure.

Degradation (N-Storm §5.2.1): a second is at >= L % degradation when its acked throughput is at most
(1 - L/100) of the baseline's mean acked throughput (no-migration run); at 100 % nothing was acked.
Latency percentiles of a segment are approximations from the per-second summaries: p50 = the
median of the per-second medians, p99 = the 99th percentile of the per-second p99s, both weighted by
the tuples of each second (the spout writes summaries, not every tuple's latency).
"""

from __future__ import annotations

from collections.abc import Sequence

from pycontrol.errors import UserError
from pycontrol.workloads.series import Second

LEVELS = (20, 40, 60, 80, 100)


def dense_seconds(rows: Sequence[Second], start_ts: int, seconds: int) -> list[Second]:
    """One row per second of [start_ts, start_ts + seconds); a second nobody wrote (the spout's worker
    restarting, say) counts as a second with nothing emitted or acked."""
    by_ts = {r.ts: r for r in rows}
    return [by_ts.get(ts) or _empty(ts) for ts in range(start_ts, start_ts + seconds)]


def _empty(ts: int) -> Second:
    return Second(ts=ts, emitted=0, replayed=0, acked=0, failed=0, latency_n=0, latency_mean_ms=0.0,
                  latency_p50_ms=0.0, latency_p99_ms=0.0, latency_max_ms=0.0, pending=0, behind_ms=0.0,
                  bad_lines=0, target_rate=None, tasks=0)


def degradation_seconds(acked: Sequence[float], baseline: float, levels: Sequence[int] = LEVELS) -> dict[str, int]:
    """Seconds at >= each level (percent) of throughput degradation against the baseline throughput."""
    if baseline <= 0:
        raise UserError(f"the baseline throughput must be positive, got {baseline} "
                        f"(did the baseline run ack anything?)")
    bad = [lv for lv in levels if not 0 < lv <= 100]
    if bad:
        raise UserError(f"degradation levels are percentages in (0, 100], got {bad}")
    out = {}
    for lv in levels:
        ceiling = baseline * (1 - lv / 100)
        # A tiny tolerance so 100 % means exactly zero and 60 % of 100/s includes exactly 40/s.
        out[str(lv)] = sum(1 for a in acked if a <= ceiling + 1e-9 * baseline)
    return out


def weighted_percentile(values: Sequence[float], weights: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (q in [0, 100]) of values repeated by their weights; None without weight."""
    if not 0 <= q <= 100:
        raise UserError(f"percentile must be within [0, 100], got {q}")
    pairs = sorted((v, w) for v, w in zip(values, weights) if w > 0)
    total = sum(w for _, w in pairs)
    if total <= 0:
        return None
    need = q / 100 * total
    run = 0.0
    for v, w in pairs:
        run += w
        if run >= need - 1e-12:
            return v
    return pairs[-1][0]


def percentiles(values: Sequence[float]) -> dict | None:
    """n, p50, p99 and max of a sample (nearest rank), or None when empty."""
    if not values:
        return None
    ones = [1.0] * len(values)
    return {"n": len(values), "p50": weighted_percentile(values, ones, 50),
            "p99": weighted_percentile(values, ones, 99), "max": max(values)}


def segment_summary(rows: Sequence[Second], baseline_throughput: float | None) -> dict:
    """Totals, throughput, latency and (given a baseline) degradation seconds of one dense segment."""
    n = len(rows)
    acked = sum(r.acked for r in rows)
    weights = [r.latency_n for r in rows]
    lat_n = sum(weights)
    out = {
        "seconds": n,
        "acked": acked,
        "emitted": sum(r.emitted for r in rows),
        "replayed": sum(r.replayed for r in rows),
        "failed": sum(r.failed for r in rows),
        "throughput_mean": round(acked / n, 2) if n else 0.0,
        "zero_seconds": sum(1 for r in rows if r.acked == 0),
        "latency_ms": {
            "mean": round(sum(r.latency_mean_ms * r.latency_n for r in rows) / lat_n, 2) if lat_n else None,
            "p50": weighted_percentile([r.latency_p50_ms for r in rows], weights, 50),
            "p99": weighted_percentile([r.latency_p99_ms for r in rows], weights, 99),
            "max": max((r.latency_max_ms for r in rows), default=None),
        },
    }
    if baseline_throughput is not None:
        out["degradation_seconds"] = degradation_seconds([r.acked for r in rows], baseline_throughput)
        out["throughput_vs_baseline"] = round(out["throughput_mean"] / baseline_throughput, 4)
    return out

