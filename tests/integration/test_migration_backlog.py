"""A moved executor that still has a backlog keeps its downstream connections while it drains.

Regression test for the stall found under overload (session 5): the source worker rebuilt its set of
outbound tasks from its *local* executors only. The moved executor, still draining its queue until its
lazy kill, sends to tasks that nothing else in that worker sends to; their addresses were forgotten at
the next connection refresh and Storm dropped what the draining executor emitted ("No remote
destination available for task"), so those sentences failed after the message timeout.

The setup makes that deterministic: the compute-heavy word count with ONE split executor (the only
sender to `count`), a feed faster than the split, so its queue holds about `topology.max.spout.pending`
sentences when it moves, and the move itself. Every sentence must be acked without a single failure or
replay, and the counts must be exact.

Against the agent jar from before the fix (`PYCONTROL_DIST` at a dist with the bb93257 jar) this test
fails: 1425 "No remote destination" drops in the source worker's log, the spout held at 106 pending for
80 s, 107 sentences failed at the message timeout and the stream did not settle within 300 s. With the
fix: 0 drops, 1131 of 1131 acked, none failed, in 79 s (an endless feed then; now a fixed total).
"""

from __future__ import annotations

import pytest

from pycontrol import zk
from tests.conftest import wait_for
from tests.integration.migration_runs import (FeedSwitch, Mover, both_workers, executors_of, expected_counts,
                                              pids_of, wait_stream_settled)
from tests.integration.workload_runs import Run, sentences_subset

pytestmark = pytest.mark.cluster

NAME = "mig-backlog"
# The spout's pending limit: the split's backlog when it moves (the FeedSpout emits in batches, so up
# to about 100 more can be in flight).
PENDING = 60
# The split computes H(COST) per word, about 1-2 ms (tens of ms per sentence): it holds far less than
# RATE, so the spout runs at its pending limit and the sentences wait in the split's queue, about as
# long as the lazy kill (2 s) to drain.
COST = 1_000_000
RATE = 150
# The feed is open-loop (items owed at RATE are emitted late, not dropped), so an endless one would owe
# RATE x (seconds until it stops), minutes of work for the slow split. A fixed total keeps the spout at its
# pending limit through the move (about 25 s of work for the split on a loaded 2-core machine) and then ends.
TOTAL = 400


@pytest.fixture(scope="module")
def backlog_run(cluster, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("backlog")
    input_file = sentences_subset(tmp, 200)
    feed = FeedSwitch(tmp / "rate-schedule.txt")
    run = Run(cluster, "wordcount-heavy-java", NAME,
              [f"workload.input={input_file}", f"workload.total={TOTAL}", feed.setting(), "topology.workers=2",
               "workload.par.split=1", "workload.par.count=4", f"topology.max.spout.pending={PENDING}",
               f"workload.heavy.base={COST}", "workload.heavy.classes=1", "workload.heavy.spread=1",
               # A dropped sentence must show up as a failure within the test's wait, not after 300 s.
               "topology.message.timeout.secs=45"])
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        yield run, client, feed, input_file
    finally:
        client.stop()
        client.close()
        run.kill()


def test_a_moved_executor_drains_its_backlog_without_losing_what_it_emits(cluster, backlog_run):
    run, client, feed, input_file = backlog_run
    a, b = both_workers(cluster, run.topo_id)
    mover = Mover(cluster, client, NAME, run.topo_id, timeout_s=120)
    # The UI lists an executor once it heartbeats: wait for the split and all four counts.
    split, counts = wait_for("split and count executors listed",
                             lambda: (s := executors_of(cluster, run.topo_id, "split"))
                             and len(c := executors_of(cluster, run.topo_id, "count")) == 4 and (s[0], c), 180, 2)
    placement = mover.assignment()
    source = placement[split]
    target = b if source == a else a
    counts_elsewhere = [e for e in counts if placement[e] == target]
    assert counts_elsewhere, f"no count task on {target}: the moved split would have nothing remote to send to"
    pids = pids_of(cluster, run.topo_id, (a, b))

    feed.start(RATE)
    # The spout at its pending limit means the split (the bottleneck) has a queue.
    wait_for(f"the spout held at {PENDING} pending sentences (a backlog at the split)",
             lambda: (rows := run.series()) and rows[-1].pending >= PENDING * 0.8, 180, 0.5)
    m = mover.move(split, target)
    mover.finish(m)
    # A few seconds more at full load through the split's new home, then the feed stops.
    wait_for("sentences acked after the move", lambda: sum(r.acked for r in run.series()
                                                          if r.ts * 1000 > m.t0_ms + m.effect_ms) > 0, 120)
    feed.stop()
    totals = wait_stream_settled(run, timeout_s=300)
    print(f"moved {split} {source} -> {target}: effect {m.effect_ms} ms, old instance stopped after "
          f"{m.stopped_ms} ms, dropped by the workers {m.dropped_total}; emitted {totals.emitted}, acked "
          f"{totals.acked}, failed {totals.failed}, replayed {totals.replayed}")
    assert pids_of(cluster, run.topo_id, (a, b)) == pids, "a worker JVM was restarted"
    assert totals.acked == totals.emitted
    assert (totals.failed, totals.replayed) == (0, 0), \
        "sentences the draining split emitted were lost (the source worker forgot its downstream addresses?)"
    expected = expected_counts(input_file, totals.emitted)
    counts = run.wait_counts(sum(expected.values()))
    assert counts.words == expected
