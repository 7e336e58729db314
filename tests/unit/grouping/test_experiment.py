"""Reading the Storm grouping experiment's artifacts."""

from __future__ import annotations

import json
from collections import Counter

from pycontrol.grouping import experiment
from pycontrol.workloads.series import Second


def snapshot(d, component, task, counts, written):
    (d / f"counts-{component}-{task}.json").write_text(json.dumps(
        {"component": component, "task": task, "tuples": sum(counts.values()), "written_ms": written, "counts": counts}))


def second(ts, acked, mean, p50=1.0, p99=2.0, n=None):
    return Second(ts=ts, emitted=acked, replayed=0, acked=acked, failed=0, latency_n=acked if n is None else n,
                  latency_mean_ms=mean, latency_p50_ms=p50, latency_p99_ms=p99, latency_max_ms=p99, pending=3,
                  behind_ms=0.0, bad_lines=0, target_rate=100.0, tasks=1)


def test_memory_sums_distinct_keys_per_worker_and_uses_each_tasks_newest_snapshot(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    snapshot(a, "count", 4, {"the": 5, "of": 1}, 10)
    snapshot(b, "count", 4, {"the": 9, "of": 2, "and": 1}, 20)  # the task moved: newer wins
    snapshot(b, "count", 5, {"the": 3}, 15)
    snapshot(b, "aggregate", 7, {"the": 12, "of": 2, "and": 1}, 20)
    snaps = experiment.newest_snapshots([a, b], "count")
    m = experiment.memory(snaps)
    assert m["per_task"] == {4: 3, 5: 1} and m["total"] == 4 and m["distinct_keys"] == 3
    assert m["normalised"] == round(4 / 3, 4) and m["tuples_per_task"] == {4: 12, 5: 3}
    assert experiment.counted(snaps) == Counter({"the": 12, "of": 2, "and": 1})
    assert experiment.counted(experiment.newest_snapshots([b], "aggregate")) == experiment.counted(snaps)


def test_window_stats_weight_latency_by_acks_and_count_missing_seconds_as_nothing_acked():
    rows = [second(9, 100, 50.0), second(10, 100, 10.0, p50=4), second(11, 300, 2.0, p50=1), second(13, 0, 0.0, n=0)]
    s = experiment.window_stats(rows, 10, 14)
    assert s["acked"] == 400 and s["seconds"] == 4 and s["throughput_per_s"] == 100.0
    assert s["latency_mean_ms"] == round((100 * 10 + 300 * 2) / 400, 2)
    assert s["latency_p50_ms"] == 2.5 and s["seconds_reported"] == 3


def test_cg_signals_are_read_from_the_worker_logs(tmp_path):
    (tmp_path / "w1").mkdir()
    (tmp_path / "w1" / "worker.log").write_text(
        "2026-01-01 INFO EdgeSignalPump - CG edge source:default->count: signals "
        "[WorkerSignal[worker=0, signal=DECREASE], WorkerSignal[worker=2, signal=INCREASE]]\n"
        "noise\n"
        "2026-01-01 INFO EdgeSignalPump - CG edge source:default->count: signals [WorkerSignal[worker=0, signal=DECREASE]]\n")
    assert experiment.signals_in_logs([tmp_path / "w1", tmp_path / "none"]) == {
        "source:default->count": {"INCREASE": {2: 1}, "DECREASE": {0: 2}}}
