"""State handoff in a live move: the Java word count's `count` bolt opts in (HandoffState over its count
map), so when its executors move between the two nodes' workers the counts move with them. With a
known input stream, the final count of every word equals a direct count of the input, and no worker
JVM restarted. The same run without handoff loses the moved executors' counts (test_migration_state.py)."""

from __future__ import annotations

import time

import pytest

from pycontrol import zk
from pycontrol.migration.observe import slot_events
from pycontrol.workloads.outputs import read_counts
from tests.conftest import wait_for
from tests.integration.migration_runs import (FeedSwitch, Mover, both_workers, executors_of, expected_counts,
                                              pids_of, wait_stream_settled)
from tests.integration.workload_runs import Run, sentences_subset

pytestmark = pytest.mark.cluster

NAME = "mig-handoff"
RATE = 20                # sentences/s
SENTENCES = 300
COUNTED_BEFORE = 200     # words counted before the first move, so every moving instance has state
RUN_AFTER_S = 4          # traffic after the last move: every task's newest counts snapshot is its final home's


def test_counts_are_exact_after_live_moves_of_the_count_bolt(cluster, tmp_path):
    started = time.monotonic()
    t0_ms = time.time() * 1000
    input_file = sentences_subset(tmp_path, SENTENCES)
    feed = FeedSwitch(tmp_path / "rate-schedule.txt")
    run = Run(cluster, "wordcount-java", NAME,
              [f"workload.input={input_file}", "workload.total=0", feed.setting(), "topology.workers=2",
               "workload.par.split=2", "workload.par.count=4", "topology.message.timeout.secs=60"])
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        a, b = both_workers(cluster, run.topo_id)
        pids = pids_of(cluster, run.topo_id, (a, b))
        mover = Mover(cluster, client, NAME, run.topo_id)
        where = mover.assignment()
        counts = executors_of(cluster, run.topo_id, "count")
        on_a = next(e for e in counts if where[e] == a)
        on_b = next(e for e in counts if where[e] == b)
        feed.start(RATE)
        wait_for(f"{COUNTED_BEFORE} words counted", lambda: read_counts(run.dirs(), "count").tuples >= COUNTED_BEFORE,
                 180, 1)
        # Over and back again, and one the other way: each move hands over the state the last one installed.
        for executor, target in ((on_a, b), (on_b, a), (on_a, a)):
            mover.finish(mover.move(executor, target))
        time.sleep(RUN_AFTER_S)   # traffic, not a check: the checks below poll with deadlines
        feed.stop()
        totals = wait_stream_settled(run)
        expected = expected_counts(input_file, totals.emitted)
        print(f"emitted {totals.emitted}, acked {totals.acked}, failed {totals.failed}, "
              f"replayed {totals.replayed}; moves: {mover.summary()}")
        assert totals.acked == totals.emitted and (totals.failed, totals.replayed) == (0, 0)

        events = [e for slot in (a, b) for e in slot_events(cluster.spec, slot) if e.get("t_ms", 0) >= t0_ms]
        sent = [e for e in events if e.get("event") == "handoff_sent"]
        released = [e for e in events if e.get("event") in ("handoff_released", "handoff_gave_up")]
        assert len(sent) == 3 and all(e["bytes"] > 0 for e in sent), sent
        assert [e["event"] for e in released] == ["handoff_released"] * 3, released

        # The count bolts write their counts on a 1 s tick; wait for the last ones to land.
        def exact():
            result = read_counts(run.dirs(), "count")
            return result if result.words == expected else None
        try:
            wait_for("every word's count equals the input's", exact, 30, 1)
        finally:
            result = read_counts(run.dirs(), "count")
            diff = {w: (result.words[w], expected[w]) for w in result.words.keys() | expected.keys()
                    if result.words[w] != expected[w]}
            print(f"{sum(expected.values())} words, {len(expected)} distinct; counted {result.tuples}; "
                  f"differing words (counted, expected): {dict(list(diff.items())[:20])}")
        assert pids_of(cluster, run.topo_id, (a, b)) == pids, "a worker restarted"
        print(f"took {time.monotonic() - started:.0f} s")
    finally:
        client.stop()
        client.close()
        run.kill()
