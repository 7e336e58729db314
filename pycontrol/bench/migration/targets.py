"""The issue's targets for a live-moving scheme, judged over every segment of it in one benchmark file. Pure.

Every run counts, also those that started on a busy machine: a target is a promise about every move,
so the worst move decides. Plan-to-effect is the all-senders time (the plan written -> every worker that
sends to the moved executor routes to its new home), pooled over every moved executor of the scheme."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pycontrol.bench.migration.measures import percentiles

MIN_MOVES = 100        # plan-to-effect percentiles are asked over at least this many moves
ACK_GAP_MS = 1000      # no gap between acks above this after a move
AFTER_P99_RATIO = 2.0  # p99 in the 30 s after a move at most this times the steady p99 before it
P2E_P50_MS = 1000
P2E_P99_MS = 2000


def _worst(values: Iterable[float | None]) -> float | None:
    xs = [v for v in values if v is not None]
    return max(xs) if xs else None


def _target(value: float | None, limit: float, n: int, unit: str, enough: bool = True) -> dict:
    met = None if value is None else value <= limit
    return {"value": value, "limit": limit, "n": n, "unit_of_n": unit, "met": met, "enough": enough}


def judge(segments: Iterable[Mapping], scheme: str = "nonstop+") -> dict[str, dict]:
    """{target name: {value, limit, n, unit_of_n, met (None: nothing measured), enough (n large enough)}};
    empty when the file has no segment of the scheme."""
    segs = [s for s in segments if s.get("scheme") == scheme]
    if not segs:
        return {}
    moves = sum((s.get("moves_summary") or {}).get("moves") or 0 for s in segs)
    summaries = [s.get("moves_summary") or {} for s in segs]
    each = [ms for s in segs for ms in (((s.get("plan_to_effect") or {}).get("all_senders") or {}).get("each_ms") or [])]
    never = sum(((s.get("plan_to_effect") or {}).get("all_senders") or {}).get("missing") or 0 for s in segs)
    p = percentiles(each) or {}
    failed = sum((s.get("summary") or {}).get("failed") or 0 for s in segs)
    return {
        "longest_ack_gap_ms": _target(_worst(m.get("longest_ack_gap_ms") for m in summaries), ACK_GAP_MS, moves,
                                      "re-deployments"),
        "after_p99_vs_steady": _target(_worst(m.get("after_p99_vs_steady") for m in summaries), AFTER_P99_RATIO,
                                       moves, "re-deployments"),
        "plan_to_effect_p50_ms": _target(p.get("p50"), P2E_P50_MS, len(each), "moved executors",
                                         len(each) >= MIN_MOVES),
        "plan_to_effect_p99_ms": _target(p.get("p99"), P2E_P99_MS, len(each), "moved executors",
                                         len(each) >= MIN_MOVES),
        "moves_never_in_effect": _target(never, 0, len(each) + never, "moved executors"),
        "failed_tuples": _target(failed, 0, len(segs), "segments"),
    }
