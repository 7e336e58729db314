"""Part 1's table, from the FeedSpout's per-second series of one segment (a move of M executors, one
way): how the move looked to the workload in the window after it. Pure; the series measures
themselves (dense seconds, degradation, tuple-weighted percentiles) live in
pycontrol.bench.migration.measures.

A second counts as "below 40 % of the offered rate" when it acked at most 40 % of the rate (the
benchmark's 60 % degradation level, against the offered rate rather than a baseline run).
"""

from __future__ import annotations

from collections.abc import Sequence

from pycontrol.bench.migration.measures import degradation_seconds, segment_summary
from pycontrol.errors import UserError
from pycontrol.workloads.series import Second

LOW_SHARE_PCT = 40

COLUMNS = (("way", "way"), ("m", "executors moved"), ("applied", "applied"),
           ("low_s", f"s below {LOW_SHARE_PCT} % of the offered rate"),
           ("longest_gap_s", "longest gap between acks (s)"),
           ("acking_at_end", "acking at the window's end"),
           ("acked_short", "tuples acked short of the offered rate"),
           ("latency_max_ms", "max latency (ms)"), ("latency_p99_ms", "p99 latency (ms)"),
           ("failed", "failed tuples"), ("replayed", "replayed tuples"),
           ("worker_restarts", "worker restarts"))


def longest_gap_s(rows: Sequence[Second]) -> int:
    """The longest run of consecutive seconds without a single ack (dense rows: one per second)."""
    longest = run = 0
    for r in rows:
        run = run + 1 if r.acked == 0 else 0
        longest = max(longest, run)
    return longest


def after_window(rows: Sequence[Second], move_ts: float, window_s: int) -> list[Second]:
    """The dense rows of the window_s seconds starting with the second the move was made in."""
    first = int(move_ts)
    return [r for r in rows if first <= r.ts < first + window_s]


def row(way: str, m: int | None, rows: Sequence[Second], move_ts: float, window_s: int, rate: float,
        worker_restarts: int) -> dict:
    """One table row: the window after the move, with the segment's failures and replays (a tuple a
    restart lost fails only after the message timeout, possibly after the window)."""
    if rate <= 0:
        raise UserError(f"the offered rate must be positive, got {rate}")
    window = after_window(rows, move_ts, window_s)
    if not window:
        raise UserError(f"no seconds of the series fall in the {window_s} s after the move at {move_ts:.0f}")
    low = degradation_seconds([r.acked for r in window], rate, levels=(100 - LOW_SHARE_PCT,))
    summary = segment_summary(window, None)
    whole = segment_summary(rows, None)
    return {"way": way, "m": m, "low_s": low[str(100 - LOW_SHARE_PCT)], "longest_gap_s": longest_gap_s(window),
            "acking_at_end": window[-1].acked > 0,
            # Offered minus acked over the window: what a relaunched spout never emitted (it paces anew,
            # so those tuples have no latency at all) shows here, not in the latency columns.
            "acked_short": max(0, round(rate * len(window) - summary["acked"])),
            "latency_max_ms": summary["latency_ms"]["max"], "latency_p99_ms": summary["latency_ms"]["p99"],
            "failed": whole["failed"], "replayed": whole["replayed"], "worker_restarts": worker_restarts,
            "acked_per_s": summary["throughput_mean"], "window_s": len(window)}
