"""The controller's memory, kept in ZooKeeper so a restarted (or newly elected) controller resumes
where the last one stopped: pause switch, per-topology cooldown/hysteresis memory, and a
write-ahead record of the action in flight.

Protocol for one action: `begin()` records the moves as pending and is saved *before* anything is
written to the cluster; `complete()` clears it once verified. A controller that finds a pending
action on start-up verifies/re-applies it (plans are idempotent) instead of planning anew, so an
action is neither lost nor repeated. Every save is a compare-and-set on the znode version, so a
controller that lost leadership without noticing cannot overwrite its successor (fencing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from kazoo.client import KazooClient
from kazoo.exceptions import BadVersionError

from pycontrol import zk
from pycontrol.wire import paths
from pycontrol.controller.actions import Move
from pycontrol.controller.safety import MoveMemory, SafetyState
from pycontrol.errors import UserError
from pycontrol.wire.decision_document import BadDocument

FORMAT = 1
STATE_PATH = paths.CONTROLLER_STATE
LOG_LIMIT = 100


class FencedOut(Exception):
    """Another controller wrote the state since we read it: we are no longer the leader."""


class Deposed(FencedOut):
    """This controller no longer leads: its plan write was refused by the leader-epoch fence, or the lead
    was lost during the cycle. Not an error of any topology; the leader reports on them."""


@dataclass(frozen=True)
class Pending:
    cycle: int
    moves: tuple[Move, ...]
    written_at: float


@dataclass(frozen=True)
class ControllerState:
    paused: bool = False
    cycle: int = 0
    topologies: dict[str, SafetyState] = field(default_factory=dict)
    pending: Pending | None = None
    log: tuple[dict, ...] = ()
    # Entries that did not parse: topology -> (the entry as stored, why). Kept as stored, so a save
    # loses nothing; the loop reports the topology as an error and does not act on it.
    broken: dict[str, tuple[Any, str]] = field(default_factory=dict)

    def safety_for(self, topology: str) -> SafetyState:
        s = self.topologies.get(topology, SafetyState())
        return replace(s, paused=self.paused)

    def begin(self, cycle: int, moves: list[Move], now: float) -> ControllerState:
        if self.pending is not None:
            raise RuntimeError(f"cycle {self.pending.cycle}'s action is still pending")
        return replace(self, cycle=cycle, pending=Pending(cycle, tuple(moves), now))

    def complete(self, now: float, hysteresis_s: dict[str, float], outcome: str) -> ControllerState:
        """Clear the pending action: its moves enter each topology's memory and the action log."""
        if self.pending is None:
            return self
        tops = dict(self.topologies)
        for topo in sorted({m.topology for m in self.pending.moves}):
            moves = [m for m in self.pending.moves if m.topology == topo]
            tops[topo] = tops.get(topo, SafetyState()).after_applying(moves, now, hysteresis_s.get(topo, 0.0))
        entry = {"cycle": self.pending.cycle, "at": now, "outcome": outcome,
                 "moves": [m.to_dict() for m in self.pending.moves]}
        return replace(self, topologies=tops, pending=None, log=(self.log + (entry,))[-LOG_LIMIT:])

    def known(self) -> set[str]:
        """Every topology the state holds an entry for."""
        return set(self.topologies) | set(self.broken)

    def without(self, gone: set[str]) -> ControllerState:
        """The state with no entry for these topologies (they were killed)."""
        return replace(self, topologies={t: s for t, s in self.topologies.items() if t not in gone},
                       broken={t: b for t, b in self.broken.items() if t not in gone})

    # --- JSON ---
    def to_doc(self) -> dict:
        return {
            "format": FORMAT,
            "paused": self.paused,
            "cycle": self.cycle,
            "topologies": {**{t: raw for t, (raw, _) in self.broken.items()},
                           **{t: {"last_action_at": s.last_action_at,
                                  "recent": {k: {"at": m.at, "from_slot": m.from_slot, "to_slot": m.to_slot}
                                             for k, m in s.recent.items()}}
                              for t, s in self.topologies.items()}},
            "pending": None if self.pending is None else {
                "cycle": self.pending.cycle, "written_at": self.pending.written_at,
                "moves": [m.to_dict() for m in self.pending.moves]},
            "log": list(self.log),
        }

    @staticmethod
    def from_doc(d: dict) -> ControllerState:
        if d.get("format") != FORMAT:
            raise ValueError(f"controller state format {d.get('format')!r}, expected {FORMAT}")
        tops, broken = {}, {}
        for t, v in d.get("topologies", {}).items():
            try:
                tops[t] = _safety_from_doc(v)
            except BadDocument as e:   # one topology's entry: that topology is an error, the others proceed
                broken[t] = (v, str(e))
        p = d.get("pending")
        pending = None if p is None else Pending(p["cycle"], tuple(Move.from_dict(m) for m in p["moves"]),
                                                 p["written_at"])
        return ControllerState(bool(d.get("paused")), int(d.get("cycle", 0)), tops, pending, tuple(d.get("log", [])),
                               broken)


def _number(v: Any, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise BadDocument(f"{what} must be a number, got {v!r}")
    return float(v)


def _safety_from_doc(v: Any) -> SafetyState:
    if not isinstance(v, dict):
        raise BadDocument(f"a topology's entry must be an object, got {v!r}")
    last = v.get("last_action_at")
    recent = v.get("recent", {})
    if not isinstance(recent, dict):
        raise BadDocument(f"recent must be an object, got {recent!r}")
    memory = {}
    for k, m in recent.items():
        if not isinstance(m, dict) or not isinstance(m.get("from_slot"), str) or not isinstance(m.get("to_slot"), str):
            raise BadDocument(f"recent[{k!r}] must hold at, from_slot and to_slot, got {m!r}")
        memory[k] = MoveMemory(_number(m.get("at"), f"recent[{k!r}].at"), m["from_slot"], m["to_slot"])
    return SafetyState(last_action_at=None if last is None else _number(last, "last_action_at"), recent=memory)


class StateStore:
    def __init__(self, client: KazooClient, path: str = STATE_PATH):
        self.client = client
        self.path = path

    def load(self) -> tuple[ControllerState, int]:
        got = zk.read_json(self.client, self.path)
        if got is None:
            state = ControllerState()
            return state, zk.write_json(self.client, self.path, state.to_doc())
        doc, version = got
        return ControllerState.from_doc(doc), version

    def save(self, state: ControllerState, version: int) -> int:
        try:
            return zk.write_json(self.client, self.path, state.to_doc(), expected_version=version)
        except BadVersionError as e:
            raise FencedOut(f"{self.path} changed since version {version}: another controller is active") from e

    def update(self, change: Callable[[ControllerState], ControllerState], attempts: int = 5) -> ControllerState:
        """Read-modify-write for operator commands (pause, resume): a compare-and-set retried while
        someone else writes in between. A running daemon's own save then fails once (fenced out) and
        its next cycle re-reads the state, so the command always wins."""
        for _ in range(attempts):
            state, version = self.load()
            new = change(state)
            if new == state:
                return state
            try:
                self.save(new, version)
                return new
            except FencedOut:
                continue
        raise UserError(f"{self.path} kept changing during {attempts} attempts; try again")
