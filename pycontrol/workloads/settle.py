"""When a workload counts as settled: one pure rule over the spout's per-second series, for every place
that waits for it (a benchmark's warm-up, the demo's recovery after a change, a run's start), so that
measurements begin after a backlog (JIT, connections, queues, a move) has drained, not at a fixed time
that is long enough on one run and too short on the next."""

from __future__ import annotations

from collections.abc import Sequence

from pycontrol.workloads.series import Second

SECONDS = 5           # whole seconds in a row that must look steady
LAG_S = 2             # the spout writes a second's line shortly after the second ends
SHARE = 0.9           # of the offered rate acked in each of those seconds
MAX_P50_MS = 1000.0   # median latency (from intended emit time) under this in each of them


def settled(rows: Sequence[Second], now_ts: float, rate: float, *, seconds: int = SECONDS, lag_s: int = LAG_S,
            share: float = SHARE, max_p50_ms: float | None = MAX_P50_MS) -> bool:
    """The last `seconds` complete seconds each acked at least `share` of the offered rate, and (unless
    max_p50_ms is None: the demo's recovery after a stock restart, whose new spout paces anew) with a
    median latency under `max_p50_ms`. A missing second is not steady."""
    last = int(now_ts) - lag_s
    by_ts = {r.ts: r for r in rows}
    window = [by_ts.get(ts) for ts in range(last - seconds, last)]
    return all(r is not None and r.acked >= share * rate and (max_p50_ms is None or r.latency_p50_ms < max_p50_ms)
               for r in window)
