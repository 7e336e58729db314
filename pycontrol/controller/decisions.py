"""Decision records: what the controller decided about one topology in one cycle, and why. Each is
logged as one line, exported as metrics, and the latest per topology is kept in ZooKeeper
(/nonstop/controller/decisions/<topology>) for `pycontrol controller status`."""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from typing import Any

from kazoo.client import KazooClient
from kazoo.exceptions import KazooException

from pycontrol import zk
from pycontrol.wire import paths
from pycontrol.controller.actions import Move

log = logging.getLogger(__name__)

DECISIONS_PATH = paths.CONTROLLER_DECISIONS

# Kinds of decision.
APPLIED = "applied"      # moves passed the safety gate and were sent to the cluster (see `outcome`)
DRY_RUN = "dry-run"      # moves were planned; dry-run kept them from being applied
HELD = "held"            # moves were planned; the safety gate held them all (pause, cooldown, cap, hysteresis)
NO_ACTION = "no-action"  # nothing worth doing (balanced, planner found no move, plan-only policy)
REFUSED = "refused"      # the data was stale or incomplete: never act on it
ERROR = "error"          # the planner or the cluster failed
KINDS = (APPLIED, DRY_RUN, HELD, NO_ACTION, REFUSED, ERROR)


@dataclass
class ControllerDecisionRecord:
    cycle: int
    at: float
    topology: str
    policy: str
    kind: str
    reason: str
    evaluation: dict[str, Any] | None = None
    planned: list[dict] = field(default_factory=list)
    applied: list[dict] = field(default_factory=list)
    suppressed: list[dict] = field(default_factory=list)      # {"move": ..., "reason": ...}
    predicted_gain: float | None = None    # inter-node tuples/s the applied (or dry-run) moves should save
    outcome: str | None = None             # what the cluster did with applied moves
    measured: dict[str, Any] | None = None  # gain measured now for an earlier cycle's action

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def line(self) -> str:
        """One log line that explains the decision."""
        head = f"cycle {self.cycle} {self.topology} [{self.policy}]: {self.kind}"
        parts = [self.reason]
        for m in self.applied:
            parts.append(f"move {_move(m)}")
        for s in self.suppressed:
            parts.append(f"not {_move(s['move'])}: {s['reason']}")
        if self.predicted_gain is not None:
            parts.append(f"predicted gain {self.predicted_gain:.1f} t/s")
        if self.outcome:
            parts.append(f"outcome {self.outcome}")
        if self.measured:
            parts.append(f"measured gain of cycle {self.measured['cycle']}: {self.measured['measured_gain']:.1f} t/s "
                         f"(predicted {self.measured['predicted_gain']:.1f})")
        return f"{head}: " + "; ".join(p for p in parts if p)


def _move(m: dict) -> str:
    return f"{m['executor']} {m['from_slot']} -> {m['to_slot']}"


def moves_dicts(moves: list[Move]) -> list[dict]:
    return [m.to_dict() for m in moves]


class ZkDecisionSink:
    """Keeps the latest record per topology in ZooKeeper; a failed write is logged, never fatal."""

    def __init__(self, client: KazooClient, path: str = DECISIONS_PATH):
        self.client = client
        self.path = path

    def publish(self, records: list[ControllerDecisionRecord]) -> None:
        for r in records:
            try:
                zk.write_json(self.client, f"{self.path}/{r.topology}", r.to_dict())
            except KazooException as e:
                log.warning("could not store the decision about %s: %r", r.topology, e)


def read_latest(client: KazooClient, path: str = DECISIONS_PATH) -> dict[str, dict]:
    """topology -> its latest decision record (as stored)."""
    if client.exists(path) is None:
        return {}
    out = {}
    for name in sorted(client.get_children(path)):
        try:
            got = zk.read_json(client, f"{path}/{name}")
        except (ValueError, UnicodeDecodeError) as e:   # one broken record must not hide the others
            out[name] = {"unreadable": f"{path}/{name}: {e}"}
            continue
        if got is not None:
            out[name] = got[0] if isinstance(got[0], dict) else {"unreadable": f"{path}/{name}: not an object"}
    return out


def record_line(topology: str, doc: dict) -> str:
    """The log line of a stored record, or why it cannot be shown."""
    try:
        return ControllerDecisionRecord(**doc).line()
    except (TypeError, KeyError, ValueError):
        return f"{topology}: unreadable decision record: {doc.get('unreadable') or 'not a decision record'}"

