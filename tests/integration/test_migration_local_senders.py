"""An executor that moves into a worker whose own executors send to it: between the move's start and
its routing switch those senders must not lose a tuple. Storm's connection refresh can map the moved
task to this very worker before the switch; a sender that did not yet see the new local queue would then
take the remote path to itself, for which there is no connection, and Storm drops the tuple
("Connection not available"). One such tuple was lost in a demo run; here the window is widened to 3 s
(a test-only delay before the switch) so that the loss, if any, is certain to show."""

from __future__ import annotations

import time

import pytest

from pycontrol import zk
from pycontrol.migration.migrate import migrate
from pycontrol.migration.observe import wait_move_done, worker_pids
from pycontrol.migration.plan import parse_executor
from pycontrol.storm import placement, submit
from tests.conftest import wait_for

pytestmark = pytest.mark.cluster

NAME = "mig-local-senders"
RATE = 300
TOTAL = 15_000           # 50 s of stream: the move happens inside it
TIMEOUT_S = 10           # a dropped tuple fails (and is counted) within the test
SWITCH_DELAY_MS = 3000   # nonstop.migration.test.switch.delay.ms in the workers of this topology


def _all_time(rest, topo_id) -> tuple[int, int]:
    for s in rest.topology(topo_id).get("topologyStats", []):
        if s.get("window") == ":all-time":
            return int(s.get("acked") or 0), int(s.get("failed") or 0)
    return 0, 0


def test_a_moved_executor_loses_no_tuple_from_senders_in_its_new_worker(cluster):
    submit.submit_java("relay", NAME, [f"workload.total={TOTAL}", f"workload.rate={RATE}", "topology.workers=2",
                                       "topology.stats.sample.rate=1.0", f"topology.message.timeout.secs={TIMEOUT_S}",
                                       "topology.worker.childopts=-Dnonstop.migration.test.switch.delay.ms="
                                       f"{SWITCH_DELAY_MS}"], cluster.conf_dir)
    rest = cluster.rest
    topo_id = wait_for(f"{NAME} listed", lambda: rest.topology_id(NAME), 60)
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        wait_for("executors placed on both nodes",
                 lambda: len(placement.by_host(placement.placement(rest, topo_id))) == 2, 240)
        wait_for("tuples acked", lambda: placement.acked(rest, topo_id) > 0, 120)
        places = placement.placement(rest, topo_id)
        slot = {p.executor: f"{p.host}:{p.port}" for p in places}
        slots = sorted(set(slot.values()))
        assert len(slots) == 2, slots
        # A sink moves to the other worker, which runs relays: its senders, by fields grouping on every
        # sequence number, so about half of what those relays emit goes to the moved sink.
        sink = next(p.executor for p in places if p.component == "sink")
        source = slot[sink]
        target = next(s for s in slots if s != source)
        assert any(p.component == "relay" and slot[p.executor] == target for p in places), places
        pids = worker_pids(cluster.spec, topo_id, set(slots))
        assert _all_time(rest, topo_id)[0] < TOTAL / 2, "the stream must still run through the move"
        t0_ms = time.time() * 1000
        host, port = target.rsplit(":", 1)
        r = migrate(client, rest, NAME, sink, (host, int(port)), wait=True, timeout_s=90)
        assert r.decision.status == "applied", r.decision
        timeline = wait_move_done(cluster.spec, parse_executor(sink), source, target, t0_ms, 90)
        print("moved", sink, source, "->", target, timeline.__dict__)

        wait_for(f"all {TOTAL} tuples acked", lambda: _all_time(rest, topo_id)[0] >= TOTAL, 180, 2)
        acked, failed = _all_time(rest, topo_id)
        assert failed == 0, f"{failed} tuple(s) failed: lost in the move and replayed"
        assert acked == TOTAL
        assert worker_pids(cluster.spec, topo_id, set(slots)) == pids
    finally:
        client.stop()
        client.close()
        rest.kill(topo_id, 0)
        wait_for(f"{NAME} gone", lambda: rest.topology_id(NAME) is None, 90)
