"""Where the state-size benchmark puts its executors (pure): the spouts (the feed and Storm's checkpoint
spout) in one worker that no move touches, each keep task in a worker of its own, and one spare worker
that the moved keep task alternates with. So a move relaunches, in Storm's way, only the keep task's two
workers (never the spouts', whose feed would start over), and every worker keeps an acker, so none is
left empty (a nonstop move needs a live worker at both ends)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pycontrol.errors import UserError

FEED = "sentences"
CHECKPOINT_SPOUT = "$checkpointspout"
KEEP = "keep"
ACKER = "__acker"


@dataclass(frozen=True)
class Layout:
    spouts: str                 # the spouts' worker, "host:port"
    keeps: tuple[str, ...]      # keep executor i's worker
    spare: str                  # where the moved keep executor goes and comes back from
    moved: str                  # the keep executor that moves, "[s,e]"
    plan: dict[str, str]        # executor -> slot for every executor that must move to get there


def _host(slot: str) -> str:
    return slot.rsplit(":", 1)[0]


def layout(assignment: Mapping[str, str], components: Mapping[str, str]) -> Layout:
    """The placement the benchmark starts from, and the plan that gets there from Storm's own placement.
    UserError when the topology has too few workers or an executor's component is not known."""
    unknown = sorted(e for e in assignment if e not in components)
    if unknown:
        raise UserError(f"the components of executors {unknown[:5]} are not known yet")
    slots = sorted(set(assignment.values()))
    of = lambda c: sorted((e for e in assignment if components[e] == c), key=_start)  # noqa: E731
    feed, keeps = of(FEED), of(KEEP)
    if not feed or not keeps:
        raise UserError(f"the topology has no '{FEED}' or no '{KEEP}' executor: not statesize-java")
    if len(slots) < len(keeps) + 2:
        raise UserError(f"the benchmark needs {len(keeps) + 2} workers (spouts, {len(keeps)} keep, a spare), "
                        f"the topology has {len(slots)}")
    spouts = assignment[feed[0]]
    free = [s for s in slots if s != spouts]
    homes: list[str] = []
    for e in keeps:    # stay where Storm put it when that worker is free, else the first free one
        here = assignment[e]
        homes.append(here if here in free and here not in homes else next(s for s in free if s not in homes))
    rest = [s for s in free if s not in homes]
    # The moved executor should cross nodes, as a move that matters would.
    spare = next((s for s in rest if _host(s) != _host(homes[0])), rest[0])
    wanted = {e: spouts for c in (FEED, CHECKPOINT_SPOUT) for e in of(c)}
    wanted.update(zip(keeps, homes))
    acker_homes = [*homes, spare, *(s for s in rest if s != spare), spouts]
    wanted.update({e: acker_homes[i % len(acker_homes)] for i, e in enumerate(of(ACKER))})
    plan = {e: s for e, s in wanted.items() if assignment[e] != s}
    return Layout(spouts, tuple(homes), spare, keeps[0], plan)


def next_target(current: str, lay: Layout) -> str:
    """The moved keep executor goes to the spare and back."""
    return lay.spare if current == lay.keeps[0] else lay.keeps[0]


def _start(executor: str) -> int:
    return int(executor.strip("[]").split(",")[0])
