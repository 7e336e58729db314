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


def test_cg_moves_are_counted_per_source_and_pair_from_the_worker_logs(tmp_path):
    (tmp_path / "w1").mkdir()
    (tmp_path / "w1" / "worker.log").write_text(
        "INFO ConsistentGroupingStreamGrouping - CG edge source:default->count source 3: moved VW 17 from worker 2 to 0\n"
        "INFO ConsistentGroupingStreamGrouping - CG edge source:default->count source 3: moved VW 9 from worker 1 to 0\n"
        "INFO ConsistentGroupingStreamGrouping - CG edge source:default->count source 4: moved VW 17 from worker 2 to 0\n")
    assert experiment.moves_in_logs([tmp_path / "w1", tmp_path / "none"]) == {
        "source:default->count": {"moves": 3, "per_source": {3: 2, 4: 1}, "per_pair": {"1->0": 1, "2->0": 2}}}


def test_pooled_p99_of_identical_seconds_is_their_p99():
    rows = [second(t, 100, 5.0, p50=5.0, p99=10.0) for t in range(10)]
    assert abs(experiment.pooled_quantile(rows, 0, 10) - 10.0) < 0.01
    assert experiment.pooled_quantile(rows, 20, 30) is None


def test_pooled_p99_weighs_each_second_by_its_tuples():
    calm = [Second(ts=t, emitted=100, replayed=0, acked=100, failed=0, latency_n=100, latency_mean_ms=5.0,
                   latency_p50_ms=5.0, latency_p99_ms=10.0, latency_max_ms=20.0, pending=3, behind_ms=0.0,
                   bad_lines=0, target_rate=100.0, tasks=1) for t in range(99)]
    stalled = Second(ts=99, emitted=100, replayed=0, acked=100, failed=0, latency_n=100, latency_mean_ms=200.0,
                     latency_p50_ms=200.0, latency_p99_ms=240.0, latency_max_ms=250.0, pending=30, behind_ms=0.0,
                     bad_lines=0, target_rate=100.0, tasks=1)
    rows = calm + [stalled]
    # 1 % of the tuples are stalled: the pooled p99 sits in the calm seconds' tail, below their max
    assert 10.0 < experiment.pooled_quantile(rows, 0, 100) <= 20.0
    # two stalled seconds in a hundred put more than 1 % of the tuples above the calm tail
    assert experiment.pooled_quantile(calm[:98] + [stalled, stalled], 0, 100) > 100.0


def test_spread_and_sustained():
    assert experiment.spread([3.0, None, 1.0, 2.0]) == {"n": 3, "median": 2.0, "min": 1.0, "max": 3.0}
    assert experiment.spread([None]) == {"n": 0, "median": None, "min": None, "max": None}
    assert experiment.sustained({"throughput_per_s": 396.0, "pending_max": 40}, 400, 1000)
    assert not experiment.sustained({"throughput_per_s": 380.0, "pending_max": 40}, 400, 1000)
    assert not experiment.sustained({"throughput_per_s": 400.0, "pending_max": 1000}, 400, 1000)


def run(scenario, grouping, throughput, p99, memory, sustained=True, moves=0):
    return {"scenario": scenario, "grouping": grouping, "sustained": sustained,
            "measured": {"throughput_per_s": throughput, "latency_mean_ms": p99 / 2},
            "latency": {"p99_pooled_ms": p99, "p99_per_second_median_ms": p99 - 1, "n": 1000},
            "memory": {"normalised": memory}, "cg_moves": moves}


def test_summary_and_targets_use_medians_over_repeats_and_need_unsaturated_latency_runs():
    runs = [run("homogeneous", "cg", 400, p, 1.1) for p in (11.0, 12.0, 30.0)] + \
           [run("homogeneous", "sg", 400, p, 1.7) for p in (10.0, 10.0, 11.0)] + \
           [run("homogeneous", "kg", 400, 9.0, 1.0)] + \
           [run("heterogeneous", "cg", t, 900.0, 1.15, sustained=False, moves=8) for t in (600, 620)] + \
           [run("heterogeneous", "kg", 330, 900.0, 1.0, sustained=False)] + \
           [run("heterogeneous", "pkg", 640, 900.0, 1.3, sustained=False)]
    summary = experiment.summarise(runs)
    cg = summary["homogeneous"]["cg"]
    assert cg["runs"] == 3 and cg["latency_p99_ms"] == {"n": 3, "median": 12.0, "min": 11.0, "max": 30.0}
    assert summary["heterogeneous"]["cg"]["cg_moves"]["median"] == 8 and summary["homogeneous"]["kg"]["cg_moves"] is None
    t = experiment.targets(summary)
    assert t["p99_cg_over_sg"] == {"scenario": "homogeneous", "value": 1.2, "limit": 1.2, "below_saturation": True,
                                   "met": True}
    assert t["memory_cg_over_kg_homogeneous"]["met"] and t["memory_cg_over_kg_heterogeneous"]["value"] == 1.15
    assert t["max_throughput_cg_over_kg"]["met"] and t["max_throughput_cg_over_pkg"]["met"] is False
    saturated = experiment.summarise(runs[:5] + [run("homogeneous", "sg", 350, 10.0, 1.7, sustained=False)])
    assert experiment.targets(saturated)["p99_cg_over_sg"]["met"] is None
    assert experiment.targets(saturated)["max_throughput_cg_over_kg"]["value"] is None
