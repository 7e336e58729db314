"""Consistent Grouping in a real topology on the real cluster: the CG grouping routes a word stream to
counting workers in other processes, the workers' load reaches the source through the metrics plane
(ZooKeeper) and turns into load signals there that move virtual workers off a slowed worker (each move
logged by the source), and periodic aggregation yields exact counts."""

from __future__ import annotations

from collections import Counter

import pytest

from pycontrol.grouping import experiment, streams
from pycontrol.workloads import series
from tests.conftest import wait_for
from tests.integration.workload_runs import Run

pytestmark = pytest.mark.cluster

WORDS = 5000
RATE = 200              # words/s: 25 s of input
COUNT_TASKS = 3
COST_US = 4000          # per word; task index 0 is 6x slower: 24 ms, i.e. at most 42 words/s, overloaded
                        # by its third of the stream (~67/s at first) until it has shed about half its
                        # virtual workers; the others run at 30-40 %


@pytest.fixture(scope="module")
def words_file(tmp_path_factory):
    words = streams.brown_words_file().read_text(encoding="ascii").splitlines()[:WORDS]
    path = tmp_path_factory.mktemp("cg") / "words.txt"
    path.write_text("\n".join(words) + "\n", encoding="ascii")
    return path


def test_cg_counts_exactly_across_processes_and_the_busy_worker_signals(cluster, words_file):
    expected = Counter(words_file.read_text(encoding="ascii").split())
    run = Run(cluster, "grouping-count", "it-cg", [
        f"workload.input={words_file}", f"workload.total={WORDS}", f"workload.rate={RATE}",
        "workload.grouping=cg", f"workload.par.count={COUNT_TASKS}", f"workload.cost.us={COST_US}",
        "workload.slowdown=[6.0]", "workload.aggregate.secs=1", "workload.cg.slot.ms=2000",
        "nonstop.metrics.period.secs=1", "topology.stats.sample.rate=0.5", "topology.workers=2"])
    try:
        totals = run.wait_acked(WORDS, timeout_s=150)
        assert (totals.emitted, totals.acked, totals.failed, totals.replayed) == (WORDS, WORDS, 0, 0)

        def aggregated():
            snaps = experiment.newest_snapshots(run.dirs(), "aggregate")
            return snaps if sum(int(d.get("tuples", 0)) for d in snaps.values()) >= WORDS else None
        totals_by_key = experiment.counted(wait_for("aggregated counts", aggregated, 30))
        assert totals_by_key == expected, "periodic aggregation lost or doubled counts"

        workers = experiment.newest_snapshots(run.dirs(), "count")
        assert len(workers) == COUNT_TASKS
        assert experiment.counted(workers) == expected, "each word counted once, wherever CG sent it"

        tuples = [workers[t]["tuples"] for t in sorted(workers)]
        assert tuples[0] < 0.8 * (tuples[1] + tuples[2]) / 2, f"the slowed worker kept its share: {tuples}"
    finally:
        run.kill()
    # Workers buffer their log: wait until the stopped workers have written it out.
    def signals():
        s = experiment.signals_in_logs(run.dirs()).get("source:default->count")
        return s if s and s["DECREASE"].get(0, 0) >= 2 and s["INCREASE"] else None
    seen = wait_for("the slowed worker's DECREASE signals in the CG source's worker log", signals, 60, poll_s=2)
    assert not seen["DECREASE"].keys() - {0}, f"only the slowed worker is overloaded: {seen}"
    moves = experiment.moves_in_logs(run.dirs()).get("source:default->count")
    assert moves and moves["moves"] >= 1, f"signals {seen} but no virtual-worker move logged"
    assert all(pair.startswith("0->") for pair in moves["per_pair"]), f"only the slowed worker gives up VWs: {moves}"
