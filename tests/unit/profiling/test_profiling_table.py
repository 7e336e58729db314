"""Run log -> model table: the rows the sizing reader gets, and what makes a log unusable."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

from pycontrol.cli import main
from pycontrol.profiling.harness import RUN_LOG_KIND
from pycontrol.profiling.sweep import CONVERGED, NOTHING_STABLE, RateSearch, Trial
from pycontrol.profiling.table import TableError, model_rows, table_document
from pycontrol.sizing.allocate import allocate
from pycontrol.sizing.dag import load_dag
from pycontrol.sizing.models import TableModel, load_models, paper_models


def trial(rate, stable, cores=None, rss=None):
    return Trial(rate=rate, stable=stable, reason="stable" if stable else "latency grows", cpu_cores=cores,
                 rss_mb=rss, usage={"cpu_cores": cores, "rss_mb": rss} if cores is not None else {})


def run(tau, *trials, stopped=CONVERGED):
    return {"threads": tau, "base_latency_ms": 5.0, "seconds": 60.0, **RateSearch(1.0, trials, stopped).to_dict()}


def log(task="pi", slot_mb=1000.0, runs=None):
    return {"kind": RUN_LOG_KIND, "version": 1, "task": task, "description": "Pi", "topology": "profile-pi-py",
            "started": "2026-11-21T08:00:00+00:00", "wall_seconds": 200.0, "stopped": "done",
            "settings": {"slot_memory_mb": slot_mb, "threads": [1, 2, 4]},
            "machine": {"cpus": 2, "memory_mb": 24000, "loadavg": [1.0, 1.0, 1.0]},
            "runs": runs if runs is not None else [
                run(1, trial(50, True, 0.4, 200.0), trial(100, False), trial(75, True, 0.6, 210.0),
                    trial(87.5, False)),
                run(2, trial(60, True, 0.5, 230.0), trial(120, False), trial(90, False), trial(75, True, 0.7, 250.0)),
                run(4, trial(150, False), trial(75, False), trial(37.5, False), stopped=NOTHING_STABLE),
            ]}


def test_each_thread_count_gives_its_peak_stable_trial():
    rows = model_rows(log())
    assert [(r["threads"], r["rate"], r["cpu"], r["memory"]) for r in rows] == [
        (1, 75.0, 0.6, 0.21),     # the best stable trial, not the last one run
        (2, 75.0, 0.7, 0.25),
    ]                             # τ = 4 had no stable rate: no row (as in the paper)
    assert all(r["origin"] == {"rate": "measured", "cpu": "measured", "memory": "measured"} for r in rows)


def test_memory_is_a_fraction_of_the_slot_memory_the_run_used():
    assert model_rows(log(slot_mb=500.0))[0]["memory"] == pytest.approx(0.42)


def test_the_document_is_a_model_table_sizing_reads(tmp_path):
    doc = table_document([log(), log(task="parse_xml")])
    path = tmp_path / "measured.yaml"
    path.write_text(yaml.safe_dump(doc))
    models = load_models(path)
    pi = models["pi"]
    assert isinstance(pi, TableModel)
    assert (pi.peak_rate(1), pi.cpu(1), pi.memory(1)) == (75.0, 0.6, 0.21)
    assert pi.bundle_threads == 1          # ties go to the fewest threads
    assert doc["measurements"]["pi"]["wall_seconds"] == 200.0
    assert doc["measurements"]["pi"]["threads"][2]["peak_rate"] is None
    assert doc["machine"]["cpus"] == 2
    # MBA runs on the measured Pi over the paper's other models
    dag = load_dag("linear")
    a = allocate(dag, paper_models().merged(models), 100.0, "mba")
    assert a.tasks["P"].threads == 2       # one full bundle (1 thread at 75 t/s) + 1 thread for 25 t/s


def test_a_log_without_a_stable_single_thread_rate_cannot_make_a_table():
    bad = log(runs=[run(1, trial(10, False), stopped=NOTHING_STABLE), run(2, trial(10, True, 0.1, 100.0))])
    with pytest.raises(TableError, match="no stable rate with 1 thread"):
        model_rows(bad)


def test_a_peak_without_usage_measurements_is_an_error():
    with pytest.raises(TableError, match="no CPU/memory"):
        model_rows(log(runs=[run(1, trial(10, True))]))


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(kind="something else"), "not a profiling run log"),
    (lambda d: d.pop("runs"), "missing 'runs'"),
    (lambda d: d["settings"].update(slot_memory_mb=0), "slot_memory_mb"),
])
def test_malformed_logs_are_named(mutate, message):
    d = log()
    mutate(d)
    with pytest.raises(TableError, match=message):
        table_document([d], ["x.run.json"])


def test_a_task_given_twice_is_refused():
    with pytest.raises(TableError, match="also in an earlier log"):
        table_document([log(), log()])


def test_the_table_command_merges_logs(tmp_path):
    paths = []
    for task in ("pi", "parse_xml"):
        p = tmp_path / f"{task}.run.json"
        p.write_text(json.dumps(log(task=task)))
        paths.append(str(p))
    out = tmp_path / "table.yaml"
    result = CliRunner().invoke(main, ["model", "table", *paths, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert set(load_models(out)) == {"pi", "parse_xml"}
