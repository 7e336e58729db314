"""Helpers for the migration correctness tests: a word count whose feed the test starts and stops, and
live moves (plans of one or several executors) done one after the other, each applied (Nimbus's
assignment in ZooKeeper) and in effect (running on the target, both workers routing to it) before the
next; for executors whose bolt hands its state over, a move of the same executor again also waits for
the previous handoff's end."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kazoo.client import KazooClient

from pycontrol.migration.events import first
from pycontrol.migration.migrate import wait_decision, write_plan
from pycontrol.migration.observe import move_timeline, slot_events, wait_move_done, worker_pids
from pycontrol.storm import placement
from pycontrol.storm.assignment import read_assignment
from pycontrol.wire.executor import ExecutorId
from pycontrol.workloads import outputs, series
from tests.conftest import wait_for
from tests.integration.workload_runs import Run
from topologies.common.words import split_words


class FeedSwitch:
    """The FeedSpout's workload.rate.schedule file: the feed stays silent until start(), and stop() ends
    it, so the stream covers exactly the part of the test that needs traffic. The spout re-reads the
    file every second; a new schedule applies from that moment on."""

    def __init__(self, path: Path):
        self.path = path
        self.path.write_text("0 0\n")

    def setting(self) -> str:
        return f"workload.rate.schedule={self.path}"

    def start(self, rate: float) -> None:
        self.path.write_text(f"0 {rate}\n")

    def stop(self) -> None:
        self.path.write_text("0 0\n")


def expected_counts(input_file: Path, items: int) -> Counter:
    """Word counts of the first `items` items of a lines feed with one spout task (it cycles the file)."""
    lines = input_file.read_text(encoding="ascii").splitlines()
    per_line = [Counter(split_words(line)) for line in lines]
    out: Counter = Counter()
    cycles, rest = divmod(items, len(lines))
    for i, c in enumerate(per_line):
        times = cycles + (1 if i < rest else 0)
        if times:
            out.update({w: n * times for w, n in c.items()})
    return out


def wait_counts_exact(run: Run, expected: Counter, timeout_s: float = 60) -> outputs.Counts:
    """Polls the count bolts' snapshots (written on a 1 s tick; a task's newest one wins) until every
    word's count equals `expected`; on a deadline the error says how far off they were."""
    last: list[outputs.Counts] = []

    def exact():
        last[:] = [outputs.read_counts(run.dirs(), "count")]
        return last[0] if last[0].words == expected else None
    try:
        return wait_for("every word's count equals the input's", exact, timeout_s, poll_s=1)
    except AssertionError as e:
        counts = last[0].words if last else Counter()
        missing, extra = expected - counts, counts - expected
        raise AssertionError(f"{e}: {sum(missing.values())} of {sum(expected.values())} words missing "
                             f"({len(missing)} of {len(expected)} distinct words undercounted), "
                             f"{sum(extra.values())} extra; e.g. (word, counted, expected): "
                             f"{[(w, counts[w], expected[w]) for w in list(missing | extra)[:10]]}") from e


def wait_stream_settled(run: Run, timeout_s: float = 240) -> series.Totals:
    """After FeedSwitch.stop(): waits until no item is emitted any more and every emitted one is acked
    (the spout reports nothing pending), and returns the totals."""
    drain = series.Drain()
    return wait_for(f"{run.name}: feed stopped and every item acked", lambda: drain.check(run.series()), timeout_s,
                    poll_s=1.5)


@dataclass
class Move:
    executor: ExecutorId
    source: str
    target: str
    t0_ms: float
    decided_ms: float
    in_zk_ms: float
    effect_ms: float
    stopped_ms: float | None = None
    dropped_total: int = 0
    handoff: dict | None = None   # the target's handoff_released or handoff_gave_up event (Mover.handoffs)


@dataclass
class Mover:
    """Moves executors of one topology, one plan at a time, and keeps each executor's move's timings. With
    handoffs, the moved executors' bolt hands its state over (one task per executor): a move is finished
    only once the target's gate opened too (the state installed, or given up on), so the next move of the
    same executor starts from an instance that owns the state."""
    cluster: object
    client: KazooClient
    name: str
    topo_id: str
    timeout_s: float = 90
    handoffs: bool = False
    moves: list[Move] = field(default_factory=list)

    def assignment(self) -> dict[ExecutorId, str]:
        return read_assignment(self.client, self.topo_id)

    def move(self, executor: ExecutorId, target: str) -> Move:
        return self.move_all({executor: target})[0]

    def move_all(self, targets: Mapping[ExecutorId, str]) -> list[Move]:
        """One plan moving each executor to its target slot (the fast path: the plan znode, which the
        Nimbus agent applies at once and the workers follow live); returns once every one of them runs on
        its target and both its workers route to it. One Move per executor, all with the plan's times."""
        where = self.assignment()
        for executor, target in targets.items():
            assert where[executor] != target, f"{executor} is already at {target}"
        # Moving an executor back while its old instance there is still draining would mix the two.
        for executor in targets:
            previous = next((m for m in reversed(self.moves) if m.executor == executor), None)
            if previous is not None:
                self.finish(previous)
        plan = {e: (t.rsplit(":", 1)[0], int(t.rsplit(":", 1)[1])) for e, t in targets.items()}
        t0_ms = time.time() * 1000
        _, version = write_plan(self.client, self.name, plan)
        decision = wait_decision(self.client, self.name, self.topo_id, version, self.timeout_s, poll_s=0.05)
        assert decision.status == "applied", decision
        decided_ms = time.time() * 1000 - t0_ms
        wait_for(f"Nimbus's assignment puts {', '.join(f'{e} on {t}' for e, t in targets.items())}",
                 lambda: all(self.assignment().get(e) == t for e, t in targets.items()), self.timeout_s, 0.05)
        in_zk_ms = time.time() * 1000 - t0_ms
        made = []
        for executor, target in targets.items():
            source = where[executor]
            timeline = wait_for(f"{executor} running on {target} and both workers routing to it",
                                lambda: move_timeline(slot_events(self.cluster.spec, source),
                                                      slot_events(self.cluster.spec, target), str(executor), t0_ms),
                                self.timeout_s, 0.05)
            made.append(Move(executor, source, target, t0_ms, round(decided_ms), round(in_zk_ms),
                             round(timeline.effect_ms)))
        self.moves.extend(made)
        return made

    def finish(self, m: Move) -> Move:
        """Waits until the move's old instance is shut down (lazy kill done) and, with handoffs, until
        the new instance's gate opened."""
        if m.stopped_ms is None:
            tl = wait_move_done(self.cluster.spec, m.executor, m.source, m.target, m.t0_ms, self.timeout_s)
            m.stopped_ms, m.dropped_total = round(tl.stopped_ms), tl.dropped_total
        if self.handoffs and m.handoff is None:
            m.handoff = wait_for(f"{m.executor}'s gate on {m.target} opened",
                                 lambda: handoff_outcome(slot_events(self.cluster.spec, m.target), m), self.timeout_s,
                                 0.2)
        return m

    def finish_all(self) -> None:
        for m in self.moves:
            self.finish(m)

    def summary(self) -> dict:
        def stats(values):
            values = sorted(values)
            return {"p50": statistics.median(values), "p99": values[min(len(values) - 1, int(0.99 * len(values)))],
                    "max": values[-1]}
        done = [m for m in self.moves if m.stopped_ms is not None]
        return {"moves": len(self.moves),
                "decided_ms": stats([m.decided_ms for m in self.moves]),
                "in_zk_ms": stats([m.in_zk_ms for m in self.moves]),
                "effect_ms": stats([m.effect_ms for m in self.moves]),
                "stopped_ms": stats([m.stopped_ms for m in done]) if done else None,
                "dropped_total": max((m.dropped_total for m in done), default=0)}


def quiet_seconds(rows: list[series.Second], moves: list[Move]) -> tuple[list[int], range]:
    """The whole seconds from the first move's plan to the last one's in which the feed emitted nothing,
    and that span: did the traffic run throughout the moves?"""
    span = range(int(moves[0].t0_ms // 1000), int(moves[-1].t0_ms // 1000) + 1)
    emitting = {s.ts for s in rows if s.emitted > 0}
    return [t for t in span if t not in emitting], span


def handoff_outcome(target_events: list[dict], m: Move) -> dict | None:
    """The target's first handoff_released or handoff_gave_up for the move's task since the plan was
    written (moves of one executor do not overlap: Mover.move finishes the previous one first)."""
    assert m.executor.start == m.executor.end, f"{m.executor}: a handoff is per task; one task per executor"
    found = [e for e in (first(target_events, kind, m.t0_ms, task=m.executor.start)
                         for kind in ("handoff_released", "handoff_gave_up")) if e]
    return min(found, key=lambda e: e["t_ms"]) if found else None


def both_workers(cluster, topo_id: str) -> tuple[str, str]:
    """The topology's two worker slots, once they are on different nodes and every executor heartbeats
    (Storm's even scheduler spreads a 2-worker topology over both nodes)."""
    def ready():
        places = placement.placement(cluster.rest, topo_id)
        slots = sorted({f"{p.host}:{p.port}" for p in places})
        return slots if len(slots) == 2 and len({s.rsplit(':', 1)[0] for s in slots}) == 2 else None
    a, b = wait_for("both workers up on different nodes", ready, 300, 2)
    return a, b


def executors_of(cluster, topo_id: str, component: str) -> list[ExecutorId]:
    return sorted(p.executor for p in placement.placement(cluster.rest, topo_id) if p.component == component)


def ui_shows(cluster, topo_id: str, expected: dict[ExecutorId, str]) -> bool:
    """Does the UI REST API list each of these executors at its expected slot?"""
    shown = {p.executor: f"{p.host}:{p.port}" for p in placement.placement(cluster.rest, topo_id)}
    return all(shown.get(e) == slot for e, slot in expected.items())


def pids_of(cluster, topo_id: str, slots: tuple[str, str]) -> dict[str, int]:
    pids = worker_pids(cluster.spec, topo_id, set(slots))
    assert set(pids) == set(slots), pids
    return pids


def slot_dir(cluster, topo_id: str, slot: str) -> Path:
    """The worker's artifacts directory (where its bolts write their counts snapshots)."""
    host, port = slot.rsplit(":", 1)
    node = next(n for n in cluster.spec.node_specs if n.host == host)
    return cluster.layout.node_log_dir(node.name) / "workers-artifacts" / topo_id / port


def moves_then_settled(mover: Mover, run: Run, feed: FeedSwitch, plans: Sequence[Mapping[ExecutorId, str]],
                       input_file: Path, run_after_s: float) -> tuple[series.Totals, Counter]:
    """Applies the live moves `plans` (each a plan: executor -> target slot) one after another, each in
    effect and finished (Mover.finish) before the next, lets the feed run `run_after_s` more (traffic on the
    new homes, not a check), stops it and waits until every item is acked; asserts that none failed or was
    replayed. Returns the totals and the word counts of what the feed emitted."""
    for targets in plans:
        for m in mover.move_all(targets):
            mover.finish(m)
    time.sleep(run_after_s)
    feed.stop()
    totals = wait_stream_settled(run)
    print(f"emitted {totals.emitted}, acked {totals.acked}, failed {totals.failed}, "
          f"replayed {totals.replayed}; moves: {mover.summary()}")
    assert totals.acked == totals.emitted and (totals.failed, totals.replayed) == (0, 0)
    return totals, expected_counts(input_file, totals.emitted)
