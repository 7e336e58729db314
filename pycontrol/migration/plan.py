"""Plan and decision documents of the plan-following scheduler. Pure.

Plan znode /nonstop/plans/<topology-name>:
    {"request_id": "...", "placement": {"[3,3]": "HOST:PORT" | "SUPERVISOR_ID:PORT", ...}}
Decision znode /nonstop/decisions/<topology-name>:
    {"topology": ..., "topology_id": ..., "plan_version": <plan znode version>, "request_id": ...,
     "status": "applied" | "unchanged" | "rejected", "reason": ..., "moves": [...], "decided_at_ms": ...}
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from pycontrol import executor_spans
from pycontrol.errors import UserError



class BadDocument(ValueError):
    """A plan or decision document that is not what its format says: the one error parsing raises."""


_EXECUTOR = re.compile(r"\s*\[?\s*(-?\d+)\s*(?:[,-]\s*(-?\d+)\s*)?\]?\s*")


def parse_executor(text: str) -> tuple[int, int]:
    """"[3,3]", "[3-3]" (as the UI shows it), "3-3" or "3" (a one-task executor)."""
    m = _EXECUTOR.fullmatch(text or "")
    if not m:
        raise UserError(f"--executor must look like [3-3] or 3, got '{text}'")
    start = int(m.group(1))
    end = int(m.group(2)) if m.group(2) is not None else start
    bad = executor_spans.check(start, end)
    if bad:
        raise UserError(f"executor {text}: {bad}")
    return start, end


def executor_key(start: int, end: int) -> str:
    """The plan's spelling of an executor id."""
    return f"[{start},{end}]"


def ui_executor(start: int, end: int) -> str:
    """The UI REST API's spelling."""
    return f"[{start}-{end}]"


def parse_target(text: str) -> tuple[str, int]:
    """HOST:PORT (or SUPERVISOR_ID:PORT), split at the last colon."""
    host, sep, port = (text or "").rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UserError(f"--to must be HOST:PORT, e.g. 127.0.0.12:17121, got '{text}'")
    return host, int(port)


_PLAN_KEY = re.compile(r"\s*\[\s*(-?\d+)\s*[,-]\s*(-?\d+)\s*\]\s*")


def placement_problem(placement: dict, known: Collection[tuple[int, int]] | None, topology: str) -> str | None:
    """Why the plan-following scheduler would refuse this placement's executors, or None: the span rule
    (pycontrol.executor_spans, as MigrationPlanParser) and, when `known` is given, the topology's executors
    (as PlanDecider)."""
    spans = []
    for key in placement:
        m = _PLAN_KEY.fullmatch(str(key))
        if not m:
            return f"'{key}' is not an executor id (expected \"[start,end]\")"
        start, end = int(m.group(1)), int(m.group(2))
        bad = executor_spans.check(start, end)
        if bad:
            return f"executor {key}: {bad}"
        spans.append((start, end))
    over = executor_spans.check_total(sum(executor_spans.tasks(s, e) for s, e in spans))
    if over:
        return f"placement: {over}"
    return executor_spans.check_known(spans, known, topology) if known is not None else None


def plan_doc(moves: dict[tuple[int, int], tuple[str, int]], request_id: str) -> dict:
    """The plan znode's document; a placement the scheduler would refuse by the span rule is not written."""
    placement = {executor_key(*e): f"{h}:{p}" for e, (h, p) in sorted(moves.items())}
    problem = placement_problem(placement, None, "")
    if problem:
        raise UserError(f"plan not written: {problem}")
    return {"request_id": request_id, "placement": placement}


@dataclass(frozen=True)
class Decision:
    status: str                 # applied | unchanged | rejected
    reason: str
    plan_version: int
    topology_id: str
    request_id: str | None
    decided_at_ms: int
    moves: list[dict] = field(default_factory=list)

    @staticmethod
    def from_doc(doc: object) -> Decision:
        """The decision in a decision znode's document; BadDocument if it is not one."""
        if not isinstance(doc, dict):
            raise BadDocument(f"a decision must be a JSON object, got {type(doc).__name__}")
        version, decided, moves = doc.get("plan_version", -1), doc.get("decided_at_ms") or 0, doc.get("moves") or []
        # bool is an int to Python, never to the scheduler that writes these.
        if not isinstance(version, int) or isinstance(version, bool):
            raise BadDocument(f"plan_version must be an integer, got {version!r}")
        if not isinstance(decided, int) or isinstance(decided, bool):
            raise BadDocument(f"decided_at_ms must be an integer, got {decided!r}")
        if not isinstance(moves, list) or not all(isinstance(m, dict) for m in moves):
            raise BadDocument(f"moves must be a list of objects, got {moves!r}")
        rid = doc.get("request_id")
        if rid is not None and not isinstance(rid, str):
            raise BadDocument(f"request_id must be a string, got {rid!r}")
        return Decision(str(doc.get("status")), str(doc.get("reason") or ""), version,
                        str(doc.get("topology_id") or ""), rid, decided, list(moves))

    def answers(self, topology_id: str, plan_version: int) -> bool:
        """Is this the decision about the plan version we wrote, for this topology instance?"""
        return self.topology_id == topology_id and self.plan_version == plan_version
