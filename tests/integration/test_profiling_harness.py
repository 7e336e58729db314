"""`pycontrol model build` on the real cluster: the cheapest task (batched file write), one thread,
a tiny budget. The harness must give the task a worker of its own (slot-aware scheduler), find a
stable rate, measure the slot's CPU and memory, and produce a model table the sizing code reads."""

from __future__ import annotations

import pytest

from pycontrol.profiling.harness import BuildSettings, ClusterTarget, build_model
from pycontrol.profiling.sweep import SearchSettings
from pycontrol.profiling.table import table_document, validate
from pycontrol.profiling.tasks import find_task
from pycontrol.profiling.trials import TrialSettings
from pycontrol.sizing.models import TableModel

pytestmark = pytest.mark.cluster


def test_model_build_of_one_thread_gives_a_well_formed_table(cluster, tmp_path):
    target = ClusterTarget(cluster.rest, cluster.conf_dir, cluster.layout.logs, tmp_path / "rates",
                           cluster.spec.nodes, cluster.spec.slots)
    settings = BuildSettings(threads=(1,), max_minutes=0.5, start_rate=5.0, slot_memory_mb=1024.0,
                             search=SearchSettings(max_trials=3),
                             trials=TrialSettings(trial_secs=10, warmup_secs=3, settle_timeout_secs=900))
    run_log = build_model(find_task("F"), target, settings, log=lambda _msg: None)

    (run,) = run_log["runs"]
    assert run["threads"] == 1 and run["trials"], run
    assert run["shares_worker_with"] == [], run          # the task had its slot to itself
    first = run["trials"][0]
    assert first["rate"] == 5.0 and first["stable"], first

    doc = table_document([run_log])
    (row,) = doc["models"]["file_write"]["rows"]
    assert row["threads"] == 1 and row["rate"] >= 5.0
    assert 0 < row["cpu"] < 2                               # cores of the worker + its Python process
    assert 0 < row["memory"] < 1                            # a few hundred MB of a 1 GB slot
    peak = max((t for t in run["trials"] if t["stable"]), key=lambda t: t["rate"])
    assert (row["rate"], row["cpu"]) == (peak["rate"], pytest.approx(peak["cpu_cores"], abs=1e-4))
    assert row["memory"] == pytest.approx(peak["rss_mb"] / 1024.0, abs=1e-4)
    model = validate(doc)["file_write"]
    assert isinstance(model, TableModel) and model.peak_rate(1) == row["rate"]
    assert cluster.rest.topology_id("profile-file-write-t1") is None   # killed at the end
