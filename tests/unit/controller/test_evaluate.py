import pytest

from pycontrol.controller.evaluate import (BALANCED, COMMUNICATION, COMPUTATION, IDLE, EvalSettings, critical_path,
                                           evaluate, refusal)
from pycontrol.model.live import STATUS_LOST, STATUS_NO_METRICS
from tests.unit.controller.fakes import model

A, B = "h1:1", "h2:1"
NOW = 1000.0
CALM = EvalSettings(count_background=False)


def two_workers(traffic=None, **kw):
    kw.setdefault("worker_load", {A: 0.3, B: 0.3})
    return model({"[1,1]": A, "[2,2]": A, "[3,3]": B}, traffic or {}, now_s=NOW, **kw)


@pytest.mark.parametrize("kw, fragment", [
    (dict(errors=["ZooKeeper 127.0.0.1:2181: ConnectionLoss"]), "metrics unreadable: ZooKeeper"),
    (dict(status="INACTIVE"), "topology is INACTIVE"),
    (dict(worker_status={B: STATUS_LOST}), "worker h2:1 has lost metrics"),
    (dict(worker_status={A: STATUS_NO_METRICS}), "worker h1:1 has no-metrics metrics"),
    (dict(doc_age_s=16.0), "worker h1:1's metrics are 16 s old (> 3 windows)"),
])
def test_stale_or_incomplete_data_is_refused_with_the_reason(kw, fragment):
    r = refusal(two_workers(**kw), NOW, stale_windows=3)
    assert r is not None and fragment in r
    ev = evaluate(two_workers(**kw), NOW, CALM)
    assert not ev.worth_planning and ev.summary().startswith("data refused")


def test_a_model_collected_too_long_ago_is_refused_and_fresh_data_is_not():
    m = two_workers()
    assert refusal(m, NOW + 10, stale_windows=3) is None
    assert "model taken 16 s ago" in refusal(m, NOW + 16, stale_windows=3)


def test_the_critical_path_follows_the_busiest_branch():
    comps = {"[1,1]": "spout", "[2,2]": "heavy", "[3,3]": "light", "[4,4]": "sink"}
    m = model({e: A for e in comps}, components=comps,
              dag=[("spout", "heavy"), ("spout", "light"), ("heavy", "sink"), ("light", "sink")],
              cpu={"[1,1]": 0.1, "[2,2]": 0.9, "[3,3]": 0.2, "[4,4]": 0.1})
    assert critical_path(m) == ["spout", "heavy", "sink"]
    m.executors.nodes["[3,3]"]["capacity"] = 1.5   # Storm's capacity wins over CPU when it is known
    assert critical_path(m) == ["spout", "light", "sink"]


def test_bound_kinds():
    crossing = {("[1,1]", "[3,3]"): 200.0}
    local = {("[1,1]", "[2,2]"): 200.0}
    assert evaluate(two_workers(crossing), NOW, CALM).bound == COMMUNICATION
    assert evaluate(two_workers(local), NOW, CALM).bound == BALANCED
    assert evaluate(two_workers({}), NOW, CALM).bound == IDLE
    # Below the floor (OTD's threshold_asc) no move could be worth it.
    assert evaluate(two_workers({("[1,1]", "[3,3]"): 5.0}), NOW, CALM).bound == BALANCED
    hot = evaluate(two_workers(crossing, worker_load={A: 1.7, B: 0.3}, node_cpus=2), NOW, CALM)
    assert hot.bound == COMPUTATION and hot.overloaded_workers == [A] and hot.worker_shares[A] == 0.85
    assert hot.worth_planning


def test_bottlenecks_on_the_critical_path_and_idle_workers():
    comps = {"[1,1]": "spout", "[2,2]": "parse", "[3,3]": "store"}
    m = model({"[1,1]": A, "[2,2]": A, "[3,3]": B}, {("[1,1]", "[2,2]"): 50.0, ("[2,2]", "[3,3]"): 50.0},
              components=comps, dag=[("spout", "parse"), ("parse", "store")], cpu={"[2,2]": 0.95},
              worker_load={A: 1.0, B: 0.01}, now_s=NOW)
    ev = evaluate(m, NOW, CALM)
    assert ev.bound == COMPUTATION
    assert ev.critical_path == ["spout", "parse", "store"] and ev.critical_bottlenecks == ["parse"]
    assert ev.idle_workers == [B]
    assert ev.inter_node_tuples_per_s == 50.0 and ev.inter_node_share == 0.5
    assert "bottlenecks on the critical path ['parse']" in ev.summary()


def test_a_busy_machine_counts_unless_other_processes_are_ignored():
    crossing = {("[1,1]", "[3,3]"): 200.0}
    m = two_workers(crossing, node_cpus=2, node_busy={"h1": 1.95, "h2": 0.5})
    assert evaluate(m, NOW, EvalSettings(count_background=True)).bound == COMPUTATION
    assert evaluate(m, NOW, CALM).bound == COMMUNICATION


def test_oldest_window_start():
    ev = evaluate(two_workers(doc_age_s=2.0), NOW, CALM)
    assert ev.oldest_window_start_s == NOW - 2.0 - 5


def test_windows_that_began_before_the_last_move_settled_are_refused():
    m = two_workers(doc_age_s=1.0)              # its oldest window began at NOW - 6
    assert evaluate(m, NOW, CALM, settled_at_s=NOW - 7).refused is None
    ev = evaluate(m, NOW, CALM, settled_at_s=NOW - 5)
    assert "began before the last move settled (1 s earlier)" in ev.refused and not ev.worth_planning
