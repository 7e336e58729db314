"""A node's plan store older than Nimbus's assignment never overrides it, on the real cluster: after a
live move, the source node's plan store is put back to the version its supervisor wrote for the
assignment before the move (as if that supervisor had not synced since), which would bring the moved
executor back. The worker reads it, says it passed it over (log line and `stale_plan_ignored` event
naming the old fingerprint), and keeps following Nimbus's assignment: nothing moves, no worker restarts,
and every sentence of the acked word count is acked. Documented in storm-plugins/migration/README.md
("Self-verification and failures")."""

from __future__ import annotations

import json
import os
import time

import psutil
import pytest

from pycontrol import zk
from pycontrol.migration.events import first
from pycontrol.migration.observe import slot_events
from pycontrol.wire.executor import ExecutorId
from pycontrol.workloads import series
from tests.conftest import wait_for
from tests.integration.migration_runs import (FeedSwitch, Mover, both_workers, executors_of, pids_of, slot_dir,
                                              ui_shows, wait_stream_settled)
from tests.integration.workload_runs import Run, sentences_subset

pytestmark = pytest.mark.cluster

NAME = "stale-store"
RATE = 20          # sentences/s
SENTENCES = 200


def _plan_file(cluster, slot: str):
    host = slot.rsplit(":", 1)[0]
    node = next(n for n in cluster.spec.node_specs if n.host == host)
    return cluster.layout.node_local_dir(node.name) / "nonstop" / "plan.json"


def _read_plan(path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _runs_at(plan: dict | None, topo_id: str, port: str, executor: ExecutorId) -> bool:
    """Does this plan store version put `executor` of `topo_id` on `port`, with a placement fingerprint?"""
    if not plan or topo_id not in plan.get("topologies", {}):
        return False
    mine = plan["ports"].get(port)
    return bool(mine) and mine["topology"] == topo_id and [executor.start, executor.end] in mine["executors"]


def test_a_plan_store_older_than_the_assignment_never_overrides_it(cluster, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stale")
    feed = FeedSwitch(tmp / "rate-schedule.txt")
    run = Run(cluster, "wordcount-java", NAME,
              [f"workload.input={sentences_subset(tmp, SENTENCES)}", "workload.total=0", feed.setting(),
               "topology.workers=2", "workload.par.split=2", "workload.par.count=2"])
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        a, b = both_workers(cluster, run.topo_id)
        pids = pids_of(cluster, run.topo_id, (a, b))
        mover = Mover(cluster, client, NAME, run.topo_id)
        executor = next(e for e in executors_of(cluster, run.topo_id, "count") if mover.assignment()[e] == a)
        port = a.rsplit(":", 1)[1]
        plan_file = _plan_file(cluster, a)
        feed.start(RATE)
        wait_for("sentences acked", lambda: series.totals(run.series()).acked > 0, 120)

        # What a's supervisor wrote for the assignment before the move: `executor` runs on a.
        older = wait_for(f"{a}'s plan store putting {executor} on port {port}",
                         lambda: (p := _read_plan(plan_file)) and _runs_at(p, run.topo_id, port, executor) and p,
                         60, 0.5)
        mover.finish(mover.move(executor, b))
        current = wait_for(f"{a}'s supervisor writing the plan store for the new assignment",
                           lambda: (p := _read_plan(plan_file)) and p["version"] > older["version"]
                           and not _runs_at(p, run.topo_id, port, executor) and p, 60, 0.5)
        old_fp, new_fp = older["topologies"][run.topo_id], current["topologies"][run.topo_id]
        assert old_fp != new_fp, "the move changed the topology's placement fingerprint"

        # The stale store, as the newest version, so the worker's watcher takes it as new. A rename, as the
        # supervisor writes: the worker's directory watch fires at once, well before the supervisor's next
        # sync replaces it (every 10 s).
        forged = {**older, "version": current["version"] + 1, "written_at_ms": int(time.time() * 1000)}
        staged = plan_file.with_name("plan.json.stale")
        staged.write_text(json.dumps(forged))
        t0_ms = time.time() * 1000
        os.replace(staged, plan_file)

        # (a) The worker on a read that very version and passed it over, naming its fingerprint.
        ignored = wait_for(f"{a} passing over the stale plan store v{forged['version']}",
                           lambda: first(slot_events(cluster.spec, a), "stale_plan_ignored", t0_ms,
                                         plan_version=forged["version"]), 30, 0.2)
        assert (ignored["store_fingerprint"], ignored["assignment_fingerprint"]) == (old_fp, new_fp), ignored
        rewritten = wait_for(f"{a}'s supervisor replacing the stale plan store",
                             lambda: (p := _read_plan(plan_file)) and p["version"] > forged["version"] and p, 60, 0.5)
        assert (rewritten["ports"], rewritten["topologies"]) == (current["ports"], current["topologies"])

        # (b) Nimbus's placement stands: nothing moved back, in the workers or in the UI; no worker restarted.
        assert first(slot_events(cluster.spec, a), "reconcile", t0_ms) is None, "the stale store moved executors"
        assert first(slot_events(cluster.spec, b), "reconcile", t0_ms) is None
        assert mover.assignment()[executor] == b
        wait_for(f"the UI listing {executor} on {b}", lambda: ui_shows(cluster, run.topo_id, {executor: b}), 60, 1)
        assert pids_of(cluster, run.topo_id, (a, b)) == pids
        assert all(psutil.pid_exists(p) for p in pids.values())

        feed.stop()
        totals = wait_stream_settled(run)
        print(f"stale store v{forged['version']} ({old_fp}) ignored {ignored['t_ms'] - t0_ms:.0f} ms after the "
              f"write, assignment {new_fp}; emitted {totals.emitted}, acked {totals.acked}, failed {totals.failed}")
        assert totals.emitted > 0 and totals.acked == totals.emitted and totals.failed == 0

        # The same in the worker's log: worker logs are buffered (immediateFlush off in the cluster's worker
        # log4j config) and reach the file when the buffer fills or the worker shuts down, so it is read
        # once the topology is killed.
        run.kill()
        worker_log = slot_dir(cluster, run.topo_id, a) / "worker.log"
        line = (f"nonstop: plan store v{forged['version']} is stale for {run.topo_id} (fingerprint {old_fp}, "
                f"Nimbus's assignment {new_fp}); following the assignment")
        wait_for(f"{a}'s worker log saying so", lambda: line in worker_log.read_text(errors="replace"), 60, 1)
    finally:
        client.stop()
        client.close()
        run.kill()
