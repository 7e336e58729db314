"""Scheduler quality aggregation: a miss on a feasible instance is reported and penalised, every
instance is named by its seed, distributions are n/median/mean/max."""

import pytest

from pycontrol.bench import scheduler_quality as sq


def res(traffic, ok=True, violations=0):
    return {"ok": ok, "inter_node_traffic": traffic, "violations": violations}


def raw(*instances):
    return {"families": [{"name": "small", "instances": [
        {"seed": seed, "executors": 5, "total_traffic": 1000.0, "results": results}
        for seed, results in instances]}]}


def test_a_miss_on_a_feasible_instance_is_counted_named_and_penalised():
    doc = raw((1, {"optimum": res(100), "a": res(100), "b": res(300), "storm-default": res(400)}),
              (2, {"optimum": res(100), "a": res(0, ok=False), "b": res(120), "storm-default": res(400)}))
    a = sq.summarise(doc)["overall"]["a"]
    assert a["missed"] == 1 and a["penalised"] == 1 and a["missed_instances"] == ["small seed 2"]
    # seed 1: ratio 1.0; seed 2: missed, penalty max(2.0, worst clean ratio 4.0 of storm-default) = 4.0
    assert a["ratio_to_optimum"] == {"n": 2, "median": 2.5, "mean": 2.5, "max": 4.0}
    assert a["placed"] == 1 and a["runs"] == 2


def test_the_penalty_is_at_least_two():
    doc = raw((3, {"optimum": res(100), "a": res(0, ok=False), "b": res(110)}))
    assert sq.summarise(doc)["overall"]["a"]["ratio_to_optimum"]["max"] == 2.0


def test_a_failure_on_an_infeasible_instance_is_no_miss():
    doc = raw((4, {"optimum": res(0, ok=False), "a": res(0, ok=False), "b": res(500, violations=2)}))
    over = sq.summarise(doc)["overall"]
    assert over["a"]["missed"] == 0 and over["a"]["ratio_to_optimum"]["n"] == 0
    assert over["b"]["violating"] == 1 and over["b"]["violation_free"] == 0


def test_a_violation_free_heuristic_proves_feasibility_without_an_optimum():
    doc = raw((5, {"a": res(0, ok=False), "b": res(200), "storm-default": res(400)}))
    a = sq.summarise(doc)["overall"]["a"]
    assert a["missed"] == 1 and a["penalised"] == 0  # no optimum: no ratio to penalise, still reported
    assert sq.summarise(doc)["overall"]["b"]["ratio_to_default"]["mean"] == 0.5


def test_violating_placements_have_no_ratio_to_the_optimum_but_a_ratio_to_the_default():
    doc = raw((6, {"optimum": res(100), "a": res(50, violations=1), "storm-default": res(200)}))
    a = sq.summarise(doc)["overall"]["a"]
    assert a["ratio_to_optimum"]["n"] == 0 and a["violating"] == 1 and a["ratio_to_default"]["n"] == 1


def test_the_bench_result_on_file_aggregates(tmp_path):
    import json
    from pycontrol.paths import REPO_ROOT
    doc = json.loads((REPO_ROOT / "results" / "schedulers" / "quality.json").read_text())
    s = sq.summarise(doc["raw"])
    assert s["instances"] == sum(len(f["instances"]) for f in doc["raw"]["families"])
    for name, agg in s["overall"].items():
        assert agg["runs"] == s["instances"] or name == "optimum"
        assert agg["missed"] == len(agg["missed_instances"])
        d = agg["ratio_to_optimum"]
        assert d["n"] == 0 or d["median"] <= d["max"] and d["mean"] <= d["max"]
