"""What one state-size run reports, and the summary over runs (pure).

Per move, from the FeedSpout's series (pycontrol.bench.migration.measures, the migration benchmark's
measures): the longest gap between acks after it, p99 latency in the window after it against the steady
p99 before it, and the seconds above twice that steady p99. For a nonstop move also where its time went,
from the workers' handoff events: plan written -> the source's barrier (the routing switch), the
snapshot taken, serialised and its chunks sent, then -> installed at the target (its gate opened), or
declined there (its heap could not take the snapshot: the source's handoff_declined).
Per run: failed and replayed tuples from the moves' first period on (the warm-up's apart), and whether the kept state is exact (every sentence's count equals a
direct count of what the feed emitted)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from pycontrol.bench.migration.spread import spread
from pycontrol.migration.events import first


def handoff_breakdown(source_events: list[dict], target_events: list[dict], task: int, t0_ms: float) -> dict | None:
    """The move's handoff, from the first handoff events of this task after the plan was written; None when
    the source never sent one (the move was not a handoff, or its events are missing)."""
    sent = first(source_events, "handoff_sent", t0_ms, task=task)
    aborted = first(source_events, "handoff_aborted", t0_ms, task=task)
    opened = [e for e in (first(target_events, k, t0_ms, task=task) for k in ("handoff_released", "handoff_gave_up")) if e]
    gate = min(opened, key=lambda e: e["t_ms"]) if opened else None
    if sent is None:
        return {"installed": False, "reason": (aborted or {}).get("reason", "no handoff_sent event")} if aborted else None
    took = float(sent.get("took_ms", 0))
    out = {"bytes": sent.get("bytes"), "chunks": sent.get("chunks"),
           "plan_to_barrier_ms": round(sent["t_ms"] - took - t0_ms, 1), "snapshot_and_send_ms": took,
           "installed": gate is not None and gate.get("event") == "handoff_released"}
    if gate is not None:
        out |= {"sent_to_installed_ms": round(gate["t_ms"] - sent["t_ms"], 1),
                "move_ms": round(gate["t_ms"] - t0_ms, 1), "held_tuples": gate.get("held")}
        if not out["installed"]:
            out["reason"] = gate.get("reason")
    # The target's heap could not take the snapshot: it said so and the source released its copy.
    declined = first(source_events, "handoff_declined", t0_ms, task=task)
    if declined is not None:
        out |= {"installed": False, "declined": declined.get("reason")}
    return out


def expected_counts(lines: Sequence[str], items: int) -> Counter:
    """Counts of the first `items` items of a lines feed with one spout task (it cycles the file)."""
    out: Counter = Counter()
    if not lines:
        return out
    cycles, rest = divmod(items, len(lines))
    for i, line in enumerate(lines):
        times = cycles + (1 if i < rest else 0)
        if times:
            out[line] += times
    return out


def counts_check(counted: Mapping[str, int], expected: Mapping[str, int]) -> dict:
    """Exact when every key's count equals the expected one; else how many were missing or extra."""
    c, e = Counter(counted), Counter(expected)
    missing, extra = e - c, c - e
    return {"exact": not missing and not extra, "expected": sum(e.values()), "counted": sum(c.values()),
            "missing": sum(missing.values()), "extra": sum(extra.values()), "keys_off": len(set(missing) | set(extra))}


# (key in a run's summary, where it comes from in a move's record)
MOVE_MEASURES = (
    ("longest_ack_gap_ms", lambda m: m["measures"]["after"]["longest_ack_gap_ms"]),
    ("after_p99_ms", lambda m: m["measures"]["after"]["latency_p99_ms"]),
    # the longest any acked tuple took after the move: the longest wait of a tuple for the moved executor
    # and its state (failed ones are counted apart)
    ("after_max_latency_ms", lambda m: m["measures"]["after"].get("latency_max_ms")),
    ("steady_p99_ms", lambda m: m["measures"]["steady"]["latency_p99_ms"]),
    ("above_2x_steady_p99_s", lambda m: m["measures"]["above_2x_steady_p99_s"]),
    ("move_ms", lambda m: (m.get("handoff") or {}).get("move_ms")),
    ("snapshot_and_send_ms", lambda m: (m.get("handoff") or {}).get("snapshot_and_send_ms")),
    ("sent_to_installed_ms", lambda m: (m.get("handoff") or {}).get("sent_to_installed_ms")),
    ("plan_to_barrier_ms", lambda m: (m.get("handoff") or {}).get("plan_to_barrier_ms")),
    ("held_tuples", lambda m: (m.get("handoff") or {}).get("held_tuples")),
)


def run_summary(moves: Sequence[Mapping]) -> dict:
    """A run's moves: per measure the spread over its moves."""
    return {key: spread(read(m) for m in moves) for key, read in MOVE_MEASURES}


def summarize(runs: Sequence[Mapping]) -> list[dict]:
    """Per way and state size over its runs: the spread of each measure over all their moves (n = moves),
    of failed and replayed tuples per run (n = runs), and how many runs kept the state exact."""
    out = []
    for way, size in dict.fromkeys((r["way"], r["state_bytes"]) for r in runs):
        mine = [r for r in runs if (r["way"], r["state_bytes"]) == (way, size)]
        moves = [m for r in mine for m in r.get("moves", [])]
        checked = [r for r in mine if r.get("counts")]
        out.append({"way": way, "state_bytes": size, "runs": len(mine), "moves": len(moves),
                    **{key: spread(read(m) for m in moves) for key, read in MOVE_MEASURES},
                    "failed": spread(r.get("failed") for r in mine), "replayed": spread(r.get("replayed") for r in mine),
                    "warm_up_failed": spread(r.get("warm_up_failed") for r in mine),
                    "exact_runs": sum(1 for r in checked if r["counts"]["exact"]), "checked_runs": len(checked),
                    "extra_counts": spread(r["counts"]["extra"] for r in checked),
                    "missing_counts": spread(r["counts"]["missing"] for r in checked)})
    return out
