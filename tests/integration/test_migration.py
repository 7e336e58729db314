"""Nonstop migration on the real 2-node cluster: single executors move between live workers on
different nodes; no worker JVM restarts, the UI REST API shows the new place, and with a bounded
stream every tuple is acked exactly once, none lost and replayed.

The workers wait SWITCH_DELAY_MS before each routing switch (a test-only property), which widens the
window between a move's start and its switch: an executor that moves into a worker whose own executors
send to it must lose nothing in that window. Before the fix a connection refresh could map the moved task
to the worker itself while its local senders still took the remote path, and Storm dropped those tuples
("Connection not available"): 451 of 15000 with a 3 s window, 1 in a demo run without one.

They also hold their outbound flushes for ARRIVAL_HOLD_MS while an executor arrives, from before its
routing epoch until the connection refresh maps it to the worker itself (another test-only property): what
the worker's own executors queued for it on the remote path just before must be delivered locally, not
dropped as a message to a worker without a connection (about 1 in 100-200 moves without the hold)."""

from __future__ import annotations

import time
import psutil
import pytest

from pycontrol.cluster.layout import Layout
from pycontrol.migration.migrate import migrate, wait_decision, where_is, write_plan
from pycontrol.migration.events import first
from pycontrol.migration.observe import slot_events, wait_move_done, worker_pids
from pycontrol.storm import placement, submit
from pycontrol.wire.executor import ExecutorId
from pycontrol.workloads.submit import submit_workload
from tests.conftest import python_children, submitted_topology, wait_for

pytestmark = pytest.mark.cluster

NAME = "mig-relay"
TOTAL = 15_000          # tuples; at 300 t/s the stream lasts ~50 s, long enough for several moves
RATE = 300
SWITCH_DELAY_MS = 3000  # nonstop.migration.test.switch.delay.ms in this topology's workers
ARRIVAL_HOLD_MS = 300   # nonstop.migration.test.arrival.hold.ms in this topology's workers


@pytest.fixture(scope="module")
def relay(cluster):
    submit.submit_java("relay", NAME, [f"workload.total={TOTAL}", f"workload.rate={RATE}", "topology.workers=2",
                                       "topology.stats.sample.rate=1.0",
                                       f"topology.worker.childopts=-Dnonstop.migration.test.switch.delay.ms="
                                       f"{SWITCH_DELAY_MS} -Dnonstop.migration.test.arrival.hold.ms="
                                       f"{ARRIVAL_HOLD_MS}"], cluster.conf_dir)
    rest = cluster.rest
    with submitted_topology(cluster, NAME) as (topo_id, client):
        wait_for("all executors placed on both nodes",
                 lambda: len(placement.by_host(placement.placement(rest, topo_id))) == 2
                 and len(placement.placement(rest, topo_id)) == 7, 240)
        wait_for("tuples acked", lambda: placement.acked(rest, topo_id) > 0, 120)
        yield topo_id, client


def _move(cluster, topo_id, client, component: str) -> dict:
    """Moves one executor of `component` to the topology's worker on the other node; returns timings."""
    rest = cluster.rest
    places = placement.placement(rest, topo_id)
    slots = sorted({f"{p.host}:{p.port}" for p in places})
    assert len(slots) == 2, slots
    mover = next(p for p in places if p.component == component)
    source = f"{mover.host}:{mover.port}"
    target = next(s for s in slots if s != source)
    assert target.split(":")[0] != mover.host, "the two workers are on different nodes"
    upstream = {"relay": "sequence", "sink": "relay"}[component]
    senders_on_target = sum(1 for p in places if p.component == upstream and f"{p.host}:{p.port}" == target)
    pids = worker_pids(cluster.spec, topo_id, set(slots))
    assert set(pids) == set(slots)
    t0_ms = time.time() * 1000
    host, port = target.rsplit(":", 1)
    r = migrate(client, rest, NAME, mover.executor, (host, int(port)), wait=True, timeout_s=90)
    assert r.decision.status == "applied", r.decision
    assert r.source == source
    assert where_is(rest, topo_id, mover.executor) == target
    # Started in the target worker, shut down in the source worker after the lazy kill...
    timeline = wait_move_done(cluster.spec, mover.executor, source, target, t0_ms, 90)
    # ...each worker's events naming the phase its side of the move reached...
    key = str(mover.executor)
    assert first(slot_events(cluster.spec, target), "started", t0_ms, executor=key)["phase"] == "started"
    assert first(slot_events(cluster.spec, source), "stopped", t0_ms, executor=key)["phase"] == "retired"
    switched = first(slot_events(cluster.spec, source), "switch", t0_ms)
    assert switched["out"] >= 1 and 0 <= switched["timed_out"] <= switched["out"], switched
    # ...and neither worker JVM restarted.
    assert worker_pids(cluster.spec, topo_id, set(slots)) == pids
    assert all(psutil.pid_exists(p) for p in pids.values())
    # What the target's own executors queued for the arrival on the remote path went to it locally.
    self_routed = [e for e in slot_events(cluster.spec, target) if e["event"] == "self_routed" and e["t_ms"] >= t0_ms]
    return {"executor": str(mover.executor), "from": source, "to": target, "decided_s": r.decided_after_s,
            "rest_visible_s": r.visible_after_s, "senders_on_target": senders_on_target,
            "self_routed": sum(e["messages"] for e in self_routed),
            "self_routed_dropped": sum(e["dropped"] for e in self_routed), **timeline.__dict__}


def test_executors_move_between_nodes_without_restarts_and_every_tuple_is_acked_once(cluster, relay):
    topo_id, client = relay
    rest = cluster.rest
    acked_before = placement.acked(rest, topo_id)
    moves = [_move(cluster, topo_id, client, "relay"), _move(cluster, topo_id, client, "sink")]
    for m in moves:
        print("moved", m)
    # A move into a worker whose own executors send to the mover: the hold made them queue tuples for it on
    # the remote path (tens at this rate), which went to it locally, none dropped.
    for m in moves:
        assert m["self_routed_dropped"] == 0, m
        if m["senders_on_target"] > 0:
            assert m["self_routed"] > 0, m
    wait_for("tuples acked during and after the moves", lambda: placement.acked(rest, topo_id) > acked_before, 30)
    wait_for(f"all {TOTAL} tuples acked", lambda: placement.acked(rest, topo_id) >= TOTAL, 180, 2)
    time.sleep(6)  # one more stats heartbeat: the count must not overshoot
    assert placement.acked(rest, topo_id) == TOTAL
    # All acked means every replay is done, so a tuple lost in a move has been counted as failed by now.
    stats = next(s for s in rest.topology(topo_id)["topologyStats"] if s["window"] == ":all-time")
    assert int(stats.get("failed") or 0) == 0, f"{stats.get('failed')} tuple(s) lost in the moves and replayed"


def test_a_plan_naming_a_missing_executor_or_port_is_rejected_and_nothing_moves(cluster, relay):
    topo_id, client = relay
    rest = cluster.rest
    before = sorted(placement.placement(rest, topo_id), key=lambda p: p.executor)
    slot = f"{before[0].host}:{before[0].port}"
    host = before[0].host

    rid, version = write_plan(client, NAME, {ExecutorId(999, 999): (host, int(slot.split(":")[1]))})
    d = wait_decision(client, NAME, topo_id, version, 60)
    assert d.status == "rejected" and "executor [999,999] is not an executor of" in d.reason, d
    assert d.request_id == rid

    mover = next(p for p in before if p.component == "relay")
    rid, version = write_plan(client, NAME, {mover.executor: (host, 1)})
    d = wait_decision(client, NAME, topo_id, version, 60)
    assert d.status == "rejected" and "port 1 is not a worker slot" in d.reason, d

    time.sleep(4)  # two scheduling rounds: a rejected plan must leave every executor in place
    assert sorted(placement.placement(rest, topo_id), key=lambda p: p.executor) == before


def test_a_written_plan_starts_a_scheduling_round_at_once(cluster, relay):
    """Nimbus runs with the agent's nimbus role: the scheduler sees the plan znode change and asks Nimbus for
    a round on its own timer, instead of leaving the plan to the next periodic round (nimbus.monitor.freq.secs)."""
    topo_id, client = relay
    nimbus_log = Layout(cluster.spec.home).logs / "nimbus.log"
    offset = nimbus_log.stat().st_size
    host = placement.placement(cluster.rest, topo_id)[0].host

    rid, version = write_plan(client, NAME, {ExecutorId(999, 999): (host, 1)})
    d = wait_decision(client, NAME, topo_id, version, 60)
    assert d.status == "rejected" and d.request_id == rid, d

    def lines_since():
        with nimbus_log.open(errors="replace") as f:
            f.seek(offset)
            return f.read()
    wait_for("Nimbus's log showing the requested round done",
             lambda: "nonstop: requested scheduling round done in" in lines_since(), 30)
    log = lines_since()
    requested = log.find(f"nonstop: scheduling round requested: the plan of {NAME} was written")
    assert requested >= 0, log[-3000:]
    assert log.find("nonstop: requested scheduling round done in", requested) > requested, log[-3000:]


def test_one_plan_moving_several_executors_into_a_worker_builds_them_together(cluster, relay):
    """A re-deployment that adds several executors to one worker: they are all built in one batch
    (concurrently), each starts, the worker switches its routing once for all of them, and neither
    worker JVM restarts. Then the same executors go back, also in one plan."""
    topo_id, client = relay
    rest = cluster.rest
    places = placement.placement(rest, topo_id)
    slots = sorted({f"{p.host}:{p.port}" for p in places})
    assert len(slots) == 2, slots
    pids = worker_pids(cluster.spec, topo_id, set(slots))
    by_slot = {s: [p.executor for p in places if f"{p.host}:{p.port}" == s and p.component in ("relay", "sink")]
               for s in slots}
    src = max(slots, key=lambda s: len(by_slot[s]))
    dst = next(s for s in slots if s != src)
    movers = sorted(by_slot[src])
    assert len(movers) >= 2, by_slot
    for a, b, group in [(src, dst, movers), (dst, src, movers)]:
        t0_ms = time.time() * 1000
        host, port = b.rsplit(":", 1)
        _, version = write_plan(client, NAME, {e: (host, int(port)) for e in group})
        d = wait_decision(client, NAME, topo_id, version, 60)
        assert d.status == "applied", d
        for e in group:
            wait_move_done(cluster.spec, e, a, b, t0_ms, 90)
        started = [e for e in slot_events(cluster.spec, b) if e["event"] == "started" and e["t_ms"] >= t0_ms]
        assert sorted(ExecutorId.parse(e["executor"]) for e in started) == sorted(group)
        assert all(e["batch"] == len(group) for e in started), started
        switches = [e for e in slot_events(cluster.spec, b) if e["event"] == "switch" and e["t_ms"] >= t0_ms]
        assert [e["in"] for e in switches] == [len(group)], switches
        wait_for("the UI listing every moved executor at its new place",
                 lambda: all(where_is(rest, topo_id, e) == b for e in group), 60, 1)
        print(f"{len(group)} executors {a} -> {b}: create_ms {[e['create_ms'] for e in started]}, "
              f"ready_ms {[e['ready_ms'] for e in started]}")
    assert worker_pids(cluster.spec, topo_id, set(slots)) == pids
    assert all(psutil.pid_exists(p) for p in pids.values())


def test_a_python_shellbolt_executor_moves_with_its_child_process(cluster, relay):
    """Multilang: the Python child of the moved ShellBolt executor starts on the target worker and stops
    on the source worker; both worker JVMs live on and the stream keeps being acked."""
    _, client = relay
    rest = cluster.rest
    name = "mig-wc-py"
    submit_workload("wordcount-py", name, ["topology.workers=2", "workload.par.split=2", "workload.par.count=2",
                                           "workload.rate=50"], cluster.conf_dir)
    topo_id = wait_for(f"{name} listed", lambda: rest.topology_id(name), 60)
    try:
        wait_for("split executors on both nodes",
                 lambda: len({p.host for p in placement.placement(rest, topo_id) if p.component == "split"}) == 2, 240)
        wait_for("tuples acked", lambda: placement.acked(rest, topo_id) > 0, 180)
        places = placement.placement(rest, topo_id)
        mover = next(p for p in places if p.component == "split")
        source = f"{mover.host}:{mover.port}"
        target = next(f"{p.host}:{p.port}" for p in places if p.host != mover.host)
        slots = {f"{p.host}:{p.port}" for p in places}
        pids = worker_pids(cluster.spec, topo_id, slots)
        split = "SplitSentenceBolt"
        before = {slot: python_children(pid, split) for slot, pid in pids.items()}
        assert len(before[source]) == 1 and len(before[target]) == 1, before
        t0_ms = time.time() * 1000
        host, port = target.rsplit(":", 1)
        r = migrate(client, rest, name, mover.executor, (host, int(port)), wait=True, timeout_s=120)
        assert r.decision.status == "applied", r.decision
        wait_move_done(cluster.spec, mover.executor, source, target, t0_ms, 120)
        assert worker_pids(cluster.spec, topo_id, slots) == pids
        after = wait_for("the Python child moved with its executor",
                         lambda: (a := {slot: python_children(pid, split) for slot, pid in pids.items()})
                         and len(a[source]) == 0 and len(a[target]) == 2 and a, 60)
        assert before[target] <= after[target], "the target's own child was not restarted"
        assert all(psutil.pid_exists(p) for p in pids.values())
        acked = placement.acked(rest, topo_id)
        wait_for("tuples still acked after the move", lambda: placement.acked(rest, topo_id) > acked, 60)
    finally:
        rest.kill(topo_id, 0)
        wait_for(f"{name} gone", lambda: rest.topology_id(name) is None, 90)
