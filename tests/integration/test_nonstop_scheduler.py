"""The nonstop dispatcher (Nimbus's storm.scheduler) on the real 2-node cluster: a topology whose conf
names `nonstop.scheduler: aniello-offline` is placed by the Aniello offline rule and a decision record
says so; a topology without the key is placed by Storm's default and still follows controller plans;
a `nonstop.scheduler: ras` topology is placed by Storm's ResourceAwareScheduler next to a default one,
which keeps its workers (the supervisors offer Storm's default 400 % CPU and 4096 MB)."""

from __future__ import annotations

import time

import pytest

from pycontrol import zk
from pycontrol.migration.migrate import migrate
from pycontrol.storm import placement, submit
from tests.conftest import wait_for

pytestmark = pytest.mark.cluster

ANIELLO = "sched-aniello"
PLAIN = "sched-plain"
# sequence (1) -> relay (2) -> sink (1): four user executors; two workers requested.
SETTINGS = ["workload.rate=20", "workload.relays=2", "workload.sinks=1", "topology.workers=2"]


def _workers(places: list[placement.ExecutorPlace]) -> dict[str, set[str]]:
    """worker "host:port" -> components with an executor there."""
    out: dict[str, set[str]] = {}
    for p in places:
        out.setdefault(f"{p.host}:{p.port}", set()).add(p.component)
    return out


def _placed(rest, topo_id: str) -> list[placement.ExecutorPlace] | None:
    places = placement.placement(rest, topo_id)
    return places if len(places) == 4 else None


def _close_and_kill(client, rest, ids: dict[str, str]) -> None:
    """Closes the client, kills the topologies (name -> id) and waits until each is gone."""
    client.stop()
    client.close()
    for topo_id in ids.values():
        rest.kill(topo_id, 0)
    for name in ids:
        wait_for(f"{name} gone", lambda name=name: rest.topology_id(name) is None, 90)


def test_the_topology_conf_picks_the_scheduler_and_the_rest_is_default_and_plan_following(cluster):
    rest = cluster.rest
    # beta = 1: never forced onto empty workers; alpha = 1: a worker may hold all executors but one.
    # Aniello's rule then puts every bolt executor in a worker that runs its upstream: all four user
    # executors share the spout's worker, where Storm's even scheduler spreads them over two.
    submit.submit_java("relay", ANIELLO, SETTINGS + ["nonstop.scheduler=aniello-offline", "nonstop.aniello.alpha=1",
                                                     "nonstop.aniello.beta=1"], cluster.conf_dir)
    submit.submit_java("relay", PLAIN, SETTINGS, cluster.conf_dir)
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    ids = {}
    try:
        for n in (ANIELLO, PLAIN):
            ids[n] = wait_for(f"{n} listed", lambda n=n: rest.topology_id(n), 60)
        aniello = wait_for("aniello topology placed", lambda: _placed(rest, ids[ANIELLO]), 300)
        plain = wait_for("plain topology placed", lambda: _placed(rest, ids[PLAIN]), 300)

        # Placed by the Aniello offline rule, not by the default.
        assert len(_workers(aniello)) == 1, _workers(aniello)
        assert len(_workers(plain)) == 2, _workers(plain)
        # The status is the latest round's: after the placing round, "all executors placed".
        info = rest.topology(ids[ANIELLO]).get("schedulerInfo") or ""
        assert info.startswith("nonstop aniello-offline: "), info

        # One decision record, naming the scheduler; its moves are where the executors now run.
        record, _ = wait_for("decision record", lambda: zk.read_json(client, f"{zk.DECISIONS}/{ANIELLO}.scheduler"), 30)
        assert record["scheduler"] == "aniello-offline" and record["status"] == "applied", record
        assert record["topology_id"] == ids[ANIELLO], record
        assert record["reason"].startswith("offline placement (alpha=1.0, beta=1.0)"), record
        now_at = {str(p.executor): f"{p.host}:{p.port}" for p in aniello}
        moved = {m["executor"]: m["to"] for m in record["moves"] if m["executor"] in now_at}
        assert moved and all(now_at[e] == to for e, to in moved.items()), (record["moves"], now_at)
        # The plain topology has no scheduler record: Storm's default placed it.
        assert zk.read_json(client, f"{zk.DECISIONS}/{PLAIN}.scheduler") is None

        # Both run.
        wait_for("both topologies ack tuples",
                 lambda: placement.acked(rest, ids[ANIELLO]) > 0 and placement.acked(rest, ids[PLAIN]) > 0, 180)

        # Plan-following still works for the topology without the key: move a relay executor.
        mover = next(p for p in plain if p.component == "relay")
        target = next(w for w in _workers(plain) if w != f"{mover.host}:{mover.port}")
        host, port = target.rsplit(":", 1)
        r = migrate(client, rest, PLAIN, mover.executor, (host, int(port)), wait=True, timeout_s=120)
        assert r.decision.status == "applied", r.decision

        # Idle rounds (Nimbus schedules every 2 s) re-place nothing and write no record.
        version = zk.read_json(client, f"{zk.DECISIONS}/{ANIELLO}.scheduler")[1]
        time.sleep(6)
        assert zk.read_json(client, f"{zk.DECISIONS}/{ANIELLO}.scheduler")[1] == version
        assert len(_workers(placement.placement(rest, ids[ANIELLO]))) == 1
    finally:
        _close_and_kill(client, rest, ids)


RAS = "sched-ras"
RAS_PLAIN = "sched-ras-plain"


def test_a_ras_topology_is_placed_by_storms_resource_aware_scheduler_beside_others(cluster):
    rest = cluster.rest
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    ids = {}
    try:
        submit.submit_java("relay", RAS_PLAIN, SETTINGS, cluster.conf_dir)
        ids[RAS_PLAIN] = wait_for("plain listed", lambda: rest.topology_id(RAS_PLAIN), 60)
        plain = wait_for("plain topology placed", lambda: _placed(rest, ids[RAS_PLAIN]), 300)
        assert len(_workers(plain)) == 2, _workers(plain)

        # Small requests: RAS packs every executor (4 user + 2 ackers, 6 x 64 MB < the 768 MB worker
        # heap cap) into one worker, where the default would use the two topology.workers asks for.
        submit.submit_java("relay", RAS, SETTINGS + ["nonstop.scheduler=ras",
                                                     "topology.component.resources.onheap.memory.mb=64",
                                                     "topology.component.cpu.pcore.percent=10"], cluster.conf_dir)
        ids[RAS] = wait_for("ras listed", lambda: rest.topology_id(RAS), 60)
        ras = wait_for("ras topology placed", lambda: _placed(rest, ids[RAS]), 300)
        assert len(_workers(ras)) == 1, _workers(ras)
        assert not set(_workers(ras)) & set(_workers(plain)), (_workers(ras), _workers(plain))
        info = rest.topology(ids[RAS]).get("schedulerInfo") or ""
        assert info.startswith("nonstop ras: "), info

        record, _ = wait_for("decision record", lambda: zk.read_json(client, f"{zk.DECISIONS}/{RAS}.scheduler"), 30)
        assert record["scheduler"] == "ras" and record["status"] == "applied", record
        assert record["reason"].startswith("resource-aware placement on 1 worker(s): Running - Fully Scheduled"), record
        assert {m["to"] for m in record["moves"]} == set(_workers(ras)), record["moves"]
        assert zk.read_json(client, f"{zk.DECISIONS}/{RAS_PLAIN}.scheduler") is None

        wait_for("both topologies ack tuples",
                 lambda: placement.acked(rest, ids[RAS]) > 0 and placement.acked(rest, ids[RAS_PLAIN]) > 0, 180)
        # The default topology kept its workers all along.
        assert _workers(placement.placement(rest, ids[RAS_PLAIN])) == _workers(plain)
        version = zk.read_json(client, f"{zk.DECISIONS}/{RAS}.scheduler")[1]
        time.sleep(6)
        assert zk.read_json(client, f"{zk.DECISIONS}/{RAS}.scheduler")[1] == version, "idle rounds write nothing"
    finally:
        _close_and_kill(client, rest, ids)
