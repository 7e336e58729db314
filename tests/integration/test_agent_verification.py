"""The migration agent's self-verification and its failures, on dedicated real 2-node clusters (they
change the daemons' JVM options, so they do not touch the shared session cluster):

(a) one advice left out in the workers and supervisors (test switch nonstop.migration.test.skip.advice):
    migration is off in those JVMs with one ERROR line, the supervisors' /nonstop/agents/<host> records
    say so, the topology runs stock Storm, a plan is rejected with the reason, no tuple is lost;
(b) an injected reconcile failure (nonstop.migration.test.fail.reconcile): the workers of a move exit
    the Storm way after their retries, Storm's supervisors relaunch them with the new assignment, and
    every tuple is acked after the replay.

Each test starts (and stops) its own cluster, one at a time."""

from __future__ import annotations

import json
import os
import time

import psutil
import pytest

from pycontrol import zk
from pycontrol.cluster import manager
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec
from pycontrol.migration.events import first
from pycontrol.migration.migrate import migrate
from pycontrol.migration.observe import slot_events, worker_pids
from pycontrol.storm import placement, submit
from tests.conftest import RELAUNCH_PATIENT, TEST_PORT_BASE, LiveCluster, assert_nothing_left, wait_for

pytestmark = pytest.mark.cluster

# Inside this test base's block of 1000 ports, clear of the session cluster (+0), the migration fault
# cluster (+500) and the lifecycle/fault clusters (+1000, +2000).
PORT_BASE = TEST_PORT_BASE + 700
CONF = RELAUNCH_PATIENT
SKIP_PROP = "nonstop.migration.test.skip.advice"
FAIL_PROP = "nonstop.migration.test.fail.reconcile"
SKIPPED = ("WorkerState.refreshConnections", "StormClusterStateImpl.syncRemoteAssignments")
SPOUT = "sequence"
RATE = 20
# The bounded stream outlasts what each test does while it runs (the checks and the rejected plan; the move and
# the workers' exits); a relaunched spout starts its stream again, so test b waits for all of it once more.
STREAM_S = 40
TOTAL = RATE * STREAM_S
TIMEOUT_S = 10          # topology.message.timeout.secs: lost tuples are replayed soon


def _up(tmp_path, java_tool_options: str | None) -> LiveCluster:
    """A cluster whose JVMs all start with `java_tool_options` (the supervisors hand it on to their workers)."""
    spec = make_spec(tmp_path / "c", nodes=2, slots=2, port_base=PORT_BASE, extra_conf=CONF)
    before = os.environ.get("JAVA_TOOL_OPTIONS")
    if java_tool_options:
        os.environ["JAVA_TOOL_OPTIONS"] = java_tool_options
    try:
        state = manager.up(spec, timeout_s=300)
    except BaseException:
        manager.down(spec.home)
        raise
    finally:
        if before is None:
            os.environ.pop("JAVA_TOOL_OPTIONS", None)
        else:
            os.environ["JAVA_TOOL_OPTIONS"] = before
    return LiveCluster(spec, state)


@pytest.fixture
def skipped_cluster(tmp_path):
    c = _up(tmp_path, f"-D{SKIP_PROP}={','.join(SKIPPED)}")
    try:
        yield c
    finally:
        manager.down(c.spec.home)
        assert_nothing_left(c.spec)


@pytest.fixture
def plain_cluster(tmp_path):
    c = _up(tmp_path, None)
    try:
        yield c
    finally:
        manager.down(c.spec.home)
        assert_nothing_left(c.spec)


def _submit(cluster: LiveCluster, name: str, worker_opts: str) -> str:
    submit.submit_java("relay", name, [f"workload.total={TOTAL}", f"workload.rate={RATE}", "topology.workers=2",
                                       "topology.stats.sample.rate=1.0", f"topology.message.timeout.secs={TIMEOUT_S}",
                                       f"topology.worker.childopts={worker_opts}"], cluster.conf_dir)
    rest = cluster.rest
    topo_id = wait_for(f"{name} listed", lambda: rest.topology_id(name), 60)
    wait_for("all 7 executors placed on both nodes",
             lambda: len(placement.by_host(placement.placement(rest, topo_id))) == 2
             and len(placement.placement(rest, topo_id)) == 7, 300)
    wait_for("tuples acked", lambda: placement.acked(rest, topo_id) > 0, 180)
    return topo_id


def _counts(rest, topo_id) -> tuple[int, int]:
    """(acked, failed) at the spout, all time."""
    for s in rest.topology(topo_id).get("topologyStats", []):
        if s.get("window") == ":all-time":
            return int(s.get("acked") or 0), int(s.get("failed") or 0)
    return 0, 0


def _where(rest, topo_id) -> dict:
    return {p.executor: f"{p.host}:{p.port}" for p in placement.placement(rest, topo_id)}


def _pick_move(places) -> tuple:
    """(bolt executor, its slot, the topology's other slot)."""
    slots = sorted({f"{p.host}:{p.port}" for p in places})
    assert len(slots) == 2, slots
    mover = next(p for p in sorted(places, key=lambda p: p.executor) if p.component != SPOUT)
    source = f"{mover.host}:{mover.port}"
    return mover.executor, source, next(s for s in slots if s != source)


def _target(slot: str) -> tuple[str, int]:
    host, port = slot.rsplit(":", 1)
    return host, int(port)


def _worker_logs(cluster: LiveCluster, topo_id: str) -> dict[str, str]:
    """"host:port" -> text of that slot's worker.log (all of the topology's workers, current and past)."""
    layout = Layout(cluster.spec.home)
    out = {}
    for n in cluster.spec.node_specs:
        for log in (layout.node_log_dir(n.name) / "workers-artifacts" / topo_id).glob("*/worker.log"):
            out[f"{n.host}:{log.parent.name}"] = log.read_text(errors="replace")
    return out


def _all_acked(rest, topo_id):
    acked, _ = _counts(rest, topo_id)
    return acked >= TOTAL and acked


def test_a_missing_advice_turns_migration_off_and_plans_for_those_nodes_are_rejected(skipped_cluster):
    cluster = skipped_cluster
    name = "agent-skip"
    topo_id = _submit(cluster, name, f"-D{SKIP_PROP}={','.join(SKIPPED)}")
    rest = cluster.rest
    layout = Layout(cluster.spec.home)

    # Each supervisor: one ERROR line naming the Storm version and the missing advice, and its record.
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        for n in cluster.spec.node_specs:
            log = (layout.node_log_dir(n.name) / "supervisor.log").read_text(errors="replace")
            off = [x for x in log.splitlines() if "migration OFF in this supervisor JVM" in x]
            assert len(off) == 1, off
            assert "ERROR" in off[0] and "Storm 2.8.3" in off[0], off[0]
            assert "advice StormClusterStateImpl.syncRemoteAssignments not woven" in off[0], off[0]
            record = wait_for(f"/nonstop/agents/{n.host}", lambda: zk.read_json(client, f"/nonstop/agents/{n.host}"), 60)
            doc = record[0]
            assert doc["verified"] is False and doc["storm_version"] == "2.8.3", doc
            assert "advice StormClusterStateImpl.syncRemoteAssignments not woven" in doc["missing"], doc

        # Each worker: the ERROR line, and its verdict in its migration event log.
        logs = wait_for("both workers' logs", lambda: (lambda l: len(l) == 2 and l)(_worker_logs(cluster, topo_id)), 60)
        for slot, text in logs.items():
            off = [x for x in text.splitlines() if "migration OFF in this worker JVM" in x]
            assert len(off) == 1, (slot, off)
            assert "advice WorkerState.refreshConnections not woven" in off[0], off[0]
            agent = first(slot_events(cluster.spec, slot), "agent")
            assert agent is not None and agent["verified"] is False, (slot, agent)
            assert first(slot_events(cluster.spec, slot), "attached") is None, "a worker without migration attached"

        # A plan that needs a live move between those nodes is rejected with the reason; nothing moves.
        before = _where(rest, topo_id)
        executor, source, target = _pick_move(placement.placement(rest, topo_id))
        result = migrate(client, rest, name, executor, _target(target), timeout_s=120)
        assert result.decision.status == "rejected", result
        assert "its migration agent is off" in result.decision.reason, result.decision.reason
        assert "not woven" in result.decision.reason, result.decision.reason
        print(f"{name}: plan rejected with {_counts(rest, topo_id)[0]} of {TOTAL} tuples acked")
    finally:
        client.stop()
        client.close()

    # The topology runs stock Storm to the end of its bounded stream: every tuple acked, none lost.
    acked = wait_for(f"all {TOTAL} tuples acked", lambda: _all_acked(rest, topo_id), STREAM_S + 300, 2)
    assert acked == TOTAL
    assert _where(rest, topo_id) == before


def test_b_a_failing_reconcile_ends_the_workers_the_storm_way_and_nothing_is_lost(plain_cluster):
    cluster = plain_cluster
    name = "agent-fail"
    topo_id = _submit(cluster, name, f"-D{FAIL_PROP}=true")
    rest = cluster.rest
    places = placement.placement(rest, topo_id)
    executor, source, target = _pick_move(places)
    pids = worker_pids(cluster.spec, topo_id, {source, target})
    assert len(pids) == 2 and all(psutil.pid_exists(p) for p in pids.values()), pids
    t0_ms = time.time() * 1000

    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        result = migrate(client, rest, name, executor, _target(target), timeout_s=120)
    finally:
        client.stop()
        client.close()
    assert result.decision.status == "applied", result

    # The workers of the move cannot reconcile: after their retries they exit, with an ERROR line and
    # an event, and Storm's supervisors relaunch them with the new assignment.
    for slot in (source, target):
        ev = wait_for(f"exit event of {slot}", lambda: first(slot_events(cluster.spec, slot), "exit", t0_ms), 180)
        assert "reconciling" in ev["reason"] and FAIL_PROP in ev["error"], ev
    print(f"{name}: workers exited with {_counts(rest, topo_id)[0]} of {TOTAL} tuples acked")
    wait_for("both workers relaunched as new JVMs",
             lambda: (lambda now: len(now) == 2 and all(now[s] != pids[s] for s in pids))(
                 worker_pids(cluster.spec, topo_id, {source, target})), 600, 2)
    assert not any(psutil.pid_exists(p) for p in pids.values()), pids
    for slot in (source, target):
        text = _worker_logs(cluster, topo_id)[slot]
        assert "exiting so that the supervisor relaunches this worker with its assignment" in text, slot
    wait_for(f"{executor} running at {target}", lambda: _where(rest, topo_id).get(executor) == target, 600, 2)

    # Tuples lost with the exited workers time out and are replayed: every tuple is acked in the end.
    acked = wait_for(f"all {TOTAL} tuples acked", lambda: _all_acked(rest, topo_id), STREAM_S + 600, 2)
    assert acked == TOTAL
