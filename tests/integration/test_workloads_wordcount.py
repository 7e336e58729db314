"""Word counts (Python and Java, plain and compute-heavy) on the real cluster: exact results.

All four run at once (6 of the 8 slots) on the same 300 Brown sentences; every count must equal a
direct count of those sentences: no tuple lost, none counted twice (acking on, nothing failed).
Two more Java word counts (the last 2 slots) offer the sentences far faster than one pending sentence
at a time can go, one measuring latency from the intended emit times and one from the actual emits.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pycontrol.cli import main
from pycontrol.errors import UserError
from pycontrol.workloads.submit import submit_workload
from tests.integration.workload_runs import Run, direct_count, sentences_subset

pytestmark = pytest.mark.cluster

SENTENCES = 300
SMALL = {
    "wordcount-py": ["topology.workers=2", "workload.par.split=2", "workload.par.count=2"],
    "wordcount-java": ["topology.workers=2", "workload.par.split=2", "workload.par.count=3"],
    "wordcount-heavy-py": ["topology.workers=1", "workload.par.split=1", "workload.par.count=1",
                           "workload.heavy.base=50", "workload.heavy.drift.secs=1"],
    "wordcount-heavy-java": ["topology.workers=1", "workload.par.split=1", "workload.par.count=1",
                             "workload.heavy.base=500", "workload.heavy.drift.secs=1"],
}


@pytest.fixture(scope="module")
def input_file(tmp_path_factory):
    return sentences_subset(tmp_path_factory.mktemp("wc"), SENTENCES)


# Saturated: 300 sentences offered at once, one in flight at a time (the spout emits up to
# workload.emit.batch per nextTuple call whatever max.spout.pending says, so the batch is 1 too).
SATURATED = ["topology.workers=1", "workload.par.split=1", "workload.par.count=1", "workload.rate=100000",
             "topology.max.spout.pending=1", "workload.emit.batch=1"]


@pytest.fixture(scope="module")
def runs(cluster, input_file):
    started = {}
    try:
        for workload, settings in SMALL.items():
            started[workload] = Run(cluster, workload, f"it-{workload}",
                                    [f"workload.input={input_file}", f"workload.total={SENTENCES}",
                                     "workload.rate=100", *settings])
        for since in ("intended", "emit"):
            started[since] = Run(cluster, "wordcount-java", f"it-latency-{since}",
                                 [f"workload.input={input_file}", f"workload.total={SENTENCES}", *SATURATED,
                                  f"workload.latency.from={since}"])
        yield started
    finally:
        for run in started.values():
            run.kill()


@pytest.mark.parametrize("workload", list(SMALL))
def test_word_count_is_exact(runs, input_file, workload):
    run = runs[workload]
    expected = direct_count(input_file)
    totals = run.wait_acked(SENTENCES)
    assert (totals.emitted, totals.acked, totals.failed, totals.replayed) == (SENTENCES, SENTENCES, 0, 0)
    counts = run.wait_counts(sum(expected.values()))
    assert counts.tuples == sum(expected.values())
    assert counts.words == expected
    assert {r.target_rate for r in run.series()} == {100.0}


def test_a_saturated_feed_measures_latency_from_the_emits_when_asked(runs):
    """From intended times, a sentence that waited its turn counts its wait (the last ones waited for
    nearly all the others); from the emits, each counts only its own trip."""
    got = {}
    for since in ("intended", "emit"):
        assert runs[since].wait_acked(SENTENCES).acked == SENTENCES
        rows = [r for r in runs[since].series() if r.latency_n]
        got[since] = sum(r.latency_mean_ms * r.latency_n for r in rows) / sum(r.latency_n for r in rows)
    # Mean from intended times ~ half the run (150 trips); from the emits ~ one trip.
    assert got["emit"] < got["intended"] / 5, got


def test_unknown_workload_names_both_kinds(cluster):
    r = CliRunner().invoke(main, ["topology", "submit", "no-such-topology", "--home", str(cluster.spec.home)],
                           standalone_mode=False)
    assert isinstance(r.exception, UserError)
    msg = str(r.exception)
    assert "unknown workload 'no-such-topology'" in msg and "wordcount-py" in msg and "wordcount-java" in msg


def test_bad_settings_are_refused_naming_the_setting_or_component(cluster, input_file):
    with pytest.raises(UserError, match="bad --set 'workload.rate'"):
        submit_workload("wordcount-py", "it-bad", ["workload.rate"], cluster.conf_dir)
    with pytest.raises(UserError, match=r"topology 'wordcount-py': component 'split': workload.par.split must be >= 1"):
        submit_workload("wordcount-py", "it-bad", [f"workload.input={input_file}", "workload.par.split=0"],
                        cluster.conf_dir)
    with pytest.raises(UserError, match="component 'sentences': workload.rate must be a number, got 'fast'"):
        submit_workload("wordcount-py", "it-bad", [f"workload.input={input_file}", "workload.rate=fast"],
                        cluster.conf_dir)
    with pytest.raises(UserError, match="workload.latency.from must be intended or emit, got 'sometimes'"):
        submit_workload("wordcount-java", "it-bad", [f"workload.input={input_file}", "workload.latency.from=sometimes"],
                        cluster.conf_dir)
    with pytest.raises(UserError, match="workload.par.count must be >= 1"):
        submit_workload("wordcount-java", "it-bad", [f"workload.input={input_file}", "workload.par.count=-2"],
                        cluster.conf_dir)
    assert cluster.rest.topology_id("it-bad") is None
