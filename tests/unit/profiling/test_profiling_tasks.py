"""Which tasks can be profiled, and the settings that give the task under test a slot of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pycontrol.errors import UserError
from pycontrol.profiling.harness import harness_settings
from pycontrol.profiling.tasks import TASK_COMPONENT, TASKS, find_task
from pycontrol.sizing.dag import load_dag
from pycontrol.workloads import catalog
from pycontrol.workloads.spec import export_spec


def test_every_micro_dag_model_has_a_harness_topology_with_the_task_under_test():
    dag_models = {t.model for t in load_dag("linear").tasks} - {"source", "sink"}
    assert {t.model for t in TASKS} == dag_models
    for t in TASKS:
        spec = export_spec(catalog.topology_class(t.topology), t.topology)
        ids = {c["id"] for c in spec["spouts"] + spec["bolts"]}
        assert ids == {"source", TASK_COMPONENT, "sink"}, t
        assert [(s["from"], s["to"]) for s in spec["streams"]] == [("source", TASK_COMPONENT), (TASK_COMPONENT, "sink")]


@pytest.mark.parametrize("name, model", [("pi", "pi"), ("P", "pi"), ("blob", "azure_blob"), ("X", "parse_xml")])
def test_tasks_are_found_by_model_letter_or_alias(name, model):
    assert find_task(name).model == model


def test_an_unknown_task_lists_the_known_ones():
    with pytest.raises(UserError, match="parse_xml"):
        find_task("nope")


def test_the_task_is_one_full_bundle_and_the_rest_shares_another_slot():
    s = dict(x.split("=", 1) for x in harness_settings(4, Path("/r/x.rate"), 1.0, ("workload.pi.digits=10",)))
    assert s["nonstop.scheduler"] == "slot-aware"
    assert s["workload.par.task"] == "4" and s["workload.rate.schedule"] == "/r/x.rate"
    alloc = json.loads(s["nonstop.sam.allocation"])
    assert alloc["task"] == {"cpu": 1.0, "memory": 1.0, "bundle": 4}     # exclusive slot
    shared = [v for k, v in alloc.items() if k != "task"]
    assert all("bundle" not in v for v in shared)
    assert sum(v["cpu"] for v in shared) <= 1.0 and all(v["cpu"] > 0 for v in shared)  # never on the task's slot
    assert s["workload.pi.digits"] == "10"


def test_the_harness_shuffles_plainly_as_the_sized_deployments_do():
    """A model measured under Storm's load-aware (random) shuffle does not describe the allocations,
    which deploy with plain shuffle (sizing/deploy.py)."""
    s = dict(x.split("=", 1) for x in harness_settings(2, Path("/r/x.rate"), 1.0, ()))
    assert s["topology.disable.loadaware.messaging"] == "true"
