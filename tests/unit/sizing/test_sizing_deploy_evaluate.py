"""Allocations as mapper settings (SAM, DSM, RSM) and the prediction scores (R², shortfall)."""

from __future__ import annotations

import json

import pytest

from pycontrol.sizing import deploy
from pycontrol.sizing.allocate import allocate
from pycontrol.sizing.dag import load_dag
from pycontrol.sizing.evaluate import allocations_differ, distinct, r2_fit, r2_identity, shortfall
from pycontrol.sizing.models import paper_models


@pytest.fixture(scope="module")
def linear():
    return load_dag("linear")


def _settings(lines: list[str]) -> dict[str, str]:
    return dict(s.split("=", 1) for s in lines)


def test_sam_settings_carry_mba_as_the_slot_aware_scheduler_reads_it(linear):
    a = allocate(linear, paper_models(), 100.0, "mba")
    s = _settings(deploy.sam_settings(a))
    assert s["nonstop.scheduler"] == "slot-aware"
    assert s["topology.workers"] == str(a.slots)
    assert s["workload.par.B"] == "170"                      # the paper's Blob threads at 100 t/s
    sam = json.loads(s["nonstop.sam.allocation"])
    assert sam["B"] == {"cpu": pytest.approx(a.tasks["B"].cpu), "memory": pytest.approx(a.tasks["B"].memory),
                        "bundle": 50}
    assert "bundle" not in sam["source"] and "bundle" not in sam["sink"]   # static: partial bundles only
    assert sam[deploy.ACKER] == {"cpu": deploy.ACKER_CPU, "memory": deploy.ACKER_MEMORY}


def test_dsm_settings_are_parallelism_slots_and_plain_shuffle_only(linear):
    a = allocate(linear, paper_models(), 50.0, "lsa")
    s = _settings(deploy.dsm_settings(a))
    assert s["workload.par.B"] == "25" and s["workload.par.T"] == "17"
    assert s["topology.workers"] == "7"                      # LSA's Linear DAG at 50 t/s: 7 slots
    assert not any(k.startswith("nonstop.") for k in s)


def test_every_mapper_deploys_with_plain_shuffle(linear):
    """The predictor's even split of a task's input over its threads holds only without Storm's
    load-aware (locality-preferring) shuffle."""
    models = paper_models()
    a = allocate(linear, models, 50.0, "lsa")
    req = deploy.ras_requests(a, models, {t.name: t.model for t in linear.tasks}, slot_memory_mb=1000.0)
    for lines in (deploy.sam_settings(a), deploy.dsm_settings(a), deploy.rsm_settings(a, req["source"], 1000.0)):
        assert _settings(lines)["topology.disable.loadaware.messaging"] == "true"


def test_rsm_requests_are_single_thread_model_values_whatever_the_rate(linear):
    models = paper_models()
    a = allocate(linear, models, 50.0, "lsa")
    req = deploy.ras_requests(a, models, {t.name: t.model for t in linear.tasks}, slot_memory_mb=1000.0)
    assert req["B"] == {deploy.RAS_CPU: pytest.approx(6.74), deploy.RAS_MEMORY: pytest.approx(239.2)}
    assert req["source"] == {deploy.RAS_CPU: pytest.approx(10.0), deploy.RAS_MEMORY: pytest.approx(150.0)}
    s = _settings(deploy.rsm_settings(a, req["source"], 1000.0))
    assert s["nonstop.scheduler"] == "ras"                   # the dispatcher hands it to Storm's RAS
    assert s[deploy.RAS_WORKER_MAX_HEAP] == "1000"           # a worker holds one slot's memory at most
    assert float(s[deploy.RAS_CPU]) == pytest.approx(10.0)   # the Java source's request, as the default
    conf = deploy.ras_node_capacity(4, 1000.0)
    assert conf == {"supervisor.cpu.capacity": 400.0, "supervisor.memory.capacity.mb": 4000.0}


def test_r2_fit_and_identity():
    pred = [10.0, 20.0, 30.0, 40.0]
    assert r2_fit(pred, [12.0, 22.0, 32.0, 42.0]) == pytest.approx(1.0)    # a perfect line, offset
    assert r2_identity(pred, [12.0, 22.0, 32.0, 42.0]) == pytest.approx(1 - 16 / 500)
    assert r2_identity(pred, pred) == pytest.approx(1.0)
    assert r2_identity([25.0] * 4, [10.0, 20.0, 30.0, 40.0]) == pytest.approx(0.0)  # the mean itself
    assert r2_identity([40.0, 30.0, 20.0, 10.0], [10.0, 20.0, 30.0, 40.0]) < 0
    assert r2_fit([1.0], [1.0]) is None and r2_fit([1.0, 1.0], [1.0, 2.0]) is None
    with pytest.raises(ValueError):
        r2_fit([1.0], [1.0, 2.0])


def test_shortfall():
    assert shortfall(100.0, 90.0) == pytest.approx(0.1)
    assert shortfall(50.0, 35.0) == pytest.approx(0.3)       # the paper's Diamond LSA+RSM 35/50
    assert shortfall(100.0, 120.0) == 0.0
    with pytest.raises(ValueError):
        shortfall(0.0, 1.0)


def test_allocators_differ_when_threads_of_any_task_or_the_slots_differ():
    same = allocations_differ({"mba": {"blob": 2, "pi": 1}, "lsa": {"blob": 2, "pi": 1}}, {"mba": 1, "lsa": 1})
    assert same["differ"] is False and same["threads_differ_in"] == []
    threads = allocations_differ({"mba": {"blob": 4, "pi": 1}, "lsa": {"blob": 6, "pi": 1}}, {"mba": 2, "lsa": 2})
    assert threads["differ"] is True and threads["threads_differ_in"] == ["blob"]
    slots = allocations_differ({"mba": {"blob": 4}, "lsa": {"blob": 4}}, {"mba": 2, "lsa": 3})
    assert slots["differ"] is True and slots["slots"] == {"lsa": 3, "mba": 2}


def test_an_r2_says_how_many_different_predictions_it_rests_on():
    assert distinct([10.0, 10.0004, 20.0, 5.0]) == 3
    assert distinct([]) == 0
