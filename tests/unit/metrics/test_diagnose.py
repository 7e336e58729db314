"""What `pycontrol inspect` reports, on the recorded round and on crafted overloads."""

from __future__ import annotations

import copy
import json

import pytest

from pycontrol.storm import rest_info
from pycontrol.metrics.collect import model_from_recording
from pycontrol.wire.metrics_document import document_from_dict
from pycontrol.model.diagnose import Thresholds, findings, format_report, report
from pycontrol.model.live import LostWorker, build_model
from tests.unit.metrics.helpers import fixture_dict, recorded

CALM = Thresholds(node_utilization=1.01)  # the recording was made on a saturated machine


def _model(docs: list[dict], now_ms=None, lost=()):
    parsed = [document_from_dict(d) for d in docs]
    execs = tuple(rest_info.ExecutorPlace(e.id, e.component, d.host, d.port) for d in parsed for e in d.executors)
    comps = {c.id: rest_info.ComponentInfo(c.id, c.type, 1, len(c.tasks)) for c in parsed[0].components}
    workers = tuple(d.worker for d in parsed) + tuple(x.worker for x in lost)
    info = rest_info.TopologyInfo(parsed[0].topology_id, "keyed", "ACTIVE", 60, workers, comps, execs)
    return build_model(info, {d.worker: d for d in parsed}, now_ms=now_ms or parsed[0].window_end_ms, lost=lost)


def _worker(port, cpu, executors):
    d = copy.deepcopy(fixture_dict())
    d["worker"].update(port=port, cpu_cores=cpu)
    d["executors"] = [x for x in d["executors"] if x["id"][0] in executors]
    d["traffic"] = [p for p in d["traffic"] if p["src_task"] in executors]
    return d


def test_report_on_the_recorded_round():
    m = model_from_recording(recorded())
    r = report(m, top=3, th=CALM)
    assert [n["node"] for n in r["placement"]] == sorted(m.placement())
    placed = {e["id"] for n in r["placement"] for w in n["workers"] for e in w["executors"]}
    assert placed == set(m.executors.nodes)
    assert r["inter_node_share"] == pytest.approx(m.inter_node_share(), abs=1e-4)
    rates = [e["tuples_per_s"] for e in r["hottest_edges"]]
    assert rates == sorted(rates, reverse=True) and len(rates) == 3
    assert r["most_loaded_workers"][0]["load_cores"] == max(w.load_cores for w in m.workers.values())
    assert r["findings"] == []
    json.dumps(r)
    text = format_report(r)
    for part in ("placement:", "hottest edges:", "most loaded workers:", "nothing looks wrong", m.topology_id):
        assert part in text


def test_a_saturated_node_is_reported():
    m = model_from_recording(recorded())
    kinds = {(f.kind, f.subject) for f in findings(m)}  # default thresholds: the box was at 100 %
    assert {("overloaded-node", h) for h in m.nodes} <= kinds


def test_an_overloaded_worker_and_the_bottleneck_component():
    hot = _worker(27121, 1.4, {1, 5})
    hot["executors"][0].update(cpu_cores=0.97, queue_length=30000)  # executor [1,1] of "busy"
    calm = _worker(27122, 0.1, {3, 6})
    m = _model([hot, calm])
    fs = findings(m, CALM)
    over = [f for f in fs if f.kind == "overloaded-worker"]
    assert [f.subject for f in over] == ["127.0.0.11:27121"]
    assert "uses 1.40 cores" in over[0].detail and "[1,1]" in over[0].detail
    bottlenecks = [f for f in fs if f.kind == "bottleneck-component"]
    assert bottlenecks[0].subject == "busy"
    assert "[1,1] thread at 0.97 cores" in bottlenecks[0].detail and "queue 92% full" in bottlenecks[0].detail


def test_a_worker_far_above_the_mean_is_reported_even_below_a_core():
    m = _model([_worker(27121, 0.9, {1}), _worker(27122, 0.1, {3}), _worker(27123, 0.1, {5})])
    over = [f for f in findings(m, CALM) if f.kind == "overloaded-worker"]
    assert [f.subject for f in over] == ["127.0.0.11:27121"]
    assert "mean worker load" in over[0].detail
    balanced = _model([_worker(27121, 0.3, {1}), _worker(27122, 0.25, {3})])
    assert not [f for f in findings(balanced, CALM) if f.kind == "overloaded-worker"]


def test_lost_and_silent_workers_are_findings():
    w = _worker(27121, 0.2, {1, 5})
    gone = LostWorker("127.0.0.12:27130", 4242, 1, "document gone")
    m = _model([w], lost=[gone])
    fs = {(f.kind, f.subject) for f in findings(m, CALM)}
    assert ("lost-worker", "127.0.0.12:27130") in fs
    text = format_report(report(m, th=CALM))
    assert "[lost-worker] 127.0.0.12:27130" in text
