"""The linear template (Python; Java fed by a replayed trace), the micro-DAGs and the all-Python word
count (its spout a ShellSpout) on the real cluster.

Every tuple must come back acked exactly once (the tree of a diamond or a star completes only when
every branch is done); the trace's unreadable lines are skipped and counted, not fatal.
"""

from __future__ import annotations

import gzip
import json

import pytest

from tests.integration.workload_runs import Run, direct_count, sentences_subset

pytestmark = pytest.mark.cluster

MICRO = ["workload.total=40", "workload.rate=20", "topology.workers=1", "workload.par.B=1", "workload.par.T=1",
         "workload.blob.latency.ms=5", "workload.blob.bytes=65536", "workload.table.latency.ms=5",
         "workload.table.rows=1000", "workload.pi.digits=100", "workload.filewrite.batch=10"]
TRACE_GOOD = 150
TRACE_BAD = 3


@pytest.fixture(scope="module")
def trace_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("trace") / "keys.ndjson.gz"
    lines = [json.dumps({"offset_ms": i * 10, "key": f"k{i % 17}", **({"payload": "p" * 20} if i % 2 else {})})
             for i in range(TRACE_GOOD)]
    lines[10:10] = ["{this is not json"]
    lines[50:50] = [json.dumps({"offset_ms": "soon", "key": "k1"})]
    lines[100:100] = [json.dumps({"offset_ms": 5})]
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def runs(cluster, trace_file):
    specs = {
        "linear-py": ["workload.total=200", "workload.rate=100", "topology.workers=1", "workload.par.bolt1=1",
                      "workload.par.bolt2=1", "workload.cost1.us=200", "workload.tuple.bytes=64"],
        "linear-java": [f"workload.trace={trace_file}", "workload.replay.speed=2", "topology.workers=1",
                        "workload.par.bolt1=2", "workload.par.bolt2=2"],
        "micro-linear-py": MICRO,
        "micro-diamond-py": MICRO,
        "micro-star-py": MICRO,
    }
    started = {}
    try:
        for workload, settings in specs.items():
            started[workload] = Run(cluster, workload, f"it-{workload}", settings)
        yield started
    finally:
        for run in started.values():
            run.kill()


@pytest.mark.parametrize("workload,total", [("linear-py", 200), ("micro-linear-py", 40),
                                            ("micro-diamond-py", 40), ("micro-star-py", 40)])
def test_every_tuple_is_acked_once(runs, workload, total):
    t = runs[workload].wait_acked(total)
    assert (t.emitted, t.acked, t.failed, t.replayed) == (total, total, 0, 0)


def test_trace_replay_skips_and_counts_unreadable_lines(runs):
    run = runs["linear-java"]
    t = run.wait_acked(TRACE_GOOD)
    assert (t.emitted, t.acked, t.failed) == (TRACE_GOOD, TRACE_GOOD, 0)
    assert t.bad_lines == TRACE_BAD
    rows = run.series()
    assert all(r.target_rate is None for r in rows)  # replay: the trace sets the pace, not a rate


@pytest.fixture(scope="module")
def all_python(cluster, tmp_path_factory):
    """Word count with every component in Python, the spout too (a ShellSpout)."""
    input_file = sentences_subset(tmp_path_factory.mktemp("pyspout"), 200)
    run = Run(cluster, "wordcount-pyspout", "it-wordcount-pyspout",
              [f"workload.input={input_file}", "workload.total=200", "workload.rate=100", "topology.workers=1",
               "workload.par.split=1", "workload.par.count=1"])
    try:
        yield run, input_file
    finally:
        run.kill()


def test_all_python_word_count_is_exact(all_python):
    run, input_file = all_python
    expected = direct_count(input_file)
    counts = run.wait_counts(sum(expected.values()), timeout_s=420)
    assert counts.words == expected and counts.tuples == sum(expected.values())
