"""The plan-following scheduler's decision znode, /nonstop/decisions/<topology-name> (written by
storm-plugins/scheduling plan/DecisionRecord). Pure.

    {"topology": ..., "topology_id": ..., "plan_version": <plan znode version>, "request_id": ...,
     "status": "applied" | "unchanged" | "rejected", "reason": ..., "moves": [...], "decided_at_ms": ...}
"""

from __future__ import annotations

from dataclasses import dataclass, field


class BadDocument(ValueError):
    """A plan or decision document that is not what its format says: the one error parsing raises."""


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
