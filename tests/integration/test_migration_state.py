"""What nonstop migration does to a stateful bolt without state handoff (nonstop.migration.state.handoff
off; with it on, the counts move along: test_migration_handoff.py): the word count's `count` executor keeps
its counts in memory only, so when it moves, its new instance on the target worker starts from zero. The stream itself
loses nothing (every sentence acked, nothing replayed); what is lost is exactly what the old instance had
counted when it was shut down on the source worker. Documented in storm-plugins/migration/README.md
("Stateful bolts and spouts")."""

from __future__ import annotations

import time

import pytest

from pycontrol import zk
from pycontrol.workloads.outputs import read_counts, read_snapshots
from tests.conftest import wait_for
from tests.integration.migration_runs import (FeedSwitch, Mover, both_workers, executors_of, expected_counts,
                                              slot_dir, wait_stream_settled)
from tests.integration.workload_runs import Run, sentences_subset

pytestmark = pytest.mark.cluster

NAME = "mig-state"
RATE = 20                # sentences/s
SENTENCES = 300
COUNTED_BEFORE = 300     # words the moving executor has counted before it moves (its state to lose)
RUN_AFTER_S = 8          # traffic after the move, so the new instance counts too


@pytest.fixture(scope="module")
def moved_count(cluster, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("state")
    input_file = sentences_subset(tmp, SENTENCES)
    feed = FeedSwitch(tmp / "rate-schedule.txt")
    run = Run(cluster, "wordcount-java", NAME,
              [f"workload.input={input_file}", "workload.total=0", feed.setting(), "topology.workers=2",
               "workload.par.split=2", "workload.par.count=4", "topology.message.timeout.secs=60",
               "nonstop.migration.state.handoff=false"])
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        a, b = both_workers(cluster, run.topo_id)
        mover = Mover(cluster, client, NAME, run.topo_id)
        counts = executors_of(cluster, run.topo_id, "count")
        executor = next(e for e in counts if mover.assignment()[e] == a)
        task = executor.start
        assert executor.end == task, "one task per count executor"
        source_dir, target_dir = slot_dir(cluster, run.topo_id, a), slot_dir(cluster, run.topo_id, b)

        def counted_on(d):
            return next((s.tuples for s in read_snapshots([d], "count") if s.task == task), 0)
        feed.start(RATE)
        wait_for(f"task {task} has counted {COUNTED_BEFORE} words", lambda: counted_on(source_dir) >= COUNTED_BEFORE,
                 180, 1)
        move = mover.finish(mover.move(executor, b))
        time.sleep(RUN_AFTER_S)
        feed.stop()
        totals = wait_stream_settled(run)
        expected = expected_counts(input_file, totals.emitted)

        # Every instance's last snapshot in (the count bolts write on a 1 s tick): the new instance's is
        # newer than the old one's, and together with the other tasks' they account for every word.
        old = new = result = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            old = next(s for s in read_snapshots([source_dir], "count") if s.task == task)
            new = next((s for s in read_snapshots([target_dir], "count") if s.task == task), None)
            result = read_counts(run.dirs(), "count")
            if new and new.written_ms > old.written_ms and result.tuples + old.tuples >= sum(expected.values()):
                break
            time.sleep(1)
        yield {"totals": totals, "expected": expected, "old": old, "new": new,
               "result": result, "move": move, "task": task}
    finally:
        client.stop()
        client.close()
        run.kill()


def test_the_stream_loses_nothing_when_a_stateful_bolt_moves(moved_count):
    t = moved_count["totals"]
    print(f"emitted {t.emitted}, acked {t.acked}, failed {t.failed}, replayed {t.replayed}; "
          f"move: {moved_count['move']}")
    assert t.acked == t.emitted and (t.failed, t.replayed) == (0, 0)


def test_the_moved_bolt_restarts_from_zero_and_exactly_its_old_state_is_lost(moved_count):
    expected, result, old, new = (moved_count[k] for k in ("expected", "result", "old", "new"))
    lost = expected - result.words
    total = sum(expected.values())
    print(f"task {moved_count['task']}: old instance counted {old.tuples} words ({len(old.words)} distinct), "
          f"new instance {new.tuples if new else 0}; result {sum(result.words.values())} of {total} words, "
          f"lost {sum(lost.values())} ({100 * sum(lost.values()) / total:.1f} %) over {len(lost)} distinct words")
    assert old.tuples >= COUNTED_BEFORE
    assert new is not None and new.tuples > 0, "the new instance counted the words sent after the move"
    # The result (each task's newest snapshot) misses exactly what the old instance had counted...
    assert lost == old.words and not result.words - expected
    # ...because the new instance started from zero: its counts are the words it saw after the move only.
    assert new.words + old.words == {w: expected[w] for w in new.words | old.words}
