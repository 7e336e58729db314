"""Building the live model from recorded inputs (a real round of the `keyed` workload) and from
variations of the document fixture."""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from pycontrol.storm import rest_info
from pycontrol.metrics.collect import model_from_recording, replay
from pycontrol.wire.executor import ExecutorId
from pycontrol.wire.metrics_document import document_from_dict
from pycontrol.model.live import (STATUS_LOST, STATUS_NO_METRICS, STATUS_OK, STATUS_STALE, LostWorker,
                                  build_model)
from tests.unit.metrics.helpers import fixture_dict, recorded, variant


@pytest.fixture(scope="module")
def rec():
    return recorded()


@pytest.fixture(scope="module")
def raw_docs(rec):
    return [json.loads(t) for t in rec["znodes"].values()]


def test_placement_comes_from_the_rest_api_and_matches_the_documents(rec, raw_docs):
    m = model_from_recording(rec)
    rest_places = {str(ExecutorId.from_ui(e["id"])): f"{e['host']}:{e['port']}" for c in rec["rest"]["components"].values()
                   for e in c["executorStats"]}
    doc_places = {f"[{x['id'][0]},{x['id'][1]}]": f"{d['worker']['host']}:{d['worker']['port']}"
                  for d in raw_docs for x in d["executors"]}
    assert doc_places == rest_places  # the recording is consistent ...
    assert {e: a["worker"] for e, a in m.executors.nodes(data=True)} == rest_places  # ... and so is the model
    flat = {e: w for node in m.placement().values() for w, es in node.items() for e in es}
    assert flat == rest_places
    assert set(m.placement()) == {w.rpartition(":")[0] for w in rest_places.values()}


def test_executor_edges_carry_the_measured_pair_rates(rec, raw_docs):
    m = model_from_recording(rec)
    expected = {(f"[{p['src_task']},{p['src_task']}]", f"[{p['dst_task']},{p['dst_task']}]"): p["tuples_per_s"]
                for d in raw_docs for p in d["traffic"]}
    assert {(u, v): a["tuples_per_s"] for u, v, a in m.executors.edges(data=True)} == pytest.approx(expected)
    assert all(a["weight"] == a["tuples_per_s"] for _, _, a in m.executors.edges(data=True))
    assert m.total_tuples_per_s() == pytest.approx(sum(expected.values()))


def test_inter_node_share_counts_the_tuples_that_cross_hosts(rec, raw_docs):
    m = model_from_recording(rec)
    host_of_task = {t: d["worker"]["host"] for d in raw_docs for x in d["executors"] for t in x["tasks"]}
    total = crossing = 0.0
    for d in raw_docs:
        for p in d["traffic"]:
            total += p["tuples_per_s"]
            crossing += p["tuples_per_s"] if host_of_task[p["src_task"]] != host_of_task[p["dst_task"]] else 0
    assert 0 < crossing < total
    assert m.inter_node_share() == pytest.approx(crossing / total)
    hottest = m.hottest_edges(2)
    assert hottest[0]["tuples_per_s"] >= hottest[1]["tuples_per_s"]
    assert hottest[0]["tuples_per_s"] == max(p["tuples_per_s"] for d in raw_docs for p in d["traffic"])


def test_component_dag_has_groupings_and_summed_rates(rec):
    m = model_from_recording(rec)
    assert set(m.components.nodes) == {"keys", "busy", "idle"}
    edge = m.components.edges["keys", "busy"]
    assert edge["grouping"] == "fields"
    assert edge["inputs"] == [{"stream": "default", "grouping": "fields", "fields": ["key"]}]
    into_busy = sum(a["tuples_per_s"] for u, v, a in m.executors.edges(data=True)
                    if m.executors.nodes[v]["component"] == "busy")
    assert edge["tuples_per_s"] == pytest.approx(into_busy, abs=1e-3)
    assert m.components.nodes["busy"]["executors"] == 2


def test_cpu_is_in_cores_and_hz_and_the_configured_frequency_wins(rec, raw_docs):
    m = model_from_recording(rec)
    mhz = raw_docs[0]["node"]["cpu_mhz"]
    for d in raw_docs:
        for x in d["executors"]:
            a = m.executors.nodes[f"[{x['id'][0]},{x['id'][1]}]"]
            assert a["cpu_cores"] == pytest.approx(x["cpu_cores"] + x["child_cpu_cores"])
            assert a["cpu_hz"] == pytest.approx(a["cpu_cores"] * mhz * 1e6, rel=1e-6)
    fixed = model_from_recording(rec, cpu_mhz=1000.0)
    for _, a in fixed.executors.nodes(data=True):
        assert a["cpu_hz"] == pytest.approx(a["cpu_cores"] * 1e9, rel=1e-6)
    w = next(iter(fixed.workers.values()))
    assert w.load_hz == pytest.approx(w.load_cores * 1e9, rel=1e-6)


def test_worker_and_node_loads(rec, raw_docs):
    m = model_from_recording(rec)
    for d in raw_docs:
        w = m.workers[f"{d['worker']['host']}:{d['worker']['port']}"]
        assert w.status == STATUS_OK
        assert w.pid == d["worker"]["pid"]
        assert w.load_cores == pytest.approx(d["worker"]["cpu_cores"] + sum(x["child_cpu_cores"] for x in d["executors"]))
        n = m.nodes[d["worker"]["host"]]
        assert n.cpu_count == d["node"]["cpu_count"]
        assert n.topology_load_cores == pytest.approx(w.load_cores)
    assert m.most_loaded_workers(1)[0].load_cores == max(w.load_cores for w in m.workers.values())


def _fixture_info(doc_dict, extra_workers=()):
    """REST view matching the fixture document's worker, plus other placed workers."""
    d = document_from_dict(doc_dict)
    execs = tuple(rest_info.ExecutorPlace(e.id, e.component, d.host, d.port) for e in d.executors)
    comps = {c.id: rest_info.ComponentInfo(c.id, c.type, 1, len(c.tasks)) for c in d.components}
    return rest_info.TopologyInfo(d.topology_id, "keyed", "ACTIVE", 60, (d.worker, *extra_workers), comps, execs), d


def test_workers_without_a_fresh_document_are_marked():
    info, d = _fixture_info(fixture_dict(), extra_workers=("127.0.0.12:27122", "127.0.0.12:27123"))
    lost = [LostWorker("127.0.0.12:27123", 999, d.window_end_ms - 10_000, "document gone")]
    m = build_model(info, {d.worker: d}, now_ms=d.window_end_ms + 1000, lost=lost)
    assert m.workers[d.worker].status == STATUS_OK
    assert m.workers["127.0.0.12:27122"].status == STATUS_NO_METRICS
    assert m.workers["127.0.0.12:27123"].status == STATUS_LOST
    later = build_model(info, {d.worker: d}, now_ms=d.window_end_ms + 3 * d.period_s * 1000 + 1)
    assert later.workers[d.worker].status == STATUS_STALE


def test_traffic_to_tasks_of_one_executor_merges_into_one_edge_and_unknown_tasks_get_a_node():
    info, d = _fixture_info(fixture_dict())
    m = build_model(info, {d.worker: d}, now_ms=d.window_end_ms)
    # tasks 3 and 4 are one executor [3,4]: the two pairs become one edge
    assert m.executors.edges["[5,5]", "[3,4]"]["tuples_per_s"] == pytest.approx(99.958 + 100.158)
    assert m.executors.edges["[5,5]", "[3,4]"]["tuples"] == 1001
    # task 2 (busy) runs in a worker that published nothing and REST does not place: kept, unplaced
    assert m.executors.nodes["[2,2]"]["component"] == "busy"
    assert m.executors.nodes["[2,2]"]["worker"] is None
    assert m.inter_node_share() == 0.0  # unplaced endpoints are left out of the share


def test_traffic_naming_a_task_id_storm_never_gives_is_left_out():
    raw = fixture_dict()
    raw["traffic"].append({"src_task": 5, "dst_task": 0, "tuples": 10, "tuples_per_s": 1.0})
    raw["traffic"].append({"src_task": -7, "dst_task": 5, "tuples": 10, "tuples_per_s": 1.0})
    info, d = _fixture_info(raw)
    m = build_model(info, {d.worker: d}, now_ms=d.window_end_ms)
    assert "[0,0]" not in m.executors and "[-7,-7]" not in m.executors
    assert m.executors.edges["[5,5]", "[3,4]"]["tuples"] == 1001


def test_unknown_cpu_stays_unknown_and_queue_fill_is_derived():
    info, d = _fixture_info(fixture_dict())
    m = build_model(info, {d.worker: d}, now_ms=d.window_end_ms)
    assert m.executors.nodes["[7,7]"]["cpu_cores"] is None
    assert m.executors.nodes["[7,7]"]["cpu_hz"] is None
    assert m.executors.nodes["[1,1]"]["queue_fill"] == pytest.approx(3 / 32768)
    assert m.executors.nodes["[6,6]"]["queue_fill"] is None
    # the multilang executor's child CPU is part of its load
    assert m.executors.nodes["[6,6]"]["cpu_cores"] == pytest.approx(0.0117 + 0.082)


def test_without_documents_the_dag_comes_from_the_rest_api(rec):
    inputs, _ = replay(rec)
    info = rest_info.topology_info(inputs)
    m = build_model(info, {}, now_ms=rec["recorded_at_ms"])
    assert set(m.components.edges) == {("keys", "busy"), ("keys", "idle")}
    assert m.components.edges["keys", "busy"]["grouping"] is None
    assert all(w.status == STATUS_NO_METRICS for w in m.workers.values())
    assert m.inter_node_share() is None
    json.dumps(m.to_dict())  # serialisable


def test_documents_of_another_topology_are_ignored():
    info, d = _fixture_info(fixture_dict())
    other = document_from_dict(variant(topology_id="other-1-1"))
    m = build_model(info, {d.worker: other}, now_ms=d.window_end_ms)
    assert not any(a["measured"] for _, a in m.executors.nodes(data=True))


def test_a_document_naming_an_executor_the_topology_lacks_is_skipped_whole_with_the_reason():
    info, d = _fixture_info(fixture_dict())
    info = dataclasses.replace(info, executors=tuple(e for e in info.executors if e.id != ExecutorId(7, 7)))
    m = build_model(info, {d.worker: d}, now_ms=d.window_end_ms)
    assert not any(a["measured"] for _, a in m.executors.nodes(data=True))
    assert [s.reason for s in m.skipped] == [f"unknown_executor: executor [7,7] is not an executor of {d.topology_id}"]


def test_a_bogus_executor_in_the_rest_view_expands_to_no_tasks_instead_of_running_away():
    info, d = _fixture_info(fixture_dict())
    bogus = rest_info.ExecutorPlace(ExecutorId(1, 2147483647), "busy", d.host, d.port)
    info = dataclasses.replace(info, executors=(*info.executors, bogus))
    m = build_model(info, {}, now_ms=d.window_end_ms)
    assert m.executors.nodes["[1,2147483647]"]["tasks"] == ()


def test_components_the_topology_pins_are_unmovable_in_the_model_and_their_executors_are_listed(rec):
    inputs, _ = replay(rec)
    info = rest_info.topology_info(inputs)
    assert info.unmovable == {}
    pinned = dataclasses.replace(inputs, topology={**inputs.topology,
                                                   "configuration": {"nonstop.migration.pinned": ["busy"]}})
    info = rest_info.topology_info(pinned)
    assert set(info.unmovable) == {"busy"} and info.unmovable["busy"].startswith("pinned:")
    m = build_model(info, {}, now_ms=rec["recorded_at_ms"])
    busy = {e for e, a in m.executors.nodes(data=True) if a.get("component") == "busy"}
    assert busy and m.unmovable_executors() == busy


def _with_state(doc: dict, executor: list[int], state: dict, end_ms: int | None = None) -> dict:
    out = copy.deepcopy(doc)
    for e in out["executors"]:
        if e["id"] == executor:
            e["state"] = state
    if end_ms is not None:
        out["window"]["end_ms"] = end_ms
    return out


def test_an_executor_whose_state_was_measured_over_the_limit_is_unmovable_and_the_newest_measurement_wins():
    info, d = _fixture_info(fixture_dict())
    over = {"bytes": 67108865, "over_limit": True, "measured_at_ms": 2000}
    doc = document_from_dict(_with_state(fixture_dict(), [1, 1], over))
    m = build_model(info, {doc.worker: doc}, now_ms=d.window_end_ms)
    assert m.executors.nodes["[1,1]"]["state_over_limit"] is True
    assert m.executors.nodes["[1,1]"]["state_bytes"] == 67108865
    assert m.executors.nodes["[3,4]"]["state_bytes"] is None
    assert m.unmovable_executors() == {"[1,1]"}
    json.dumps(m.to_dict())  # serialisable

    # A newer measurement within the limit (another document, say after a shrink) makes it movable again;
    # a document without any measurement does not erase the newest one.
    within = {"bytes": 1024, "over_limit": False, "measured_at_ms": 3000}
    newer = document_from_dict(_with_state(variant(worker={"port": d.port + 1}), [1, 1], within,
                                           end_ms=d.window_end_ms + 1))
    m = build_model(info, {doc.worker: doc, newer.worker: newer}, now_ms=d.window_end_ms)
    assert m.executors.nodes["[1,1]"]["state_bytes"] == 1024 and m.unmovable_executors() == set()
    silent = document_from_dict(variant(worker={"port": d.port + 2}, window={"end_ms": d.window_end_ms + 2}))
    m = build_model(info, {doc.worker: doc, silent.worker: silent}, now_ms=d.window_end_ms)
    assert m.unmovable_executors() == {"[1,1]"}
