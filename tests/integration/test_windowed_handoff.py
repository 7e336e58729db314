"""A plain windowed bolt (BaseWindowedBolt, a count window of 30 sliding by 10) moved live twice, across the
nodes and back, while a numbered stream runs: its window is handed over (WindowedBoltAccess), so every window
fires exactly once with exactly the tuples the window definition gives, every tuple that left the window is
acked once, nothing fails or replays, and no worker restarts. The topology is byot.WindowSum from the
own-topology jar's sources (tests/fixtures/own_topologies)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pycontrol.migration.migrate import where_is
from pycontrol.migration.observe import worker_pids
from pycontrol.storm import placement
from tests.conftest import wait_for
from tests.fixtures.own_topologies.build import build_jar
from tests.integration.test_own_topology import _cli, _status

pytestmark = pytest.mark.cluster

TOTAL = 10_000   # numbers 0..TOTAL-1; the spout emits at most ~400/s, so the stream outlasts both moves
LENGTH, SLIDE = 30, 10


def _numbers(field: str) -> list[int]:
    return [int(n) for n in field.split(",")] if field else []


def _windows(path: Path) -> list[tuple[int, list[int], list[int], list[int]]]:
    """(pid, all, new, expired) of every window WindowSumBolt recorded, in firing order; count and sum checked."""
    out = []
    try:
        text = path.read_text()
    except OSError:
        return out
    for line in text.split("\n")[:-1]:   # the last piece is empty, or a line still being written
        head, everything, new, expired = line.split("\t")
        pid, count, total = map(int, head.split())
        numbers = _numbers(everything)
        assert (count, total) == (len(numbers), sum(numbers)), line
        out.append((pid, numbers, _numbers(new), _numbers(expired)))
    return out


def test_a_windowed_bolt_moved_live_twice_fires_every_window_once_with_the_right_tuples(cluster, tmp_path):
    name = "windowed-handoff"
    jar = build_jar(tmp_path / "jar")
    status, record = tmp_path / "spout", tmp_path / "windows"
    _cli(cluster, "topology", "submit", "--jar", str(jar), "--class", "byot.WindowSum", "--",
         name, str(TOTAL), str(tmp_path))
    rest = cluster.rest
    topo_id = wait_for(f"{name} listed", lambda: rest.topology_id(name), 60)
    try:
        places = wait_for(f"{name}'s spout and window bolt placed on both nodes",
                          lambda: (lambda ps: ps if len(ps) == 2 and len(placement.by_host(ps)) == 2 else None)(
                              placement.placement(rest, topo_id)), 600, 2)
        slots = {f"{p.host}:{p.port}" for p in places}
        pids = worker_pids(cluster.spec, topo_id, slots)
        mover = next(p for p in places if p.component == "window")
        home = f"{mover.host}:{mover.port}"
        away = next(s for s in slots if s != home)
        wait_for(f"{name}: windows firing", lambda: len(_windows(record)) >= 3, 300)

        emitted_at_moves = []
        for target in (away, home):
            emitted_at_moves.append(_status(status)[0])
            _cli(cluster, "migrate", name, "--executor", str(mover.executor), "--to", target, "--wait",
                 "--timeout", "180")
            assert where_is(rest, topo_id, mover.executor) == target
            wait_for(f"{name}: windows firing in the worker at {target} (pid {pids[target]})",
                     lambda: _windows(record)[-1][0] == pids[target], 120)
        assert emitted_at_moves[-1] < TOTAL, f"the stream ended before the second move: {emitted_at_moves}"

        # The last LENGTH tuples stay in the last window: acked when they leave it, not before.
        wait_for(f"{name}: all {TOTAL} emitted and all but the last window's {LENGTH} acked",
                 lambda: _status(status)[:2] == (TOTAL, TOTAL - LENGTH), 600, 2)
        windows = wait_for(f"{name}: all {TOTAL // SLIDE} windows recorded",
                           lambda: (lambda w: w if len(w) >= TOTAL // SLIDE else None)(_windows(record)), 60)
        emitted, acked, failed = _status(status)
        arrivals = [n for _, _, new, _ in windows for n in new]
        out_of_order = sum(1 for a, b in zip(arrivals, arrivals[1:]) if b < a)
        fired_in = [pid for pid, *_ in windows]
        changes = sum(1 for a, b in zip(fired_in, fired_in[1:]) if a != b)
        print(f"{name}: emitted {emitted} (at the moves: {emitted_at_moves}), acked {acked}, failed {failed}; "
              f"{len(windows)} windows, {changes} changes of JVM, {out_of_order} arrivals out of numeric order")

        assert failed == 0, "a tuple failed and was replayed"
        assert len(windows) == TOTAL // SLIDE, "a window fired twice"
        assert sorted(arrivals) == list(range(TOTAL)), "a tuple was lost or came new into two windows"
        for k, (_, got, new, expired) in enumerate(windows, start=1):
            end = k * SLIDE
            assert got == arrivals[max(0, end - LENGTH):end], f"window {k}"
            assert new == arrivals[end - SLIDE:end], f"window {k}"
            assert expired == arrivals[max(0, end - LENGTH - SLIDE):max(0, end - LENGTH)], f"window {k}"
        assert changes == 2 and fired_in[0] == fired_in[-1] == pids[home], "fired at home, away, home again"
        assert worker_pids(cluster.spec, topo_id, slots) == pids
    finally:
        rest.kill(topo_id, 0)
        wait_for(f"{name} gone", lambda: rest.topology_id(name) is None, 120)
