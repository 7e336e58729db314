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



# Per move: the window after it, and what steady means (the seconds before it, at most half a period).
AFTER_S = 30
APPLIED = ("applied", "success")   # the plan scheduler's word, and the rebalance reply's


def longest_ack_gap_ms(rows: Sequence[Second]) -> float | None:
    """The longest stretch without an ack in these consecutive seconds: the spout's own gaps (1 ms
    resolution, ending in one of these seconds) and, for seconds it did not write (its worker restarting)
    or that acked nothing, whole seconds in a row. None when neither says anything."""
    gaps = [r.ack_gap_ms for r in rows if r.ack_gap_ms is not None]
    run = longest = 0
    for r in rows:
        run = run + 1 if r.acked == 0 else 0
        longest = max(longest, run)
    candidates = gaps + ([longest * 1000.0] if longest else [])
    return max(candidates) if candidates else None


def _latency(rows: Sequence[Second]) -> dict:
    weights = [r.latency_n for r in rows]
    return {"seconds": len(rows), "latency_p99_ms": weighted_percentile([r.latency_p99_ms for r in rows], weights, 99),
            "latency_max_ms": max((r.latency_max_ms for r in rows if r.latency_n), default=None)}


def move_measures(rows: Sequence[Second], move_ms: float, steady_from: int, until: int,
                  after_s: int = AFTER_S) -> dict:
    """One move's finer measures from the dense per-second rows: steady = the seconds in [steady_from, the
    move's second), after = [the move's second, + after_s) cut at `until` (the next move or the end).
    above_2x_steady_p99_s: seconds after the move whose p99 exceeded twice the steady p99, or that acked
    nothing (their tuples waited longer than any ack shows)."""
    move_s = int(move_ms // 1000)
    steady = [r for r in rows if steady_from <= r.ts < move_s]
    after = [r for r in rows if move_s <= r.ts < min(move_s + after_s, until)]
    s, a = _latency(steady), _latency(after)
    ref = s["latency_p99_ms"]
    above = (sum(1 for r in after if r.acked == 0 or (r.latency_n and r.latency_p99_ms > 2 * ref))
             if ref is not None else None)
    ratio = (round(a["latency_p99_ms"] / ref, 2) if ref and a["latency_p99_ms"] is not None else None)
    return {"move_ts": round(move_ms / 1000, 3), "steady": s | {"longest_ack_gap_ms": longest_ack_gap_ms(steady)},
            "after": a | {"longest_ack_gap_ms": longest_ack_gap_ms(after)},
            "above_2x_steady_p99_s": above, "after_p99_vs_steady": ratio}


def segment_move_measures(rows: Sequence[Second], moves: Sequence[dict], start_ts: int, duration_s: int,
                          period_s: int) -> list[dict]:
    """move_measures for every applied move of a segment; steady begins half a period before each move
    (never before the segment) and the window after ends at the next move or the segment's end."""
    times = sorted(m["t0_ms"] for m in moves if m.get("decision") in APPLIED and m.get("t0_ms"))
    end = start_ts + duration_s
    out = []
    for i, t in enumerate(times):
        move_s = int(t // 1000)
        until = int(times[i + 1] // 1000) if i + 1 < len(times) else end
        out.append(move_measures(rows, t, max(start_ts, move_s - period_s // 2), min(until, end)))
    return out


def worst_of_moves(per_move: Sequence[dict]) -> dict:
    """A segment's summary of its moves: the longest ack gap after any move, the seconds above twice the
    steady p99 summed over its moves, and the largest p99 and max latency after a move against steady."""
    def most(values):
        xs = [v for v in values if v is not None]
        return max(xs) if xs else None
    above = [m["above_2x_steady_p99_s"] for m in per_move if m["above_2x_steady_p99_s"] is not None]
    return {"moves": len(per_move),
            "longest_ack_gap_ms": most(m["after"]["longest_ack_gap_ms"] for m in per_move),
            "steady_longest_ack_gap_ms": most(m["steady"]["longest_ack_gap_ms"] for m in per_move),
            "above_2x_steady_p99_s": sum(above) if above else None,
            "after_p99_ms": most(m["after"]["latency_p99_ms"] for m in per_move),
            "after_max_ms": most(m["after"]["latency_max_ms"] for m in per_move),
            "steady_p99_ms": most(m["steady"]["latency_p99_ms"] for m in per_move),
            "after_p99_vs_steady": most(m["after_p99_vs_steady"] for m in per_move)}
