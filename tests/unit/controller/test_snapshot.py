import pytest

from pycontrol.controller import snapshot
from tests.unit.controller.fakes import model

A, B = "10.0.0.1:6700", "10.0.0.2:6700"


def wc(**kw):
    placement = {"[1,1]": A, "[2,2]": A, "[3,3]": B, "[4,4]": B}
    traffic = {("[1,1]", "[3,3]"): 100.0, ("[1,1]", "[2,2]"): 50.0, ("[2,2]", "[4,4]"): 30.0}
    comps = {"[1,1]": "spout", "[2,2]": "split", "[3,3]": "split", "[4,4]": "count"}
    return model(placement, traffic, components=comps, dag=[("spout", "split"), ("split", "count")], **kw)


def test_the_snapshot_is_the_running_topology_in_plan_input_spelling():
    m = wc(cpu={"[1,1]": 0.2, "[3,3]": 0.4}, worker_load={A: 0.5, B: 1.0}, node_cpus=4,
           node_busy={"10.0.0.1": 2.5, "10.0.0.2": 1.0}, queues={"[3,3]": 7, "[4,4]": 5})
    doc = snapshot.plan_input(m, {"otd": {"threshold_asc": 5}})
    t = doc["topology"]
    assert doc["cluster"]["nodes"] == [
        {"id": "10.0.0.1", "ports": [6700], "cpu_capacity": 4.0, "cpu_busy": 2.5},   # raw: Java derives the rest
        {"id": "10.0.0.2", "ports": [6700], "cpu_capacity": 4.0, "cpu_busy": 1.0}]
    assert t["workers"] == 2
    assert t["current_placement"] == {A: ["[1,1]", "[2,2]"], B: ["[3,3]", "[4,4]"]}
    assert t["executors"][0] == {"id": "[1,1]", "component": "spout"}
    assert {(x["from"], x["to"]): x["rate"] for x in t["traffic"]} == {
        ("[1,1]", "[3,3]"): 100.0, ("[1,1]", "[2,2]"): 50.0, ("[2,2]", "[4,4]"): 30.0}
    assert t["executor_cpu"] == {"[1,1]": 0.2, "[3,3]": 0.4}   # unknown CPU is left out, not 0
    assert t["edges"] == [["split", "count"], ["spout", "split"]]
    # Measured loads in cores, not shares: Java's otd/WorkerShare derives those (tests/vectors/otd_shares).
    assert t["worker_load"] == {A: {"load": 0.5, "queue": 0}, B: {"load": 1.0, "queue": 12}}
    assert doc["params"] == {"otd": {"threshold_asc": 5}}


def test_other_processes_can_be_ignored_and_a_full_node_saturates_its_workers():
    # Node 1's other processes use all its CPUs (busy counts ours too, and a little measurement noise).
    m = wc(worker_load={A: 0.5, B: 1.0}, node_cpus=2, node_busy={"10.0.0.1": 2.6, "10.0.0.2": 1.0})
    assert snapshot.worker_shares(m, count_background=True) == {A: snapshot.SATURATED_SHARE, B: 0.5}
    assert snapshot.worker_shares(m, count_background=False) == {A: 0.25, B: 0.5}
    assert "cpu_busy" not in snapshot.plan_input(m, count_background=False)["cluster"]["nodes"][0]
    assert snapshot.plan_input(m)["cluster"]["nodes"][0]["cpu_busy"] == 2.6


def test_only_measured_figures_are_sent():
    m = wc(worker_load={A: 0.5})   # B has no load yet, and no node reports busy cores
    doc = snapshot.plan_input(m)
    assert doc["topology"]["worker_load"] == {A: {"load": 0.5, "queue": 0}}
    assert all("cpu_busy" not in n and "cpu_background" not in n for n in doc["cluster"]["nodes"])


def test_a_worker_on_a_busy_node_is_as_busy_as_its_node():
    """Two workers share a node's CPU: the one using less than its part has no room while the other takes
    the rest, so its share is the node's use; with room left on the node, each counts its own load."""
    C = "10.0.0.1:6701"
    placement = {"[1,1]": A, "[2,2]": C, "[3,3]": B}
    busy = model(placement, {}, components={"[1,1]": "split", "[2,2]": "split", "[3,3]": "split"},
                 dag=[], worker_load={A: 0.65, C: 0.3, B: 0.2}, node_cpus=1)
    assert snapshot.worker_shares(busy, count_background=False) == {A: 1.3, C: 0.95, B: 0.2}
    idle = model(placement, {}, components={"[1,1]": "split", "[2,2]": "split", "[3,3]": "split"},
                 dag=[], worker_load={A: 0.3, C: 0.1, B: 0.2}, node_cpus=1)
    assert snapshot.worker_shares(idle, count_background=False) == {A: 0.6, C: 0.4, B: 0.2}


def test_a_cyclic_dag_is_sent_without_edges():
    m = wc()
    m.components.add_edge("count", "spout", inputs=[], grouping="shuffle", tuples_per_s=0.0)
    assert snapshot.plan_input(m)["topology"]["edges"] == []


def test_gain_of_a_move_is_the_inter_node_traffic_it_saves():
    m = wc()
    assert snapshot.inter_node_tuples_per_s(snapshot.traffic(m), snapshot.placement(m)) == 130.0
    assert snapshot.gain_of(m, {"[3,3]": A}) == 100.0          # 1 -> 3 becomes local
    assert snapshot.gain_of(m, {"[2,2]": B}) == pytest.approx(-50 + 30)   # 1 -> 2 crosses, 2 -> 4 stops
    assert snapshot.gain_of(m, {}) == 0.0


def test_plan_input_spells_executors_as_the_model_does():
    t = snapshot.plan_input(wc())["topology"]
    assert [e["id"] for e in t["executors"]] == sorted(wc().executors.nodes, key=lambda k: tuple(map(int, k[1:-1].split(","))))
