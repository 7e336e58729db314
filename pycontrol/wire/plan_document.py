"""The plan znode's document, /nonstop/plans/<topology-name>, as the plan-following scheduler reads it
(storm-plugins/scheduling: MigrationPlanParser, PlanDecider). Pure.

    {"request_id": "...", "placement": {"[3,3]": "HOST:PORT" | "SUPERVISOR_ID:PORT", ...}}

The writer spells executors the wire way "[start,end]"; the scheduler also takes the UI's "[start-end]".
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from pycontrol.errors import UserError
from pycontrol.wire import executor as spans
from pycontrol.wire.executor import ExecutorId


def parse_target(text: str) -> tuple[str, int]:
    """A placement's target HOST:PORT (or SUPERVISOR_ID:PORT), split at the last colon."""
    host, sep, port = (text or "").rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UserError(f"--to must be HOST:PORT, e.g. 127.0.0.12:17121, got '{text}'")
    return host, int(port)


def placement_problem(placement: dict, known: Collection[tuple[int, int]] | None, topology: str) -> str | None:
    """Why the plan-following scheduler would refuse this placement's executors, or None: the span rule
    (as MigrationPlanParser) and, when `known` is given, the topology's executors (as PlanDecider)."""
    found = []
    for key in placement:
        span = spans.placement_key_span(str(key))
        if span is None:
            return f"'{key}' is not an executor id (expected \"[start,end]\")"
        bad = spans.check(*span)
        if bad:
            return f"executor {key}: {bad}"
        found.append(span)
    over = spans.check_total(sum(spans.tasks(s, e) for s, e in found))
    if over:
        return f"placement: {over}"
    return spans.check_known(found, known, topology) if known is not None else None


def plan_doc(moves: Mapping[ExecutorId, tuple[str, int]], request_id: str) -> dict:
    """The plan znode's document; a placement the scheduler would refuse by the span rule is not written."""
    placement = {str(e): f"{h}:{p}" for e, (h, p) in sorted(moves.items())}
    problem = placement_problem(placement, None, "")
    if problem:
        raise UserError(f"plan not written: {problem}")
    return {"request_id": request_id, "placement": placement}
