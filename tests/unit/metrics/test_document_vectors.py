"""The shared document vectors (tests/vectors/documents), read by the Python readers; the Java readers'
JUnit tests read the same files, so both sides give every case the same verdict and reason code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pycontrol.wire import executor as spans
from pycontrol.wire.metrics_document import DocumentError, document_from_dict
from pycontrol.wire.plan_document import placement_problem

VECTORS = Path(__file__).resolve().parents[2] / "vectors" / "documents"
CASES = sorted(VECTORS.glob("*.json"))


def _metrics(v: dict) -> str | None:
    try:
        doc = document_from_dict(v["document"])
    except DocumentError as e:
        return str(e)
    if "topology_executors" in v:
        known = {tuple(x) for x in v["topology_executors"]}
        return spans.check_known(((m.start, m.end) for m in doc.executors), known, doc.topology_id)
    return None


def _plan(v: dict) -> str | None:
    known = {tuple(x) for x in v["topology_executors"]} if "topology_executors" in v else None
    return placement_problem(v["document"]["placement"], known, "t-1")


def _node_plan(v: dict) -> str | None:
    # No Python reader of the plan store: its spans go through the same rule, system executor allowed.
    n_tasks = 0
    for port in v["document"]["ports"].values():
        for start, end in port["executors"]:
            bad = spans.check(start, end, system_allowed=True)
            if bad:
                return bad
            n_tasks += spans.tasks(start, end)
    return spans.check_total(n_tasks)


READERS = {"metrics": _metrics, "plan": _plan, "node_plan": _node_plan}


def test_there_are_vectors_of_every_kind_and_verdict():
    seen = {(json.loads(p.read_text())["kind"], json.loads(p.read_text())["verdict"]) for p in CASES}
    assert seen == {(k, v) for k in READERS for v in ("accept", "reject")}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_the_reader_gives_the_vectors_verdict_and_reason(path):
    v = json.loads(path.read_text())
    problem = READERS[v["kind"]](v)
    if v["verdict"] == "accept":
        assert problem is None, f"{path.name}: {problem}"
    else:
        assert problem is not None and v["reason"] in problem, f"{path.name}: expected {v['reason']}, got {problem}"


@pytest.mark.parametrize("start, end, system, code", [
    (1, 1, False, None), (1, 100_000, False, None), (1, 100_001, False, "span_too_large"),
    (1, 2**31 - 1, False, "span_too_large"), (0, 5, False, "bad_span"), (5, 4, False, "bad_span"),
    (-1, -1, False, "bad_span"), (-1, -1, True, None), (-2, -1, True, "bad_span"),
])
def test_the_span_rule(start, end, system, code):
    problem = spans.check(start, end, system)
    assert (problem is None) if code is None else problem.startswith(code)


def test_task_range_of_a_bogus_span_is_empty_instead_of_huge():
    assert spans.task_range(1, 2**31 - 1) == range(0)
    assert list(spans.task_range(3, 4)) == [3, 4]
    assert list(spans.task_range(-1, -1)) == [-1]
