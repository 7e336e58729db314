"""The Prometheus exposition of live models."""

from __future__ import annotations

import copy
import re
import socket

import pytest
import requests

from pycontrol.errors import UserError
from pycontrol.metrics.collect import model_from_recording
from pycontrol.metrics.prometheus import Refresher, Snapshot, families, serve
from pycontrol.storm.rest_info import ClusterTotals, cluster_totals
from pycontrol.paths import REPO_ROOT
from pycontrol.model.live import STATUS_OK
from tests.unit.metrics.helpers import recorded


@pytest.fixture(scope="module")
def model():
    return model_from_recording(recorded())


def _samples(snap):
    out = {}
    for f in families(snap):
        for s in f.samples:
            out.setdefault(s.name, []).append((s.labels, s.value))
    return out


def test_executor_metrics_carry_the_documented_labels_and_the_model_values(model):
    s = _samples(Snapshot([model], rest_up=True, zk_up=True))
    cpu = s["nonstop_executor_cpu_cores"]
    assert len(cpu) == model.executors.number_of_nodes()
    for labels, value in cpu:
        assert set(labels) == {"topology", "component", "executor", "worker", "node"}
        a = model.executors.nodes[labels["executor"]]
        assert (labels["topology"], labels["component"], labels["worker"], labels["node"]) == \
            (model.name, a["component"], a["worker"], a["node"])
        assert value == pytest.approx(a["cpu_cores"])
    edges = s["nonstop_edge_tuples_per_second"]
    assert sum(v for _, v in edges) == pytest.approx(model.total_tuples_per_s())
    assert s["nonstop_topology_inter_node_tuple_share"] == [({"topology": model.name}, pytest.approx(model.inter_node_share()))]
    ups = {lab["worker"]: v for lab, v in s["nonstop_worker_up"]}
    assert ups == {w: 1.0 if ws.status == STATUS_OK else 0.0 for w, ws in model.workers.items()}
    assert {lab["node"] for lab, _ in s["nonstop_node_cpu_busy_cores"]} == set(model.nodes)
    assert s["nonstop_collector_up"] == [({"source": "rest"}, 1.0), ({"source": "zookeeper"}, 1.0)]


def test_unknown_values_are_omitted_not_zero(model):
    s = _samples(Snapshot([model]))
    spout_caps = [lab for lab, _ in s["nonstop_executor_capacity"] if lab["component"] == "keys"]
    assert spout_caps == []  # spouts have no capacity in the REST API
    assert s["nonstop_collector_up"] == [({"source": "rest"}, 0.0), ({"source": "zookeeper"}, 0.0)]
    assert "nonstop_collector_round_seconds" not in s


def _free_port() -> int:
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        return sk.getsockname()[1]


def test_the_endpoint_serves_the_latest_round_on_loopback(model):
    rounds = []

    def round_fn():
        rounds.append(1)
        return [model]

    r = Refresher(round_fn, lambda: True, interval_s=60)
    r.refresh()
    port = _free_port()
    server, thread = serve(r, port=port)
    try:
        assert server.server_address[0] == "127.0.0.1"
        body = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
        assert 'nonstop_executor_cpu_cores{component="busy"' in body
        assert "nonstop_collector_round_seconds" in body
        requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5)
        assert len(rounds) == 1  # scrapes render the snapshot; they do not collect
    finally:
        server.shutdown()
        server.server_close()


def test_a_failed_round_keeps_the_previous_models_and_flags_rest(model):
    from pycontrol.storm.rest import RestError
    calls = []

    def round_fn():
        calls.append(1)
        if len(calls) > 1:
            raise RestError("down")
        return [model]

    r = Refresher(round_fn, lambda: False)
    assert r.refresh().rest_up
    snap = r.refresh()
    assert not snap.rest_up and snap.models == [model]


def _with_latencies(rec: dict, spout_ms: str, bolt_ms: str) -> dict:
    rec = copy.deepcopy(rec)
    for s in rec["rest"]["topology"]["spouts"]:
        s["completeLatency"] = spout_ms
    for b in rec["rest"]["topology"]["bolts"]:
        b["processLatency"] = bolt_ms
    return rec


def test_component_latencies_come_from_the_rest_api_spouts_complete_bolts_process():
    m = model_from_recording(_with_latencies(recorded(), "12.500", "0.750"))
    s = _samples(Snapshot([m]))
    spouts = {c for c, a in m.components.nodes(data=True) if a["type"] == "spout"}
    bolts = set(m.components.nodes) - spouts
    assert spouts and bolts
    assert s["nonstop_component_complete_latency_ms"] == [
        ({"topology": m.name, "component": c}, 12.5) for c in sorted(spouts)]
    assert sorted((lab["component"], v) for lab, v in s["nonstop_component_process_latency_ms"]) == [
        (c, 0.75) for c in sorted(bolts)]


def test_a_latency_the_rest_api_does_not_give_is_omitted():
    rec = copy.deepcopy(recorded())
    for s in rec["rest"]["topology"]["spouts"]:
        s.pop("completeLatency", None)
    s = _samples(Snapshot([model_from_recording(rec)]))
    assert "nonstop_component_complete_latency_ms" not in s
    assert s["nonstop_component_process_latency_ms"]


def test_cluster_totals_are_exported_from_the_cluster_summary_and_kept_when_rest_fails(model):
    from pycontrol.storm.rest import RestError
    summaries = [{"supervisors": 2, "slotsTotal": 8, "slotsUsed": 3, "topologies": 1}]

    def cluster_fn():
        if not summaries:
            raise RestError("down")
        return cluster_totals(summaries.pop())

    r = Refresher(lambda: [model], lambda: True, cluster_fn=cluster_fn)
    s = _samples(r.refresh())
    assert (s["nonstop_cluster_supervisors"], s["nonstop_cluster_slots_total"], s["nonstop_cluster_slots_used"]) == (
        [({}, 2.0)], [({}, 8.0)], [({}, 3.0)])
    snap = r.refresh()
    assert not snap.rest_up and snap.cluster == ClusterTotals(2, 8, 3)
    assert "nonstop_cluster_slots_total" not in _samples(Snapshot([model]))     # unknown: omitted


def test_a_cluster_summary_without_slot_counts_is_a_clear_error():
    with pytest.raises(UserError, match="slotsTotal"):
        cluster_totals({"supervisors": 2})


def test_every_exported_family_is_documented_and_every_documented_one_is_exported(model):
    """PROMETHEUS.md is the contract the dashboards are written against."""
    full = model_from_recording(_with_latencies(recorded(), "1.0", "1.0"))
    snap = Snapshot([full], cluster=ClusterTotals(1, 1, 1), rest_up=True, round_seconds=0.1, taken_at_s=1.0)
    exported = {f.name for f in families(snap)}
    doc = (REPO_ROOT / "pycontrol" / "metrics" / "PROMETHEUS.md").read_text()
    documented = set(re.findall(r"`(nonstop_\w+)`", doc)) - {n for n in re.findall(r"`(nonstop_\w+)`", doc)
                                                              if n.startswith("nonstop_controller_")}
    assert exported == documented
