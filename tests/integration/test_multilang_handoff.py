"""State handoff of Python (multilang) bolts in a live move: `wordcount-handoff-py` counts the same words twice,
in `count` (HandoffCountBolt, which opts in with the StateHandoff mixin) and in `plaincount` (the plain
WordCountBolt). A `count` executor moves across and back, its counts going with it through the multilang
snapshot/restore pair, so every final count equals a direct count of the input; a `plaincount` executor moves
across as before (no barrier, no gate, its new instance starts empty); a `refusecount` executor, whose bolt opts in but
whose snapshot raises, is refused with the bolt's reason on both workers and its new instance starts without
waiting. Every tuple acked, nothing replayed, no worker JVM restarted."""

from __future__ import annotations

import time

import pytest

from pycontrol import zk
from pycontrol.workloads.outputs import read_counts
from tests.conftest import wait_for
from tests.integration.migration_runs import (FeedSwitch, Mover, both_workers, executors_of, moves_then_settled,
                                              pids_of, wait_counts_exact)
from tests.integration.test_migration_handoff import events_since
from tests.integration.workload_runs import Run, sentences_subset

pytestmark = pytest.mark.cluster

NAME = "mig-handoff-py"
RATE = 20                # sentences/s
SENTENCES = 200
COUNTED_BEFORE = 150     # words counted by `count` before the first move
RUN_AFTER_S = 3          # traffic after the last move


def test_a_python_bolt_that_opts_in_keeps_its_counts_through_live_moves(cluster, tmp_path):
    started = time.monotonic()
    t0_ms = time.time() * 1000
    input_file = sentences_subset(tmp_path, SENTENCES)
    feed = FeedSwitch(tmp_path / "rate-schedule.txt")
    run = Run(cluster, "wordcount-handoff-py", NAME,
              [f"workload.input={input_file}", "workload.total=0", feed.setting(), "topology.workers=2"])
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        a, b = both_workers(cluster, run.topo_id)
        pids = pids_of(cluster, run.topo_id, (a, b))
        mover = Mover(cluster, client, NAME, run.topo_id)
        where = mover.assignment()
        counter = next(e for e in executors_of(cluster, run.topo_id, "count") if where[e] == a)
        plain = next(e for e in executors_of(cluster, run.topo_id, "plaincount") if where[e] == a)
        refuser = executors_of(cluster, run.topo_id, "refusecount")[0]
        refuser_to = b if where[refuser] == a else a
        feed.start(RATE)
        wait_for(f"{COUNTED_BEFORE} words counted",
                 lambda: read_counts(run.dirs(), "count").tuples >= COUNTED_BEFORE, 180, 1)
        planned = ({counter: b}, {plain: b}, {refuser: refuser_to}, {counter: a})
        _, expected = moves_then_settled(mover, run, feed, planned, input_file, RUN_AFTER_S)

        events = [e for e in events_since(cluster, (a, b), t0_ms) if str(e.get("event", "")).startswith("handoff_")]
        assert {e["task"] for e in events} == {counter.start, refuser.start}, events   # the plain bolt takes none
        counted = [e for e in events if e["task"] == counter.start]
        sent = [e for e in counted if e["event"] == "handoff_sent"]
        released = [e["event"] for e in counted if e["event"] in ("handoff_released", "handoff_gave_up")]
        assert len(sent) == 2 and all(e["bytes"] > 0 for e in sent), events
        assert released == ["handoff_released"] * 2, events
        refused = {e["event"]: e for e in events if e["task"] == refuser.start}
        assert set(refused) == {"handoff_aborted", "handoff_gave_up"}, refused
        why = "the subprocess refused: RuntimeError: workload.handoff.refuse is set"
        assert why in refused["handoff_aborted"]["reason"], refused
        assert refused["handoff_gave_up"]["reason"].startswith("the old instance kept the state"), refused
        assert why in refused["handoff_gave_up"]["reason"], refused

        wait_counts_exact(run, expected, 30)   # the count bolts write their counts on a 1 s tick
        # The plain bolt's moved instance started empty: what its old instance counted is lost, as before.
        wait_for("`plaincount` counted every word after the move",
                 lambda: read_counts(run.dirs(), "plaincount").tasks == 2, 30, 1)
        assert read_counts(run.dirs(), "plaincount").tuples < sum(expected.values())
        assert pids_of(cluster, run.topo_id, (a, b)) == pids, "a worker restarted"
        print(f"took {time.monotonic() - started:.0f} s")
    finally:
        client.stop()
        client.close()
        run.kill()
