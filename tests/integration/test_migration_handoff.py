"""State handoff in a live move: the Java word count's `count` bolt opts in (HandoffState over its count
map), so when its executors move between the two nodes' workers the counts move with them. With a
known input stream, the final count of every word equals a direct count of the input, and no worker
JVM restarted; so too through plans that each move all five `count` executors to the other worker at
once (4 plans, 20 moves), every move's state sent by its source and installed at its target. (100 moves,
one executor a plan, are test_migration_endurance.py's.) The same run without
handoff loses the moved executors' counts (test_migration_state.py).
With an early buffer smaller than what reaches the new instance before its state, the gate holds on and
the executor waits for the state (F7, docs/state-handoff.md) instead of starting without it. A state that its
worker measured over the size limit is refused by the scheduler before the switch (F2): the executor stays
with its state and the counts stay exact. A snapshot found over the limit only at the switch (measuring off)
is not sent: both workers say why, and the new instance does not wait for it. A
snapshot that reaches its new home before the executor has started there waits for it, over and back. A
target whose heap cannot take the snapshot declines it and stays up; the source stops sending it."""

from __future__ import annotations

import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from pycontrol import zk
from pycontrol.migration.migrate import wait_decision, write_plan
from pycontrol.migration.observe import slot_events
from pycontrol.storm.assignment import read_assignment
from pycontrol.workloads.outputs import read_counts
from tests.conftest import wait_for
from tests.integration.migration_runs import (FeedSwitch, Move, Mover, both_workers, executors_of, expected_counts,
                                              moves_then_settled, pids_of, wait_counts_exact, wait_stream_settled)
from tests.integration.workload_runs import Run, sentences_subset

pytestmark = pytest.mark.cluster

NAME = "mig-handoff"
NAME_SWAPS = "mig-handoff-swaps"
NAME_FULL = "mig-handoff-full"
NAME_TOO_LARGE = "mig-handoff-large"
NAME_NO_ROOM = "mig-handoff-noroom"
NAME_REFUSED = "mig-handoff-refused"
MAX_BYTES_KEY = "nonstop.migration.state.max.bytes"
CHUNK_BYTES_KEY = "nonstop.migration.state.chunk.bytes"
EARLY_BUFFER_BYTES_KEY = "nonstop.migration.state.early.buffer.bytes"
TAKE_IN_DELAY_KEY = "nonstop.migration.test.take.in.delay.ms"
HEAP_FREE_KEY = "nonstop.migration.test.handoff.heap.free.bytes"
CONFIRM_RESEND_KEY = "nonstop.migration.state.confirm.resend.ms"
PROBE_KEY = "nonstop.migration.state.probe.ms"
RESEND_MS = 1000
SWITCH_DELAY_MS = 3000
TAKE_IN_DELAY_MS = 2000  # a target takes a moving-in task in (its gate, its executor) this late
RATE = 20                # sentences/s
SENTENCES = 300
COUNTED_BEFORE = 200     # words counted before the first move, so every moving instance has state
RUN_AFTER_S = 4          # traffic after the last move: every task's newest counts snapshot is its final home's
SWAP_PLANS = 4
COUNT_TASKS_SWAPPED = 5  # moved all at once, to the other worker, in every plan: 4 plans of 5 moves


def test_counts_are_exact_after_live_moves_and_a_snapshot_that_arrives_before_its_task_waits_for_it(cluster,
                                                                                                    tmp_path):
    # Over and back again, and one the other way: each move hands over the state the last one installed. Every
    # target takes its moving-in task in 2 s late (a test-only worker property): no gate waits for the source's
    # snapshot there yet and no executor runs the task, so the chunks are parked until it starts. On the way
    # back the target is the task's old home, whose routing once followed the task away: the chunks must wait
    # there too, not go back to the source (which would take them for the snapshot it installed on the way over).
    def over_back_and_other_way(where, a, b):
        on_a, on_b = one_on_each(where, a, b)
        return {on_a: b}, {on_b: a}, {on_a: a}
    delayed = [f"topology.worker.childopts=-D{TAKE_IN_DELAY_KEY}={TAKE_IN_DELAY_MS}"]
    moved = moved_counts_exact(cluster, tmp_path, NAME, delayed, over_back_and_other_way)
    assert not [e for e in moved.events if e.get("event") == "handoff_congested"], moved.events
    assert len(moved.moves) == 3
    for m in moved.moves:
        task, target_port = m.executor.start, int(m.target.rsplit(":", 1)[1])
        after = [e for e in moved.events if e.get("t_ms", 0) >= m.t0_ms]
        sent = [e for e in after if e.get("event") == "handoff_sent" and e["task"] == task]
        started = [e for e in after if e.get("event") == "started" and e.get("executor") == str(m.executor)
                   and e.get("port") == target_port]
        installed = [e for e in after if e.get("event") == "handoff_installed" and e["task"] == task
                     and e.get("port") == target_port]
        assert sent and started and installed, (m, after)
        # The whole snapshot was out before its executor existed at the target, and the first copy was the one
        # installed: it waited there (a chunk sent elsewhere would have needed the source's resend, attempt 2).
        assert sent[0]["t_ms"] < started[0]["t_ms"], (sent, started)
        assert started[0]["unparked"] >= 1, started
        assert [e["attempt"] for e in installed[:1]] == [1], installed


def test_counts_stay_exact_through_plans_that_swap_every_count_executor_between_the_workers(cluster, tmp_path):
    # Every plan swaps sides: each count executor goes to the other worker, so both workers are source and
    # target of every plan, and each executor moves 4 times, each move handing over what the last installed.
    def swaps(where, a, b):
        other, plans = {a: b, b: a}, []
        for _ in range(SWAP_PLANS):
            where = {e: other[slot] for e, slot in where.items()}
            plans.append(where)
        return plans
    moved = moved_counts_exact(cluster, tmp_path, NAME_SWAPS, [], swaps, COUNT_TASKS_SWAPPED)
    per_executor = Counter(m.executor for m in moved.moves)
    assert len(per_executor) == COUNT_TASKS_SWAPPED and set(per_executor.values()) == {SWAP_PLANS}
    # (That the feed ran through every second of the moves is test_migration_endurance.py's check: 4 plans
    # span a few seconds, too few for a share of quiet ones to mean anything.)
    sent = [e for e in moved.events if e.get("event") == "handoff_sent"]
    print(f"{len(sent)} handoffs, {min(e['bytes'] for e in sent)}-{max(e['bytes'] for e in sent)} bytes each; "
          f"congested gates: {[e for e in moved.events if e.get('event') == 'handoff_congested']}")


def test_a_full_early_buffer_waits_for_the_state_instead_of_starting_without_it(cluster, tmp_path):
    # One chunk's worth of early buffer, and the routing switches held back (a test-only worker property) so
    # that the target's own senders feed the new instance for seconds before the old one takes its snapshot:
    # a few words fill the buffer long before the state comes.
    tiny = [f"{CHUNK_BYTES_KEY}=64", f"{EARLY_BUFFER_BYTES_KEY}=64",
            f"topology.worker.childopts=-Dnonstop.migration.test.switch.delay.ms={SWITCH_DELAY_MS}"]
    events = moved_counts_exact(cluster, tmp_path, NAME_FULL, tiny,
                                lambda where, a, b: ({one_on_each(where, a, b)[0]: b},)).events
    congested = [e for e in events if e.get("event") == "handoff_congested"]
    assert len(congested) == 1 and "early buffer full" in congested[0]["reason"], congested


def test_a_state_measured_over_the_limit_is_refused_before_the_switch_and_its_counts_stay_exact(cluster, tmp_path):
    # Each worker measures its count tasks' states every second and publishes the sizes in its metrics document;
    # with a 16-byte limit the scheduler refuses the move, naming the size and the key. The executor keeps running
    # where it is, with its state: nothing is handed over or aborted, and every count is exact.
    t0_ms = time.time() * 1000
    with word_count(cluster, tmp_path, NAME_REFUSED, [f"{MAX_BYTES_KEY}=16", f"{PROBE_KEY}=1000"]) as wc:
        run, feed, client, input_file, a, b, pids = wc.run, wc.feed, wc.client, wc.input_file, wc.a, wc.b, wc.pids
        where = read_assignment(client, run.topo_id)
        on_a = next(e for e in executors_of(cluster, run.topo_id, "count") if where[e] == a)
        wc.counted(COUNTED_BEFORE // 4)
        doc_path = f"{zk.METRICS}/{run.topo_id}/{a.replace(':', '-')}"

        def published_over():
            read = zk.read_json(client, doc_path)
            executors = (read[0] or {}).get("executors", []) if read else []
            state = next((e.get("state") for e in executors if e.get("id") == [on_a.start, on_a.end]), None)
            return state if state and state.get("over_limit") else None
        state = wait_for(f"{a} publishing the state of {on_a} over the limit", published_over, 60, 0.5)
        assert state["bytes"] == 17, state      # the limit plus one: measuring stopped there

        host, port = b.rsplit(":", 1)
        _, version = write_plan(client, NAME_REFUSED, {on_a: (host, int(port))})
        decision = wait_decision(client, NAME_REFUSED, run.topo_id, version, 60)
        assert decision.status == "rejected", decision
        assert (f"executor [{on_a.start},{on_a.end}] (count) is not moved live: its state is more than 16 bytes"
                in decision.reason and f"over {MAX_BYTES_KEY} = 16" in decision.reason), decision.reason
        assert read_assignment(client, run.topo_id)[on_a] == a

        feed.stop()
        totals = wait_stream_settled(run)
        assert totals.acked == totals.emitted and totals.failed == 0, totals
        wait_counts_exact(run, expected_counts(input_file, totals.emitted), 30)
        handoffs = [e for e in events_since(cluster, (a, b), t0_ms) if str(e.get("event", "")).startswith("handoff_")]
        assert not handoffs, handoffs
        assert pids_of(cluster, run.topo_id, (a, b)) == pids, "a worker restarted"


def test_a_snapshot_over_the_limit_is_not_sent_and_both_workers_say_why(cluster, tmp_path):
    # Measuring off: the scheduler knows no size, so the limit is met only at the switch (the source's own check).
    t0_ms = time.time() * 1000
    with word_count(cluster, tmp_path, NAME_TOO_LARGE, [f"{MAX_BYTES_KEY}=16", f"{PROBE_KEY}=0"]) as wc:
        run, feed, client, a, b, pids = wc.run, wc.feed, wc.client, wc.a, wc.b, wc.pids
        mover = Mover(cluster, client, NAME_TOO_LARGE, run.topo_id)
        where = mover.assignment()
        on_a = next(e for e in executors_of(cluster, run.topo_id, "count") if where[e] == a)
        # A few dozen distinct words already take more than 16 bytes in any encoding.
        wc.counted(COUNTED_BEFORE // 4)
        mover.finish(mover.move(on_a, b))

        def outcome():
            events = events_since(cluster, (a, b), t0_ms)
            aborted = [e for e in events if e.get("event") == "handoff_aborted"]
            opened = [e for e in events if e.get("event") in ("handoff_released", "handoff_gave_up")]
            return (aborted, opened) if aborted and opened else None
        aborted, opened = wait_for("the refusal on the source and the target's gate open", outcome, 30, 0.5)
        assert len(aborted) == 1 and f"over {MAX_BYTES_KEY} = 16 bytes" in aborted[0]["reason"], aborted
        assert [e["event"] for e in opened] == ["handoff_gave_up"], opened
        assert opened[0]["reason"].startswith("the old instance kept the state of plan v"), opened
        assert f"over {MAX_BYTES_KEY} = 16 bytes" in opened[0]["reason"], opened
        assert not [e for e in events_since(cluster, (a, b), t0_ms) if e.get("event") == "handoff_sent"]
        feed.stop()
        totals = wait_stream_settled(run)
        assert totals.acked == totals.emitted and totals.failed == 0, totals
        assert pids_of(cluster, run.topo_id, (a, b)) == pids, "a worker restarted"


def test_a_target_whose_heap_cannot_take_the_snapshot_declines_it_stays_up_and_the_source_stops_sending(
        cluster, tmp_path):
    # Every worker offers a snapshot 16 bytes of heap (a test-only worker property; the heap check is
    # HeapRoom's): the target turns the state down at its first chunk instead of running out of memory.
    t0_ms = time.time() * 1000
    with word_count(cluster, tmp_path, NAME_NO_ROOM, [f"topology.worker.childopts=-D{HEAP_FREE_KEY}=16",
                                                      f"{CONFIRM_RESEND_KEY}={RESEND_MS}"]) as wc:
        run, feed, client, a, b, pids = wc.run, wc.feed, wc.client, wc.a, wc.b, wc.pids
        mover = Mover(cluster, client, NAME_NO_ROOM, run.topo_id, handoffs=True)
        on_a = next(e for e in executors_of(cluster, run.topo_id, "count") if mover.assignment()[e] == a)
        wc.counted(COUNTED_BEFORE // 4)
        m = mover.move(on_a, b)
        mover.finish(m)
        task = on_a.start

        def outcome():
            events = events_since(cluster, (a, b), t0_ms)
            declined = [e for e in events if e.get("event") == "handoff_declined" and e["task"] == task]
            gave_up = [e for e in events if e.get("event") == "handoff_gave_up" and e["task"] == task]
            return (declined, gave_up) if declined and gave_up else None
        declined, gave_up = wait_for("the target's refusal and the source's release of its copy", outcome, 30, 0.5)
        assert len(declined) == 1 and declined[0]["port"] == int(a.rsplit(":", 1)[1]), declined
        assert "heap cannot take a snapshot" in declined[0]["reason"], declined
        assert len(gave_up) == 1 and gave_up[0]["port"] == int(b.rsplit(":", 1)[1]), gave_up
        assert "heap cannot take a snapshot" in gave_up[0]["reason"], gave_up
        feed.stop()
        totals = wait_stream_settled(run)
        assert totals.acked == totals.emitted and totals.failed == 0, totals
        # The source released its copy at the refusal: nothing was sent again (a kept copy is resent every
        # RESEND_MS until confirmed), nothing installed.
        wait_for("two resend periods after the refusal",
                 lambda: time.time() * 1000 > declined[0]["t_ms"] + 2 * RESEND_MS, 30, 0.2)
        events = events_since(cluster, (a, b), t0_ms)
        assert not [e for e in events if e.get("event") in ("handoff_resent", "handoff_installed", "handoff_confirmed")
                    and e.get("task") == task], events
        assert pids_of(cluster, run.topo_id, (a, b)) == pids, "a worker restarted"


def events_since(cluster, slots, t0_ms):
    return [e for slot in slots for e in slot_events(cluster.spec, slot) if e.get("t_ms", 0) >= t0_ms]


def one_on_each(where, a, b):
    """A count executor on worker a and one on worker b."""
    return next(e for e, slot in where.items() if slot == a), next(e for e, slot in where.items() if slot == b)


@dataclass
class Moved:
    events: list[dict]            # both workers' migration events since the run's start
    moves: list[Move]             # one per executor moved, in order


def moved_counts_exact(cluster, tmp_path, name, settings, plans, count_tasks=4) -> Moved:
    """Runs the word count (`count_tasks` count executors) with `settings`, makes the live moves
    `plans(where, a, b)` returns (plans, each executor -> target worker; `where`: the count executors'
    workers at the start) once every count executor has state, and checks that each move's state was
    sent by its source and installed at its target, every count is exact and no worker restarted.
    Returns the run's migration events and its moves."""
    started = time.monotonic()
    t0_ms = time.time() * 1000
    with word_count(cluster, tmp_path, name, settings, count_tasks) as wc:
        run, feed, client, input_file, a, b, pids = wc.run, wc.feed, wc.client, wc.input_file, wc.a, wc.b, wc.pids
        mover = Mover(cluster, client, name, run.topo_id, handoffs=True)
        where = mover.assignment()
        counts = executors_of(cluster, run.topo_id, "count")
        assert len(counts) == count_tasks and {where[e] for e in counts} == {a, b}, (counts, where)
        wc.counted(COUNTED_BEFORE)
        planned = plans({e: where[e] for e in counts}, a, b)
        _, expected = moves_then_settled(mover, run, feed, planned, input_file, RUN_AFTER_S)

        # Per worker and task, one snapshot sent for each move away from it and one installed for each move
        # to it; none refused, none given up on.
        by_slot = {slot: events_since(cluster, (slot,), t0_ms) for slot in (a, b)}

        def per_task(*kinds):
            return Counter((slot, e["task"]) for slot, events in by_slot.items() for e in events
                           if e.get("event") in kinds)
        assert len(mover.moves) == sum(map(len, planned)), mover.moves
        assert per_task("handoff_sent") == Counter((m.source, m.executor.start) for m in mover.moves), by_slot
        assert per_task("handoff_released") == Counter((m.target, m.executor.start) for m in mover.moves), by_slot
        assert not per_task("handoff_aborted", "handoff_gave_up"), by_slot
        events = [e for slot in (a, b) for e in by_slot[slot]]
        assert all(e["bytes"] > 0 for e in events if e.get("event") == "handoff_sent"), events

        wait_counts_exact(run, expected, 30)   # the count bolts write their counts on a 1 s tick
        assert pids_of(cluster, run.topo_id, (a, b)) == pids, "a worker restarted"
        print(f"took {time.monotonic() - started:.0f} s")
        return Moved(events, mover.moves)


@dataclass
class WordCount:
    """The Java word count on two workers of different nodes (a and b), its feed not started yet."""
    run: Run
    feed: FeedSwitch
    client: object
    input_file: object
    a: str
    b: str
    pids: dict

    def counted(self, words: int) -> None:
        """Starts the feed and waits until the count bolts have counted `words` words."""
        self.feed.start(RATE)
        wait_for(f"{words} words counted", lambda: read_counts(self.run.dirs(), "count").tuples >= words, 180, 1)


@contextmanager
def word_count(cluster, tmp_path, name, settings, count_tasks=4):
    """The word count with `settings` and a ZooKeeper client, killed afterwards."""
    input_file = sentences_subset(tmp_path, SENTENCES)
    feed = FeedSwitch(tmp_path / "rate-schedule.txt")
    run = Run(cluster, "wordcount-java", name,
              [f"workload.input={input_file}", "workload.total=0", feed.setting(), "topology.workers=2",
               "workload.par.split=2", f"workload.par.count={count_tasks}", "topology.message.timeout.secs=60",
               *settings])
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        a, b = both_workers(cluster, run.topo_id)
        yield WordCount(run, feed, client, input_file, a, b, pids_of(cluster, run.topo_id, (a, b)))
    finally:
        client.stop()
        client.close()
        run.kill()
