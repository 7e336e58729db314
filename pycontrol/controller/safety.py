"""The safety gate between a plan and the cluster: dry-run, pause, cooldown, a cap on moves per
cycle, and hysteresis so an executor is never moved back and forth. Pure: same inputs, same verdict."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pycontrol.controller.actions import Move
from pycontrol.errors import UserError


@dataclass(frozen=True)
class SafetyLimits:
    dry_run: bool = False            # suggest only: plans are logged and exported, never applied
    max_moves_per_cycle: int = 1     # OTD's own rule is one migration per cycle
    cooldown_s: float = 10.0         # quiet time after any applied action, to measure its effect
    hysteresis_s: float = 120.0      # an executor that moved is left alone this long

    def __post_init__(self) -> None:
        if self.max_moves_per_cycle < 1:
            raise UserError(f"max_moves_per_cycle must be >= 1, got {self.max_moves_per_cycle}")
        if self.cooldown_s < 0 or self.hysteresis_s < 0:
            raise UserError("cooldown_s and hysteresis_s must be >= 0")


@dataclass(frozen=True)
class MoveMemory:
    """When an executor last moved, and where from (to refuse sending it straight back)."""

    at: float
    from_slot: str
    to_slot: str


@dataclass(frozen=True)
class SafetyState:
    paused: bool = False
    last_action_at: float | None = None
    recent: dict[str, MoveMemory] = field(default_factory=dict)   # key: "topology/executor"

    def after_applying(self, moves: list[Move], now: float, hysteresis_s: float) -> SafetyState:
        recent = {k: m for k, m in self.recent.items() if now - m.at < hysteresis_s}
        for mv in moves:
            recent[f"{mv.topology}/{mv.executor}"] = MoveMemory(now, mv.from_slot, mv.to_slot)
        return replace(self, last_action_at=now if moves else self.last_action_at, recent=recent)


@dataclass(frozen=True)
class Verdict:
    allowed: list[Move]
    suppressed: list[tuple[Move, str]]   # each with the reason, for logs and metrics

    @property
    def applied_nothing_because(self) -> str | None:
        if self.allowed:
            return None
        reasons = sorted({r for _, r in self.suppressed})
        return "; ".join(reasons) if reasons else "nothing planned"


def gate(planned: list[Move], state: SafetyState, limits: SafetyLimits, now: float) -> Verdict:
    """Which planned moves may be applied now, and why each other one may not."""
    if state.paused:
        return Verdict([], [(m, "paused") for m in planned])
    if state.last_action_at is not None and now - state.last_action_at < limits.cooldown_s:
        left = limits.cooldown_s - (now - state.last_action_at)
        return Verdict([], [(m, f"cooldown ({left:.0f} s left)") for m in planned])
    allowed: list[Move] = []
    suppressed: list[tuple[Move, str]] = []
    seen: set[str] = set()
    for m in planned:
        key = f"{m.topology}/{m.executor}"
        mem = state.recent.get(key)
        if key in seen:
            suppressed.append((m, "executor already moves this cycle"))
        elif mem is not None and now - mem.at < limits.hysteresis_s:
            back = " back to where it came from" if m.to_slot == mem.from_slot else ""
            suppressed.append((m, f"hysteresis: moved {now - mem.at:.0f} s ago{back}"))
        elif len(allowed) >= limits.max_moves_per_cycle:
            suppressed.append((m, f"cap of {limits.max_moves_per_cycle} move(s) per cycle"))
        elif limits.dry_run:
            suppressed.append((m, "dry-run"))
        else:
            allowed.append(m)
        seen.add(key)
    return Verdict(allowed, suppressed)


_REASON_PREFIXES = (("paused", "paused"), ("cooldown", "cooldown"), ("hysteresis", "hysteresis"),
                    ("cap of", "cap"), ("dry-run", "dry-run"), ("executor already moves", "duplicate"))
# Every value reason_kind returns (the metric label's whole range).
REASON_KINDS = tuple(kind for _, kind in _REASON_PREFIXES) + ("other",)


def reason_kind(reason: str) -> str:
    """A gate reason without its numbers, for metric labels: paused, cooldown, hysteresis, cap,
    dry-run or duplicate."""
    for prefix, kind in _REASON_PREFIXES:
        if reason.startswith(prefix):
            return kind
    return "other"
