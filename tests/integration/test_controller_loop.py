"""The controller daemon on the real cluster: `pycontrol run --once` against a running Java word count
with policy otd. Dry-run plans but writes no plan; live mode moves at most K executors and the
placement converges; stale data is refused; `pycontrol drain` empties a node."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
import yaml

from pycontrol import zk
from pycontrol.controller.state_store import StateStore
from pycontrol.metrics.zk import MetricsZk
from pycontrol.storm import placement
from pycontrol.workloads.submit import submit_workload
from tests.conftest import submitted_topology, wait_for

pytestmark = pytest.mark.cluster

NAME = "it-ctl-wc"
# Every worker counts as having room (the "nodes" share one busy machine), so OTD's communication
# optimisation (its Algorithm 2) decides; any move saving more than 1 tuple/s qualifies.
OTD = {"threshold_asc": 1, "node_cpu_background": False, "low_cpu": 0.9, "high_cpu": 0.95,
       "low_queue": 50000, "high_queue": 100000}


@pytest.fixture(scope="module")
def wordcount(cluster):
    submit_workload("wordcount-java", NAME, ["topology.workers=2", "workload.par.split=2", "workload.par.count=2",
                                             "workload.rate=100", "topology.message.timeout.secs=300"],
                    cluster.conf_dir)
    rest = cluster.rest
    mz = MetricsZk(cluster.zk_hosts, auth=cluster.zk_auth)
    with submitted_topology(cluster, NAME) as (topo_id, client):
        try:
            wait_for("executors on both nodes",
                     lambda: len(placement.by_host(placement.placement(rest, topo_id))) == 2, 240, poll_s=2)
            assert mz.start(30)
            wait_for("both workers publishing", lambda: len(docs := mz.read(topo_id).docs) >= 2
                     and all(d.seq >= 2 for d in docs.values()), 240, poll_s=2)
            yield topo_id, client
        finally:
            mz.stop()


def run_once(cluster, tmp_path, policy: str, params: dict, safety: dict, **top) -> tuple[dict, str]:
    """One `pycontrol run --once` cycle on this topology only; its decision record and the log."""
    cfg = tmp_path / "controller.yml"
    cfg.write_text(yaml.safe_dump({"cycle_s": 5, "verify_timeout_s": 120, **top, "defaults": {"policy": "off"},
                                   "topologies": {NAME: {"policy": policy, "params": params, "safety": safety}}}))
    p = subprocess.run([sys.executable, "-m", "pycontrol", "run", "--config", str(cfg), "--ui", cluster.spec.ui_url,
                        "--zk", f"{cluster.spec.control_host}:{cluster.spec.zk_port}", "--once", "--metrics-port", "0",
                        "--home", str(cluster.spec.home)],  # its ZooKeeper credentials
                       capture_output=True, text=True, timeout=400)
    assert p.returncode == 0, p.stderr
    records = {r["topology"]: r for r in map(json.loads, p.stdout.splitlines())}
    assert set(records) == {NAME}, "policy off: other topologies are left alone"
    return records[NAME], p.stderr


def until(kinds: set[str], attempt, tries: int = 6):
    """Repeat a cycle while the data is refused (a window began before the last move) or no move is
    worth it yet (traffic is still ramping up)."""
    for _ in range(tries):
        rec, log = attempt()
        if rec["kind"] in kinds:
            return rec, log
        time.sleep(5)
    raise AssertionError(f"no {kinds} decision in {tries} cycles; last: {rec['kind']}: {rec['reason']}")


def plan_version(client) -> int | None:
    got = zk.read_json(client, f"{zk.PLANS}/{NAME}")
    return None if got is None else got[1]


def where(cluster, topo_id) -> dict[str, str]:
    return {str(p.executor): f"{p.host}:{p.port}" for p in placement.placement(cluster.rest, topo_id)}


def test_dry_run_explains_an_otd_move_and_writes_no_plan(cluster, wordcount, tmp_path):
    topo_id, client = wordcount
    before = plan_version(client)
    rec, log = until({"dry-run"}, lambda: run_once(cluster, tmp_path, "otd", OTD, {"dry_run": True}))
    assert rec["applied"] == [] and len(rec["planned"]) == 1             # OTD: one move per round
    assert [s["reason"] for s in rec["suppressed"]] == ["dry-run"]
    assert rec["predicted_gain"] > 1 and "otd case" in rec["reason"]
    assert f"{NAME} [otd]: dry-run" in log
    assert plan_version(client) == before
    assert StateStore(client).load()[0].pending is None


def test_live_mode_moves_at_most_k_executors_and_the_placement_converges(cluster, wordcount, tmp_path):
    topo_id, client = wordcount
    rec, _ = until({"applied"}, lambda: run_once(cluster, tmp_path, "otd", OTD,
                                                  {"max_moves_per_cycle": 1, "cooldown_s": 0}))
    (move,) = rec["applied"]
    assert rec["outcome"].startswith(f"{NAME}: applied")
    assert where(cluster, topo_id)[move["executor"]] == move["to_slot"]
    plan = zk.read_json(client, f"{zk.PLANS}/{NAME}")[0]
    assert list(plan["placement"].values()) == [move["to_slot"]]          # exactly the one executor
    state = StateStore(client).load()[0]
    assert state.pending is None and state.log[-1]["moves"] == [move]

    # A global plan (Aniello online) is applied at most K = 1 move per cycle, best first.
    aniello = {"node_cpu_background": False, "min_inter_node_tuples_per_s": 1}
    rec, _ = until({"applied", "no-action"}, lambda: run_once(
        cluster, tmp_path, "aniello-online", aniello, {"max_moves_per_cycle": 1, "cooldown_s": 0, "hysteresis_s": 0}))
    assert len(rec["applied"]) <= 1
    if len(rec["planned"]) > 1:
        assert "cap of 1 move(s) per cycle" in {s["reason"] for s in rec["suppressed"]}
    for m in rec["applied"]:
        assert where(cluster, topo_id)[m["executor"]] == m["to_slot"]


def test_stale_metrics_are_refused_and_nothing_is_written(cluster, wordcount, tmp_path):
    topo_id, client = wordcount
    before = plan_version(client)
    rec, _ = run_once(cluster, tmp_path, "otd", OTD, {"cooldown_s": 0}, stale_windows=0.01)
    assert rec["kind"] == "refused" and "old (> 0.01 windows)" in rec["reason"]
    assert plan_version(client) == before


def test_drain_empties_a_node_and_names_an_unknown_one(cluster, wordcount):
    topo_id, _ = wordcount
    home = str(cluster.spec.home)
    p = subprocess.run([sys.executable, "-m", "pycontrol", "drain", "node9", "--home", home],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "unknown node 'node9'" in p.stderr and "node1, node2" in p.stderr
    host = cluster.spec.node_specs[1].host
    p = subprocess.run([sys.executable, "-m", "pycontrol", "drain", "node2", "--topology", NAME, "--home", home,
                        "--timeout", "180"], capture_output=True, text=True, timeout=400)
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"node {host} is empty after" in p.stdout
    assert all(not s.startswith(host + ":") for s in where(cluster, topo_id).values())
