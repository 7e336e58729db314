"""The pure parts of the benchmark modules behind benchmarks/*.py."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import pytest

from pycontrol.bench import metrics_overhead, planner_calls, schedulers, sizing_compare, trace_prepare, waiting
from pycontrol.errors import UserError
from pycontrol.model.live import build_model
from pycontrol.wire.metrics_document import parse_document


def test_synthetic_round_is_a_chain_whose_documents_build_a_model_of_every_executor():
    info, docs, pairs = metrics_overhead.synthetic_round(executors=20, components=4, workers=4, nodes=2, fanout=2)
    assert len(info.executors) == 20 and len(docs) == 4
    assert pairs == 3 * 5 * 2   # every executor but the last component's sends to `fanout` of the next
    model = build_model(info, {d.worker: d for d in map(parse_document, docs)}, now_ms=1_001_000)
    assert len(model.executors) == 20


def test_process_starts_counts_each_subprocess_and_restores_popen():
    original = subprocess.Popen.__init__
    with planner_calls.ProcessStarts() as counter:
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    assert counter.count == 2 and subprocess.Popen.__init__ is original


def test_speed_rows_name_the_largest_size_done_and_the_first_skip():
    results = [{"scheduler": "a", "nodes": 4, "executors": 100}, {"scheduler": "a", "nodes": 8, "executors": 1000},
               {"scheduler": "a", "nodes": 16, "executors": 5000, "skipped": "cap"},
               {"scheduler": "a", "nodes": 32, "executors": 10000, "skipped": "cap"}]
    assert schedulers.largest_done(results, "a") == (8, 1000)
    assert schedulers.largest_done(results, "b") is None
    assert schedulers.is_first_skip(results, results[2]) and not schedulers.is_first_skip(results, results[3])


def test_batches_fill_the_slots_and_send_rsm_runs_alone():
    def item(pair, slots):
        return ("dag", 5.0, pair, SimpleNamespace(slots=slots))
    todo = [item("mba+sam", 1), item("lsa+dsm", 2), item("lsa+rsm", 1), item("mba+sam", 3), item("lsa+dsm", 1)]
    out = sizing_compare.batches(todo, slots=8)
    assert [[i[2] for i in b] for b in out] == [["mba+sam", "lsa+dsm"], ["lsa+rsm"], ["mba+sam", "lsa+dsm"]]


def test_generated_access_log_has_the_events_asked_for_plus_a_few_garbage_lines(tmp_path):
    path = tmp_path / "access.log"
    trace_prepare.generate_clf(path, 2000)
    lines = path.read_text().splitlines()
    garbage = [x for x in lines if x.startswith("#")]
    assert len(lines) - len(garbage) == 2000 and 0 < len(garbage) < 50


def test_wait_for_returns_the_first_truthy_value_and_names_what_timed_out():
    now = [0.0]

    def sleep(s):
        now[0] += s
    answers = iter([None, 0, "ready"])
    assert waiting.wait_for("x", lambda: next(answers), 10, clock=lambda: now[0], sleep=sleep) == "ready"
    assert now[0] == 2.0
    with pytest.raises(UserError, match="timed out after 3 s waiting for the topology listed"):
        waiting.wait_for("the topology listed", lambda: None, 3, clock=lambda: now[0], sleep=sleep)


def test_sleep_until_reaches_the_time_in_steps_of_at_most_a_second():
    now, steps = [100.0], []

    def sleep(s):
        steps.append(s)
        now[0] += s
    waiting.sleep_until(102.5, clock=lambda: now[0], sleep=sleep)
    assert now[0] == 102.5 and steps == [1.0, 1.0, 0.5]
    waiting.sleep_until(50.0, clock=lambda: now[0], sleep=sleep)   # already past: no sleep
    assert len(steps) == 3


def test_the_sizing_summary_says_how_many_predictions_its_r2_rests_on_and_where_allocators_differ():
    def run(pair, pred, obs, differ):
        return {"pair": pair, "predicted_rate_fill": pred, "predicted_rate_shuffle": pred, "observed_rate": obs,
                "allocated_slots": 2, "slots_used": 2, "shortfall": 0.0, "allocations_differ": differ}
    runs = [run("mba+sam", 10.0, 9.0, True), run("lsa+dsm", 10.0, 9.5, True), run("lsa+rsm", 20.0, 18.0, False),
            {"pair": "mba+sam", "error": "never placed"}]
    s = sizing_compare.summarise(runs)
    assert s["distinct_predictions_shuffle"] == 2 and s["runs_where_allocations_differ"] == 2
    assert (s["runs"], s["measured"]) == (4, 3)
