"""The random re-deployment driver's core (N-Storm §5.2): pick M executors at random and move each to
another worker of the topology so that, afterwards, every worker holds either floor(E/W) or
ceil(E/W) of the topology's E executors (W workers). Pure: a placement in, moves out; randomness
comes from the caller's seeded `random.Random`.

Every executor counts towards the spread (ackers and spouts too, as Storm's even scheduler counts
them), but only `movable` ones move: by default the benchmark keeps the spout in place (its measurement
series and pacing live in it) and the ackers (Storm's bookkeeping), and moves the bolts' executors;
`--move-spouts` makes the spout's and the ackers' executors movable too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from pycontrol.errors import UserError

# Draws of movers tried before giving up; a feasible draw is found within a few tries unless M is
# close to what evenness allows at all.
MAX_TRIES = 2000


@dataclass(frozen=True)
class Move:
    executor: str   # "[3,3]"
    source: str     # slot "host:port"
    target: str


def is_even(placement: Mapping[str, str], slots: Sequence[str]) -> bool:
    """Every slot holds floor(E/W) or ceil(E/W) executors."""
    counts = Counter(placement.values())
    per_slot = [counts.get(s, 0) for s in slots]
    return max(per_slot) - min(per_slot) <= 1


def apply_moves(placement: Mapping[str, str], moves: Sequence[Move]) -> dict[str, str]:
    out = dict(placement)
    for m in moves:
        out[m.executor] = m.target
    return out


def redeploy(placement: Mapping[str, str], slots: Sequence[str], movable: Collection[str], m: int,
             rng: random.Random, max_tries: int = MAX_TRIES) -> tuple[Move, ...]:
    """Exactly m moves of distinct movable executors, each to a slot other than its own, leaving the
    placement evenly spread. Raises UserError when no such re-deployment exists (or none was found)."""
    slots = sorted(set(slots))
    _check(placement, slots, movable, m)
    candidates = sorted(movable)
    counts = Counter({s: 0 for s in slots})
    counts.update(placement.values())
    q, r = divmod(len(placement), len(slots))
    for _ in range(max_tries):
        movers = rng.sample(candidates, m)
        moves = _try_targets(placement, slots, counts, movers, q, r, rng)
        if moves is not None:
            return moves
    raise UserError(f"no even re-deployment moves exactly {m} of the {len(candidates)} movable executors over "
                    f"{len(slots)} workers ({len(placement)} executors; per worker now: "
                    f"{sorted(counts.values())}); choose a smaller M")


def _check(placement: Mapping[str, str], slots: Sequence[str], movable: Collection[str], m: int) -> None:
    if len(slots) < 2:
        raise UserError(f"moving executors needs at least 2 workers, the topology has {len(slots)}")
    stray = sorted({s for s in placement.values() if s not in set(slots)})
    if stray:
        raise UserError(f"executors placed on slots {stray} that are not among the topology's workers")
    unknown = sorted(set(movable) - set(placement))
    if unknown:
        raise UserError(f"movable executors {unknown[:5]} are not in the placement")
    if not 1 <= m <= len(set(movable)):
        raise UserError(f"M must be between 1 and the {len(set(movable))} movable executors, got {m}")


def _try_targets(placement: Mapping[str, str], slots: list[str], counts: Counter, movers: list[str],
                 q: int, r: int, rng: random.Random) -> tuple[Move, ...] | None:
    """Targets for these movers that make the placement even, or None if this draw cannot."""
    after = counts.copy()
    for e in movers:
        after[placement[e]] -= 1
    if any(after[s] > q + 1 for s in slots):
        return None
    full = [s for s in slots if after[s] == q + 1]  # already at the upper count: nothing may arrive
    if len(full) > r:
        return None
    rest = [s for s in slots if after[s] <= q]
    upper = set(full) | set(rng.sample(rest, r - len(full)))
    targets = [s for s in slots for _ in range((q + 1 if s in upper else q) - after[s])]
    if len(targets) != len(movers):  # only when the counts did not cover every executor
        return None
    rng.shuffle(targets)
    origins = [placement[e] for e in movers]
    if not _avoid_origins(origins, targets):
        return None
    return tuple(Move(e, o, t) for e, o, t in zip(movers, origins, targets))


def _avoid_origins(origins: list[str], targets: list[str]) -> bool:
    """Permutes targets in place so that no mover's target is its origin; False if no swap repairs it."""
    for i in range(len(targets)):
        if targets[i] != origins[i]:
            continue
        for j in range(len(targets)):
            if targets[j] != origins[i] and origins[j] != targets[i]:
                targets[i], targets[j] = targets[j], targets[i]
                break
        else:
            return False
    return True
